/**
 * Serves the web console (web/, built by Vite into web/dist) at `/`: `GET /` is index.html and
 * `GET /assets/*` the hashed bundles. Only these paths, so the API families, /docs, /webhooks and /health
 * are never shadowed; the console routes by hash (#/channels), so no fallback route is needed. When the
 * console was never built (a production install without dev dependencies), `/` answers 503 with a line
 * saying how to build it; the API works either way.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';

/** Where `npm run build:console` puts the console. */
export const DEFAULT_CONSOLE_DIR = fileURLToPath(new URL('../../web/dist', import.meta.url));

/** What the service answers at / when the console is not built. */
export const CONSOLE_NOT_BUILT =
  'The web console is not built on this server (web/dist/index.html is missing). Build it with `npm run build:console` (needs the dev dependencies) and reload; the API is unaffected.\n';

/**
 * Headers of every console response: the page runs only its own bundles (no inline script or style, no other
 * origin; images and workers may also come from its own blob: URLs, for the previews of chosen files and the
 * workbook reader), calls only this origin, is never framed (clickjacking), sends no referrer and is not type-sniffed.
 */
export const CONSOLE_SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; font-src 'self'; connect-src 'self'; worker-src 'self' blob:; " +
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
} as const;

/** Serves the built console from `dir`. */
export const consoleRoutes: FastifyPluginAsync<{ dir: string }> = async (app, { dir }) => {
  await app.register(fastifyStatic, { root: dir, serve: false });
  app.addHook('onSend', async (_request, reply, payload) => {
    for (const [name, value] of Object.entries(CONSOLE_SECURITY_HEADERS)) reply.header(name, value);
    return payload;
  });
  const index = join(dir, 'index.html');

  app.get('/', { schema: { hide: true } }, async (_request, reply) => {
    if (!existsSync(index)) {
      return reply.code(503).header('content-type', 'text/plain; charset=utf-8').header('cache-control', 'no-store').send(CONSOLE_NOT_BUILT);
    }
    // The page names the hashed bundles of the current build: always revalidate it.
    return reply.header('cache-control', 'no-cache').sendFile('index.html', { cacheControl: false });
  });

  app.get<{ Params: { '*': string } }>('/assets/*', { schema: { hide: true } }, async (request, reply) => {
    // Bundle names carry a content hash, so they never change: cache them for a year.
    return reply.sendFile(`assets/${request.params['*']}`, { maxAge: '365d', immutable: true });
  });
};
