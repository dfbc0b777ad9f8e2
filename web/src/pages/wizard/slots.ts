/**
 * The values a template takes in a bulk send: the service's own slots (src/domain/bulk-rows.ts, the rule
 * the starts apply), each with the words a person reads. A slot's `column` is startv2's column name
 * (`BODY.1`, `HEADER`, `BUTTONS.0`, `CAROUSEL.1.BODY.1`, a named template's `BODY.first_name`); it stays on
 * hover, the label is what the wizard shows and writes as a sample file's header.
 */
import { templateSlots as serviceSlots, type Slot as ServiceSlot } from '../../../../src/domain/bulk-rows.js';
import type { StoredComponents } from '../../../../src/domain/templates/types.js';
import type { ApiButton, ApiComponent } from '../templates/types.js';

/** One value a row gives for the template. */
export type Slot = ServiceSlot & {
  /** What the user reads: "Body {{1}}", "Card 2 header image (link or media id)", "Button “Shop”: end of its link", ... */
  label: string;
};

/** The buttons of the top level or of a carousel card. */
function buttonsOf(components: ApiComponent[], card: number | undefined): ApiButton[] {
  const scope = card === undefined ? components : components.find((c) => c.type.toUpperCase() === 'CAROUSEL')?.cards?.[card]?.components ?? [];
  return scope.find((c) => c.type.toUpperCase() === 'BUTTONS')?.buttons ?? [];
}

function labelOf(slot: ServiceSlot, components: ApiComponent[]): string {
  const where = slot.card === undefined ? '' : `Card ${slot.card + 1} `;
  // A positional value is the network's {{n}} by order of first appearance, as the service numbers its column.
  const variable = slot.name === undefined || /^\d+$/.test(slot.name) ? String(slot.index) : slot.name;
  if (slot.kind === 'text') return `${where}${slot.part === 'HEADER' ? 'Header' : 'Body'} {{${variable}}}`;
  if (slot.kind === 'media') return `${where}Header ${(slot.format ?? '').toLowerCase()} (link or media id)`;
  const text = buttonsOf(components, slot.card)[slot.index]?.text ?? '';
  if (slot.buttonType === 'URL') return `${where}Button “${text}”: end of its link`;
  if (slot.buttonType === 'COPY_CODE') return `${where}Coupon code to copy`;
  return `${where}Quick reply “${text}”: value sent back to you (optional)`;
}

/** Every slot of a template (the top level, then each carousel card), as the service reads them. */
export function templateSlots(components: ApiComponent[]): Slot[] {
  return serviceSlots(components as unknown as StoredComponents).map((s) => ({ ...s, label: labelOf(s, components) }));
}
