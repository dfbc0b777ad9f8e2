/**
 * Client webhook endpoints, the use cases of the API and the CLI: register (the secret sealed, shown once),
 * list, change (enable, disable, rotate the secret), remove, read the delivery log, replay a delivery.
 * Every call is scoped to the caller's company: another company's ids are not found.
 */
import type { Kysely } from 'kysely';
import { EVENT_SUBSCRIPTIONS, newEndpointSecret } from '../domain/client-webhooks.js';
import { newId } from '../domain/ids.js';
import type { SecretBox } from '../domain/secret-box.js';
import { AppError, invalid } from '../errors.js';
import type { Database } from '../store/schema.js';
import {
  countDeliveries,
  deleteEndpointDeliveries,
  findDelivery,
  findEndpointBacklogs,
  insertReplay,
  listDeliveries,
  type DeliveryRow,
  type DeliveryState,
  type EndpointBacklog,
} from '../store/webhook-deliveries.js';
import {
  countWebhookEndpoints,
  deleteWebhookEndpoint,
  findWebhookEndpoint,
  insertWebhookEndpoint,
  listWebhookEndpoints,
  updateWebhookEndpoint,
  type WebhookEndpointRow,
} from '../store/webhook-endpoints.js';

/** What the endpoint use cases need. */
export interface WebhookEndpointDeps {
  db: Kysely<Database>;
  secrets: SecretBox;
  /** Called after a replay is queued (wakes the delivery worker). */
  queued?: () => void;
}

/** Most endpoints one company may register. */
export const MAX_ENDPOINTS_PER_COMPANY = 10;

