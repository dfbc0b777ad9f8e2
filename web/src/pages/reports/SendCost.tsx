/**
 * What a bulk send cost, as the reports list gives it (`cost`): billed messages by pricing category and market,
 * priced at Meta's list price from the company's rate card. Always said to be an estimate, never an invoice.
 */
import type { SendWizard } from '../../api-types';
import { fmtMoney as money, fmtNumber } from '../../format';

export function SendCost({ cost }: { cost: SendWizard['cost'] }) {
  const lines = cost.by_market.filter((l) => l.billable_count > 0);
  return (
    <details class="send-cost" data-testid="send-cost">
      <summary>
        Estimated cost <strong data-testid="estimated-cost">{cost.unknown_price_count === cost.billable_count && cost.billable_count > 0 ? 'unknown' : money(cost.estimated_cost, cost.currency)}</strong>
        {!cost.complete && <span> ({fmtNumber(cost.unknown_price_count)} billed messages have no list price on the rate card)</span>}
        <span class="muted small"> · Meta's list price, not an invoice</span>
      </summary>
      {lines.length === 0 ? (
        <p class="muted small">No billed message yet: WhatsApp charges a template message once it is delivered.</p>
      ) : (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">Billed messages by market and category</caption>
            <thead>
              <tr><th scope="col">Market</th><th scope="col">Category</th><th scope="col" class="num">Billed</th><th scope="col" class="num">List price</th><th scope="col" class="num">Cost</th></tr>
            </thead>
            <tbody>
              {lines.map((l) => (
                <tr key={`${l.market}-${l.category}`}>
                  <td>{l.market ?? 'Unknown'}</td>
                  <td>{l.category.replace(/_/g, ' ')}</td>
                  <td class="num">{fmtNumber(l.billable_count)}</td>
                  <td class="num">{money(l.price, cost.currency)}</td>
                  <td class="num">{money(l.cost, cost.currency)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p class="muted small">{cost.note} Rate card of {cost.rate_card_effective_date}{cost.rate_card_source === 'company' ? " (your company's)" : ''}.</p>
    </details>
  );
}
