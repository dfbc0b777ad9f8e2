/** The simulator's state: channels, templates, uploads, what each phone received, counters and knobs. */
import { SIM_APP_ID, SIM_CHANNELS, SIM_WABA_ID, type SimChannelSeed } from './constants.js';
import type { GraphTemplateComponent } from '../port.js';
import { Prng } from './scheduler.js';
import { SimUsers, type SimUserKnobs } from './users.js';

/** Fault injection knobs (all probabilities 0–1; settable at creation and by `POST /_sim/faults`). */
export interface FaultKnobs {
  /** Share of Graph calls answered with the Graph 131000 error (HTTP 500). */
  errorRate: number;
  /** Share of Graph calls answered 502/503 with a body that is not a Graph error. */
  serverErrorRate: number;
  /** Added to every Graph call before it is answered. */
  latencyMs: number;
  /** Share of Graph calls held without an answer until the client gives up (or the simulator stops). */
  timeoutRate: number;
  /** Share of webhook events delivered twice. */
  duplicateRate: number;
  /** Each webhook event is delayed by a random 0..window ms, which shuffles events within the window. */
  reorderWindowMs: number;
  /** Added to every webhook event. */
  webhookDelayMs: number;
}

/** Delays of the network's own progress. */
export interface SimTimings {
  /** PENDING → APPROVED / REJECTED (default 1000). */
  templateApprovalDelayMs: number;
  /** From acceptance to each status webhook (defaults 100 / 300 / 600 / 150). */
  sentDelayMs: number;
  deliveredDelayMs: number;
  readDelayMs: number;
  failedDelayMs: number;
}

/** The network's limits. */
export interface SimLimits {
  /** Messages per second per channel (default 80); null turns the cap off. Per-channel overrides in `channelMps`. */
  throughputMps: number | null;
  channelMps: Record<string, number | null>;
  /** Messages allowed to one recipient per window (default 1 per 6 s); null turns the pair rate off. */
  pairRateBurst: number | null;
  pairRateWindowMs: number;
  /** Template creations per WABA per rolling hour (default 100). */
  templateCreationsPerHour: number;
  /** Templates (each language counts) per WABA (default 250). */
  maxTemplates: number;
  /**
   * Whether the rehearsal-only On-Premises `POST /v1/contacts` exists (default false: Graph reads `v1` as an
   * object id and answers 400, code 100, subcode 33, as the Cloud API does).
   */
  contactsCheck: boolean;
  /**
   * Whether the WABA is onboarded to the Marketing Messages API (default true). False: `POST /{PNID}/marketing_messages`
   * answers 134102 (HTTP 500), as Meta does for an account that is not onboarded.
   */
  marketingMessagesOnboarded: boolean;
}

