/** The simulator's fixed world: one WABA of the demo company, its app, token and four phone numbers. */

/** The Graph API version the simulator serves under (any `vN.M` is accepted). */
export const SIM_GRAPH_VERSION = 'v23.0';
/** The demo company's WhatsApp Business Account id. */
export const SIM_WABA_ID = '100000000000001';
/** The Meta app id for the resumable upload (`POST /{app-id}/uploads`). */
export const SIM_APP_ID = '200000000000001';
/** The only access token the simulator accepts (`Authorization: Bearer …`, or `OAuth …` for uploads). */
export const SIM_ACCESS_TOKEN = 'sim-access-token';
/** The WABA's name. */
export const SIM_BUSINESS_NAME = 'Demo Company';

/** A simulated phone number as the world starts. */
export interface SimChannelSeed {
  /** Phone number id (= the service's channel_id). */
  id: string;
  /** As `GET /{id}` shows it (formatted, like the real API). */
  displayPhoneNumber: string;
  /** As webhooks show it (`metadata.display_phone_number`, quality updates): digits only. */
  webhookDisplayNumber: string;
  verifiedName: string;
  status: string;
  qualityRating: string;
  /** `whatsapp_business_manager_messaging_limit` (research §1: TIER_250, TIER_2K, TIER_10K, TIER_100K, TIER_UNLIMITED), or null. */
  messagingLimit: string | null;
  /** The deprecated `messaging_limit_tier`, only on numbers Meta still reports the old way; else null. */
  legacyMessagingLimitTier: string | null;
  /** The tier the service shows for this number: the current field, else the deprecated one. */
  messagingLimitTier: string;
  /** `account_mode`. */
  accountMode: 'LIVE' | 'SANDBOX';
}

/**
 * The four channels, in a fixed order: main, flagged, red, small. Demo Small is a number Meta still reports the
 * old way (only the deprecated `messaging_limit_tier`, TIER_50), which keeps the 50-recipient cap testable.
 */
export const SIM_CHANNELS: readonly SimChannelSeed[] = [
  {
    id: '110000000000001', displayPhoneNumber: '+1 555-000-0001', webhookDisplayNumber: '15550000001',
    verifiedName: 'Demo Main', status: 'CONNECTED', qualityRating: 'GREEN', accountMode: 'LIVE',
    messagingLimit: 'TIER_UNLIMITED', legacyMessagingLimitTier: null, messagingLimitTier: 'TIER_UNLIMITED',
  },
  {
    id: '110000000000002', displayPhoneNumber: '+1 555-000-0002', webhookDisplayNumber: '15550000002',
    verifiedName: 'Demo Flagged', status: 'FLAGGED', qualityRating: 'YELLOW', accountMode: 'LIVE',
    messagingLimit: 'TIER_2K', legacyMessagingLimitTier: null, messagingLimitTier: 'TIER_2K',
  },
  {
    id: '110000000000003', displayPhoneNumber: '+1 555-000-0003', webhookDisplayNumber: '15550000003',
    verifiedName: 'Demo Red', status: 'CONNECTED', qualityRating: 'RED', accountMode: 'LIVE',
    messagingLimit: 'TIER_2K', legacyMessagingLimitTier: null, messagingLimitTier: 'TIER_2K',
  },
  {
    id: '110000000000004', displayPhoneNumber: '+1 555-000-0004', webhookDisplayNumber: '15550000004',
    verifiedName: 'Demo Small', status: 'CONNECTED', qualityRating: 'GREEN', accountMode: 'LIVE',
    messagingLimit: null, legacyMessagingLimitTier: 'TIER_50', messagingLimitTier: 'TIER_50',
  },
];

/** Values of `whatsapp_business_manager_messaging_limit` (research §1). */
export const SIM_MESSAGING_LIMITS = ['TIER_250', 'TIER_2K', 'TIER_10K', 'TIER_100K', 'TIER_UNLIMITED'];

/** Channel ids by role. */
export const SIM_CHANNEL_IDS = {
  main: SIM_CHANNELS[0].id,
  flagged: SIM_CHANNELS[1].id,
  red: SIM_CHANNELS[2].id,
  small: SIM_CHANNELS[3].id,
} as const;

/** Messaging tiers from lowest to highest (UPGRADE / DOWNGRADE follow this order). */
export const SIM_TIER_ORDER = ['TIER_NOT_SET', 'TIER_50', 'TIER_250', 'TIER_1K', 'TIER_2K', 'TIER_10K', 'TIER_100K', 'TIER_UNLIMITED'];

/** The network's template languages (Meta list of Nov 2025). */
export const SIM_LANGUAGES = new Set(
  ('af sq ar ar_EG ar_AE ar_LB ar_MA ar_QA az be_BY bn bn_IN bg ca zh_CN zh_HK zh_TW hr cs da prs_AF nl nl_BE en en_GB ' +
    'en_US en_AE en_AU en_CA en_GH en_IE en_IN en_JM en_MY en_NZ en_QA en_SG en_UG en_ZA et fil fi fr fr_BE fr_CA fr_CH ' +
    'fr_CI fr_MA ka de de_AT de_CH el gu ha he hi hu id ga it ja kn kk rw_RW ko ky_KG lo lv lt mk ms ml mr nb ps_AF fa pl ' +
    'pt_BR pt_PT pa ro ru sr si_LK sk sl es es_AR es_CL es_CO es_CR es_DO es_EC es_HN es_MX es_PA es_PE es_ES es_UY sw ' +
    'sv ta te th tr uk ur uz vi zu').split(' '),
);

/** Upload MIME types and their size limits in bytes (research §3). */
export const SIM_UPLOAD_LIMITS: Record<string, number> = {
  'application/pdf': 100 * 1024 * 1024,
  'image/jpeg': 5 * 1024 * 1024,
  'image/jpg': 5 * 1024 * 1024,
  'image/png': 5 * 1024 * 1024,
  'video/mp4': 16 * 1024 * 1024,
};

/** Which header format each upload type may illustrate. */
export const SIM_HEADER_FORMAT_OF_TYPE: Record<string, string> = {
  'application/pdf': 'DOCUMENT',
  'image/jpeg': 'IMAGE',
  'image/jpg': 'IMAGE',
  'image/png': 'IMAGE',
  'video/mp4': 'VIDEO',
};
