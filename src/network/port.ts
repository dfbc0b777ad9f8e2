/**
 * The messaging network as the service sees it: one port, implemented by the Cloud API adapter
 * (Graph API over HTTP). In rehearsal and tests the adapter talks to the simulator over loopback, so the
 * adapter code that runs in tests is the code that runs in production.
 */

/** What the service needs to call the network for one channel. */
export interface ChannelCredentials {
  /** The network's phone number id (= channel_id). */
  phoneNumberId: string;
  /** The WhatsApp Business Account id. */
  wabaId: string;
  /** The network access token (Bearer). */
  accessToken: string;
}

/** `GET /{phone-number-id}` as the service uses it. */
export interface PhoneNumberInfo {
  id: string;
  display_phone_number: string;
  verified_name: string;
  status: string;
  quality_rating: string;
  /**
   * The messaging limit: `whatsapp_business_manager_messaging_limit` (v24+), else the deprecated
   * `messaging_limit_tier`, else `UNKNOWN` (never null).
   */
  messaging_limit_tier: string;
  /** `throughput.level` when reported. */
  throughput_level?: string;
  /** `account_mode` (LIVE, SANDBOX) when reported. */
  account_mode?: string;
}

/** The Graph API's error body: `{"error": {...}}`. */
export interface GraphErrorBody {
  message: string;
  type?: string;
  code: number;
  error_subcode?: number;
  error_data?: { messaging_product?: string; details?: string };
  error_user_title?: string;
  error_user_msg?: string;
  is_transient?: boolean;
  fbtrace_id?: string;
}

/** How a network call failed. */
export type NetworkFailureKind = 'graph' | 'timeout' | 'connection' | 'bad_response';

/** A failed network call, with the Graph error when the network answered with one. */
export class NetworkError extends Error {
  constructor(
    readonly kind: NetworkFailureKind,
    message: string,
    readonly httpStatus: number | null,
    readonly graph?: GraphErrorBody,
    /** True when the request may not have been written to the network (safe to retry even for sends). */
    readonly notSent = false,
  ) {
    super(message);
    this.name = 'NetworkError';
  }

  /** The Graph error code, when there is one. */
  get code(): number | undefined {
    return this.graph?.code;
  }
}

/** A button of a template as the Graph API stores it (`type` upper case in answers, any case when sent). */
export interface GraphTemplateButton {
  type: string;
  text?: string;
  url?: string;
  phone_number?: string;
  /** URL buttons: `["value"]`; COPY_CODE: `"value"`. */
  example?: string[] | string;
  [extra: string]: unknown;
}

/** A named-parameter example: `{param_name, example}`. */
export interface GraphNamedParamExample {
  param_name: string;
  example: string;
}

/** A template component as the Graph API takes and returns it. */
export interface GraphTemplateComponent {
  /** HEADER, BODY, FOOTER, BUTTONS or CAROUSEL. */
  type: string;
  /** HEADER only: TEXT, IMAGE, VIDEO, DOCUMENT or LOCATION. */
  format?: string;
  text?: string;
  example?: {
    header_text?: string[];
    header_handle?: string[];
    body_text?: string[][];
    header_text_named_params?: GraphNamedParamExample[];
    body_text_named_params?: GraphNamedParamExample[];
  };
  buttons?: GraphTemplateButton[];
  /** CAROUSEL only. */
  cards?: { components: GraphTemplateComponent[] }[];
  [extra: string]: unknown;
}

/** `POST /{waba}/message_templates` body. */
export interface CreateTemplateInput {
  name: string;
  /** The network's language code, e.g. `en_US`. */
  language: string;
  category: string;
  components: GraphTemplateComponent[];
  parameter_format?: 'POSITIONAL' | 'NAMED';
  message_send_ttl_seconds?: number;
}

/** The network's answer to a template creation. */
export interface CreatedTemplate {
  id: string;
  status: string;
  /** The category the network chose (may differ from the one asked for). */
  category: string;
}

/** A template as `GET /{template-id}` and the list return it. */
export interface GraphTemplate {
  id: string;
  name: string;
  language: string;
  status: string;
  category: string;
  components: GraphTemplateComponent[];
  parameter_format?: string;
  rejected_reason?: string;
  previous_category?: string;
}

/** Query of `GET /{waba}/message_templates`. */
export interface ListTemplatesQuery {
  /** Page size (the network's default is 25). */
  limit?: number;
  /** The `paging.after` cursor of the previous page. */
  after?: string;
  /** Filter by name (the network matches parts of names; compare exactly on your side). */
  name?: string;
  /** Filter by status, e.g. APPROVED. */
  status?: string;
}

/** One page of templates; `after` is null on the last page. */
export interface TemplatePage {
  data: GraphTemplate[];
  paging: { before: string | null; after: string | null; hasMore: boolean };
}

/** `DELETE /{waba}/message_templates?name=&hsm_id=`: without `templateId` every language of the name goes. */
export interface DeleteTemplateInput {
  name: string;
  templateId?: string;
}

/** `POST /{app-id}/uploads` parameters; `appId` defaults to the adapter's. */
export interface CreateUploadSessionInput {
  appId?: string;
  fileName: string;
  fileLength: number;
  /** MIME type: application/pdf, image/jpeg, image/jpg, image/png or video/mp4. */
  fileType: string;
}

/** An upload session and how many bytes the network holds. */
export interface UploadSession {
  /** `upload:<S>` (may carry a `?sig=` part; use it verbatim). */
  id: string;
  file_offset: number;
}

