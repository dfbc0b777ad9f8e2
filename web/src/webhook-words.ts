/**
 * Plain words of the Webhooks page for a client webhook delivery (re-exported by plain-names.ts). Without imports,
 * so the service-side tests can load it under Node's module rules.
 */

/** A webhook delivery's state in words: a pending one that was tried already is being retried. */
export function deliveryStateName(status: string, attempts: number): { name: string; hint: string } {
  if (status === 'DELIVERED') return { name: 'Delivered', hint: 'Your endpoint answered with a 2xx status' };
  if (status === 'FAILED') return { name: 'Given up', hint: 'Every attempt failed for 24 hours; it is not tried again (send it again with a replay)' };
  if (status === 'PENDING') {
    return attempts > 0
      ? { name: 'Retrying', hint: 'The last attempt failed; it is tried again after a pause, for up to 24 hours' }
      : { name: 'Waiting', hint: 'Not sent yet: its turn comes after the earlier events of the same message' };
  }
  return { name: status, hint: status };
}

/** What an HTTP status means for a webhook attempt. */
function answerMeaning(code: number): string {
  if (code >= 300 && code < 400) return 'a redirect, which is not followed: register the final address';
  if (code === 401 || code === 403) return 'it refused the request; check that it verifies the signature with the right secret';
  if (code === 404) return 'not found: check the address';
  if (code === 408 || code === 429) return 'it was busy';
  if (code >= 400 && code < 500) return 'it refused the request';
  if (code >= 500) return 'an error on its side';
  return 'not a success';
}

/** The delivery worker's error (last_error: `HTTP 503`, `timeout: …`, `ECONNREFUSED: …`) in plain words. */
export function explainDeliveryError(error: string | null, statusCode: number | null = null): string {
  if (!error) return '—';
  const http = /^HTTP (\d{3})/.exec(error);
  const code = http ? Number(http[1]) : statusCode;
  if (code !== null && code !== undefined) return `Your endpoint answered ${code}: ${answerMeaning(code)}.`;
  if (error.startsWith('timeout')) {
    const ms = /(\d+) ms/.exec(error);
    return `No complete answer${ms ? ` within ${Number(ms[1]) / 1000} seconds` : ' in time'}: your endpoint should answer at once and work afterwards.`;
  }
  if (error.startsWith('aborted')) return 'The service was stopping during the attempt; it is tried again.';
  if (error.includes('ECONNREFUSED')) return 'Nothing accepted the connection at that address (connection refused): is the receiver running?';
  if (error.includes('ENOTFOUND') || error.includes('EAI_AGAIN')) return 'The host name could not be found (DNS): check the address.';
  if (error.includes('ECONNRESET') || error.includes('UND_ERR_SOCKET') || error.includes('other side closed')) return 'The connection was closed before an answer came.';
  if (/CERT|certificate|SSL|TLS/i.test(error)) return 'The HTTPS certificate of the endpoint was not accepted.';
  if (error.includes('secret cannot be opened')) return 'The signing secret could not be read by the service: rotate the secret.';
  return error;
}
