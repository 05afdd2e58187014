// Where the product stands against its limits: per network the daily cap, the budget humans
// approved, yesterday's spend and whether a limit binds; and the portfolio ceiling.

import { money, moneyOr } from '../../format';
import { href } from '../../router';
import type { SpendCaps } from './types';
import { networkName } from './words';

export function CapsBlock({ caps, currency }: { caps: SpendCaps; currency: string }) {
  return (
    <section aria-labelledby="caps-title">
      <h2 id="caps-title">Caps</h2>
      <div class="table-scroll">
        <table class="striped caps-table">
          <thead>
            <tr>
              <th scope="col">Network</th>
              <th scope="col" class="num">Daily cap</th>
              <th scope="col" class="num">Approved budget</th>
              <th scope="col" class="num">Spend yesterday</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {caps.networks.map((row) => (
              <tr data-network={row.network}>
                <th scope="row">{networkName(row.network)}</th>
                <td class="num" data-cell="cap">{moneyOr(row.daily_cap_cents, currency, 'No cap')}</td>
                <td class="num">{moneyOr(row.approved_budget_cents, currency, 'None approved')}</td>
                <td class="num">{money(row.spend_last_day_cents, currency)}</td>
                <td>
                  {row.walled
                    ? 'Walled: no proposals on this network'
                    : row.binding
                      ? 'Binding: yesterday reached the limit'
                      : 'Room to spend'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p>
        Portfolio ceiling:{' '}
        <strong>{moneyOr(caps.portfolio_ceiling_cents, caps.portfolio_currency, 'none set')}</strong>
        {' · '}approved daily budgets in {caps.portfolio_currency} across the workspace:{' '}
        {money(caps.portfolio_committed_cents, caps.portfolio_currency)}
        {caps.portfolio_binding && (
          <>
            {' · '}
            <strong class="trend-down">the ceiling binds</strong>
          </>
        )}
        {' · '}
        <a href={href('/settings/policy')}>Portfolio policy</a>
      </p>
    </section>
  );
}
