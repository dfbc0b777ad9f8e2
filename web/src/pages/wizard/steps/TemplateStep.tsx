/** Step 2: one of the channel's APPROVED templates, previewed with its own examples. */
import { href } from '../../../router';
import { exampleValues, renderMessage } from '../../templates/message';
import { MessagePreview } from '../../templates/MessagePreview';
import type { Wizard } from '../useWizard';

export function TemplateStep({ w }: { w: Wizard }) {
  const { templates } = w.state;
  const { template, templateId, slots } = w;
  if (templates === null) return <p class="muted">Loading templates…</p>;
  if (templates.length === 0) {
    return (
      <p class="alert info">No APPROVED template on this channel. <a href={href('/templates/new', { channel: w.channelId })}>Create one</a>; it can be sent once the network approves it.</p>
    );
  }
  return (
    <div class="wiz-split">
      <label class="field" for="wiz-template">
        <span>Approved template</span>
        <select id="wiz-template" value={templateId} onChange={(e) => w.chooseTemplate((e.target as HTMLSelectElement).value)}>
          <option value="">Choose a template…</option>
          {templates.map((t) => <option key={t.id} value={t.id}>{t.name} ({t.language})</option>)}
        </select>
      </label>
      {template && (
        <div>
          <MessagePreview message={renderMessage(template.components, (c) => exampleValues(template.components)[c])} label={`Preview of ${template.name}`} />
          <p class="muted small" data-testid="template-needs">
            {slots.length ? 'Each customer’s row gives: ' : 'Each customer’s row gives only the phone number (and, if you like, a name).'}
            {slots.map((s, i) => <span key={s.column} title={s.column}>{i ? '; ' : ''}{s.label}</span>)}
            {slots.length ? '.' : ''}
          </p>
        </div>
      )}
    </div>
  );
}
