/**
 * Templates: the channel's templates with status and category, filters (status, category, text), a preview
 * of the chosen one, delete with confirm; `#/templates/new` is the create form. While a template is under
 * review the list refreshes itself (every 2 s, for at most 2 minutes) so “Approved” shows without a reload.
 * Statuses and categories show their plain names (plain-names.ts), the code on hover.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { errorText } from '../../http';
import { CATEGORY_NAMES, plain, TEMPLATE_STATUS_NAMES } from '../../plain-names';
import { href, navigate, replaceQuery, useRoute } from '../../router';
import { deleteTemplate, listTemplates } from './api';
import { ChannelSelect, useChannels } from './ChannelSelect';
import { ConfirmDialog } from './ConfirmDialog';
import { exampleValues, renderMessage } from './message';
import { MessagePreview } from './MessagePreview';
import { TemplateFormPage } from './TemplateFormPage';
import type { ApiTemplate } from './types';
import './templates.css';

const REVIEW = new Set(['PENDING', 'IN_APPEAL', 'PENDING_DELETION']);
const POLL_MS = 2000;
const POLL_LIMIT = 60;

/** Badge colour of a template status. */
export function statusColour(status: string): string {
  if (status === 'APPROVED') return 'green';
  if (REVIEW.has(status)) return 'yellow';
  if (status === 'REJECTED' || status === 'DISABLED') return 'red';
  if (status === 'PAUSED' || status === 'LIMIT_EXCEEDED') return 'purple';
  return 'grey';
}

export function TemplatesPage() {
  const route = useRoute();
  if (route.path === '/templates/new') return <TemplateFormPage />;
  return <TemplateList />;
}

