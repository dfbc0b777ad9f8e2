/**
 * What a finished row must look like given what the simulated phones received: a row the network got is in a
 * network state that matches the recipient rule of its number; a row it did not get failed with a reason.
 */
import assert from 'node:assert/strict';

const NETWORK_STATES = ['BACKEND_DELIVERED', 'BACKEND_SENT', 'BACKEND_SEEN', 'BACKEND_FAILED'];
const UNSENT_FAILURES = ['OPT_IN_FAILED', 'OPT_IN_FAILED_INVALID_NUMBER', 'SENT_TO_BACKEND_FAILED'];

/** A report row. */
export interface Row {
  status: string;
  phone_number: string;
  error_message?: string;
  error_message_detail?: string;
}

/** Asserts one row against how many times its number received it. */
export function assertRowMatchesNetwork(row: Row, received: number): void {
  const label = `${row.phone_number} (${row.status}, received ${received})`;
  assert.ok(received <= 1, `${label}: received twice`);
  if (received === 1) {
    assert.ok(NETWORK_STATES.includes(row.status), `${label}: the network got it, so it must be in a network state`);
    // 000 is not on WhatsApp (131026) and 001 hits the marketing cap (131049): both fail by the network's own status.
    if (row.phone_number.endsWith('000') || row.phone_number.endsWith('001')) assert.equal(row.status, 'BACKEND_FAILED', label);
    else if (row.phone_number.endsWith('002')) assert.equal(row.status, 'BACKEND_SENT', label);
    else assert.equal(row.status, 'BACKEND_SEEN', label);
    return;
  }
  assert.ok(UNSENT_FAILURES.includes(row.status), `${label}: not received, so it must have failed before the network`);
  assert.ok(row.error_message, `${label}: a failure carries its error`);
}
