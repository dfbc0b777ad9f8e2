/**
 * The send wizard's model: the reducer's state, what follows from it (the template, its slots, the row
 * problems, whether the step may go on) and the commands that call the service (load the channel's
 * templates, read a list, check it with a dry run, start). Step components take it as `w`.
 */
import { useEffect, useMemo } from 'preact/hooks';
import { ApiError, errorText } from '../../http';
import { replaceQuery, useRoute } from '../../router';
import { listTemplates } from '../templates/api';
import { useChannels } from '../../data';
import { parseScheduledAt } from '../../../../src/domain/bulk-send-states.js';
import { MARKETING_TTL_SECONDS } from '../../../../src/domain/marketing-messages.js';
import { dryRun, dryRunFile, sendOne, start, startFile } from './api';
import { autoMap, cellOf, checkRows, countDuplicates, FULL_NAME, issuesFromErrors, issuesFromFileErrors, missingTargets, PHONE, toFileMapping, toStartRows, USER_ID } from './mapping';
import { MAX_TOTAL_TIME } from './pacing';
import { templateSlots, type Slot } from './slots';
import { initialState, startKey, STEP, type BigFile } from './state';
import { useWizardStore } from './store';
import { rowMessage } from './test-send';
import { LARGE_CSV_BYTES, MAX_EDIT_ROWS, parseDelimited, parseFile, parseLargeCsv, TableError, type Table } from './table';

/** A random prefix for this wizard's start keys, so a retried start (double click, network blip) starts nothing twice. */
function newKeyBase(): string {
  return `console-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

/** A `datetime-local` value (the browser's time zone) as the start time: null = now, or why the service would refuse it. */
export function scheduleOf(startAt: string, now = new Date()): { ok: true; at: Date | null } | { ok: false; reason: string } {
  if (startAt === '') return { ok: true, at: null };
  const at = new Date(startAt);
  if (Number.isNaN(at.getTime())) return { ok: false, reason: 'Choose a date and a time.' };
  const checked = parseScheduledAt(at.toISOString(), now);
  if (checked.ok) return checked;
  return { ok: false, reason: checked.reason.includes('past') ? 'That time has passed: choose a later one, or start now.' : checked.reason.replace(/^scheduled_at is/, 'The start is') };
}

/** The TTL typed in hours as seconds: null = the network's default, or why the service would refuse it. */
export function ttlOf(hours: string): { ok: true; seconds: number | null } | { ok: false; reason: string } {
  if (hours.trim() === '') return { ok: true, seconds: null };
  const seconds = Math.round(Number(hours) * 3600);
  if (!Number.isFinite(seconds) || seconds < MARKETING_TTL_SECONDS.min || seconds > MARKETING_TTL_SECONDS.max) {
    return { ok: false, reason: `Between ${MARKETING_TTL_SECONDS.min / 3600} and ${MARKETING_TTL_SECONDS.max / 3600} hours (12 hours to 30 days), or empty for WhatsApp's default.` };
  }
  return { ok: true, seconds };
}

