/**
 * The columns a template needs in a bulk send, named as `startv2`'s `param_headers` names them (the
 * service's src/domain/bulk-rows.ts): `HEADER.1` (text) or `HEADER` (media), `BODY.<n>`, `BUTTONS.<i>`,
 * `CAROUSEL.<card>.HEADER`, `CAROUSEL.<card>.BODY.<n>`, `CAROUSEL.<card>.BUTTONS.<i>`. A named template's
 * text variables are `BODY.<name>` / `HEADER.<name>`. A quick-reply payload is optional; the rest are required.
 */
import { isPositional, variableNames, MEDIA_FORMATS, type ApiComponent } from '../templates/types.js';

/** One value a row gives for the template. */
export interface Slot {
  /** The startv2 column name. */
  column: string;
  /** What the user reads: "Body {{1}}", "Card 2 header image (link or media id)", "Button “Shop”: end of its link", ... */
  label: string;
  kind: 'text' | 'media' | 'url' | 'code' | 'payload';
  card?: number;
  /** The variable's name (`1`, `first_name`) for text slots. */
  name?: string;
  /** The 1-based position of a named variable (`BODY.1` means the same as `BODY.first_name`). */
  position?: number;
  /** Media format of a media slot. */
  format?: string;
  optional: boolean;
}

function scope(components: ApiComponent[], card: number | undefined): Slot[] {
  const prefix = card === undefined ? '' : `CAROUSEL.${card}.`;
  const where = card === undefined ? '' : `Card ${card + 1} `;
  const slots: Slot[] = [];
  // A positional column is numbered by order of first appearance: its value is the network's {{n}}.
  const text = (part: 'HEADER' | 'BODY', variable: string, i: number): Slot => {
    const name = isPositional(variable) ? String(i + 1) : variable;
    return {
      column: `${prefix}${part}.${name}`,
      label: `${where}${part === 'HEADER' ? 'Header' : 'Body'} {{${name}}}`,
      kind: 'text', card, name, position: i + 1, optional: false,
    };
  };
  for (const c of components) {
    const type = c.type.toUpperCase();
    const format = (c.format ?? '').toUpperCase();
    if (type === 'HEADER' && format === 'TEXT') {
      variableNames(c.text).forEach((n, i) => slots.push(text('HEADER', n, i)));
    } else if (type === 'HEADER' && MEDIA_FORMATS.includes(format)) {
      slots.push({ column: `${prefix}HEADER`, label: `${where}Header ${format.toLowerCase()} (link or media id)`, kind: 'media', card, format, optional: false });
    } else if (type === 'BODY') {
      variableNames(c.text).forEach((n, i) => slots.push(text('BODY', n, i)));
    } else if (type === 'BUTTONS') {
      (c.buttons ?? []).forEach((b, i) => {
        const column = `${prefix}BUTTONS.${i}`;
        const kind = b.type.toUpperCase();
        if (kind === 'URL' && variableNames(b.url).length > 0) {
          slots.push({ column, label: `${where}Button “${b.text ?? ''}”: end of its link`, kind: 'url', card, optional: false });
        } else if (kind === 'COPY_CODE') {
          slots.push({ column, label: `${where}Coupon code to copy`, kind: 'code', card, optional: false });
        } else if (kind === 'QUICK_REPLY') {
          slots.push({ column, label: `${where}Quick reply “${b.text ?? ''}”: value sent back to you (optional)`, kind: 'payload', card, optional: true });
        }
      });
    }
  }
  return slots;
}

/** Every slot of a template: the top level, then each carousel card. */
export function templateSlots(components: ApiComponent[]): Slot[] {
  const top = scope(components.filter((c) => c.type.toUpperCase() !== 'CAROUSEL'), undefined);
  const carousel = components.find((c) => c.type.toUpperCase() === 'CAROUSEL');
  const cards = (carousel?.cards ?? []).flatMap((card, i) => scope(card.components, i));
  return [...top, ...cards];
}
