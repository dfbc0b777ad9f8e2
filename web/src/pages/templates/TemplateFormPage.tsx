/**
 * The create form (`#/templates/new?channel=`): every component kind of the interface (text or media
 * header, body with parameters and examples, footer, URL / phone / copy-code / quick-reply buttons,
 * carousel cards) with a live preview, the name checked as it is typed (debounced check-name), header
 * files uploaded through POST /api/v1/media, and the service's field-path errors shown at their fields.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { ComponentChildren } from 'preact';
import { ApiError, errorText } from '../../http';
import { href, replaceQuery, useRoute } from '../../router';
import { checkName, createTemplate, listCategories, listLanguages, uploadMedia } from './api';
import { ChannelSelect, useChannels } from './ChannelSelect';
import {
  BUTTON_KINDS, cleanName, emptyForm, errorsByField, formComponents, HEADER_KINDS, nameProblem, newButton, newCard, previewValues, toCreateBody,
  type ButtonKind, type FormButton, type FormCard, type TemplateForm, type Upload,
} from './form';
import { renderMessage } from './message';
import { MessagePreview } from './MessagePreview';
import { showCreated } from './TemplatesPage';
import { variableNames } from './types';
import './templates.css';

type Errors = Record<string, string[]>;
type NameState = { state: 'idle' | 'checking' | 'ok' } | { state: 'error'; message: string };

const BUTTON_TITLES: Record<ButtonKind, string> = {
  QUICK_REPLY: 'Quick reply', URL: 'Visit website (URL)', PHONE_NUMBER: 'Call phone number', COPY_CODE: 'Copy offer code',
  REQUEST_CONTACT_INFO: 'Request phone number',
};
const NAME_DEBOUNCE_MS = 400;

/** A labelled control with its errors (the control gets aria-invalid and aria-describedby from `control`). */
function Field({ id, label, hint, errors, children, class: cls }: { id: string; label: string; hint?: string; errors?: string[]; children: (a: { id: string; invalid?: boolean; describedBy?: string }) => ComponentChildren; class?: string }) {
  const described = [hint ? `${id}-hint` : '', errors?.length ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div class={`field ${cls ?? ''}`}>
      <label for={id}>{label}</label>
      {children({ id, invalid: errors?.length ? true : undefined, describedBy: described })}
      {hint && <small id={`${id}-hint`} class="muted">{hint}</small>}
      {errors?.length ? <p id={`${id}-error`} class="field-error" role="alert" data-field-error={id}>{errors.join(' ')}</p> : null}
    </div>
  );
}

const value = (e: Event) => (e.target as HTMLInputElement).value;

