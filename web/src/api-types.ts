/**
 * The API shapes the console reads, taken from the OpenAPI types that `npm run openapi` generates from the
 * route schemas (never written by hand): a field the service renames or drops fails `npm run typecheck`.
 * The generated file's place is named once, here.
 */
import type { components, paths } from './generated/api';

/** The JSON body of a route's 200 answer. */
type Ok<P extends keyof paths, M extends 'get' | 'post'> = paths[P][M] extends { responses: { 200: { content: { 'application/json': infer B } } } } ? B : never;

/** An item of GET /api/v1/channels. */
export type Channel = Ok<'/api/v1/channels', 'get'>['items'][number];

/** A bulk send in send-wizard/reports. */
export type SendWizard = Ok<'/agent-app/message-template/send-wizard/reports', 'post'>['items'][number];

/** Pagination block of the reports. */
export type Pagination = Ok<'/agent-app/message-template/send-wizard/reports', 'post'>['pagination'];

/** A row of send-wizard/reports/detail. */
export type ReportRow = Ok<'/agent-app/message-template/send-wizard/reports/detail', 'post'>['data']['report_details'][number];

/** A message record (POST /api/v1/messages, GET /api/v1/messages?phone_number=). */
export type MessageRecord = Ok<'/api/v1/messages', 'post'>['items'][number];

/** GET /api/v1/messages?phone_number= */
export type MessageSearch = Ok<'/api/v1/messages', 'get'>;

/** GET /api/v1/overview */
export type Overview = Ok<'/api/v1/overview', 'get'>['data'];

/** GET /api/v1/send-wizards/{id}/timeline */
export type Timeline = Ok<'/api/v1/send-wizards/{id}/timeline', 'get'>['data'];

/** GET /api/v1/me */
export type Me = Ok<'/api/v1/me', 'get'>['data'];

/** An item of GET /api/v1/webhook-endpoints (a client webhook endpoint, never its secret). */
export type WebhookEndpoint = Ok<'/api/v1/webhook-endpoints', 'get'>['items'][number];

/** POST /api/v1/webhook-endpoints: the new endpoint with its signing secret (the only time it is shown). */
export type CreatedWebhookEndpoint = Ok<'/api/v1/webhook-endpoints', 'post'>['data'];

/** GET /api/v1/webhook-endpoints/{id}/deliveries */
export type WebhookDeliveries = Ok<'/api/v1/webhook-endpoints/{id}/deliveries', 'get'>;

/** One element of the error envelope's `errors` (field is the path, e.g. `components[1].text`). */
export type FieldError = components['schemas']['ErrorEnvelope']['errors'][number];

/** A type that came out as `never` (a path or a field not in the generated document) fails the typecheck here. */
type Found<T> = [T] extends [never] ? false : true;
const found: [Found<FieldError>, Found<Channel>, Found<SendWizard>, Found<Pagination>, Found<ReportRow>, Found<MessageRecord>, Found<MessageSearch>, Found<Overview>, Found<Timeline>, Found<Me>, Found<WebhookEndpoint>, Found<CreatedWebhookEndpoint>, Found<WebhookDeliveries>] = [true, true, true, true, true, true, true, true, true, true, true, true, true];
void found;
