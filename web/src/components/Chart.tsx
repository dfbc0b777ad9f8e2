/**
 * A time chart drawn by uPlot (a small canvas chart library made for time series), in a <figure> with its
 * caption and the same numbers as a table behind "Show as a table", so the figures are there for keyboard
 * and screen-reader users too. It follows its container's width. Series are told apart by colour, dash and
 * the legend's labels, never by colour alone.
 */
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { fmtNumber, fmtTime } from '../format';

/** One line of a chart. */
export interface ChartSeries {
  label: string;
  color: string;
  values: number[];
  dash?: number[];
}

/** Colours and dashes of the send stages (plain names in plain-names.ts), the same on every chart. */
export const STAGE_STYLE = {
  messages: { color: '#5b6676', dash: [2, 3] },
  handed: { color: '#3b73c4', dash: [6, 3] },
  sent: { color: '#7a4fc9', dash: [] },
  delivered: { color: '#1f8a4c', dash: [] },
  read: { color: '#0b5b52', dash: [10, 3] },
  failed: { color: '#c62828', dash: [3, 3] },
} as const;

export function TimeChart(props: { title: string; caption: string; times: number[]; series: ChartSeries[]; height?: number; testId?: string }) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const width = Math.max(280, el.clientWidth);
    const options: uPlot.Options = {
      width,
      height: props.height ?? 240,
      scales: { x: { time: true } },
      axes: [{ stroke: '#444f5e', grid: { stroke: '#eceff3' } }, { stroke: '#444f5e', grid: { stroke: '#eceff3' }, size: 56 }],
      series: [
        { label: 'Time', value: (_u, v) => (v === null ? '—' : fmtTime(v * 1000)) },
        ...props.series.map((s) => ({ label: s.label, stroke: s.color, width: 2, dash: s.dash, points: { show: props.times.length <= 40 }, value: (_u: uPlot, v: number | null) => fmtNumber(v) })),
      ],
    };
    const data: uPlot.AlignedData = [props.times.map((t) => t / 1000), ...props.series.map((s) => s.values)];
    plot.current?.destroy();
    plot.current = new uPlot(options, data, el);
    const observer = new ResizeObserver(() => {
      const w = Math.max(280, el.clientWidth);
      if (plot.current && Math.abs(plot.current.width - w) > 2) plot.current.setSize({ width: w, height: props.height ?? 240 });
    });
    observer.observe(el);
    return () => {
      observer.disconnect();
      plot.current?.destroy();
      plot.current = null;
    };
  }, [props.times, props.series]);

  return (
    <figure class="chart" data-testid={props.testId}>
      <figcaption>
        <strong>{props.title}</strong> <span class="muted small">{props.caption}</span>
      </figcaption>
      <div ref={box} class="chart-canvas" role="img" aria-label={`${props.title}: ${props.caption}`} />
      <details class="chart-table">
        <summary>Show as a table</summary>
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">{props.title}</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                {props.series.map((s) => <th scope="col" class="num" key={s.label}>{s.label}</th>)}
              </tr>
            </thead>
            <tbody>
              {props.times.map((t, i) => (
                <tr key={t}>
                  <td class="nowrap">{fmtTime(t)}</td>
                  {props.series.map((s) => <td class="num" key={s.label}>{fmtNumber(s.values[i])}</td>)}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
