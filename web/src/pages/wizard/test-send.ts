/**
 * The test send's message: one row's values as the single send's `message_template`, made by the service's
 * own row conversion (src/domain/bulk-rows.ts `convertRow`, the rule a bulk start applies to every row), so
 * the test message is the one the bulk send would send to that row.
 */
import { convertRow } from '../../../../src/domain/bulk-rows.js';
import type { StoredComponents } from '../../../../src/domain/templates/types.js';
import type { ApiComponent } from '../templates/types.js';
import { cellOf, type Mapping } from './mapping.js';
import type { Slot } from './slots.js';
import type { Table } from './table.js';

/** Message statuses after which a test message's status no longer changes on its way (it arrived, was read, or failed). */
export const SETTLED_STATUSES = ['BACKEND_SENT', 'BACKEND_SEEN', 'BACKEND_FAILED', 'SENT_TO_BACKEND_FAILED', 'OPT_IN_FAILED', 'OPT_IN_FAILED_INVALID_NUMBER', 'BACKEND_DELETED', 'CANCELLED'];

/** The components of row `row`'s message, or why the row cannot make one (in the slot's words). */
export function rowMessage(components: ApiComponent[], slots: Slot[], table: Table, mapping: Mapping, row: number): { ok: true; components: unknown[] } | { ok: false; message: string } {
  const value = (column: string) => {
    const v = cellOf(table, mapping, row, column);
    return v.trim() === '' ? undefined : v;
  };
  const result = convertRow(components as unknown as StoredComponents, slots, value, (column) => column, `row ${row + 1}`);
  if (result.ok) return { ok: true, components: result.components };
  const first = result.errors[0];
  const slot = slots.find((s) => s.column === first.field);
  return { ok: false, message: slot ? first.message.replace(slot.column, slot.label) : first.message };
}
