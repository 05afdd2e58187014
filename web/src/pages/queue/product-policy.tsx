// A product's spend policy: daily caps per network, the adult-adjacent flag (keeps it off Meta)
// and networks walled off by hand. Owners edit it; members read it.

import { useState } from 'preact/hooks';
import { api } from '../../api';
import { moneyOr } from '../../format';
import { Await, ErrorNote } from '../../ui/states';
import { useAction, useApi } from '../../ui/use-api';
import { centsToInput, parseCents } from '../../ui/money-input';
import type { Network, ProductPolicy } from './types';
import { networkName, networkOptions } from './words';

export function ProductPolicySection({
  slug,
  owner,
  onSaved,
}: {
  slug: string;
  owner: boolean;
  /** The caps block reads the same policy: refresh it after a save. */
  onSaved: () => void;
}) {
  const loaded = useApi<ProductPolicy>(`/products/${encodeURIComponent(slug)}/policy`);
  return (
    <section aria-labelledby="policy-title">
      <h2 id="policy-title">Spend policy</h2>
      <p class="muted">
        Checked when an agent proposes a budget and again when a person approves it. Leave a cap empty for no cap.
      </p>
      <Await loaded={loaded} what="Loading the policy">
        {(policy) =>
          owner ? (
            <PolicyForm
              policy={policy}
              onSaved={() => {
                loaded.reload();
                onSaved();
              }}
            />
          ) : (
            <PolicySummary policy={policy} />
          )
        }
      </Await>
    </section>
  );
}

function PolicySummary({ policy }: { policy: ProductPolicy }) {
  return (
    <>
      <dl class="policy-summary">
        {networkOptions.map(({ value, label }) => (
          <>
            <dt>{label} daily cap</dt>
            <dd>{moneyOr(policy.daily_caps[value], policy.currency, 'No cap')}</dd>
          </>
        ))}
        <dt>Adult-adjacent</dt>
        <dd>{policy.adult_adjacent ? 'Yes (kept off Meta Ads)' : 'No'}</dd>
        <dt>Walled networks</dt>
        <dd>{policy.walled_networks.length ? policy.walled_networks.map(networkName).join(', ') : 'None'}</dd>
      </dl>
      <p class="muted">Only an owner can change the policy.</p>
    </>
  );
}

type CapProblems = Partial<Record<Network, string>>;

function PolicyForm({ policy, onSaved }: { policy: ProductPolicy; onSaved: () => void }) {
  const [problems, setProblems] = useState<CapProblems>({});
  const [saved, setSaved] = useState(false);
  const save = useAction((body: unknown) => api.post<ProductPolicy>(`/products/${encodeURIComponent(policy.product_slug)}/policy`, body));

  const submit = async (event: Event) => {
    event.preventDefault();
    setSaved(false);
    const form = event.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    const caps: Partial<Record<Network, number | null>> = {};
    const found: CapProblems = {};
    for (const { value: network } of networkOptions) {
      const parsed = parseCents(String(data.get(`cap_${network}`) ?? ''), { positive: true });
      if ('problem' in parsed) found[network] = parsed.problem;
      else caps[network] = parsed.cents;
    }
    setProblems(found);
    if (Object.keys(found).length > 0) return;
    const answer = await save.run({
      daily_caps: caps,
      adult_adjacent: data.get('adult_adjacent') === 'on',
      blocked_networks: networkOptions.map((n) => n.value).filter((network) => data.get(`blocked_${network}`) === 'on'),
    });
    if (answer) {
      setSaved(true);
      onSaved();
    }
  };

  return (
    <form onSubmit={submit} class="policy-form" key={JSON.stringify(policy)}>
      <div class="grid">
        {networkOptions.map(({ value, label }) => (
          <label>
            {label} daily cap ({policy.currency})
            <input
              name={`cap_${value}`}
              inputMode="decimal"
              autoComplete="off"
              placeholder="No cap"
              defaultValue={centsToInput(policy.daily_caps[value])}
              aria-invalid={problems[value] ? true : undefined}
              onInput={() => problems[value] && setProblems({ ...problems, [value]: undefined })}
              aria-describedby={problems[value] ? `cap-${value}-problem` : undefined}
            />
            {problems[value] && <small id={`cap-${value}-problem`}>{problems[value]}</small>}
          </label>
        ))}
      </div>
      <fieldset>
        <legend>Walls</legend>
        <label>
          <input type="checkbox" name="adult_adjacent" defaultChecked={policy.adult_adjacent} />
          Adult-adjacent product (never runs on Meta Ads)
        </label>
        {networkOptions.map(({ value, label }) => (
          <label>
            <input type="checkbox" name={`blocked_${value}`} defaultChecked={policy.blocked_networks.includes(value)} />
            Block {label} for this product
          </label>
        ))}
      </fieldset>
      <ErrorNote error={save.error} />
      {saved && !save.busy && (
        <p role="status" class="trend-up">
          Policy saved.
        </p>
      )}
      <button type="submit" aria-busy={save.busy} disabled={save.busy}>
        Save policy
      </button>
    </form>
  );
}