function TemplateList() {
  const route = useRoute();
  const { channels, error: channelsError } = useChannels();
  const channelId = route.query.get('channel') ?? channels?.[0]?.id ?? '';
  const status = route.query.get('status') ?? '';
  const category = route.query.get('category') ?? '';
  const text = route.query.get('q') ?? '';
  const created = route.query.get('created');
  const [templates, setTemplates] = useState<ApiTemplate[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState<string | null>(created);
  const [confirming, setConfirming] = useState<ApiTemplate | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [reload, setReload] = useState(0);

  const query = { channel: channelId, status, category, q: text, created };
  const setQuery = (patch: Partial<typeof query>) => replaceQuery('/templates', { ...query, ...patch });

  useEffect(() => {
    if (!channelId) return;
    let live = true;
    let polls = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = async () => {
      try {
        const list = await listTemplates(channelId);
        if (!live) return;
        setTemplates(list);
        setError(null);
        if (list.some((t) => REVIEW.has(t.status)) && ++polls < POLL_LIMIT) timer = setTimeout(load, POLL_MS);
      } catch (e) {
        if (live) setError(errorText(e));
      }
    };
    setTemplates(null);
    void load();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [channelId, reload]);

  const statuses = useMemo(() => [...new Set((templates ?? []).map((t) => t.status))].sort(), [templates]);
  const categories = useMemo(() => [...new Set((templates ?? []).map((t) => t.category))].sort(), [templates]);
  const shown = (templates ?? []).filter((t) =>
    (!status || t.status === status) && (!category || t.category === category) &&
    (!text || t.name.includes(text.toLowerCase()) || t.components.some((c) => (c.text ?? '').toLowerCase().includes(text.toLowerCase()))));
  const current = (templates ?? []).find((t) => t.id === selected) ?? null;

  const remove = async () => {
    if (!confirming) return;
    setDeleting(true);
    try {
      await deleteTemplate(confirming.id);
      setNotice(`Deleted ${confirming.name}. The name cannot be used again for 30 days.`);
      if (selected === confirming.id) setSelected(null);
      setConfirming(null);
      setReload((n) => n + 1);
    } catch (e) {
      setNotice(null);
      setError(errorText(e));
      setConfirming(null);
    } finally {
      setDeleting(false);
    }
  };

  return (
    <section class="page" aria-labelledby="templates-title">
      <div class="page-head">
        <h1 id="templates-title">Templates</h1>
        <a class="button primary" href={href('/templates/new', { channel: channelId })}>New template</a>
      </div>
      {channelsError && <p class="alert error" role="alert">{channelsError}</p>}
      <div class="card toolbar" role="search" aria-label="Filter templates">
        {channels && <ChannelSelect id="tpl-channel" channels={channels} value={channelId} onChange={(c) => setQuery({ channel: c, created: null })} />}
        <label class="field" for="tpl-status">
          <span>Status</span>
          <select id="tpl-status" value={status} onChange={(e) => setQuery({ status: (e.target as HTMLSelectElement).value })}>
            <option value="">All statuses</option>
            {statuses.map((s) => <option key={s} value={s}>{plain(TEMPLATE_STATUS_NAMES, s).name}</option>)}
          </select>
        </label>
        <label class="field" for="tpl-category">
          <span>Category</span>
          <select id="tpl-category" value={category} onChange={(e) => setQuery({ category: (e.target as HTMLSelectElement).value })}>
            <option value="">All categories</option>
            {categories.map((s) => <option key={s} value={s}>{plain(CATEGORY_NAMES, s).name}</option>)}
          </select>
        </label>
        <label class="field grow" for="tpl-text">
          <span>Search</span>
          <input id="tpl-text" type="search" placeholder="Name or text" value={text} onInput={(e) => setQuery({ q: (e.target as HTMLInputElement).value })} />
        </label>
      </div>
      {notice && <p class="alert info" role="status">{notice}</p>}
      {error && <p class="alert error" role="alert">{error}</p>}
      <div class="tpl-layout">
        <div class="table-wrap">
          <table aria-label="Templates" aria-busy={templates === null}>
            <thead>
              <tr><th scope="col">Name</th><th scope="col">Language</th><th scope="col">Category</th><th scope="col">Status</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr>
            </thead>
            <tbody>
              {templates === null && <tr><td colSpan={5} class="muted">Loading…</td></tr>}
              {templates !== null && shown.length === 0 && <tr><td colSpan={5} class="muted">{templates.length === 0 ? 'No templates on this channel yet.' : 'No template matches the filters.'}</td></tr>}
              {shown.map((t) => (
                <tr key={t.id} data-template={t.name} class={t.id === selected ? "selected" : undefined}>
                  <td>
                    <button type="button" class="linkish" aria-pressed={t.id === selected} onClick={() => setSelected(t.id === selected ? null : t.id)}>{t.name}</button>
                    {t.rejected_reason && t.rejected_reason !== 'NONE' && <div class="muted small">Rejected: {t.rejected_reason}</div>}
                  </td>
                  <td>{t.language}</td>
                  <td title={t.category}>{plain(CATEGORY_NAMES, t.category).name}</td>
                  <td><span class={`badge ${statusColour(t.status)}`} data-testid="template-status" data-code={t.status} title={`${plain(TEMPLATE_STATUS_NAMES, t.status).hint} (${t.status})`}>{plain(TEMPLATE_STATUS_NAMES, t.status).name}</span></td>
                  <td class="actions">
                    {t.status === 'APPROVED' && <a class="button small" href={href('/send', { channel: channelId, template: t.id })}>Send</a>}
                    <button type="button" class="button small danger" onClick={() => setConfirming(t)} aria-label={`Delete ${t.name}`}>Delete</button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <aside class="card tpl-preview" aria-label="Template preview">
          {current ? (
            <>
              <h2>{current.name}</h2>
              <p class="muted small">{current.language} · {plain(CATEGORY_NAMES, current.category).name} · <span class={`badge ${statusColour(current.status)}`} data-code={current.status} title={current.status}>{plain(TEMPLATE_STATUS_NAMES, current.status).name}</span></p>
              <MessagePreview message={renderMessage(current.components, (c) => exampleValues(current.components)[c])} label={`Preview of ${current.name}`} />
            </>
          ) : (
            <p class="muted">Choose a template's name to preview it with its example values.</p>
          )}
        </aside>
      </div>
      {confirming && (
        <ConfirmDialog title={`Delete ${confirming.name}?`} confirmLabel="Delete template" danger busy={deleting} onConfirm={remove} onCancel={() => setConfirming(null)}>
          <p>The template is deleted at the network too, in every language. Its name cannot be used for a new template for 30 days.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}

/** Goes to the list of a channel with a created template chosen. */
export function showCreated(channelId: string, id: string): void {
  navigate('/templates', { channel: channelId, created: id });
}
