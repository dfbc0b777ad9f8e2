/**
 * The resumable upload: `POST /{app-id}/uploads` opens a session `upload:<S>?sig=<sig>`, `POST /upload:<S>`
 * (header `file_offset`) appends bytes and answers the handle `{h}`, `GET /upload:<S>` tells the offset.
 * Only byte counts are kept; a finished upload's handle is remembered with its MIME type.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { SIM_APP_ID, SIM_UPLOAD_LIMITS } from '../constants.js';
import { type GraphParams, type SimContext, queryOf } from '../context.js';
import { invalidParameter, objectNotFound } from '../graph-errors.js';
import type { SimUpload, SimWorld } from '../world.js';

function hashOf(text: string, length: number): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, length);
}

/** The session of an `upload:<S>` id (with its `sig` query), or the Graph 100/33 error. */
function sessionOf(world: SimWorld, method: string, key: string, sig: string | undefined): SimUpload {
  const session = world.uploads.get(key);
  if (!session || (sig !== undefined && sig !== session.sig)) throw objectNotFound(method, key);
  return session;
}

/** `POST /upload:<S>`: appends `byteLength` bytes at `file_offset`. */
export function appendUpload(world: SimWorld, key: string, sig: string | undefined, offsetHeader: unknown, byteLength: number): { h: string } {
  const session = sessionOf(world, 'post', key, sig);
  const offset = Number(offsetHeader);
  if (typeof offsetHeader !== 'string' || !Number.isInteger(offset) || offset < 0) {
    throw invalidParameter('The file_offset header is required and must be a whole number.');
  }
  if (offset !== session.offset) {
    throw invalidParameter(`file_offset ${offset} does not match the bytes received so far (${session.offset}).`);
  }
  if (offset + byteLength > session.fileLength) {
    throw invalidParameter(`The upload is longer than file_length (${session.fileLength}).`);
  }
  session.offset += byteLength;
  if (session.offset === session.fileLength) world.handles.set(session.handle, session.fileType);
  return { h: session.handle };
}

/** `GET /upload:<S>`. */
export function uploadStatus(world: SimWorld, key: string, sig: string | undefined): { id: string; file_offset: number } {
  const session = sessionOf(world, 'get', key, sig);
  return { id: session.key, file_offset: session.offset };
}

/** Registers `POST /{app-id}/uploads`. */
export function registerUploadRoutes(app: FastifyInstance, { world }: SimContext): void {
  app.post<{ Params: GraphParams }>('/:ver/:id/uploads', async (req) => {
    if (req.params.id !== SIM_APP_ID) throw objectNotFound('post', req.params.id);
    const q = queryOf(req);
    if (!q.file_name) throw invalidParameter('Param file_name is required.');
    const length = Number(q.file_length);
    if (!q.file_length || !Number.isInteger(length) || length <= 0) throw invalidParameter('Param file_length must be a positive integer.');
    const type = q.file_type ?? '';
    const max = SIM_UPLOAD_LIMITS[type];
    if (max === undefined) {
      throw invalidParameter(`Param file_type must be one of ${Object.keys(SIM_UPLOAD_LIMITS).join(', ')}; got "${type}".`);
    }
    if (length > max) throw invalidParameter(`File size ${length} exceeds the limit of ${max} bytes for ${type}.`);
    const seq = world.nextSeq();
    const key = 'upload:' + Buffer.from(`1:attachment:${seq}:${hashOf(`${q.file_name}:${seq}`, 16)}?file_length=${length}&file_type=${type}`).toString('base64url');
    const sig = 'ARb' + hashOf(`sig:${key}`, 20);
    const expires = Math.floor(world.now() / 1000) + 30 * 86_400;
    const handle = `4::${Buffer.from(type).toString('base64')}:ARa${hashOf(`h:${key}`, 24)}:e:${expires}:${SIM_APP_ID}:${seq}:ARc${hashOf(`x:${key}`, 12)}`;
    world.uploads.set(key, { key, sig, fileName: q.file_name, fileLength: length, fileType: type, offset: 0, handle });
    return { id: `${key}?sig=${sig}` };
  });
}