export function TemplateFormPage() {
  const route = useRoute();
  const { channels, error: channelsError } = useChannels();
  const channelId = route.query.get('channel') ?? channels?.[0]?.id ?? '';
  const [form, setForm] = useState<TemplateForm>(() => emptyForm());
  const [languages, setLanguages] = useState<{ value: string; title: string }[]>([]);
  const [categories, setCategories] = useState<{ value: string; title: string }[]>([]);
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [name, setName] = useState<NameState>({ state: 'idle' });
  const [busy, setBusy] = useState(false);
  const [uploading, setUploading] = useState<string | null>(null);
  const nameTimer = useRef<ReturnType<typeof setTimeout>>();
  const nameAbort = useRef<AbortController>();

  useEffect(() => {
    listLanguages().then(setLanguages).catch((e) => setFormError(errorText(e)));
    listCategories().then((c) => {
      setCategories(c);
      if (c.length && !c.some((x) => x.value === form.category)) update((f) => { f.category = c[0].value; });
    }).catch((e) => setFormError(errorText(e)));
  }, []);

  /** Changes the form (a draft copy) and clears the errors of the touched fields. */
  const update = (change: (f: TemplateForm) => void, touched: string[] = []) => {
    setForm((f) => {
      const next = structuredClone(f);
      change(next);
      return next;
    });
    if (touched.length) setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !touched.some((t) => k === t || k.startsWith(`${t}.`)))));
  };

  // The name check as you type: the rule at once, the service (check-name) after a pause.
  const runNameCheck = (nameValue: string, channel: string) => {
    clearTimeout(nameTimer.current);
    nameAbort.current?.abort();
    const problem = nameProblem(nameValue);
    if (problem) {
      setName(nameValue === '' ? { state: 'idle' } : { state: 'error', message: problem });
      return;
    }
    setName({ state: 'checking' });
    nameTimer.current = setTimeout(async () => {
      const abort = new AbortController();
      nameAbort.current = abort;
      try {
        await checkName(channel, nameValue, abort.signal);
        if (!abort.signal.aborted) setName({ state: 'ok' });
      } catch (e) {
        if (abort.signal.aborted || (e instanceof DOMException && e.name === 'AbortError')) return;
        setName({ state: 'error', message: errorText(e) });
      }
    }, NAME_DEBOUNCE_MS);
  };
  useEffect(() => () => clearTimeout(nameTimer.current), []);
  useEffect(() => {
    if (channelId && form.name) runNameCheck(form.name, channelId);
  }, [channelId]);

  const upload = async (key: string, file: File | undefined, put: (f: TemplateForm, u: Upload | null) => void) => {
    if (!file) return;
    setUploading(key);
    setErrors((e) => ({ ...e, [key]: [] }));
    try {
      const answer = await uploadMedia(channelId, file);
      const previewUrl = file.type.startsWith('image/') ? URL.createObjectURL(file) : undefined;
      update((f) => put(f, { handle: answer.file_handle, fileName: answer.file_name, previewUrl }), [key]);
    } catch (e) {
      setErrors((old) => ({ ...old, [key]: [errorText(e)] }));
    } finally {
      setUploading(null);
    }
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    setFormError(null);
    const problem = nameProblem(form.name);
    if (problem) {
      setErrors({ name: [problem] });
      document.getElementById('tpl-name')?.focus();
      return;
    }
    setBusy(true);
    try {
      await checkName(channelId, form.name);
      const created = await createTemplate(toCreateBody(form, channelId));
      showCreated(channelId, created.id);
    } catch (e) {
      if (e instanceof ApiError && e.errors.length) {
        const byField = errorsByField(form, e.errors);
        setErrors(byField);
        if (byField.name) setName({ state: 'error', message: byField.name.join(' ') });
        const first = Object.keys(byField)[0];
        setFormError(`${e.message}${first === 'form' ? '' : ' See the marked fields.'}`);
        if (first !== 'form') document.getElementById(`tpl-${first.replace(/\./g, '-')}`)?.focus();
      } else setFormError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  const preview = useMemo(() => {
    const values = previewValues(form);
    return renderMessage(formComponents(form).components, (c) => values[c]);
  }, [form]);

  const err = (key: string) => errors[key];
  const nameErrors = name.state === 'error' ? [name.message] : err('name');

  return (
    <section class="page" aria-labelledby="tplnew-title">
      <div class="page-head">
        <h1 id="tplnew-title">New template</h1>
        <a class="button" href={href('/templates', { channel: channelId })}>Back to templates</a>
      </div>
      {channelsError && <p class="alert error" role="alert">{channelsError}</p>}
      <form class="tpl-form-layout" onSubmit={submit} noValidate aria-labelledby="tplnew-title">
        <div class="tpl-form">
          <fieldset class="card">
            <legend>Template</legend>
            {channels && <ChannelSelect id="tpl-channel" channels={channels} value={channelId} onChange={(c) => replaceQuery('/templates/new', { channel: c })} />}
            <Field id="tpl-name" label="Name" hint="Lower-case letters, digits and _ (spaces become _). Checked with the channel as you type." errors={nameErrors}>
              {(a) => (
                <input id={a.id} name="name" autoComplete="off" spellcheck={false} value={form.name} aria-invalid={a.invalid} aria-describedby={a.describedBy}
                  onInput={(e) => {
                    const n = cleanName(value(e));
                    update((f) => { f.name = n; }, ['name']);
                    runNameCheck(n, channelId);
                  }} />
              )}
            </Field>
            <p class="name-status" role="status" aria-live="polite" data-testid="name-status">
              {name.state === 'checking' ? 'Checking the name…' : name.state === 'ok' ? '✓ The name is free on this channel.' : ''}
            </p>
            <div class="row">
              <Field id="tpl-language" label="Language" errors={err('language')}>
                {(a) => (
                  <select id={a.id} value={form.language} aria-invalid={a.invalid} aria-describedby={a.describedBy} onChange={(e) => update((f) => { f.language = value(e); }, ['language'])}>
                    {languages.map((l) => <option key={l.value} value={l.value}>{l.title} ({l.value})</option>)}
                  </select>
                )}
              </Field>
              <Field id="tpl-category" label="Category" errors={err('category')}>
                {(a) => (
                  <select id={a.id} value={form.category} aria-invalid={a.invalid} aria-describedby={a.describedBy} onChange={(e) => update((f) => { f.category = value(e); }, ['category'])}>
                    {categories.map((c) => <option key={c.value} value={c.value}>{c.title}</option>)}
                  </select>
                )}
              </Field>
            </div>
            <label class="check">
              <input type="checkbox" checked={form.allowCategoryChange} onChange={(e) => update((f) => { f.allowCategoryChange = (e.target as HTMLInputElement).checked; })} />
              Allow the network to change the category
            </label>
            <div class="row" role="radiogroup" aria-label="Template kind">
              <label class="check"><input type="radio" name="kind" checked={!form.carousel} onChange={() => update((f) => { f.carousel = false; })} /> Standard message</label>
              <label class="check"><input type="radio" name="kind" checked={form.carousel} onChange={() => update((f) => { f.carousel = true; })} /> Carousel (2–10 cards)</label>
            </div>
          </fieldset>

          {!form.carousel && (
            <fieldset class="card">
              <legend>Header (optional)</legend>
              <Field id="tpl-headerKind" label="Header type" errors={err('headerKind')}>
                {(a) => (
                  <select id={a.id} value={form.headerKind} aria-invalid={a.invalid} aria-describedby={a.describedBy} onChange={(e) => update((f) => { f.headerKind = value(e) as TemplateForm['headerKind']; }, ['headerKind', 'headerText', 'headerMedia'])}>
                    {HEADER_KINDS.map((k) => <option key={k} value={k}>{k === 'NONE' ? 'None' : k.charAt(0) + k.slice(1).toLowerCase()}</option>)}
                  </select>
                )}
              </Field>
              {form.headerKind === 'TEXT' && (
                <>
                  <Field id="tpl-headerText" label="Header text" hint="Up to 60 characters; at most one variable {{1}}." errors={err('headerText')}>
                    {(a) => <input id={a.id} value={form.headerText} maxLength={60} aria-invalid={a.invalid} aria-describedby={a.describedBy} onInput={(e) => update((f) => { f.headerText = value(e); }, ['headerText', 'headerExample'])} />}
                  </Field>
                  {variableNames(form.headerText).length > 0 && (
                    <Field id="tpl-headerExample" label={`Example for {{${variableNames(form.headerText)[0]}}}`} errors={err('headerExample')}>
                      {(a) => <input id={a.id} value={form.headerExample} aria-invalid={a.invalid} aria-describedby={a.describedBy} onInput={(e) => update((f) => { f.headerExample = value(e); }, ['headerExample'])} />}
                    </Field>
                  )}
                </>
              )}
              {form.headerKind !== 'NONE' && form.headerKind !== 'TEXT' && (
                <Field id="tpl-headerMedia" label={`Header ${form.headerKind.toLowerCase()} sample`} hint={form.headerMedia ? `Uploaded: ${form.headerMedia.fileName}` : 'The sample file the network reviews; each send gives its own file.'} errors={err('headerMedia')}>
                  {(a) => (
                    <input id={a.id} type="file" accept={form.headerKind === 'IMAGE' ? 'image/jpeg,image/png' : form.headerKind === 'VIDEO' ? 'video/mp4,video/3gpp' : 'application/pdf'}
                      aria-invalid={a.invalid} aria-describedby={a.describedBy} disabled={uploading === 'headerMedia'}
                      onChange={(e) => upload('headerMedia', (e.target as HTMLInputElement).files?.[0], (f, u) => { f.headerMedia = u; })} />
                  )}
                </Field>
              )}
            </fieldset>
          )}

          <fieldset class="card">
            <legend>Body</legend>
            <BodyFields prefix="" text={form.body} examples={form.bodyExamples} errors={errors} rows={5}
              hint="Up to 1024 characters. Variables: {{1}}, {{2}}… or {{first_name}}; not at the very start or end. *bold* _italic_ ~strike~."
              onText={(t) => update((f) => { f.body = t; }, ['body', 'bodyExamples'])}
              onExample={(k, v) => update((f) => { f.bodyExamples[k] = v; }, [`bodyExamples.${k}`, 'bodyExamples'])} />
          </fieldset>

          {!form.carousel && (
            <>
              <fieldset class="card">
                <legend>Footer (optional)</legend>
                <Field id="tpl-footer" label="Footer text" hint="Up to 60 characters, no variables." errors={err('footer')}>
                  {(a) => <input id={a.id} value={form.footer} maxLength={60} aria-invalid={a.invalid} aria-describedby={a.describedBy} onInput={(e) => update((f) => { f.footer = value(e); }, ['footer'])} />}
                </Field>
              </fieldset>
              <fieldset class="card">
                <legend>Buttons (optional)</legend>
                <ButtonsEditor prefix="" buttons={form.buttons} kinds={BUTTON_KINDS} max={10} errors={errors}
                  onChange={(change, touched) => update((f) => change(f.buttons), touched)} />
              </fieldset>
            </>
          )}

          {form.carousel && (
            <fieldset class="card">
              <legend>Cards</legend>
              {err('cards') && <p class="field-error" role="alert">{err('cards')!.join(' ')}</p>}
              <ol class="cards-list">
                {form.cards.map((card, j) => (
                  <CardEditor key={j} index={j} card={card} errors={errors} uploading={uploading === `cards.${j}.media`} canRemove={form.cards.length > 2}
                    onChange={(change, touched) => update((f) => change(f.cards[j]), touched)}
                    onUpload={(file) => upload(`cards.${j}.media`, file, (f, u) => { f.cards[j].media = u; })}
                    onRemove={() => update((f) => { f.cards.splice(j, 1); }, ['cards'])} />
                ))}
              </ol>
              <button type="button" class="button" disabled={form.cards.length >= 10} onClick={() => update((f) => { f.cards.push(newCard()); }, ['cards'])}>Add card</button>
            </fieldset>
          )}

          {formError && <p class="alert error" role="alert" data-testid="form-error">{formError}</p>}
          {errors.form && <ul class="alert error">{errors.form.map((m, i) => <li key={i}>{m}</li>)}</ul>}
          <div class="row">
            <button type="submit" class="button primary" disabled={busy || uploading !== null || !channelId}>{busy ? 'Submitting…' : 'Submit for review'}</button>
            <span class="muted small">The network reviews the template; it can be sent once APPROVED.</span>
          </div>
        </div>
        <aside class="tpl-live card" aria-label="Live preview">
          <h2>Preview</h2>
          <MessagePreview message={preview} label="Live preview of the template" />
        </aside>
      </form>
    </section>
  );
}

/** A body textarea, an "add variable" button and one example input per variable. */
function BodyFields({ prefix, text, examples, errors, hint, rows, onText, onExample }: {
  prefix: string; text: string; examples: string[]; errors: Errors; hint: string; rows: number;
  onText: (t: string) => void; onExample: (k: number, v: string) => void;
}) {
  const names = variableNames(text);
  const id = `tpl-${prefix.replace(/\./g, '-')}body`;
  const addVariable = () => {
    const numbered = names.filter((n) => /^\d+$/.test(n)).map(Number);
    const next = numbered.length ? Math.max(...numbered) + 1 : 1;
    onText(`${text}${text && !text.endsWith(' ') ? ' ' : ''}{{${next}}}`);
  };
  return (
    <>
      <Field id={id} label="Body text" hint={hint} errors={errors[`${prefix}body`]}>
        {(a) => <textarea id={a.id} rows={rows} value={text} aria-invalid={a.invalid} aria-describedby={a.describedBy} onInput={(e) => onText(value(e))} />}
      </Field>
      <div class="row"><button type="button" class="button small" onClick={addVariable}>Add variable</button></div>
      {errors[`${prefix}bodyExamples`] && <p class="field-error" role="alert">{errors[`${prefix}bodyExamples`].join(' ')}</p>}
      {names.length > 0 && (
        <div class="examples">
          {names.map((n, k) => (
            <Field key={n} id={`tpl-${prefix.replace(/\./g, '-')}bodyExamples-${k}`} label={`Example for {{${n}}}`} errors={errors[`${prefix}bodyExamples.${k}`]}>
              {(a) => <input id={a.id} value={examples[k] ?? ''} aria-invalid={a.invalid} aria-describedby={a.describedBy} onInput={(e) => onExample(k, value(e))} />}
            </Field>
          ))}
        </div>
      )}
    </>
  );
}

/** The buttons of the template or of a card: one row per button, kind-specific fields. */
function ButtonsEditor({ prefix, buttons, kinds, max, errors, onChange }: {
  prefix: string; buttons: FormButton[]; kinds: readonly ButtonKind[]; max: number; errors: Errors;
  onChange: (change: (list: FormButton[]) => void, touched: string[]) => void;
}) {
  const base = `${prefix}buttons`;
  const idOf = (j: number, f: string) => `tpl-${base.replace(/\./g, '-')}-${j}-${f}`;
  return (
    <>
      {errors[base] && <p class="field-error" role="alert">{errors[base].join(' ')}</p>}
      <ol class="buttons-list">
        {buttons.map((b, j) => {
          const key = `${base}.${j}`;
          const touch = [key];
          return (
            <li key={j} class="button-row" data-button-kind={b.kind}>
              <div class="row button-row-head">
                <strong>{BUTTON_TITLES[b.kind]}</strong>
                <span class="spacer" />
                <button type="button" class="button small" aria-label={`Remove button ${j + 1}`} onClick={() => onChange((l) => { l.splice(j, 1); }, [base])}>Remove</button>
              </div>
              {errors[key] && <p class="field-error" role="alert">{errors[key].join(' ')}</p>}
              {errors[`${key}.kind`] && <p class="field-error" role="alert">{errors[`${key}.kind`].join(' ')}</p>}
              <div class="row">
                {b.kind === 'REQUEST_CONTACT_INFO' && (
                  <p class="muted">Asks the customer to share their phone number. WhatsApp shows its own label; the button takes no text and no value at send time.</p>
                )}
                {b.kind !== 'COPY_CODE' && b.kind !== 'REQUEST_CONTACT_INFO' && (
                  <Field id={idOf(j, 'text')} label="Button label" errors={errors[`${key}.text`]}>
                    {(a) => <input id={a.id} value={b.text} maxLength={25} aria-invalid={a.invalid} aria-describedby={a.describedBy} onInput={(e) => onChange((l) => { l[j].text = value(e); }, touch)} />}
                  </Field>
                )}
                {b.kind === 'URL' && (
                  <Field id={idOf(j, 'url')} label="URL" hint="https://…; may end with {{1}} (a per-recipient suffix)." errors={errors[`${key}.url`]} class="grow">
                    {(a) => <input id={a.id} type="url" value={b.url} aria-invalid={a.invalid} aria-describedby={a.describedBy} onInput={(e) => onChange((l) => { l[j].url = value(e); }, touch)} />}
                  </Field>
                )}
                {b.kind === 'URL' && variableNames(b.url).length > 0 && (
                  <Field id={idOf(j, 'urlExample')} label="Example suffix for {{1}}" errors={errors[`${key}.urlExample`]}>
                    {(a) => <input id={a.id} value={b.urlExample} aria-invalid={a.invalid} aria-describedby={a.describedBy} onInput={(e) => onChange((l) => { l[j].urlExample = value(e); }, touch)} />}
                  </Field>
                )}
                {b.kind === 'PHONE_NUMBER' && (
                  <Field id={idOf(j, 'phone')} label="Phone number" hint="Digits with the country code, optional +." errors={errors[`${key}.phone`]}>
                    {(a) => <input id={a.id} type="tel" value={b.phone} aria-invalid={a.invalid} aria-describedby={a.describedBy} onInput={(e) => onChange((l) => { l[j].phone = value(e); }, touch)} />}
                  </Field>
                )}
                {b.kind === 'COPY_CODE' && (
                  <Field id={idOf(j, 'code')} label="Example code" hint="Up to 20 characters; each send gives its own code." errors={errors[`${key}.code`]}>
                    {(a) => <input id={a.id} value={b.code} maxLength={20} aria-invalid={a.invalid} aria-describedby={a.describedBy} onInput={(e) => onChange((l) => { l[j].code = value(e); }, touch)} />}
                  </Field>
                )}
              </div>
            </li>
          );
        })}
      </ol>
      <div class="row" role="group" aria-label="Add a button">
        {kinds.map((k) => (
          <button key={k} type="button" class="button small" disabled={buttons.length >= max} onClick={() => onChange((l) => { l.push(newButton(k)); }, [base])}>+ {BUTTON_TITLES[k]}</button>
        ))}
      </div>
    </>
  );
}

/** One carousel card: media header (uploaded), body with examples, up to 2 buttons. */
function CardEditor({ index, card, errors, uploading, canRemove, onChange, onUpload, onRemove }: {
  index: number; card: FormCard; errors: Errors; uploading: boolean; canRemove: boolean;
  onChange: (change: (c: FormCard) => void, touched: string[]) => void; onUpload: (file: File | undefined) => void; onRemove: () => void;
}) {
  const prefix = `cards.${index}.`;
  return (
    <li class="card-editor" aria-label={`Card ${index + 1}`}>
      <div class="row">
        <h3>Card {index + 1}</h3>
        <span class="spacer" />
        {canRemove && <button type="button" class="button small" onClick={onRemove} aria-label={`Remove card ${index + 1}`}>Remove</button>}
      </div>
      {errors[`cards.${index}`] && <p class="field-error" role="alert">{errors[`cards.${index}`].join(' ')}</p>}
      <div class="row">
        <Field id={`tpl-cards-${index}-format`} label="Header">
          {(a) => (
            <select id={a.id} value={card.headerFormat} onChange={(e) => onChange((c) => { c.headerFormat = value(e) as FormCard['headerFormat']; c.media = null; }, [`${prefix}media`])}>
              <option value="IMAGE">Image</option>
              <option value="VIDEO">Video</option>
            </select>
          )}
        </Field>
        <Field id={`tpl-cards-${index}-media`} label={`Card ${index + 1} ${card.headerFormat.toLowerCase()} sample`} hint={card.media ? `Uploaded: ${card.media.fileName}` : undefined} errors={errors[`${prefix}media`]}>
          {(a) => (
            <input id={a.id} type="file" accept={card.headerFormat === 'IMAGE' ? 'image/jpeg,image/png' : 'video/mp4,video/3gpp'} disabled={uploading}
              aria-invalid={a.invalid} aria-describedby={a.describedBy} onChange={(e) => onUpload((e.target as HTMLInputElement).files?.[0])} />
          )}
        </Field>
      </div>
      <BodyFields prefix={prefix} text={card.body} examples={card.bodyExamples} errors={errors} rows={3}
        hint="Up to 160 characters; every card has the same number of variables."
        onText={(t) => onChange((c) => { c.body = t; }, [`${prefix}body`, `${prefix}bodyExamples`])}
        onExample={(k, v) => onChange((c) => { c.bodyExamples[k] = v; }, [`${prefix}bodyExamples.${k}`])} />
      <ButtonsEditor prefix={prefix} buttons={card.buttons} kinds={['QUICK_REPLY', 'URL', 'PHONE_NUMBER']} max={2} errors={errors}
        onChange={(change, touched) => onChange((c) => change(c.buttons), touched)} />
    </li>
  );
}