/** One `POST /upload:<S>` call: bytes from `offset` on. */
export interface UploadChunkInput {
  sessionId: string;
  offset: number;
  body: Buffer | NodeJS.ReadableStream;
  /** Bytes in `body`, sent as Content-Length: required for a stream (a Buffer's own length is used otherwise). */
  length?: number;
}

/** A media reference in a send parameter. */
export interface SendMediaRef {
  id?: string;
  link?: string;
  /** Documents only. */
  filename?: string;
}

/** A parameter of a template send component. */
export type SendParameter =
  | { type: 'text'; text: string; parameter_name?: string }
  | { type: 'currency'; currency: { fallback_value: string; code: string; amount_1000: number }; parameter_name?: string }
  | { type: 'date_time'; date_time: { fallback_value: string }; parameter_name?: string }
  | { type: 'image'; image: SendMediaRef }
  | { type: 'video'; video: SendMediaRef }
  | { type: 'document'; document: SendMediaRef }
  | { type: 'location'; location: { latitude: number | string; longitude: number | string; name?: string; address?: string } }
  | { type: 'payload'; payload: string }
  | { type: 'coupon_code'; coupon_code: string };

/** A component of a template send. */
export type SendComponent =
  | { type: 'header' | 'body'; parameters: SendParameter[] }
  | { type: 'button'; sub_type: string; index: number | string; parameters: SendParameter[] }
  | { type: 'carousel'; cards: { card_index: number; components: SendComponent[] }[] };

/** `POST /{phone-number-id}/messages` body for a template message. */
export interface TemplateSendPayload {
  messaging_product: 'whatsapp';
  recipient_type?: 'individual';
  /** `+` and country code, e.g. `+16505551234`. When both this and `recipient` are given, the network uses `to`. */
  to?: string;
  /** A BSUID or parent BSUID (`US.13491208655302741918`): the recipient when no phone number is known. */
  recipient?: string;
  type: 'template';
  /** Echoed in status webhooks (≤ 512 chars); the service puts the message id here. */
  biz_opaque_callback_data?: string;
  template: {
    name: string;
    language: { code: string; policy?: 'deterministic' };
    components?: SendComponent[];
  };
}

/**
 * `POST /{phone-number-id}/marketing_messages` body (Marketing Messages API): the template send's body plus the
 * optional `message_send_ttl_seconds`. The network takes MARKETING templates only.
 */
export type MarketingSendPayload = TemplateSendPayload & { message_send_ttl_seconds?: number };

/** The network's answer to an accepted send (accepted, not delivered). */
export interface SendMessageResult {
  messaging_product: string;
  /** `wa_id` when the message went to a phone number; `user_id` (the BSUID) when it went to a BSUID. */
  contacts: { input: string; wa_id?: string; user_id?: string }[];
  messages: { id: string; message_status?: string }[];
}

/** One number's result of a contacts check. */
export interface ContactStatus {
  input: string;
  wa_id?: string;
  status: 'valid' | 'invalid' | 'processing' | 'failed';
}

/** The contacts check: `available: false` when the network has none (the Cloud API answers 404). */
export type ContactCheckResult = { available: true; contacts: ContactStatus[] } | { available: false };

/** The network operations the service uses. Every method throws `NetworkError` on failure. */
export interface NetworkPort {
  /** Reads a phone number's health: `GET /{phone-number-id}?fields=...`. */
  getPhoneNumber(channel: ChannelCredentials): Promise<PhoneNumberInfo>;
  /** Submits a template for review: `POST /{waba}/message_templates`. */
  createTemplate(channel: ChannelCredentials, input: CreateTemplateInput): Promise<CreatedTemplate>;
  /** One page of the WABA's templates: `GET /{waba}/message_templates`. */
  listTemplates(channel: ChannelCredentials, query?: ListTemplatesQuery): Promise<TemplatePage>;
  /** One template: `GET /{template-id}`. */
  getTemplate(channel: ChannelCredentials, templateId: string): Promise<GraphTemplate>;
  /** Deletes a template name (every language) or one language of it. */
  deleteTemplate(channel: ChannelCredentials, input: DeleteTemplateInput): Promise<void>;
  /** Starts a resumable upload: `POST /{app-id}/uploads`. */
  createUploadSession(channel: ChannelCredentials, input: CreateUploadSessionInput): Promise<{ id: string }>;
  /** Sends bytes of an upload from `offset`; `h` is the handle for `example.header_handle`. */
  uploadFileChunk(channel: ChannelCredentials, input: UploadChunkInput): Promise<{ h: string }>;
  /** Where an upload stands (to resume): `GET /upload:<S>`. */
  getUploadSession(channel: ChannelCredentials, sessionId: string): Promise<UploadSession>;
  /** Sends a template message: `POST /{phone-number-id}/messages`. */
  sendMessage(channel: ChannelCredentials, payload: TemplateSendPayload): Promise<SendMessageResult>;
  /** Sends a MARKETING template through the Marketing Messages API: `POST /{phone-number-id}/marketing_messages`. */
  sendMarketingMessage(channel: ChannelCredentials, payload: MarketingSendPayload): Promise<SendMessageResult>;
  /** Checks numbers with the On-Premises style `POST /v1/contacts`, where the network has it. */
  checkContacts(channel: ChannelCredentials, numbers: string[]): Promise<ContactCheckResult>;
  /** Releases connections. */
  close(): Promise<void>;
}
