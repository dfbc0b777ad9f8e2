/**
 * `POST /api/v1/media` (added beyond the interface): multipart with a `channel_id` field and a `file`
 * part. The file is streamed to a temporary file (memory stays flat), its type and size are checked as
 * the network checks them, then it is streamed to the network's resumable upload; the answer carries the
 * `file_handle` for family B creates (and `example.header_handle`).
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError } from '../../errors.js';
import { scratchDir } from '../../engine/scratch.js';
import { MAX_MEDIA_BYTES, mediaProblem, sniffMediaType } from '../../domain/media.js';
import { uploadMedia } from '../../engine/media.js';
import type { RouteDeps } from '../deps.js';
import { ERROR_RESPONSES, apiV1Body, apiV1Schema } from '../envelope.js';
import { refuseNul } from '../input-rules.js';
import { readMultipart, requireMultipartBoundary } from '../multipart-body.js';
import { documented } from '../openapi/doc-only.js';
import { EX, exB } from '../openapi/examples.js';

/** The multipart body as documented (the route reads the parts itself, so no body schema validates it). */
const MediaUploadDoc = Type.Object(
  {
    channel_id: Type.String({ description: 'the channel (phone number id) whose app uploads the file', examples: [EX.channelId] }),
    file: Type.String({
      format: 'binary',
      contentMediaType: 'application/octet-stream',
      description: `the file: image/jpeg or image/png (≤ 5 MB), video/mp4 (≤ 16 MB), application/pdf (≤ 100 MB); its part's content type must match its content`,
    }),
  },
  { additionalProperties: false, examples: [{ channel_id: EX.channelId, file: '(the bytes of summer.png)' }] },
);

/** The media route. */
export const apiV1MediaRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  await app.register(multipart, { limits: { fileSize: MAX_MEDIA_BYTES, files: 1, fields: 5, fieldSize: 1024 } });

  app.post(
    '/media',
    {
      bodyLimit: MAX_MEDIA_BYTES + 1024 * 1024,
      config: documented({ body: MediaUploadDoc, consumes: ['multipart/form-data'] }),
      schema: {
        tags: ['/api/v1'],
        summary: 'Upload a template header file (multipart: channel_id, file); returns file_handle',
        description:
          'An addition. multipart/form-data with a channel_id field and one file part named file; the file is streamed to ' +
          "the network's resumable upload. The answer's file_handle goes into file_handle of POST /api/v1/message-templates, or example.header_handle of a " +
          'create under /agent-app/message-template. Another content type is 415 UNSUPPORTED_MEDIA_TYPE; a type/content mismatch 400 and an over-size file 413, both on field file.',
        consumes: ['multipart/form-data'],
        response: {
          200: apiV1Schema(
            {
              data: Type.Object({
                file_handle: Type.String({ description: 'the upload handle (example.header_handle / file_handle)' }),
                file_name: Type.String(),
                file_type: Type.String({ description: 'the MIME type' }),
                file_length: Type.Integer({ description: 'bytes' }),
              }),
            },
            { examples: [exB({ data: { file_handle: '4::aW1hZ2UvcG5n:ARbExampleHandle', file_name: 'summer.png', file_type: 'image/png', file_length: 48213 } })] },
          ),
          ...ERROR_RESPONSES,
        },
      },
    },
    async (request) => {
      if (!request.isMultipart()) {
        throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send multipart/form-data with a channel_id field and a file part.', { field: 'body' });
      }
      requireMultipartBoundary(request);
      const dir = await scratchDir('tms-media-');
      try {
        const fields: Record<string, string> = {};
        let staged: { path: string; fileName: string; fileType: string; length: number; head: Buffer; truncated: boolean } | undefined;
        const body = readMultipart(request);
        for await (const part of body.parts()) {
          if (part.type === 'field') {
            if (part.fieldname !== 'channel_id') throw new AppError('VALIDATION_FAILED', `${part.fieldname} is not a known field`, { field: part.fieldname });
            fields[part.fieldname] = String(part.value);
            continue;
          }
          if (part.fieldname !== 'file' || staged) {
            part.file.resume();
            throw new AppError('VALIDATION_FAILED', 'Exactly one file part named "file" is expected.', { field: part.fieldname });
          }
          const path = join(dir, 'upload');
          let length = 0;
          let head = Buffer.alloc(0);
          const counter = new Transform({
            transform(chunk: Buffer, _enc, done) {
              if (head.length < 16) head = Buffer.concat([head, chunk.subarray(0, 16 - head.length)]);
              length += chunk.length;
              done(null, chunk);
            },
          });
          await body.save(part, path, counter);
          staged = { path, fileName: part.filename || 'file', fileType: part.mimetype, length, head, truncated: part.file.truncated };
        }
        refuseNul(fields);
        refuseNul(staged?.fileName, 'file.filename');
        const channelId = fields.channel_id;
        if (!channelId) throw new AppError('VALIDATION_FAILED', 'channel_id is required', { field: 'channel_id' });
        if (!staged) throw new AppError('VALIDATION_FAILED', 'file is required', { field: 'file' });
        if (staged.truncated) throw new AppError('PAYLOAD_TOO_LARGE', `The file is larger than ${MAX_MEDIA_BYTES} bytes.`, { field: 'file' });
        const problem = mediaProblem(staged.fileType, sniffMediaType(staged.head), staged.length);
        if (problem) {
          const tooLarge = problem.includes('allows at most');
          throw new AppError(tooLarge ? 'PAYLOAD_TOO_LARGE' : 'VALIDATION_FAILED', problem, { field: 'file' });
        }
        const handle = await uploadMedia(deps, request.companyId, channelId, staged);
        return apiV1Body(request, {
          data: { file_handle: handle, file_name: staged.fileName, file_type: staged.fileType, file_length: staged.length },
        });
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );
};
