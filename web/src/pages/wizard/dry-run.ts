/**
 * The wizard's shapes of the bulk-start API, taken from the generated OpenAPI types (never written by hand):
 * the startv2 body, a start's answer and a dry run's. Shared by the calls (api.ts) and the state (state.ts).
 */
import type { paths } from '../../generated/api.js';

type StartV2 = paths['/agent-app/message-template/send-wizard/startv2']['post'];
type StartAnswer = StartV2['responses'][200]['content']['application/json']['data'];

/** The startv2 body (dry run or start). */
export type StartV2Body = NonNullable<StartV2['requestBody']>['content']['application/json'];
/** A dry run's answer: counts, tier quota, the cost estimate, and the rows it would skip when asked to. */
export type DryRun = Extract<StartAnswer, { dry_run: true }>;
/** A start's answer. */
export type StartAnswerData = Exclude<StartAnswer, { dry_run: true }>;
/** A row a start leaves out as invalid (skip_invalid_rows). */
export type SkippedRow = NonNullable<DryRun['skipped_rows']>[number];
