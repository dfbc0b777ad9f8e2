/** What the HTTP routes are given by app.ts (routes wire nothing themselves). */
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { SecretBox } from '../domain/secret-box.js';
import type { ChannelHealthDeps } from '../engine/channel-health.js';
import type { BulkStartDeps } from '../engine/bulk-start.js';
import type { SingleSendDeps } from '../engine/single-send.js';
import type { TemplateDeps } from '../engine/templates.js';
import type { WebhookInbox } from '../engine/webhook-inbox.js';
import type { NetworkPort } from '../network/port.js';
import type { Database } from '../store/schema.js';

/** Route dependencies. */
export interface RouteDeps {
  config: Config;
  db: Kysely<Database>;
  network: NetworkPort;
  /** Seals and opens channel access tokens. */
  secrets: SecretBox;
  channelHealth: ChannelHealthDeps;
  webhookInbox: WebhookInbox;
  templates: TemplateDeps;
  singleSend: SingleSendDeps;
  bulk: BulkStartDeps & { started(): void };
  /** This instance, for Idempotency-Key reservations (a dead instance's keys are free at once). */
  instance: { id: string; sole: boolean };
}
