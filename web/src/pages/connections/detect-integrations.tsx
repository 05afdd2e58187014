// "Detect integrations" on a product's Connections page: Payback fetches the product's site (its
// domain, its oldest landing page, or a URL typed here) and lists what the site loads, each
// marked connected or not in this product, with the platform it is built on; what is loaded
// but not connected is what to connect next.

import { useCallback, useState } from 'preact/hooks';
import { api } from '../../api';
import { ErrorNote } from '../../ui/states';
import { useAction } from '../../ui/use-api';

interface Integration {
  key: string;
  name: string;
  category: string;
  ids: string[];
  connected: boolean;
}

interface Detection {
  url: string;
  final_url: string;
  domain: string;
  detected_count: number;
  integrations: Integration[];
  platform: { key: string; name: string } | null;
  summary: string;
}

/** How a category (`ad_pixel`, `first_party`, ...) reads in the list. */
function categoryWords(category: string): string {
  if (category === 'first_party') return 'Payback snippet';
  if (category === 'crm') return 'CRM';
  return category.replace(/_/g, ' ');
}

export function DetectIntegrations({ slug }: { slug: string }) {
  const [url, setUrl] = useState('');
  const [found, setFound] = useState<Detection | null>(null);
  const detect = useAction(
    useCallback(
      (page: string) =>
        api.post<Detection>(`/products/${slug}/detect-integrations`, page.trim() === '' ? {} : { url: page.trim() }),
      [slug],
    ),
  );
  return (
    <section aria-labelledby="detect-integrations-title" class="detect-integrations" data-part="detect-integrations">
      <h2 id="detect-integrations-title">Detect integrations</h2>
      <p class="muted">
        Payback reads your site's page (the product's domain or its first landing page, unless you give another URL)
        and lists the analytics, tags, ad pixels, recorders and payments it loads.
      </p>
      <form
        class="connection-form"
        onSubmit={async (event) => {
          event.preventDefault();
          const answer = await detect.run(url);
          if (answer) setFound(answer);
        }}
      >
        <label>
          Page URL (optional)
          <input
            type="url"
            name="url"
            placeholder="https://your-site.example/"
            maxLength={2048}
            value={url}
            disabled={detect.busy}
            onInput={(event) => setUrl((event.currentTarget as HTMLInputElement).value)}
          />
        </label>
        <button type="submit" aria-busy={detect.busy} disabled={detect.busy}>
          Detect integrations
        </button>
        <ErrorNote error={detect.error} />
      </form>
      {found && (
        <div aria-live="polite" data-detection={found.domain}>
          <p data-field="summary">{found.summary}</p>
          {found.integrations.length > 0 && (
            <ul class="detected">
              {found.integrations.map((integration) => (
                <li
                  key={integration.key}
                  data-integration={integration.key}
                  data-connected={integration.connected ? 'yes' : 'no'}
                >
                  <strong>{integration.name}</strong>{' '}
                  <span class="muted">({categoryWords(integration.category)})</span>
                  {integration.ids.length > 0 && <> · {integration.ids.join(', ')}</>} ·{' '}
                  {integration.connected ? 'connected' : <span class="trend-down">not connected</span>}
                </li>
              ))}
            </ul>
          )}
          {found.platform && <p data-field="platform">Built on {found.platform.name}.</p>}
        </div>
      )}
    </section>
  );
}
