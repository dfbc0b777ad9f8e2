/** Graph API error bodies (research §6), thrown by routes as GraphFailure and written by the error handler. */
import { createHash } from 'node:crypto';
import type { GraphErrorBody } from '../port.js';

let traceSeq = 0;

/** A Graph-looking `fbtrace_id` (deterministic: a hash of a counter). */
export function fbtraceId(): string {
  return 'A' + createHash('sha1').update(String(++traceSeq)).digest('base64url').slice(0, 22);
}

/** A failed Graph call: the HTTP status and the `error` object. */
export class GraphFailure extends Error {
  constructor(
    readonly httpStatus: number,
    readonly error: GraphErrorBody,
  ) {
    super(error.message);
  }

  /** The body as the network writes it. */
  body(): { error: GraphErrorBody } {
    return { error: this.error };
  }
}

/** 190: missing or wrong access token. */
export function oauthError(): GraphFailure {
  return new GraphFailure(401, {
    message: 'Invalid OAuth access token - Cannot parse access token',
    type: 'OAuthException',
    code: 190,
    fbtrace_id: fbtraceId(),
  });
}

/** 100/33: the object does not exist (or does not support the method). */
export function objectNotFound(method: string, id: string): GraphFailure {
  return new GraphFailure(400, {
    message:
      `Unsupported ${method.toLowerCase()} request. Object with ID '${id}' does not exist, cannot be loaded due to ` +
      'missing permissions, or does not support this operation. Please read the Graph API documentation at ' +
      'https://developers.facebook.com/docs/graph-api',
    type: 'GraphMethodException',
    code: 100,
    error_subcode: 33,
    fbtrace_id: fbtraceId(),
  });
}

/** 2500: a path the Graph API does not know. */
export function unknownPath(path: string): GraphFailure {
  return new GraphFailure(400, {
    message: `Unknown path components: ${path}`,
    type: 'OAuthException',
    code: 2500,
    fbtrace_id: fbtraceId(),
  });
}

/** 100: a field that the node type does not have. */
export function nonexistingField(field: string, nodeType: string): GraphFailure {
  return new GraphFailure(400, {
    message: `(#100) Tried accessing nonexisting field (${field}) on node type (${nodeType})`,
    type: 'OAuthException',
    code: 100,
    fbtrace_id: fbtraceId(),
  });
}

/** Optional parts of an invalid-parameter error (template creation uses the user title/message). */
export interface InvalidParamExtra {
  subcode?: number;
  userTitle?: string;
  userMsg?: string;
}

/** 100: invalid parameter, with the details the network gives. */
export function invalidParameter(details: string, extra: InvalidParamExtra = {}): GraphFailure {
  const error: GraphErrorBody = {
    message: '(#100) Invalid parameter',
    type: 'OAuthException',
    code: 100,
    error_data: { messaging_product: 'whatsapp', details },
    fbtrace_id: fbtraceId(),
  };
  if (extra.subcode !== undefined) error.error_subcode = extra.subcode;
  if (extra.userTitle !== undefined) {
    error.is_transient = false;
    error.error_user_title = extra.userTitle;
    error.error_user_msg = extra.userMsg ?? extra.userTitle;
  }
  return new GraphFailure(400, error);
}

/** A WhatsApp messaging error: `(#code) title` with `error_data.details` (and a subcode for some). */
export function messagingError(code: number, title: string, details: string, httpStatus = 400, subcode?: number): GraphFailure {
  const error: GraphErrorBody = {
    message: `(#${code}) ${title}`,
    type: 'OAuthException',
    code,
    error_data: { messaging_product: 'whatsapp', details },
    fbtrace_id: fbtraceId(),
  };
  if (subcode !== undefined) error.error_subcode = subcode;
  return new GraphFailure(httpStatus, error);
}

/** 130429: the channel's throughput is spent (shape of the Meta docs example, HTTP 400 per the current table). */
export function throughputError(): GraphFailure {
  return messagingError(130429, 'Rate limit hit', 'Cloud API message throughput has been reached.', 400, 2494055);
}

/** 131056: too many messages to one recipient in a short time. */
export function pairRateError(): GraphFailure {
  return messagingError(
    131056,
    '(Business Account, Consumer Account) pair rate limit hit',
    'Message failed to send because there were too many messages sent from this phone number to the same phone number in a short period of time.',
  );
}

/** 131000: the injected generic failure (HTTP 500, transient). */
export function somethingWentWrong(): GraphFailure {
  const f = messagingError(131000, 'Something went wrong', 'Something went wrong. Please try again later.', 500);
  f.error.is_transient = true;
  return f;
}

/** Marketing Messages API refusals as Meta's error-code page lists them (research: "Marketing Messages API" codes). */
export const MARKETING_MESSAGES_ERRORS = {
  /** The template is not MARKETING (Graph v23+). */
  notMarketing: () => messagingError(134100, 'Only marketing messages supported', "You're only able to send marketing messages on this API."),
  /**
   * The WABA is not onboarded (or the template's ad sync failed): HTTP 500 on Meta's page, yet a refusal that
   * created no message.
   */
  notOnboarded: () =>
    messagingError(
      134102,
      'Template unavailable for use',
      'Please check your eligibility status to ensure you are onboarded (/documentation/business-messaging/whatsapp/marketing-messages/onboarding#ensure-you-are-eligible-to-onboard) or contact Meta\'s customer support.',
      500,
    ),
} as const;
