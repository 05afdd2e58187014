// The Meta ads connection's campaign filter: which campaigns of the ad account are this
// product's, by the start of their name (ignoring case), for an ad account several products
// share. Shown as chips, edited by adding (one per line when pasting several) and removing;
// saving asks first, because the server drops the stored spend of every campaign the filter no
// longer takes, for all days, then says how many spend rows went. An empty filter reads every
// campaign again.

import { useCallback, useId, useState } from 'preact/hooks';
import { api } from '../../../../api';
import { ConfirmAction } from '../../../../ui/confirm-action';
import { useAction } from '../../../../ui/use-api';
import { prefixLines } from '../../social-key-forms';
import { kindPath } from '../../words';
import type { CampaignFilterSet } from './types';

/** The server's limits (`PREFIXES_MAX`, `PREFIX_MAX_CHARS`), so a mistake is caught before the round trip. */
const PREFIXES_MAX = 50;
const PREFIX_MAX_CHARS = 200;

/** "every campaign" / `"Brand", "Promo"`. */
function listWords(prefixes: string[]): string {
  return prefixes.length ? prefixes.map((p) => `“${p}”`).join(', ') : 'every campaign';
}

function sameList(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}

export function CampaignFilter({
  slug,
  id,
  saved,
  onSaved,
}: {
  slug: string;
  /** The panel's id, for the card's toggle (`aria-controls`). */
  id: string;
  /** The prefixes stored now (`config.campaign_name_prefixes`). */
  saved: string[];
  /** Re-reads the inventory, so the card's facts show the new filter. */
  onSaved: () => void;
}) {
  const inputId = useId();
  const [draft, setDraft] = useState<string[]>(saved);
  const [typed, setTyped] = useState('');
  const [tooMuch, setTooMuch] = useState<string | null>(null);
  const [result, setResult] = useState<CampaignFilterSet | null>(null);
  const save = useAction(
    useCallback(
      (prefixes: string[]) =>
        api.post<CampaignFilterSet>(
          `/products/${encodeURIComponent(slug)}/connections/${kindPath('social_ads_a')}/campaign-filter`,
          { campaign_name_prefixes: prefixes },
        ),
      [slug],
    ),
  );

  const add = () => {
    const fresh = prefixLines(typed).filter((prefix) => !draft.includes(prefix));
    const long = fresh.find((prefix) => prefix.length > PREFIX_MAX_CHARS);
    if (long) return setTooMuch(`Each prefix is at most ${PREFIX_MAX_CHARS} characters.`);
    if (draft.length + fresh.length > PREFIXES_MAX) {
      return setTooMuch(`A filter holds at most ${PREFIXES_MAX} prefixes.`);
    }
    setTooMuch(null);
    setDraft([...draft, ...fresh]);
    setTyped('');
  };
  const changed = !sameList(draft, saved);

  return (
    <section class="campaign-filter" id={id} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Campaign filter</h3>
      <p class="muted">
        When an ad account runs campaigns of several products, the filter keeps this product's: only campaigns whose name
        starts with one of these prefixes (ignoring case) are read. Without prefixes every campaign is.
      </p>
      <p data-filter="current">Saved: {listWords(saved)}.</p>
      {draft.length > 0 ? (
        <ul class="prefix-chips" aria-label="Prefixes">
          {draft.map((prefix) => (
            <li key={prefix} data-prefix={prefix}>
              <span>{prefix}</span>
              <button
                type="button"
                class="outline secondary small"
                aria-label={`Remove ${prefix}`}
                disabled={save.busy}
                onClick={() => setDraft(draft.filter((kept) => kept !== prefix))}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p class="muted" data-filter="empty">
          No prefixes: every campaign is read.
        </p>
      )}
      <label for={inputId}>Add prefixes</label>
      <div role="group" class="key-input">
        <textarea
          id={inputId}
          rows={1}
          spellcheck={false}
          value={typed}
          disabled={save.busy}
          aria-describedby={`${inputId}-hint`}
          onInput={(event) => setTyped((event.currentTarget as HTMLTextAreaElement).value)}
          onKeyDown={(event) => {
            // Enter adds; Shift+Enter starts another line, for several at once.
            if (event.key === 'Enter' && !event.shiftKey) {
              event.preventDefault();
              add();
            }
          }}
        />
        <button type="button" class="outline" disabled={save.busy || typed.trim() === ''} onClick={add}>
          Add
        </button>
      </div>
      <small id={`${inputId}-hint`}>One per line; Enter adds. A pasted list of lines adds each of them.</small>
      {tooMuch && (
        <p role="alert" class="error-note">
          {tooMuch}
        </p>
      )}
      <div class="row-actions">
        {changed ? (
          <ConfirmAction
            label="Save filter"
            buttonClass="small"
            confirmLabel={draft.length ? 'Save and drop other spend' : 'Save: read every campaign'}
            question={
              draft.length ? (
                <>
                  From now on only campaigns starting with {listWords(draft)} are read. The stored spend of this ad
                  account's other campaigns is dropped now, for every day, and leaves this product's reports.
                </>
              ) : (
                <>The filter is cleared: the next syncs read every campaign of the ad account again.</>
              )
            }
            busy={save.busy}
            error={save.error}
            onConfirm={async () => {
              setResult(null);
              const answer = await save.run(draft);
              if (answer) {
                setResult(answer);
                setDraft(answer.campaign_name_prefixes);
                onSaved();
              }
              return answer !== undefined;
            }}
          />
        ) : (
          <small class="muted">No changes to save.</small>
        )}
        {changed && (
          <button type="button" class="outline secondary small" disabled={save.busy} onClick={() => setDraft(saved)}>
            Undo changes
          </button>
        )}
      </div>
      {result && (
        <p role="status" class="trend-up" data-filter="dropped">
          Filter saved: {listWords(result.campaign_name_prefixes)}. {result.dropped_rows}{' '}
          {result.dropped_rows === 1 ? 'spend row' : 'spend rows'} dropped.
        </p>
      )}
    </section>
  );
}
