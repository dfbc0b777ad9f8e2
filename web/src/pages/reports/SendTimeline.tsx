/**
 * A bulk send over time (GET /api/v1/send-wizards/{id}/timeline): how many rows had been handed to WhatsApp,
 * sent, delivered, read or failed at each moment, and the failed rows by reason. Read again when the send's counters
 * change.
 */
import { useMemo } from 'preact/hooks';
import type { Timeline } from '../../api-types';
import { STAGE_STYLE, TimeChart } from '../../components/Chart';
import { FailuresTable } from '../../components/FailuresTable';
import { useLoad, useReloadOnChange } from '../../data';
import { fmtDuration, fmtNumber } from '../../format';
import { apiFetch } from '../../http';
import { FUNNEL_STAGES, PRE_FUNNEL_STAGES } from '../../plain-names';

type Stage = 'handed' | 'sent' | 'delivered' | 'read' | 'failed';

/** The stages with the names every page uses (plain-names.ts). */
const STAGES: Array<{ key: Stage; label: string }> = [
  { key: 'handed', label: PRE_FUNNEL_STAGES[2].name },
  { key: 'sent', label: FUNNEL_STAGES[0].name },
  { key: 'delivered', label: FUNNEL_STAGES[1].name },
  { key: 'read', label: FUNNEL_STAGES[2].name },
  { key: 'failed', label: 'Failed' },
];

export function SendTimeline(props: { id: string; version: string }) {
  const timeline = useLoad(() => apiFetch<{ data: Timeline }>(`/api/v1/send-wizards/${props.id}/timeline`).then((b) => b.data), [props.id]);
  useReloadOnChange(props.version, timeline.reload);
  const t = timeline.data;
  const chart = useMemo(() => {
    if (!t || t.points.length === 0) return null;
    return {
      times: t.points.map((p) => Date.parse(p.at)),
      series: STAGES.map((s) => ({ label: s.label, color: STAGE_STYLE[s.key].color, dash: [...STAGE_STYLE[s.key].dash], values: t.points.map((p) => p[s.key]) })),
    };
  }, [t]);

  if (timeline.error) return <p class="alert error" role="alert">Could not load the send over time: {timeline.error}</p>;
  if (!t) return null;
  if (!chart) return <p class="muted small" data-testid="send-timeline">Nothing has been handed to WhatsApp yet.</p>;
  const caption = `${t.estimated ? `estimated from every ${fmtNumber(Math.round(t.rows / Math.max(1, t.sampled_rows)))}th row (${fmtNumber(t.sampled_rows)} of ${fmtNumber(t.rows)}), ` : ''}${fmtDuration(t.bucket_seconds)} steps`;
  const failed = t.failures.reduce((n, f) => n + f.count, 0);
  return (
    <>
      <TimeChart title="The send over time" caption={caption} times={chart.times} series={chart.series} height={200} testId="send-timeline" />
      {t.failures.length > 0 && (
        <section class="send-failures" aria-labelledby={`failures-${props.id}`}>
          <h3 id={`failures-${props.id}`}>Failures by reason</h3>
          <FailuresTable failures={t.failures} total={failed} testId="send-failures" />
        </section>
      )}
    </>
  );
}
