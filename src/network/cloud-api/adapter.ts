/**
 * The Cloud API adapter: the NetworkPort over the Graph API. The same code talks to graph.facebook.com
 * and to the simulator on loopback; only `baseUrl` differs.
 */
import type {
  ChannelCredentials, ContactCheckResult, CreateTemplateInput, CreateUploadSessionInput, DeleteTemplateInput,
  ListTemplatesQuery, MarketingSendPayload, NetworkPort, TemplateSendPayload, UploadChunkInput,
} from '../port.js';
import { NetworkError } from '../port.js';
import { GraphHttp, parseAnswer } from './http.js';
import * as shape from './shapes.js';

/** How to reach the network. */
export interface CloudApiAdapterOptions {
  /** Graph API base including the version, e.g. `https://graph.facebook.com/v23.0`. */
  baseUrl: string;
  /** Connect, first-byte and between-bytes timeout of every call (default 10 s). */
  timeoutMs?: number;
  /** Keep-alive connections of the pool (default 64). */
  connections?: number;
  /** The Meta app id used by the resumable upload (`POST /{app-id}/uploads`). */
  appId?: string;
}

/**
 * Fields read from a phone number: the messaging limit under its v24+ name and its deprecated (v23 and older)
 * name, so either version answers one of them.
 */
export const PHONE_NUMBER_FIELDS =
  'id,display_phone_number,verified_name,status,quality_rating,whatsapp_business_manager_messaging_limit,messaging_limit_tier,throughput,account_mode';
/** Fields a Graph version may not have: when it answers "nonexisting field (X)", X is dropped and the read repeated. */
const OPTIONAL_PHONE_FIELDS = new Set(['whatsapp_business_manager_messaging_limit', 'messaging_limit_tier', 'throughput', 'account_mode']);

/** The field named by a Graph "(#100) Tried accessing nonexisting field (X) …" error, if that is the error. */
function nonexistingField(error: unknown): string | null {
  if (!(error instanceof NetworkError) || error.graph?.code !== 100) return null;
  return /nonexisting field \(([a-z_]+)\)/.exec(error.graph.message)?.[1] ?? null;
}
/** Fields read from templates. */
export const TEMPLATE_FIELDS = 'id,name,category,status,language,components,rejected_reason,parameter_format';

/** Ids go into paths: refuse anything that could change the path. */
function pathId(id: string, what: string): string {
  if (!/^[A-Za-z0-9_.:=-]+$/.test(id)) throw new NetworkError('bad_response', `invalid ${what}: ${id}`, null, undefined, true);
  return id;
}