/** A pino-compatible logger (only warnings and errors are written). */
export interface SimLogger {
  info(obj: unknown, msg?: string): void;
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

/** What `createSimulator` accepts; every field has a default. */
export interface SimulatorOptions {
  log?: SimLogger;
  seed?: number;
  webhookUrl?: string;
  appSecret?: string;
  faults?: Partial<FaultKnobs>;
  timings?: Partial<SimTimings>;
  limits?: Partial<SimLimits>;
  /** Statuses per webhook body when many fall due together (default 100). */
  webhookBatchSize?: number;
  /** How long a webhook body is retried before it counts as failed (default 5 minutes). */
  webhookRetryWindowMs?: number;
  /** Parallel webhook posts (default 8). */
  webhookConcurrency?: number;
  /** The simulated users: share with a username, parent BSUIDs (users.ts). */
  users?: Partial<SimUserKnobs>;
}

/** A simulated phone number. */
export interface SimChannel {
  id: string;
  displayPhoneNumber: string;
  webhookDisplayNumber: string;
  verifiedName: string;
  status: string;
  qualityRating: string;
  /** `whatsapp_business_manager_messaging_limit` (the current field), or null when the number does not send it. */
  messagingLimit: string | null;
  /** The deprecated `messaging_limit_tier`, or null when the number no longer sends it. */
  legacyMessagingLimitTier: string | null;
  /** `account_mode`: LIVE or SANDBOX. */
  accountMode: string;
  bucket: { tokens: number; at: number };
}

/** A channel's tier as webhooks carry it: the current field, else the deprecated one, else TIER_NOT_SET. */
export function tierOf(ch: Pick<SimChannel, 'messagingLimit' | 'legacyMessagingLimitTier'>): string {
  return ch.messagingLimit ?? ch.legacyMessagingLimitTier ?? 'TIER_NOT_SET';
}

/** One Graph request as `GET /_sim/requests` lists it. */
export interface SimRequestLogItem {
  method: string;
  /** The path as the client sent it, without the query. */
  path: string;
  /** HTTP status answered; 0 when the request was held unanswered (the timeout fault). */
  status: number;
  /** The Graph error code of an error answer. */
  error_code?: number;
  /** True when Graph has no such path or object (answered 2500, or 100 with subcode 33). */
  unknown_path: boolean;
}

/** How many requests the request log keeps (the oldest are dropped). */
export const REQUEST_LOG_SIZE = 2000;

/** A template of the WABA. */
export interface SimTemplate {
  id: string;
  name: string;
  language: string;
  category: string;
  status: string;
  parameterFormat: string;
  components: GraphTemplateComponent[];
  rejectedReason: string;
  createdAt: number;
  /** The category before Meta changed it (Graph then answers `previous_category`); absent when never changed. */
  previousCategory?: string;
}

/** A resumable upload session. */
export interface SimUpload {
  key: string;
  sig: string;
  fileName: string;
  fileLength: number;
  fileType: string;
  offset: number;
  handle: string;
}

/** One accepted message as the recipient's log shows it. */
export interface SimReceived {
  wamid: string;
  to: string;
  phone_number_id: string;
  template: { name: string; language: string };
  components: unknown[];
  biz_opaque_callback_data?: string;
  /** The BSUID the message was sent to (`recipient`), when it went to one. */
  recipient?: string;
  accepted_at: string;
  /** What the recipient rules make of it: read, delivered (never read) or failed. */
  outcome: 'read' | 'delivered' | 'failed';
  /** The edge it came through: `/messages` or the Marketing Messages API's `/marketing_messages`. */
  endpoint: 'messages' | 'marketing_messages';
  /** `message_send_ttl_seconds` of a `/marketing_messages` send, when given. */
  message_send_ttl_seconds?: number;
}

/** Counters of `GET /_sim/stats`. */
export function emptyStats() {
  return {
    sends_accepted: 0,
    /** Times a recipient was sent a biz_opaque_callback_data it had already received (double sends). */
    duplicate_sends: 0,
    refused_130429: 0,
    refused_131056: 0,
    refused_other: 0,
    injected_errors: 0,
    injected_server_errors: 0,
    injected_timeouts: 0,
    templates_created: 0,
    webhooks_posted: 0,
    webhook_statuses_posted: 0,
    webhooks_failed: 0,
    webhook_attempts_failed: 0,
    webhooks_dropped: 0,
    /** Customer messages posted with `POST /_sim/inbound`. */
    inbound_messages: 0,
    /** Message sends (`/messages`, `/marketing_messages`) received and not yet answered, now and at most so far. */
    sends_in_flight: 0,
    sends_in_flight_peak: 0,
  };
}
/** The counters' type. */
export type SimStats = ReturnType<typeof emptyStats>;

/** Defaults of the knobs. */
export const DEFAULT_FAULTS: FaultKnobs = {
  errorRate: 0, serverErrorRate: 0, latencyMs: 0, timeoutRate: 0, duplicateRate: 0, reorderWindowMs: 0, webhookDelayMs: 0,
};
export const DEFAULT_TIMINGS: SimTimings = {
  templateApprovalDelayMs: 1000, sentDelayMs: 100, deliveredDelayMs: 300, readDelayMs: 600, failedDelayMs: 150,
};
export const DEFAULT_LIMITS: SimLimits = {
  throughputMps: 80, channelMps: {}, pairRateBurst: 1, pairRateWindowMs: 6000,
  templateCreationsPerHour: 100, maxTemplates: 250, contactsCheck: false, marketingMessagesOnboarded: true,
};

/** A channel as the world starts it from its seed. */
function channelOf(c: SimChannelSeed): SimChannel {
  return {
    id: c.id,
    displayPhoneNumber: c.displayPhoneNumber,
    webhookDisplayNumber: c.webhookDisplayNumber,
    verifiedName: c.verifiedName,
    status: c.status,
    qualityRating: c.qualityRating,
    messagingLimit: c.messagingLimit,
    legacyMessagingLimitTier: c.legacyMessagingLimitTier,
    accountMode: c.accountMode,
    bucket: { tokens: Infinity, at: Date.now() },
  };
}

/** The whole simulated network state. `reset()` returns it to how it started. */
export class SimWorld {
  faults!: FaultKnobs;
  timings!: SimTimings;
  limits!: SimLimits;
  prng!: Prng;
  stats!: SimStats;
  channels = new Map<string, SimChannel>();
  templates = new Map<string, SimTemplate>();
  /** Deleted template names → time of deletion (blocked for 30 days). */
  deletedNames = new Map<string, number>();
  templateCreations: number[] = [];
  uploads = new Map<string, SimUpload>();
  /** Upload handles of finished uploads → MIME type. */
  handles = new Map<string, string>();
  /** The users (BSUIDs, usernames) behind the numbers. */
  users: SimUsers;
  /** Recipient (digits; a BSUID nobody has) → messages in acceptance order. */
  received = new Map<string, SimReceived[]>();
  private seenCallbackData = new Set<string>();
  private pairLog = new Map<string, number[]>();
  /** The last REQUEST_LOG_SIZE Graph requests (a ring: `requestLogNext` is where the next one goes). */
  requestLog: SimRequestLogItem[] = [];
  private requestLogNext = 0;
  /** Graph requests and unknown-path answers since the last reset (not bounded by the ring). */
  requestTotals = { total: 0, unknown_paths: 0 };
  /** Added to the clock (`POST /_sim/clock`) to make 30-day and hourly windows pass. */
  clockOffsetMs = 0;
  private seq = 0;
  /** Makes ids unique across simulator restarts (the service keeps wamids and template ids). */
  private readonly instanceTag = (Date.now() % 0xffffffff).toString(16).toUpperCase().padStart(8, '0');

