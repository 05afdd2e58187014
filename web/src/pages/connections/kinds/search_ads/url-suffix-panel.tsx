// The Google Ads account's final URL suffix: the tracking parameters Google appends to every
// ad's landing URL, which is how a paid click carries its campaign, ad group, keyword and ad
// into the events the ads report joins with spend. Read live when the panel opens (a read that
// cannot happen says why); writing changes every ad's landing URL, so it asks first, keeps the
// account's own parameters and appends only what is missing.

import { useCallback, useState } from 'preact/hooks';
import { api } from '../../../../api';
import { when } from '../../../../format';
import { ConfirmAction } from '../../../../ui/confirm-action';
import { Await } from '../../../../ui/states';
import { useAction, useApi } from '../../../../ui/use-api';
import { customerIdWords, kindPath } from '../../words';
import type { UrlSuffixReport, UrlSuffixWritten } from './types';

/** What each tracking parameter of the Google Ads URL suffix gives the ads report. */
const SUFFIX_PARAMETERS: Record<string, string> = {
  utm_source: 'the network (google)',
  utm_medium: 'that the click was paid (cpc)',
  utm_campaign: 'the campaign',
  utm_id: 'the ad group',
  utm_term: 'the keyword',
  utm_content: 'the ad',
};

/** `utm_term` -> "utm_term (the keyword)". */
function suffixParameterWords(name: string): string {
  const what = SUFFIX_PARAMETERS[name];
  return what ? `${name} (${what})` : name;
}

export function UrlSuffixPanel({ slug, id }: { slug: string; id: string }) {
  const path = `/products/${encodeURIComponent(slug)}/connections/${kindPath('search_ads')}/url-suffix`;
  const report = useApi<UrlSuffixReport>(path);
  const [written, setWritten] = useState<UrlSuffixWritten | null>(null);
  const write = useAction(useCallback(() => api.post<UrlSuffixWritten>(path), [path]));

  return (
    <section class="url-suffix" id={id} aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>URL suffix</h3>
      <p class="muted">
        Google appends the account's final URL suffix to every ad's landing URL. Payback needs its tracking parameters
        there so a paid click names its campaign, ad group, keyword and ad, and the ads report joins revenue to spend
        at every level.
      </p>
      <Await loaded={report} what="Reading the suffix from Google Ads">
        {(suffix) => (
          <>
            {suffix.read_error && (
              <p role="alert" class="error-note" data-suffix="read-error">
                Google Ads could not be read: {suffix.read_error}
              </p>
            )}
            <dl class="connection-facts">
              <dt>Account</dt>
              <dd>{suffix.customer_id ? customerIdWords(suffix.customer_id) : '—'}</dd>
              <dt>Auto-tagging</dt>
              <dd data-suffix="auto-tagging">
                {suffix.auto_tagging_enabled === null
                  ? 'unknown'
                  : suffix.auto_tagging_enabled
                    ? 'on (Google adds its click id, gclid, to every click)'
                    : 'off (no gclid on clicks; the parameters below still tag them)'}
              </dd>
              <dt>Current suffix</dt>
              <dd data-suffix="current">
                {suffix.read_error ? 'unknown' : suffix.final_url_suffix ? <code>{suffix.final_url_suffix}</code> : 'none set'}
              </dd>
              <dt>Missing</dt>
              <dd data-suffix="missing">
                {suffix.missing.length === 0
                  ? 'nothing: every parameter Payback needs is there'
                  : suffix.missing.map(suffixParameterWords).join(', ')}
              </dd>
              {suffix.missing.length > 0 && (
                <>
                  <dt>Proposed suffix</dt>
                  <dd data-suffix="proposed">
                    <code>{suffix.proposed_suffix}</code>
                  </dd>
                </>
              )}
              <dt>Written by Payback</dt>
              <dd>{when(suffix.deployed_at, 'never')}</dd>
            </dl>
            {suffix.complete ? (
              <p role="status" class="trend-up" data-suffix="complete">
                Complete: paid clicks carry everything the ads report needs.
              </p>
            ) : suffix.read_error ? (
              <p class="muted">
                Writing needs a live read of the account first.{' '}
                <button type="button" class="outline small" aria-busy={report.loading} onClick={report.reload}>
                  Read again
                </button>
              </p>
            ) : (
              <div class="row-actions">
                <ConfirmAction
                  label="Write suffix"
                  buttonClass="small"
                  confirmLabel="Write the suffix to Google Ads"
                  question={
                    <>
                      This changes the landing URL of every ad in this Google Ads account: from the next click on,
                      Google appends <code>{suffix.proposed_suffix}</code>. The account's own parameters stay as they
                      are; Payback adds {suffix.missing.join(', ')}.
                    </>
                  }
                  busy={write.busy}
                  error={write.error}
                  onConfirm={async () => {
                    setWritten(null);
                    const answer = await write.run();
                    if (answer) {
                      setWritten(answer);
                      report.reload();
                    }
                    return answer !== undefined;
                  }}
                />
              </div>
            )}
          </>
        )}
      </Await>
      {written && (
        <p role="status" class="trend-up" data-suffix="written">
          {written.already_complete
            ? 'Nothing to write: the suffix already had every parameter.'
            : `Suffix written: added ${written.added.join(', ')}.`}{' '}
          The account's suffix is now <code>{written.suffix}</code>.
        </p>
      )}
    </section>
  );
}
