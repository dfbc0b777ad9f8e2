/** Failed messages by reason (the code that starts their error detail), with each reason's share of the failures. */
import { fmtNumber } from '../format';
import { fmtRate, rate } from '../plain-names';

export interface FailureCount {
  code: string | null;
  title: string | null;
  count: number;
}

export function FailuresTable(props: { failures: FailureCount[]; total: number; testId: string }) {
  return (
    <div class="table-wrap">
      <table data-testid={props.testId}>
        <thead>
          <tr><th scope="col">Reason</th><th scope="col">Code</th><th scope="col" class="num">Messages</th><th scope="col" class="num">Share</th></tr>
        </thead>
        <tbody>
          {props.failures.map((f) => (
            <tr key={f.code ?? ''} data-code={f.code ?? ''}>
              <td>{f.title ?? 'No reason given'}</td>
              <td class="mono">{f.code ?? '—'}</td>
              <td class="num">{fmtNumber(f.count)}</td>
              <td class="num">{fmtRate(rate(f.count, props.total))}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
