// How complete the attribution inputs are: what share of revenue has a channel, of identities
// a first touch, of events a channel, of revenue rows an identity. A low share means the
// channel numbers above rest on little, whatever they say.

import { count, money, percent } from '../../format';
import type { AttributionReport } from '../../widgets/report-types';

/** Health thresholds on the unattributed share of revenue (DESIGN: under 10%, 10-25%, over). */
function verdict(unattributedShare: number): { text: string; tone: string } {
  if (unattributedShare < 0.1) return { text: 'healthy', tone: 'trend-up' };
  if (unattributedShare <= 0.25) return { text: 'worth a look', tone: 'warn' };
  return { text: 'too much is unattributed', tone: 'trend-down' };
}

function Share({
  id,
  label,
  part,
  whole,
  detail,
}: {
  id: string;
  label: string;
  part: number;
  whole: number;
  detail: string;
}) {
  return (
    <li data-coverage={id}>
      <div class="bar-label">
        <span>{label}</span>
        <strong data-col="share">{whole > 0 ? percent(part / whole) : '—'}</strong>
      </div>
      <progress value={part} max={Math.max(whole, 1)} aria-label={`${label}: ${detail}`} />
      <small class="muted">{detail}</small>
    </li>
  );
}

export function CoveragePanel({ report, currency }: { report: AttributionReport; currency: string }) {
  const { coverage, totals } = report;
  const revenue = totals.revenue_cents;
  const unattributedShare = revenue > 0 ? totals.unattributed_cents / revenue : 0;
  const health = verdict(unattributedShare);
  return (
    <article class="coverage" aria-labelledby="coverage-heading">
      <h2 id="coverage-heading" class="section-title">
        Coverage
      </h2>
      {revenue > 0 && (
        <p>
          {percent(unattributedShare)} of revenue is unattributed:{' '}
          <span class={health.tone} data-coverage="verdict">
            {health.text}
          </span>
          .
        </p>
      )}
      <ul class="coverage-list">
        <Share
          id="revenue"
          label="Revenue with a channel"
          part={totals.attributed_first_cents}
          whole={revenue}
          detail={`${money(totals.attributed_first_cents, currency)} of ${money(revenue, currency)}`}
        />
        <Share
          id="identities"
          label="Identities with a first touch"
          part={coverage.identities_with_channel}
          whole={coverage.identities_total}
          detail={`${count(coverage.identities_with_channel)} of ${count(coverage.identities_total)} active in the window`}
        />
        <Share
          id="events"
          label="Events with a channel"
          part={coverage.events_with_channel}
          whole={coverage.events_total}
          detail={`${count(coverage.events_with_channel)} of ${count(coverage.events_total)}`}
        />
        <Share
          id="transactions"
          label="Revenue rows with an identity"
          part={coverage.transactions_with_identity}
          whole={coverage.transactions_total}
          detail={`${count(coverage.transactions_with_identity)} of ${count(coverage.transactions_total)}`}
        />
      </ul>
      {coverage.email_conflicts > 0 && (
        <p class="muted" data-testid="email-conflicts">
          {count(coverage.email_conflicts)} {coverage.email_conflicts === 1 ? 'email was' : 'emails were'} named
          by more than one user; their payments count for the first user who named them.
        </p>
      )}
    </article>
  );
}