export function useWizard() {
  const route = useRoute();
  const { data: channels, error: channelsError } = useChannels();
  const [state, dispatch] = useWizardStore(() => initialState(STEP.channel, newKeyBase()));
  const { step, templates, table, bigFile, mapping, serverIssues, checked, checking, totalTime } = state;

  // A link that names a channel and template (a template's "Send") opens the wizard on them at the recipients,
  // unless the kept wizard is already on them; without one, the kept wizard stays as the user left it.
  useEffect(() => {
    const linkChannel = route.query.get('channel');
    const linkTemplate = route.query.get('template');
    if (linkChannel && linkTemplate && (linkChannel !== state.channelId || linkTemplate !== state.templateId)) {
      dispatch({ type: 'opened', channelId: linkChannel, templateId: linkTemplate, step: STEP.recipients, keyBase: newKeyBase() });
    } else if (linkChannel && !linkTemplate && linkChannel !== state.channelId) {
      dispatch({ type: 'channelChosen', channelId: linkChannel });
    }
  }, []);

  const channelId = state.channelId || channels?.[0]?.id || '';
  const templateId = state.templateId;
  const channel = channels?.find((c) => c.id === channelId) ?? null;
  const template = templates?.find((t) => t.id === templateId) ?? null;
  const slots = useMemo<Slot[]>(() => (template ? templateSlots(template.components) : []), [template]);

  // The query mirrors the choice, so the address can be shared or reloaded.
  useEffect(() => {
    if (route.path === '/send') replaceQuery('/send', { channel: channelId, template: templateId });
  }, [channelId, templateId]);
  const chooseChannel = (id: string) => dispatch({ type: 'channelChosen', channelId: id });
  const chooseTemplate = (id: string) => dispatch({ type: 'templateChosen', templateId: id });

  useEffect(() => {
    if (!channelId) return;
    let live = true;
    dispatch({ type: 'templatesLoading' });
    listTemplates(channelId)
      .then((list) => live && dispatch({ type: 'templatesLoaded', templates: list.filter((t) => t.status === 'APPROVED') }))
      .catch((e) => live && dispatch({ type: 'error', error: errorText(e) }));
    return () => {
      live = false;
    };
  }, [channelId]);

  // A template that is not (or no longer) an APPROVED one of the channel sends the user back to choose one.
  useEffect(() => {
    if (templates !== null && step >= STEP.recipients && !template) dispatch({ type: 'templateGone' });
  }, [templates, template, step]);

  // A new list or template maps the columns afresh (a user's own mapping stays while both are the same).
  const mapKey = table && template ? `${template.id}\u0000${table.headers.join('\u0000')}` : null;
  useEffect(() => {
    if (table && mapKey !== null && mapKey !== state.mappedFor) dispatch({ type: 'autoMapped', mapping: autoMap(table.headers, slots), mappedFor: mapKey });
  }, [mapKey, slots]);

  const localIssues = useMemo(() => (table ? checkRows(table, mapping, slots) : []), [table, mapping, slots]);
  const issues = [...localIssues, ...serverIssues.filter((s) => !localIssues.some((l) => l.row === s.row && l.target === s.target))];
  const missing = missingTargets(mapping, slots);
  const duplicates = useMemo(() => (table ? countDuplicates(table, mapping) : 0), [table, mapping]);

  const loadTable = (t: Table, source: string, big: BigFile | null = null) =>
    dispatch({ type: 'listLoaded', table: t, source, bigFile: big });
  const onFile = async (file: File | undefined) => {
    if (!file) return;
    dispatch({ type: 'error', error: null });
    try {
      if (!/\.xlsx$/i.test(file.name) && file.size > LARGE_CSV_BYTES) {
        loadTable(await parseLargeCsv(file), file.name, { file, rows: null });
        return;
      }
      const t = await parseFile(file);
      if (t.rows.length > MAX_EDIT_ROWS && t.headers.every((h) => !/^Column \d+$/.test(h))) loadTable(t, file.name, { file, rows: t.rows.length });
      else if (t.rows.length > MAX_EDIT_ROWS) throw new TableError(`A file of more than ${MAX_EDIT_ROWS.toLocaleString('en-US')} rows needs a header row (phone_number, ...).`);
      else loadTable(t, file.name);
    } catch (e) {
      dispatch({ type: 'error', error: errorText(e) });
    }
  };
  const onPaste = () => {
    dispatch({ type: 'error', error: null });
    try {
      const t = parseDelimited(state.pasted);
      if (t.rows.length > MAX_EDIT_ROWS) throw new TableError(`Pasted lists hold at most ${MAX_EDIT_ROWS.toLocaleString('en-US')} rows; choose the file instead.`);
      loadTable(t, 'pasted list');
    } catch (e) {
      dispatch({ type: 'error', error: errorText(e) });
    }
  };

  // The schedule: now, or a time the service accepts (its own rule, domain/bulk-send-states.ts).
  const schedule = scheduleOf(state.startAt);
  // The Marketing Messages TTL, offered when this channel sends this (MARKETING) template through that API.
  const ttlOffered = Boolean(channel?.marketing_messages?.enabled && template?.category.toUpperCase() === 'MARKETING');
  const ttl = ttlOf(state.ttlHours);
  // The name, the time and the TTL go with the start only (a dry run's answer does not depend on them).
  const extras = (forStart: boolean) => ({
    ...(state.skipInvalid ? { skip_invalid_rows: true } : {}),
    ...(forStart && state.sendName.trim() ? { send_name: state.sendName.trim() } : {}),
    ...(forStart && schedule.ok && schedule.at ? { scheduled_at: schedule.at.toISOString() } : {}),
    ...(forStart && ttlOffered && ttl.ok && ttl.seconds !== null ? { message_send_ttl_seconds: ttl.seconds } : {}),
  });
  const body = (forStart = false) => ({ message_template_id: templateId, channel_id: channelId, total_time: totalTime, ...toStartRows(table!, mapping, slots), ...extras(forStart) });
  const fileStart = (forStart = false) => ({
    file: bigFile!.file, message_template_id: templateId, channel_id: channelId, total_time: totalTime, mapping: toFileMapping(table!.headers, mapping), ...extras(forStart),
  });
  const issuesOfErrors = (errors: { field?: string; message: string }[]) =>
    (bigFile ? issuesFromFileErrors(errors, table!.headers, mapping) : issuesFromErrors(errors, body().param_headers));
  const issuesOf = (e: ApiError) => issuesOfErrors(e.errors);
  const refusedRows = (e: unknown) => e instanceof ApiError && e.errors.length > 0 && e.status < 500;

  const check = async () => {
    if (!table || !template) return;
    dispatch({ type: 'checkBegun' });
    try {
      const result = bigFile ? await dryRunFile(fileStart()) : await dryRun(body());
      const skipped = (result.skipped_rows ?? []).map((r) => ({ code: 'SKIPPED', field: r.field ?? undefined, message: r.message }));
      dispatch({ type: 'checkPassed', result, skipped: skipped.length ? issuesOfErrors(skipped) : [] });
    } catch (e) {
      if (refusedRows(e)) dispatch({ type: 'checkRefused', issues: issuesOf(e as ApiError) });
      else dispatch({ type: 'checkFailed', error: errorText(e) });
    }
  };

  // Entering the check step with a clean list asks the service at once.
  useEffect(() => {
    if (step === STEP.check && (localIssues.length === 0 || state.skipInvalid) && missing.length === 0 && !checked && !checking) void check();
  }, [step, state.skipInvalid]);

  const doStart = async () => {
    dispatch({ type: 'startBegun' });
    try {
      const key = startKey(state);
      const started = bigFile ? await startFile(fileStart(true), key) : await start(body(true), key);
      dispatch({ type: 'startDone', started: schedule.ok && schedule.at ? { ...started, scheduledAt: schedule.at.toISOString() } : started });
    } catch (e) {
      dispatch({ type: 'startFailed', error: errorText(e), issues: refusedRows(e) ? issuesOf(e as ApiError) : null });
    }
  };

  const sendTest = async () => {
    const t = state.testSend;
    if (!table || !template) return;
    const message = rowMessage(template.components, slots, table, mapping, t.row);
    if (!message.ok) {
      dispatch({ type: 'testFailed', error: message.message });
      return;
    }
    dispatch({ type: 'testBegun' });
    try {
      const name = cellOf(table, mapping, t.row, FULL_NAME).trim();
      const id = await sendOne({ channel_id: channelId, phone_number: t.phone.trim(), message_template_id: templateId, ...(name ? { full_name: name } : {}), message_template: message.components });
      dispatch({ type: 'testSent', messageId: id });
    } catch (e) {
      dispatch({ type: 'testFailed', error: errorText(e) });
    }
  };

  const canNext = [
    Boolean(channel),
    Boolean(template),
    Boolean(table),
    missing.length === 0,
    checked !== null && (issues.length === 0 || state.skipInvalid),
    totalTime >= 0 && totalTime <= MAX_TOTAL_TIME && schedule.ok && (!ttlOffered || ttl.ok),
    false,
  ][step];

  const targetLabel = (t: string | null) =>
    t === null ? 'row' : t === PHONE ? 'phone number' : t === USER_ID ? 'user ID (BSUID)' : t === FULL_NAME ? 'name' : slots.find((s) => s.column === t)?.label ?? t;

  return {
    state, dispatch, channels, channelsError, channelId, templateId, channel, template, slots, issues, missing, duplicates, canNext,
    targetLabel, chooseChannel, chooseTemplate, onFile, onPaste, check, doStart, sendTest, schedule, ttlOffered, ttl,
  };
}

/** The wizard's model as the step components take it. */
export type Wizard = ReturnType<typeof useWizard>;