  constructor(private readonly options: SimulatorOptions = {}) {
    this.users = new SimUsers(options.users);
    this.reset();
  }

  /** Everything back to the starting world and the creation-time knobs. */
  reset(): void {
    const o = this.options;
    this.faults = { ...DEFAULT_FAULTS, ...o.faults };
    this.timings = { ...DEFAULT_TIMINGS, ...o.timings };
    this.limits = { ...DEFAULT_LIMITS, ...o.limits, channelMps: { ...o.limits?.channelMps } };
    this.prng = new Prng(o.seed ?? 1);
    this.stats = emptyStats();
    this.channels = new Map(SIM_CHANNELS.map((c) => [c.id, channelOf(c)]));
    for (const m of [this.templates, this.deletedNames, this.uploads, this.handles, this.received, this.pairLog]) m.clear();
    this.seenCallbackData.clear();
    this.users.reset();
    this.templateCreations = [];
    this.clockOffsetMs = 0;
    this.clearRequestLog();
  }

  /** Records one answered (or held) Graph request. */
  logRequest(item: SimRequestLogItem): void {
    this.requestTotals.total++;
    if (item.unknown_path) this.requestTotals.unknown_paths++;
    if (this.requestLog.length < REQUEST_LOG_SIZE) this.requestLog.push(item);
    else this.requestLog[this.requestLogNext] = item;
    this.requestLogNext = (this.requestLogNext + 1) % REQUEST_LOG_SIZE;
  }

