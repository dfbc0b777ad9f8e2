/** Maps a failed network call to a catalogue error, keeping the network's own message and code. */
import { channelFailureReason } from '../domain/channel.js';
import { AppError } from '../errors.js';
import { NetworkError } from '../network/port.js';

/** Graph codes that mean "the network is busy or down; try again later". */
const UNAVAILABLE_CODES = new Set([1, 2, 131000, 131016, 133004, 131057]);
/** Graph codes that mean "slow down". */
const RATE_CODES = new Set([4, 17, 32, 613, 80007, 130429, 131056]);
/** Graph codes that are the service's own configuration problem (token, permissions, unknown ids). */
function isConfigurationProblem(code: number, subcode: number | undefined): boolean {
  return code === 0 || code === 190 || code === 3 || code === 10 || (code >= 200 && code <= 299) || (code === 100 && subcode === 33);
}

/**
 * The catalogue error for a network failure (any other error passes through unchanged):
 * timeouts 504; unreachable, 5xx and "service down" codes 503; rate codes 429; channel-level token,
 * permission and account-lock codes 503 CHANNEL_AUTH_FAILED; unknown-object codes 502; any other refusal
 * of the request by the network's rules 422.
 */
export function toAppError(error: unknown, _operation = 'call'): unknown {
  if (!(error instanceof NetworkError)) return error;
  if (error.kind === 'timeout') return new AppError('NETWORK_TIMEOUT', `The messaging network timed out: ${error.message}`);
  if (error.kind === 'connection') {
    return new AppError('NETWORK_UNAVAILABLE', `The messaging network is unreachable: ${error.message}`, { retryAfter: 5 });
  }
  const graph = error.graph;
  const detail = graph?.error_data?.details ? ` (${graph.error_data.details})` : graph?.error_user_msg ? ` (${graph.error_user_msg})` : '';
  const message = graph ? `${graph.message}${detail}` : error.message;
  if (graph && RATE_CODES.has(graph.code)) return new AppError('RATE_LIMITED', message, { retryAfter: 60 });
  if ((graph && UNAVAILABLE_CODES.has(graph.code)) || (error.httpStatus ?? 0) >= 500) {
    return new AppError('NETWORK_UNAVAILABLE', message, { retryAfter: 30 });
  }
  if (!graph) return new AppError('NETWORK_ERROR', message);
  const channelReason = channelFailureReason({ code: graph.code, subcode: graph.error_subcode, message: graph.message });
  if (channelReason) return new AppError('CHANNEL_AUTH_FAILED', `The network refused the channel: ${channelReason}`, { retryAfter: 60 });
  if (isConfigurationProblem(graph.code, graph.error_subcode)) return new AppError('NETWORK_ERROR', message);
  return new AppError('NETWORK_REJECTED', message);
}
