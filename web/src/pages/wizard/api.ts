/** The bulk-send calls of the wizard: startv2 as a dry run (checks and counts, stores nothing) and for real. */
import { apiFetch } from '../../http';
import type { DryRun, StartAnswerData, StartV2Body } from './dry-run';

export type { DryRun, StartV2Body };

/** Checks the rows exactly as a start would; throws ApiError (400, row/column errors) when a row is bad. */
export async function dryRun(body: StartV2Body, signal?: AbortSignal): Promise<DryRun> {
  return (await apiFetch<{ data: DryRun }>('/agent-app/message-template/send-wizard/startv2', { method: 'POST', json: { ...body, dry_run: true }, signal })).data;
}

/** Starts the bulk send; answers its id, the rows stored and the duplicates removed. */
export async function start(body: StartV2Body, idempotencyKey: string): Promise<StartAnswerData> {
  return (await apiFetch<{ data: StartAnswerData }>('/agent-app/message-template/send-wizard/startv2', {
    method: 'POST', json: body, headers: { 'Idempotency-Key': idempotencyKey },
  })).data;
}

/** The fields of a file start (`POST /send-wizard/start-file`, multipart; beyond the interface). */
export interface FileStart {
  file: File;
  message_template_id: string;
  channel_id: string;
  total_time: number;
  /** File column header → target. */
  mapping: Record<string, string>;
  send_name?: string;
  scheduled_at?: string;
  skip_invalid_rows?: boolean;
  message_send_ttl_seconds?: number | null;
}

function fileForm(f: FileStart, dry: boolean): FormData {
  const form = new FormData();
  form.append('message_template_id', f.message_template_id);
  form.append('channel_id', f.channel_id);
  form.append('total_time', String(f.total_time));
  form.append('mapping', JSON.stringify(f.mapping));
  if (f.send_name) form.append('send_name', f.send_name);
  if (f.scheduled_at) form.append('scheduled_at', f.scheduled_at);
  if (f.skip_invalid_rows) form.append('skip_invalid_rows', 'true');
  if (f.message_send_ttl_seconds) form.append('message_send_ttl_seconds', String(f.message_send_ttl_seconds));
  if (dry) form.append('dry_run', 'true');
  form.append('file', f.file, f.file.name);
  return form;
}

/** Checks every row of an uploaded file as a start would; stores nothing. */
export async function dryRunFile(f: FileStart): Promise<DryRun> {
  return (await apiFetch<{ data: DryRun }>('/agent-app/message-template/send-wizard/start-file', { method: 'POST', body: fileForm(f, true) })).data;
}

/** Starts a bulk send from an uploaded file. */
export async function startFile(f: FileStart, idempotencyKey: string): Promise<StartAnswerData> {
  return (await apiFetch<{ data: StartAnswerData }>('/agent-app/message-template/send-wizard/start-file', {
    method: 'POST', body: fileForm(f, false), headers: { 'Idempotency-Key': idempotencyKey },
  })).data;
}

/** One message to one number through the single send (`single-messagev2`); answers its message id. */
export async function sendOne(body: { channel_id: string; phone_number: string; message_template_id: string; full_name?: string; message_template: unknown[] }): Promise<string> {
  return (await apiFetch<{ data: { message_id: string } }>('/agent-app/message-template/single-messagev2', { method: 'POST', json: body })).data.message_id;
}

/** A message's status and failure, from the message lookup (`POST /api/v1/messages`). */
export async function messageStatus(id: string): Promise<{ status: string; error_message: string | null } | null> {
  const body = await apiFetch<{ items: { _id: string; status: string; error_message: string | null }[] }>('/api/v1/messages', { method: 'POST', json: { message_ids: [id] } });
  return body.items.find((m) => m._id === id) ?? null;
}
