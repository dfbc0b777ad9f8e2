/**
 * The numbered, forward-only migrations. Add a file `NNNN_name.ts` exporting `up` and list it here;
 * never edit or remove one that has shipped.
 */
import type { Migration } from 'kysely';
import * as m0001 from './0001_foundation.js';
import * as m0002 from './0002_templates.js';
import * as m0003 from './0003_messages.js';
import * as m0004 from './0004_template_sync.js';
import * as m0005 from './0005_channel_truth.js';
import * as m0006 from './0006_idempotency_keys.js';
import * as m0007 from './0007_bounded_waits.js';
import * as m0008 from './0008_tier_window.js';

export const MIGRATIONS: Record<string, Migration> = {
  '0001_foundation': m0001,
  '0002_templates': m0002,
  '0003_messages': m0003,
  '0004_template_sync': m0004,
  '0005_channel_truth': m0005,
  '0006_idempotency_keys': m0006,
  '0007_bounded_waits': m0007,
  '0008_tier_window': m0008,
};
