/** Helpers for bulk-send tests. */
import assert from 'node:assert/strict';
import { eventually, type Harness } from './harness.js';

const A = '/agent-app/message-template/send-wizard';

/** v1 rows for the sendable template (body {{1}} {{2}}, URL button variable). */
export function v1Rows(phones: string[]) {
  return phones.map((phone, i) => ({ id: i + 1, phone_number: phone, full_name: `Customer ${i + 1}`, params: [`Name${i + 1}`, `CODE${i + 1}`], url_button_param: `p${i + 1}` }));
}

/** Distinct phone numbers that end in none of the simulator's special endings (000, 001, 002). */
export function phones(count: number, prefix = '9055577'): string[] {
  return Array.from({ length: count }, (_, i) => `${prefix}${String(i * 10 + 13).padStart(5, '0')}`);
}

/** Starts a v1 bulk send; asserts 200 and returns its id. */
export async function startV1(h: Harness, body: Record<string, unknown>): Promise<string> {
  const res = await h.call('POST', `${A}/start`, { body });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data.send_wizard_id;
}

/** The list item of a bulk send. */
export async function listItem(h: Harness, channelId: string, id: string) {
  const res = await h.call('POST', `${A}/reports`, { body: { page: 1, page_size: 500, channel_id: channelId } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.items.find((i: { send_wizard_id: string }) => i.send_wizard_id === id);
}

/** Waits for a bulk send status. */
export function untilWizard(h: Harness, channelId: string, id: string, statuses: string[], timeoutMs = 30_000) {
  return eventually(async () => {
    const item = await listItem(h, channelId, id);
    return item && statuses.includes(item.status) ? item : undefined;
  }, timeoutMs);
}

/** All report rows of a bulk send. */
export async function reportRows(h: Harness, id: string, pageSize = 500) {
  const rows = [];
  for (let page = 1; ; page += 1) {
    const res = await h.call('POST', `${A}/reports/detail`, { body: { data: { page, page_size: pageSize }, id } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    rows.push(...res.body.data.report_details);
    if (page * pageSize >= res.body.pagination.total) break;
  }
  return rows;
}

/** Counters recomputed from the rows' states (DESIGN §7), to compare with the list item. */
export function countersFromRows(rows: Array<{ status: string }>) {
  const rank: Record<string, number> = { SENT_TO_BACKEND: 1, BACKEND_DELIVERED: 2, BACKEND_SENT: 3, BACKEND_SEEN: 4 };
  const failed = ['OPT_IN_FAILED', 'OPT_IN_FAILED_INVALID_NUMBER', 'SENT_TO_BACKEND_FAILED', 'BACKEND_FAILED'];
  const c = { waiting: 0, queued: 0, processed_count: 0, awaiting_backend_count: 0, failed_count: 0, cancelled_count: 0 };
  for (const r of rows) {
    if (r.status === 'NONE') c.waiting += 1;
    if (['QUEUED', 'AGENDA', 'OPT_IN_SUCCESS'].includes(r.status)) c.queued += 1;
    if (!['NONE', 'QUEUED', 'CANCELLED'].includes(r.status)) c.processed_count += 1;
    if (r.status === 'SENT_TO_BACKEND') c.awaiting_backend_count += 1;
    if (failed.includes(r.status)) c.failed_count += 1;
    if (r.status === 'CANCELLED') c.cancelled_count += 1;
  }
  return { ...c, minimumDelivered: rows.filter((r) => (rank[r.status] ?? 0) >= 2).length };
}