/** An upload session id is used verbatim (it may carry `?sig=`), but must stay one path segment. */
function sessionPath(sessionId: string): string {
  if (!/^upload:[^/\s#]+$/.test(sessionId)) {
    throw new NetworkError('bad_response', `invalid upload session id: ${sessionId}`, null, undefined, true);
  }
  return '/' + sessionId;
}

/** Creates the adapter; one keep-alive pool per adapter (per base URL). */
export function createCloudApiAdapter(options: CloudApiAdapterOptions): NetworkPort {
  const http = new GraphHttp(options.baseUrl, options.timeoutMs ?? 10_000, options.connections ?? 64);

  // Phone number fields this network version has (learnt once per adapter, which serves one base URL).
  let phoneFields = PHONE_NUMBER_FIELDS.split(',');

  return {
    async getPhoneNumber(c: ChannelCredentials) {
      for (let dropped = 0; ; dropped += 1) {
        try {
          const { json } = await http.call({
            method: 'GET', path: `/${pathId(c.phoneNumberId, 'phone number id')}`, token: c.accessToken,
            query: { fields: phoneFields.join(',') },
          });
          return shape.toPhoneNumberInfo(json);
        } catch (error) {
          const missing = nonexistingField(error);
          if (!missing || dropped >= OPTIONAL_PHONE_FIELDS.size || !OPTIONAL_PHONE_FIELDS.has(missing) || !phoneFields.includes(missing)) throw error;
          phoneFields = phoneFields.filter((f) => f !== missing);
        }
      }
    },

    async createTemplate(c: ChannelCredentials, input: CreateTemplateInput) {
      const { json } = await http.call({
        method: 'POST', path: `/${pathId(c.wabaId, 'WABA id')}/message_templates`, token: c.accessToken, json: input,
      });
      return shape.toCreatedTemplate(json);
    },

    async listTemplates(c: ChannelCredentials, q: ListTemplatesQuery = {}) {
      const { json } = await http.call({
        method: 'GET', path: `/${pathId(c.wabaId, 'WABA id')}/message_templates`, token: c.accessToken,
        query: { fields: TEMPLATE_FIELDS, limit: q.limit, after: q.after, name: q.name, status: q.status },
      });
      return shape.toTemplatePage(json);
    },

    async getTemplate(c: ChannelCredentials, templateId: string) {
      const { json } = await http.call({
        method: 'GET', path: `/${pathId(templateId, 'template id')}`, token: c.accessToken, query: { fields: TEMPLATE_FIELDS },
      });
      return shape.toGraphTemplate(json);
    },

    async deleteTemplate(c: ChannelCredentials, input: DeleteTemplateInput) {
      const { json } = await http.call({
        method: 'DELETE', path: `/${pathId(c.wabaId, 'WABA id')}/message_templates`, token: c.accessToken,
        query: { name: input.name, hsm_id: input.templateId },
      });
      shape.expectSuccess(json);
    },

    async createUploadSession(c: ChannelCredentials, input: CreateUploadSessionInput) {
      const appId = input.appId ?? options.appId;
      if (!appId) throw new NetworkError('bad_response', 'no app id for the resumable upload', null, undefined, true);
      const { json } = await http.call({
        method: 'POST', path: `/${pathId(appId, 'app id')}/uploads`, token: c.accessToken,
        query: { file_name: input.fileName, file_length: input.fileLength, file_type: input.fileType },
      });
      return shape.toUploadSessionId(json);
    },

    async uploadFileChunk(c: ChannelCredentials, input: UploadChunkInput) {
      // The upload takes a body of known length: a stream is sent with Content-Length, never chunked.
      const length = input.length ?? (Buffer.isBuffer(input.body) ? input.body.length : undefined);
      if (length === undefined || !Number.isSafeInteger(length) || length < 0) {
        throw new NetworkError('bad_response', 'an upload chunk needs its length in bytes', null, undefined, true);
      }
      const { json } = await http.call({
        method: 'POST', path: sessionPath(input.sessionId), token: c.accessToken, scheme: 'OAuth', body: input.body,
        headers: { file_offset: String(input.offset), 'content-type': 'application/octet-stream', 'content-length': String(length) },
      });
      return shape.toUploadHandle(json);
    },

    async getUploadSession(c: ChannelCredentials, sessionId: string) {
      const { json } = await http.call({ method: 'GET', path: sessionPath(sessionId), token: c.accessToken, scheme: 'OAuth' });
      return shape.toUploadSession(json);
    },

    async sendMessage(c: ChannelCredentials, payload: TemplateSendPayload) {
      const { json } = await http.call({
        method: 'POST', path: `/${pathId(c.phoneNumberId, 'phone number id')}/messages`, token: c.accessToken, json: payload,
      });
      return shape.toSendMessageResult(json);
    },

    async sendMarketingMessage(c: ChannelCredentials, payload: MarketingSendPayload) {
      const { json } = await http.call({
        method: 'POST', path: `/${pathId(c.phoneNumberId, 'phone number id')}/marketing_messages`, token: c.accessToken, json: payload,
      });
      return shape.toSendMessageResult(json);
    },

    async checkContacts(c: ChannelCredentials, numbers: string[]): Promise<ContactCheckResult> {
      // Rehearsal only: the On-Premises path at the host root. The Cloud API has no such endpoint: Graph reads
      // `v1` as an object id and answers 400 with code 100 / subcode 33 (or 2500, or a plain 404 elsewhere),
      // all of which mean "no contacts check here". Anything else that is not a contacts answer throws.
      const { status, text } = await http.send({
        method: 'POST', path: '/v1/contacts', fromRoot: true, token: c.accessToken,
        json: { blocking: 'wait', contacts: numbers, force_check: false },
      });
      if (status === 404) return { available: false };
      try {
        return { available: true, contacts: shape.toContactStatuses(parseAnswer(status, text)) };
      } catch (error) {
        const g = error instanceof NetworkError ? error.graph : undefined;
        if (g && (g.code === 2500 || (g.code === 100 && g.error_subcode === 33))) return { available: false };
        throw error;
      }
    },

    close: () => http.close(),
  };
}
