/** Template categories and statuses, each declared once. */

/** Every category the network knows. */
export const NETWORK_CATEGORIES = ['AUTHENTICATION', 'MARKETING', 'UTILITY'] as const;

/** A network template category. */
export type TemplateCategory = (typeof NETWORK_CATEGORIES)[number];

/** The categories the service offers for creation (the interface: MARKETING only), as the API lists them. */
export const CATEGORIES = [{ icon: 'campaign', value: 'MARKETING', title: 'Marketing' }] as const;

/** The values of `CATEGORIES`, the default `allowedCategories` of template validation. */
export const CREATION_CATEGORIES: readonly TemplateCategory[] = CATEGORIES.map((c) => c.value);

/** Template statuses of the network (`status` field and template-status webhook `event`); pywa adds UNARCHIVED. */
export const TEMPLATE_STATUSES = [
  'APPROVED', 'PENDING', 'REJECTED', 'PAUSED', 'DISABLED', 'IN_APPEAL', 'PENDING_DELETION', 'DELETED',
  'FLAGGED', 'REINSTATED', 'LIMIT_EXCEEDED', 'ARCHIVED', 'LOCKED', 'UNARCHIVED',
] as const;

/** A network template status. */
export type TemplateStatus = (typeof TEMPLATE_STATUSES)[number];

const CATEGORY_SET: ReadonlySet<string> = new Set(NETWORK_CATEGORIES);
const STATUS_SET: ReadonlySet<string> = new Set(TEMPLATE_STATUSES);

/** True for one of the network's categories. */
export function isCategory(value: unknown): value is TemplateCategory {
  return typeof value === 'string' && CATEGORY_SET.has(value);
}

/** True for one of the network's template statuses. */
export function isTemplateStatus(value: unknown): value is TemplateStatus {
  return typeof value === 'string' && STATUS_SET.has(value);
}

/** Only APPROVED templates can be sent. */
export function isSendableStatus(status: string): boolean {
  return status === 'APPROVED';
}
