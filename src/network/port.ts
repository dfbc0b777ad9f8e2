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
  /** Deprecated at the network but still reported; null when absent. */
  messaging_limit_tier: string | null;
  /** `throughput.level` when reported. */
  throughput_level?: string;
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

/** The network operations the service uses; later issues add templates, media and messages. */
export interface NetworkPort {
  /** Reads a phone number's health: `GET /{phone-number-id}?fields=...`. */
  getPhoneNumber(channel: ChannelCredentials): Promise<PhoneNumberInfo>;
  /** Releases connections. */
  close(): Promise<void>;
}
