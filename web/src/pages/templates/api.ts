/** The API calls of the templates page and the send wizard (public routes only, through apiFetch). */
import { apiFetch } from '../../http';
import type { CreateBody } from './form';
import type { ApiTemplate } from './types';
import type { Channel } from '../../api-types';
import type { paths } from '../../generated/api.js';

/** A channel of `GET /api/v1/channels`. */
export type { Channel } from '../../api-types';

/** The channels of the company. */
export async function listChannels(): Promise<Channel[]> {
  return (await apiFetch<{ items: Channel[] }>('/api/v1/channels')).items;
}

/** The templates of a channel's WABA. */
export async function listTemplates(channelId: string): Promise<ApiTemplate[]> {
  return (await apiFetch<{ items: ApiTemplate[] }>(`/api/v1/message-templates?channel_id=${encodeURIComponent(channelId)}`)).items;
}

/** Languages for creation. */
export async function listLanguages(): Promise<{ value: string; title: string }[]> {
  return (await apiFetch<{ data: { languages: { value: string; title: string }[] } }>('/api/v1/message-templates/languages')).data.languages;
}

/** Categories for creation. */
export async function listCategories(): Promise<{ value: string; title: string }[]> {
  return (await apiFetch<{ data: { categories: { value: string; title: string }[] } }>('/api/v1/message-templates/categories')).data.categories;
}

/** The name check (throws ApiError TEMPLATE_NAME_INVALID / TEMPLATE_NAME_TAKEN with field `name`). */
export async function checkName(channelId: string, name: string, signal?: AbortSignal): Promise<void> {
  await apiFetch('/api/v1/message-templates/check-name', { method: 'POST', json: { channel_id: channelId, name }, signal });
}

/** The answer data of a create. */
type Created = paths['/api/v1/message-templates']['post']['responses'][200]['content']['application/json']['data'];

/** Creates a template (POST /api/v1/message-templates); answers its id and status. */
export async function createTemplate(body: CreateBody): Promise<Created> {
  return (await apiFetch<{ data: Created }>('/api/v1/message-templates', { method: 'POST', json: body })).data;
}

/** Deletes a template. */
export async function deleteTemplate(id: string): Promise<void> {
  await apiFetch(`/api/v1/message-templates/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

/** Uploads a header file (`POST /api/v1/media`, multipart); answers the file handle. */
export async function uploadMedia(channelId: string, file: File): Promise<{ file_handle: string; file_name: string }> {
  const form = new FormData();
  form.append('channel_id', channelId);
  form.append('file', file, file.name);
  return (await apiFetch<{ data: { file_handle: string; file_name: string } }>('/api/v1/media', { method: 'POST', body: form })).data;
}
