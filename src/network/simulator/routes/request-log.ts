/**
 * The request log for tests (`/_sim/requests`, no token): every Graph request the simulator answered, so a test
 * can assert that nothing called a path the Graph API does not have. A ring of the last 2,000; totals count since
 * the last reset or clear.
 */
import type { FastifyInstance } from 'fastify';
import type { SimContext } from '../context.js';

/** Registers `GET /_sim/requests` and `POST /_sim/requests/clear`. */
export function registerRequestLogRoutes(app: FastifyInstance, { world }: SimContext): void {
  app.get('/_sim/requests', async () => ({
    total: world.requestTotals.total,
    unknown_paths: world.requestTotals.unknown_paths,
    items: world.loggedRequests(),
  }));

  app.post('/_sim/requests/clear', async () => {
    world.clearRequestLog();
    return { cleared: true };
  });
}
