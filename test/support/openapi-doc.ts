/**
 * The OpenAPI document as the service serves it at /docs/json, built without listening or a network (the app
 * is assembled on a fresh test database; no route is called), and the TypeScript client types generated from
 * it by openapi-typescript (committed as web/src/generated/api.d.ts, where the console and the tests import it;
 * `npm run openapi` rewrites it).
 */
import pino from 'pino';
import openapiTS, { astToString } from 'openapi-typescript';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createCloudApiAdapter } from '../../src/network/cloud-api/adapter.js';
import { createTestStore } from './db.js';

/** Where the generated client types live. */
export const GENERATED_TYPES_PATH = new URL('../../web/src/generated/api.d.ts', import.meta.url);

/** Builds the app once and returns its document (a plain JSON copy). */
export async function buildOpenapiDocument(): Promise<Record<string, any>> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const store = await createTestStore();
  // Never called: building the document touches no route.
  const network = createCloudApiAdapter({ baseUrl: 'http://127.0.0.1:9/v23.0', appId: '1' });
  try {
    const app = await buildApp({ config: loadConfig({ LOG_LEVEL: 'silent' }), db: store.db, dbKind: store.kind, network, log: pino({ level: 'silent' }) });
    try {
      return JSON.parse(JSON.stringify(app.http.swagger()));
    } finally {
      await app.close();
    }
  } finally {
    await network.close();
    await store.cleanup();
  }
}

/** The client types for a document, as the committed file holds them. */
export async function generateClientTypes(doc: object): Promise<string> {
  const ast = await openapiTS(JSON.parse(JSON.stringify(doc)), { silent: true });
  return [
    '// Generated from the OpenAPI document (GET /docs/json) by openapi-typescript: do not edit; run `npm run openapi`.',
    astToString(ast),
  ].join('\n');
}
