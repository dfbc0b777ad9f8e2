/**
 * Graph nodes by id: `GET /{id}` reads a phone number, template, the WABA or an upload session;
 * `POST /upload:<S>` appends upload bytes (the body is counted, never parsed or kept).
 */
import type { FastifyInstance } from 'fastify';
import { SIM_WABA_ID } from '../constants.js';
import { type GraphParams, type SimContext, queryOf } from '../context.js';
import { invalidParameter, objectNotFound } from '../graph-errors.js';
import { readPhoneNumber, readWaba } from './phone-numbers.js';
import { readTemplate } from './templates.js';
import { appendUpload, uploadStatus } from './uploads.js';

/** A request body that was only counted. */
interface CountedBody {
  byteLength: number;
}

/** Registers the node routes (the POST in its own context, whose parser counts bytes of any type). */
export function registerNodeRoutes(app: FastifyInstance, ctx: SimContext): void {
  const { world } = ctx;

  app.get<{ Params: GraphParams }>('/:ver/:id', async (req) => {
    const { id } = req.params;
    const q = queryOf(req);
    if (id.startsWith('upload:')) return uploadStatus(world, id, q.sig);
    const channel = world.channels.get(id);
    if (channel) return readPhoneNumber(world, channel, q.fields);
    const template = world.templates.get(id);
    if (template) return readTemplate(template, q.fields);
    if (id === SIM_WABA_ID) return readWaba(q.fields);
    throw objectNotFound('get', id);
  });

  app.delete<{ Params: GraphParams }>('/:ver/:id', async (req) => {
    throw objectNotFound('delete', req.params.id);
  });

  void app.register(async (raw) => {
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser('*', (_req, payload, done) => {
      let byteLength = 0;
      payload.on('data', (chunk: Buffer) => {
        byteLength += chunk.length;
      });
      payload.on('end', () => done(null, { byteLength } satisfies CountedBody));
      payload.on('error', (err) => done(err));
    });
    raw.post<{ Params: GraphParams }>('/:ver/:id', async (req) => {
      const { id } = req.params;
      if (id.startsWith('upload:')) {
        const length = (req.body as CountedBody | undefined)?.byteLength ?? 0;
        return appendUpload(world, id, queryOf(req).sig, req.headers.file_offset, length);
      }
      if (world.templates.has(id)) throw invalidParameter('Editing templates is not simulated.');
      throw objectNotFound('post', id);
    });
  });
}
