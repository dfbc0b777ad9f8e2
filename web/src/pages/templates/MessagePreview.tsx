/** A WhatsApp-style chat bubble for a rendered template message (see message.ts). */
import type { ComponentChild } from 'preact';
import { formatSpans, type ButtonView, type HeaderView, type MessageView } from './message';
import './preview.css';

function Formatted({ text }: { text: string }) {
  return (
    <>
      {formatSpans(text).map((s, i) => {
        let node: ComponentChild = s.text;
        if (s.mono) node = <code>{node}</code>;
        if (s.strike) node = <s>{node}</s>;
        if (s.italic) node = <em>{node}</em>;
        if (s.bold) node = <strong>{node}</strong>;
        return <span key={i}>{node}</span>;
      })}
    </>
  );
}

const ICONS: Record<string, string> = { URL: '↗', PHONE_NUMBER: '✆', COPY_CODE: '⧉', QUICK_REPLY: '↩', REQUEST_CONTACT_INFO: '☎' };

function Buttons({ buttons }: { buttons: ButtonView[] }) {
  if (buttons.length === 0) return null;
  return (
    <ul class="wa-buttons" aria-label="Buttons">
      {buttons.map((b, i) => (
        <li key={i} class="wa-button" title={b.detail ?? undefined}>
          <span aria-hidden="true">{ICONS[b.type] ?? ''}</span> {b.label}
          {b.detail && <span class="visually-hidden"> ({b.detail})</span>}
        </li>
      ))}
    </ul>
  );
}

function Header({ header }: { header: HeaderView | null }) {
  if (!header) return null;
  if (header.kind === 'text') return <p class="wa-header"><Formatted text={header.text} /></p>;
  if (header.kind === 'location') return <div class="wa-media" aria-label="Location header">📍 Location</div>;
  if (header.src && header.format === 'IMAGE') return <img class="wa-image" src={header.src} alt="Header image" />;
  return <div class="wa-media" role="img" aria-label={`${header.format.toLowerCase()} header`}>{header.format === 'IMAGE' ? '🖼' : header.format === 'VIDEO' ? '▶' : '📄'} {header.format.toLowerCase()}</div>;
}

/** The message as a chat bubble; `label` names it for screen readers. */
export function MessagePreview({ message, label = 'Message preview' }: { message: MessageView; label?: string }) {
  return (
    <figure class="wa-chat" aria-label={label}>
      <div class="wa-bubble">
        <Header header={message.header} />
        <p class="wa-body"><Formatted text={message.body} /></p>
        {message.footer && <p class="wa-footer">{message.footer}</p>}
        <span class="wa-time" aria-hidden="true">12:00</span>
      </div>
      <Buttons buttons={message.buttons} />
      {message.cards.length > 0 && (
        <ol class="wa-cards" aria-label="Carousel cards">
          {message.cards.map((card, i) => (
            <li key={i} class="wa-card">
              <Header header={card.header} />
              <p class="wa-body"><Formatted text={card.body} /></p>
              <Buttons buttons={card.buttons} />
            </li>
          ))}
        </ol>
      )}
    </figure>
  );
}
