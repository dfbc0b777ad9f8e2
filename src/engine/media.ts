/** Uploads a header file to the network's resumable upload and remembers the handle for the company. */
import { createReadStream } from 'node:fs';
import type { Kysely } from 'kysely';
import type { SecretBox } from '../domain/secret-box.js';
import type { NetworkPort } from '../network/port.js';
import type { Database } from '../store/schema.js';
import { insertMediaUpload } from '../store/templates.js';
import { credentialsOf } from './credentials.js';
import { toAppError } from './network-errors.js';
import { requireChannel } from './templates.js';

/** A file already written to a temporary path. */
export interface StagedFile {
  path: string;
  fileName: string;
  fileType: string;
  length: number;
}

/** Streams the staged file to the network (session, then bytes from offset 0) and stores the handle. */
export async function uploadMedia(
  deps: { db: Kysely<Database>; network: NetworkPort; secrets: SecretBox },
  companyId: string,
  channelId: string,
  file: StagedFile,
): Promise<string> {
  const channel = await requireChannel(deps.db, companyId, channelId);
  const creds = credentialsOf(channel, deps.secrets);
  let handle: string;
  try {
    const session = await deps.network.createUploadSession(creds, {
      fileName: file.fileName,
      fileLength: file.length,
      fileType: file.fileType,
    });
    const uploaded = await deps.network.uploadFileChunk(creds, {
      sessionId: session.id,
      offset: 0,
      body: createReadStream(file.path),
      length: file.length,
    });
    handle = uploaded.h;
  } catch (error) {
    throw toAppError(error, 'upload');
  }
  await insertMediaUpload(deps.db, {
    file_handle: handle,
    company_id: companyId,
    channel_id: channel.id,
    file_name: file.fileName,
    file_type: file.fileType,
    file_length: file.length,
  });
  return handle;
}
