// The workspace's portfolio ceiling: the most all approved daily budgets may add up to, in one
// currency, and the approved budgets that count against it. Owners edit it.

import { useState } from 'preact/hooks';
import { useAccount } from '../../account';
import { api } from '../../api';
import { money, moneyOr, when } from '../../format';
import { href } from '../../router';
import { isOwner } from '../../session';
import { Page } from '../../ui/page';
import { Await, Empty, ErrorNote } from '../../ui/states';
import { Table } from '../../ui/table';
import { useAction, useApi } from '../../ui/use-api';
import { centsToInput, parseCents } from '../../ui/money-input';
import type { PortfolioPolicy } from './types';
import { networkName } from './words';

export function PortfolioPolicyPage() {
  const { account } = useAccount();
  const loaded = useApi<PortfolioPolicy>('/policy');
  return (
    <Page title="Portfolio policy">
      <p class="muted">
        The ceiling is checked whenever a spend proposal is raised or approved: the approved daily budgets of every
        product and network, with the new one in place, must stay at or under it. Per-product caps live on each
        product's Spend page.
      </p>
      <Await loaded={loaded} what="Loading the portfolio policy">
        {(policy) => (
          <>
            <section aria-labelledby="ceiling-title">
              <h2 id="ceiling-title">Ceiling</h2>
              <p>
                Ceiling: <strong data-value="ceiling">{moneyOr(policy.portfolio_ceiling_cents, policy.currency, 'none set')}</strong>
                {' · '}committed: <strong data-value="committed">{money(policy.committed_daily_cents, policy.currency)}</strong> a day
              </p>
              {isOwner(account) ? (
                <CeilingForm policy={policy} onSaved={loaded.reload} />
              ) : (
                <p class="muted">Only an owner can change the ceiling.</p>
              )}
            </section>
            <Budgets policy={policy} />
          </>
        )}
      </Await>
    </Page>
  );
}

function CeilingForm({ policy, onSaved }: { policy: PortfolioPolicy; onSaved: () => void }) {
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const save = useAction((body: unknown) => api.post<PortfolioPolicy>('/policy', body));

  const submit = async (event: Event) => {
    event.preventDefault();
    setSaved(false);
    const data = new FormData(event.currentTarget as HTMLFormElement);
    const parsed = parseCents(String(data.get('ceiling') ?? ''), { positive: true });
    if ('problem' in parsed) {
      setProblem(parsed.problem);
      return;
    }
    setProblem(null);
    const currency = String(data.get('currency') ?? '').trim().toUpperCase();
    const answer = await save.run({ portfolio_ceiling_cents: parsed.cents, currency: currency || undefined });
    if (answer) {
      setSaved(true);
      onSaved();
    }
  };

  return (
    <form onSubmit={submit} key={JSON.stringify(policy)}>
      <div class="grid">
        <div>
          <label for="ceiling-input">Daily ceiling</label>
          <input
            id="ceiling-input"
            name="ceiling"
            inputMode="decimal"
            autoComplete="off"
            placeholder="No ceiling"
            defaultValue={centsToInput(policy.portfolio_ceiling_cents)}
            aria-invalid={problem ? true : undefined}
            aria-describedby="ceiling-hint"
          />
          {/* Hints sit outside the label so the field's name stays just its label. */}
          <small id="ceiling-hint">{problem ?? 'In currency units, e.g. 500 or 500.50. Leave empty for no ceiling.'}</small>
        </div>
        <div>
          <label for="ceiling-currency">Currency</label>
          <input
            id="ceiling-currency"
            name="currency"
            defaultValue={policy.currency}
            minLength={3}
            maxLength={3}
            pattern="[A-Za-z]{3}"
            required
            aria-describedby="currency-hint"
          />
          <small id="currency-hint">Products billing in another currency cannot raise budgets while a ceiling is set.</small>
        </div>
      </div>
      <ErrorNote error={save.error} />
      {saved && !save.busy && (
        <p role="status" class="trend-up">
          Ceiling saved.
        </p>
      )}
      <button type="submit" aria-busy={save.busy} disabled={save.busy}>
        Save ceiling
      </button>
    </form>
  );
}

function Budgets({ policy }: { policy: PortfolioPolicy }) {
  return (
    <section aria-labelledby="budgets-title">
      <h2 id="budgets-title">Approved daily budgets</h2>
      {policy.budgets.length === 0 ? (
        <Empty title="No budgets approved yet">
          <p>
            A budget counts here once a person approves a spend proposal in the <a href={href('/queue')}>queue</a>.
          </p>
        </Empty>
      ) : (
        <Table
          rows={policy.budgets}
          rowKey={(budget) => budget.card_id}
          columns={[
            { title: 'Product', cell: (b) => <a href={href(`/p/${b.product_slug}/spend`)}>{b.product_slug}</a> },
            { title: 'Network', cell: (b) => networkName(b.network) },
            { title: 'Daily budget', cell: (b) => money(b.daily_cents, b.currency), numeric: true },
            { title: 'On the network', cell: (b) => (b.applied ? 'Applied' : 'Set by hand (no connector applied it)') },
            { title: 'Approved', cell: (b) => when(b.set_at) },
          ]}
        />
      )}
    </section>
  );
}