  /** The logged requests, oldest first. */
  loggedRequests(): SimRequestLogItem[] {
    if (this.requestLog.length < REQUEST_LOG_SIZE) return [...this.requestLog];
    return [...this.requestLog.slice(this.requestLogNext), ...this.requestLog.slice(0, this.requestLogNext)];
  }

  /** Empties the request log and its totals. */
  clearRequestLog(): void {
    this.requestLog = [];
    this.requestLogNext = 0;
    this.requestTotals = { total: 0, unknown_paths: 0 };
  }

  /** Whether Graph has an object with this id in the world (a channel, template, the WABA, the app, an upload session). */
  hasObject(id: string): boolean {
    return this.channels.has(id) || this.templates.has(id) || id === SIM_WABA_ID || id === SIM_APP_ID || this.uploads.has(id);
  }

  /** The world's clock (ms). */
  now(): number {
    return Date.now() + this.clockOffsetMs;
  }

  /** A fresh counter value (ids). */
  nextSeq(): number {
    return ++this.seq;
  }

  /** A template id: 16 digits, below 2^53 so webhooks can carry it as a JSON number. */
  nextTemplateId(): string {
    return '1' + String(parseInt(this.instanceTag, 16) % 1e7).padStart(7, '0') + String(this.nextSeq()).padStart(8, '0');
  }

  /** A wamid in the network's format: base64 of the recipient's digits and a unique 18-hex tail. */
  nextWamid(waId: string): string {
    const tail = this.instanceTag + this.nextSeq().toString(16).toUpperCase().padStart(10, '0');
    const bytes = Buffer.concat([
      Buffer.from([0x1c, 0x18, waId.length]), Buffer.from(waId), Buffer.from([0x15, 0x02, 0x00, 0x11, 0x18, 0x12]),
      Buffer.from(tail), Buffer.from([0x00]),
    ]);
    return 'wamid.' + bytes.toString('base64');
  }

  /** A channel's messages per second, or null when uncapped. */
  mpsOf(channelId: string): number | null {
    return channelId in this.limits.channelMps ? this.limits.channelMps[channelId] : this.limits.throughputMps;
  }

  /** Takes one send from the channel's token bucket (capacity = one second of throughput). */
  takeThroughputToken(channel: SimChannel): boolean {
    const mps = this.mpsOf(channel.id);
    if (mps === null) return true;
    const now = Date.now();
    const b = channel.bucket;
    b.tokens = Math.min(mps, b.tokens + ((now - b.at) / 1000) * mps);
    b.at = now;
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }

  /** Records a send to a recipient unless the pair rate is spent. */
  takePairRate(channelId: string, waId: string): boolean {
    const burst = this.limits.pairRateBurst;
    if (burst === null) return true;
    const key = channelId + ':' + waId;
    const now = Date.now();
    const recent = (this.pairLog.get(key) ?? []).filter((t) => now - t < this.limits.pairRateWindowMs);
    if (recent.length >= burst) {
      this.pairLog.set(key, recent);
      return false;
    }
    recent.push(now);
    this.pairLog.set(key, recent);
    return true;
  }

  /** Drops pair-rate entries older than the window (called periodically). */
  prunePairLog(): void {
    const now = Date.now();
    for (const [key, times] of this.pairLog) {
      if (times.every((t) => now - t >= this.limits.pairRateWindowMs)) this.pairLog.delete(key);
    }
  }

  /** Logs an accepted message and counts a double send of the same biz_opaque_callback_data. */
  recordReceived(entry: SimReceived): void {
    this.stats.sends_accepted++;
    if (entry.biz_opaque_callback_data !== undefined) {
      const key = entry.to + '\u0000' + entry.biz_opaque_callback_data;
      if (this.seenCallbackData.has(key)) this.stats.duplicate_sends++;
      else this.seenCallbackData.add(key);
    }
    const list = this.received.get(entry.to);
    if (list) list.push(entry);
    else this.received.set(entry.to, [entry]);
  }
}