/** Checks an endpoint URL: absolute http(s), no credentials, no fragment, at most 2,048 characters. */
export function checkEndpointUrl(raw: string, field = 'url'): string {
  if (raw.length > 2048) throw invalid(field, `${field} must be at most 2048 characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid(field, `${field} must be an absolute http or https URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid(field, `${field} must use http or https`);
  if (url.username || url.password) throw invalid(field, `${field} must not hold credentials (use the signature to authenticate)`);
  if (url.hash) throw invalid(field, `${field} must not have a fragment`);
  return url.toString();
}

function checkEvents(events: string[] | undefined, field = 'events'): string[] | undefined {
  if (events === undefined) return undefined;
  const unique = [...new Set(events)];
  if (unique.length === 0) throw invalid(field, `${field} must name at least one event type`);
  unique.forEach((e, i) => {
    if (!(EVENT_SUBSCRIPTIONS as readonly string[]).includes(e)) {
      throw invalid(`${field}[${i}]`, `${field}[${i}] must be one of ${EVENT_SUBSCRIPTIONS.join(', ')}`);
    }
  });
  return unique.includes('*') ? ['*'] : unique.sort();
}

function checkSecret(secret: string | undefined, field = 'secret'): string | undefined {
  if (secret === undefined) return undefined;
  if (!/^[\x21-\x7e]{16,256}$/.test(secret)) throw invalid(field, `${field} must be 16-256 printable ASCII characters without spaces`);
  return secret;
}

/** A new endpoint as a company gives it. */
export interface NewEndpoint {
  url: string;
  description?: string;
  events?: string[];
  /** The company's own secret; generated (`whsec_…`) when absent. */
  secret?: string;
}

/** Registers an endpoint; returns it with its secret (the only time the secret is shown). */
export async function createEndpoint(deps: WebhookEndpointDeps, companyId: string, input: NewEndpoint): Promise<{ endpoint: WebhookEndpointRow; secret: string }> {
  const url = checkEndpointUrl(input.url);
  const events = checkEvents(input.events) ?? ['*'];
  const secret = checkSecret(input.secret) ?? newEndpointSecret();
  if ((await countWebhookEndpoints(deps.db, companyId)) >= MAX_ENDPOINTS_PER_COMPANY) throw new AppError('WEBHOOK_ENDPOINT_LIMIT');
  const endpoint = await insertWebhookEndpoint(deps.db, {
    id: newId(),
    company_id: companyId,
    url,
    description: input.description ?? '',
    events,
    secret: deps.secrets.seal(secret),
  });
  return { endpoint, secret };
}

/** An endpoint's backlog is counted up to this many deliveries. */
export const BACKLOG_COUNT_CAP = 1_000_000;

/** An endpoint with its backlog: PENDING deliveries (counted up to BACKLOG_COUNT_CAP), the oldest, the next attempt. */
export type EndpointWithBacklog = WebhookEndpointRow & { backlog: Omit<EndpointBacklog, 'endpoint_id'> };

async function withBacklogs(deps: WebhookEndpointDeps, rows: WebhookEndpointRow[]): Promise<EndpointWithBacklog[]> {
  const backlogs = new Map((await findEndpointBacklogs(deps.db, BACKLOG_COUNT_CAP, rows.map((r) => r.id))).map((b) => [b.endpoint_id, b]));
  return rows.map((row) => {
    const b = backlogs.get(row.id);
    return { ...row, backlog: { pending: b?.pending ?? 0, oldest_pending_at: b?.oldest_pending_at ?? null, next_attempt_at: b?.next_attempt_at ?? null } };
  });
}

/** The company's endpoints with their backlogs. */
export async function listEndpoints(deps: WebhookEndpointDeps, companyId: string): Promise<EndpointWithBacklog[]> {
  return withBacklogs(deps, await listWebhookEndpoints(deps.db, companyId));
}

/** One of the company's endpoints, or 404 WEBHOOK_ENDPOINT_NOT_FOUND. */
export async function getEndpoint(deps: WebhookEndpointDeps, companyId: string, id: string): Promise<WebhookEndpointRow> {
  const row = await findWebhookEndpoint(deps.db, companyId, id);
  if (!row) throw new AppError('WEBHOOK_ENDPOINT_NOT_FOUND', undefined, { field: 'id' });
  return row;
}

/** One of the company's endpoints with its backlog, or 404 WEBHOOK_ENDPOINT_NOT_FOUND. */
export async function getEndpointWithBacklog(deps: WebhookEndpointDeps, companyId: string, id: string): Promise<EndpointWithBacklog> {
  return (await withBacklogs(deps, [await getEndpoint(deps, companyId, id)]))[0];
}

/** A change of an endpoint (absent fields stay). */
export interface EndpointPatch {
  url?: string;
  description?: string;
  events?: string[];
  enabled?: boolean;
  rotate_secret?: boolean;
  /** With rotate_secret: the company's own new secret (generated when absent). */
  secret?: string;
}

/** Changes an endpoint; a rotation returns the new secret (shown this once). */
export async function patchEndpoint(
  deps: WebhookEndpointDeps,
  companyId: string,
  id: string,
  patch: EndpointPatch,
): Promise<{ endpoint: EndpointWithBacklog; secret?: string }> {
  if (patch.secret !== undefined && !patch.rotate_secret) throw invalid('secret', 'secret is only taken with rotate_secret: true');
  const url = patch.url === undefined ? undefined : checkEndpointUrl(patch.url);
  const events = checkEvents(patch.events);
  const secret = patch.rotate_secret ? (checkSecret(patch.secret) ?? newEndpointSecret()) : undefined;
  const endpoint = await updateWebhookEndpoint(deps.db, companyId, id, {
    url,
    description: patch.description,
    events,
    enabled: patch.enabled,
    secret: secret === undefined ? undefined : deps.secrets.seal(secret),
  });
  if (!endpoint) throw new AppError('WEBHOOK_ENDPOINT_NOT_FOUND', undefined, { field: 'id' });
  const [withBacklog] = await withBacklogs(deps, [endpoint]);
  return secret === undefined ? { endpoint: withBacklog } : { endpoint: withBacklog, secret };
}

/** Removes an endpoint and its delivery log (in batches). */
export async function removeEndpoint(deps: WebhookEndpointDeps, companyId: string, id: string): Promise<void> {
  if (!(await deleteWebhookEndpoint(deps.db, companyId, id))) throw new AppError('WEBHOOK_ENDPOINT_NOT_FOUND', undefined, { field: 'id' });
  for (let round = 0; round < 10_000; round += 1) if ((await deleteEndpointDeliveries(deps.db, id, 5000)) < 5000) break;
}

/** A page of the endpoint's delivery log, newest first. */
export async function listEndpointDeliveries(
  deps: WebhookEndpointDeps,
  companyId: string,
  endpointId: string,
  query: { state?: DeliveryState; page: number; pageSize: number },
): Promise<{ rows: DeliveryRow[]; total: number }> {
  await getEndpoint(deps, companyId, endpointId);
  const [rows, total] = [
    await listDeliveries(deps.db, companyId, endpointId, query.state, query.pageSize, (query.page - 1) * query.pageSize),
    await countDeliveries(deps.db, companyId, endpointId, query.state),
  ];
  return { rows, total };
}

/** Queues the event of a delivery again (same event id, a new delivery); the endpoint must be enabled. */
export async function replayDelivery(deps: WebhookEndpointDeps, companyId: string, endpointId: string, deliveryId: string): Promise<DeliveryRow> {
  const endpoint = await getEndpoint(deps, companyId, endpointId);
  const source = await findDelivery(deps.db, companyId, endpointId, deliveryId);
  if (!source) throw new AppError('WEBHOOK_DELIVERY_NOT_FOUND', undefined, { field: 'delivery_id' });
  if (!endpoint.enabled) throw new AppError('WEBHOOK_ENDPOINT_DISABLED');
  const replay = await insertReplay(deps.db, source);
  deps.queued?.();
  return replay;
}
