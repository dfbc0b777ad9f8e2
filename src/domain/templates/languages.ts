/**
 * The network's template languages (Meta's supported-languages list, Nov 2025: 111 codes). `value` is the
 * code sent as a template's `language`; `title` is an English name, the region spelled out for variants.
 */
export const LANGUAGES = [
  { value: 'af', title: 'Afrikaans' },
  { value: 'sq', title: 'Albanian' },
  { value: 'ar', title: 'Arabic' },
  { value: 'ar_EG', title: 'Arabic (Egypt)' },
  { value: 'ar_AE', title: 'Arabic (UAE)' },
  { value: 'ar_LB', title: 'Arabic (Lebanon)' },
  { value: 'ar_MA', title: 'Arabic (Morocco)' },
  { value: 'ar_QA', title: 'Arabic (Qatar)' },
  { value: 'az', title: 'Azerbaijani' },
  { value: 'be_BY', title: 'Belarusian' },
  { value: 'bn', title: 'Bengali' },
  { value: 'bn_IN', title: 'Bengali (India)' },
  { value: 'bg', title: 'Bulgarian' },
  { value: 'ca', title: 'Catalan' },
  { value: 'zh_CN', title: 'Chinese (China)' },
  { value: 'zh_HK', title: 'Chinese (Hong Kong)' },
  { value: 'zh_TW', title: 'Chinese (Taiwan)' },
  { value: 'hr', title: 'Croatian' },
  { value: 'cs', title: 'Czech' },
  { value: 'da', title: 'Danish' },
  { value: 'prs_AF', title: 'Dari' },
  { value: 'nl', title: 'Dutch' },
  { value: 'nl_BE', title: 'Dutch (Belgium)' },
  { value: 'en', title: 'English' },
  { value: 'en_GB', title: 'English (UK)' },
  { value: 'en_US', title: 'English (US)' },
  { value: 'en_AE', title: 'English (UAE)' },
  { value: 'en_AU', title: 'English (Australia)' },
  { value: 'en_CA', title: 'English (Canada)' },
  { value: 'en_GH', title: 'English (Ghana)' },
  { value: 'en_IE', title: 'English (Ireland)' },
  { value: 'en_IN', title: 'English (India)' },
  { value: 'en_JM', title: 'English (Jamaica)' },
  { value: 'en_MY', title: 'English (Malaysia)' },
  { value: 'en_NZ', title: 'English (New Zealand)' },
  { value: 'en_QA', title: 'English (Qatar)' },
  { value: 'en_SG', title: 'English (Singapore)' },
  { value: 'en_UG', title: 'English (Uganda)' },
  { value: 'en_ZA', title: 'English (South Africa)' },
  { value: 'et', title: 'Estonian' },
  { value: 'fil', title: 'Filipino' },
  { value: 'fi', title: 'Finnish' },
  { value: 'fr', title: 'French' },
  { value: 'fr_BE', title: 'French (Belgium)' },
  { value: 'fr_CA', title: 'French (Canada)' },
  { value: 'fr_CH', title: 'French (Switzerland)' },
  { value: 'fr_CI', title: "French (Côte d'Ivoire)" },
  { value: 'fr_MA', title: 'French (Morocco)' },
  { value: 'ka', title: 'Georgian' },
  { value: 'de', title: 'German' },
  { value: 'de_AT', title: 'German (Austria)' },
  { value: 'de_CH', title: 'German (Switzerland)' },
  { value: 'el', title: 'Greek' },
  { value: 'gu', title: 'Gujarati' },
  { value: 'ha', title: 'Hausa' },
  { value: 'he', title: 'Hebrew' },
  { value: 'hi', title: 'Hindi' },
  { value: 'hu', title: 'Hungarian' },
  { value: 'id', title: 'Indonesian' },
  { value: 'ga', title: 'Irish' },
  { value: 'it', title: 'Italian' },
  { value: 'ja', title: 'Japanese' },
  { value: 'kn', title: 'Kannada' },
  { value: 'kk', title: 'Kazakh' },
  { value: 'rw_RW', title: 'Kinyarwanda' },
  { value: 'ko', title: 'Korean' },
  { value: 'ky_KG', title: 'Kyrgyz' },
  { value: 'lo', title: 'Lao' },
  { value: 'lv', title: 'Latvian' },
  { value: 'lt', title: 'Lithuanian' },
  { value: 'mk', title: 'Macedonian' },
  { value: 'ms', title: 'Malay' },
  { value: 'ml', title: 'Malayalam' },
  { value: 'mr', title: 'Marathi' },
  { value: 'nb', title: 'Norwegian' },
  { value: 'ps_AF', title: 'Pashto' },
  { value: 'fa', title: 'Persian' },
  { value: 'pl', title: 'Polish' },
  { value: 'pt_BR', title: 'Portuguese (Brazil)' },
  { value: 'pt_PT', title: 'Portuguese (Portugal)' },
  { value: 'pa', title: 'Punjabi' },
  { value: 'ro', title: 'Romanian' },
  { value: 'ru', title: 'Russian' },
  { value: 'sr', title: 'Serbian' },
  { value: 'si_LK', title: 'Sinhala' },
  { value: 'sk', title: 'Slovak' },
  { value: 'sl', title: 'Slovenian' },
  { value: 'es', title: 'Spanish' },
  { value: 'es_AR', title: 'Spanish (Argentina)' },
  { value: 'es_CL', title: 'Spanish (Chile)' },
  { value: 'es_CO', title: 'Spanish (Colombia)' },
  { value: 'es_CR', title: 'Spanish (Costa Rica)' },
  { value: 'es_DO', title: 'Spanish (Dominican Republic)' },
  { value: 'es_EC', title: 'Spanish (Ecuador)' },
  { value: 'es_HN', title: 'Spanish (Honduras)' },
  { value: 'es_MX', title: 'Spanish (Mexico)' },
  { value: 'es_PA', title: 'Spanish (Panama)' },
  { value: 'es_PE', title: 'Spanish (Peru)' },
  { value: 'es_ES', title: 'Spanish (Spain)' },
  { value: 'es_UY', title: 'Spanish (Uruguay)' },
  { value: 'sw', title: 'Swahili' },
  { value: 'sv', title: 'Swedish' },
  { value: 'ta', title: 'Tamil' },
  { value: 'te', title: 'Telugu' },
  { value: 'th', title: 'Thai' },
  { value: 'tr', title: 'Turkish' },
  { value: 'uk', title: 'Ukrainian' },
  { value: 'ur', title: 'Urdu' },
  { value: 'uz', title: 'Uzbek' },
  { value: 'vi', title: 'Vietnamese' },
  { value: 'zu', title: 'Zulu' },
] as const;

/** A language code of the network's list. */
export type LanguageCode = (typeof LANGUAGES)[number]['value'];

/** The codes alone, in list order. */
export const LANGUAGE_CODES: readonly LanguageCode[] = LANGUAGES.map((l) => l.value);

const CODE_SET: ReadonlySet<string> = new Set(LANGUAGE_CODES);

/** True when `code` is exactly one of the network's language codes (case and separator matter: `en_US`). */
export function isLanguage(code: unknown): code is LanguageCode {
  return typeof code === 'string' && CODE_SET.has(code);
}

/**
 * A locale as webhooks print it (`en-US`, `pt-br`) in the API's form (`en_US`, `pt_BR`): `-` becomes `_`,
 * the language part lower case, a two-letter region upper case. Other input is returned trimmed.
 */
export function normalizeLocale(locale: string): string {
  const parts = locale.trim().split(/[-_]/);
  if (parts.length !== 2 || parts[0] === '' || parts[1] === '') return locale.trim();
  const region = parts[1].length === 2 ? parts[1].toUpperCase() : parts[1];
  return `${parts[0].toLowerCase()}_${region}`;
}
