// A new dashboard from a prompt: the composer answers a spec (nothing saved), drawn here with
// the product's real numbers; the person names it and saves exactly that spec. A blank one can
// be started with just a name.

import { useState } from 'preact/hooks';
import { api } from '../../api';
import type { ProductRow } from '../../types';
import { ErrorNote } from '../../ui/states';
import { useAction } from '../../ui/use-api';
import { WidgetGrid } from '../../widgets';
import { createDashboard } from './requests';
import type { Dashboard, Generated } from './types';
import { DESCRIPTION_MAX, NAME_MAX, PROMPT_MAX, PROMPT_MIN } from './types';

export function CreateDashboard({ product, onCreated }: { product: ProductRow; onCreated: (d: Dashboard) => void }) {
  const slug = product.slug;
  const [prompt, setPrompt] = useState('');
  const [preview, setPreview] = useState<Generated | null>(null);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');

  const generate = useAction(async () => {
    const answer = await api.post<Generated>(`/products/${encodeURIComponent(slug)}/dashboards/generate`, {
      prompt: prompt.trim(),
    });
    setPreview(answer);
    setName(answer.name);
  });
  const save = useAction(async () => {
    const spec = preview?.spec ?? { widgets: [] };
    const text = description.trim();
    onCreated(await createDashboard(slug, { name: name.trim(), spec, ...(text ? { description: text } : {}) }));
  });

  return (
    <section aria-labelledby="new-dashboard-title" class="new-dashboard">
      <h2 id="new-dashboard-title">New dashboard</h2>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void generate.run();
        }}
      >
        <label for="dashboard-prompt">What do you want to see?</label>
        <textarea
          id="dashboard-prompt"
          name="prompt"
          required
          minLength={PROMPT_MIN}
          maxLength={PROMPT_MAX}
          placeholder="CAC and revenue by channel, last 90 days"
          value={prompt}
          aria-describedby="dashboard-prompt-hint"
          onInput={(e) => setPrompt((e.currentTarget as HTMLTextAreaElement).value)}
        />
        <small id="dashboard-prompt-hint">
          Name numbers (spend, revenue, CAC, LTV, visits, leads), views (funnel, payback, channels, queue) and a
          window (90 days, quarterly). The same words always give the same dashboard.
        </small>
        <button type="submit" aria-busy={generate.busy} disabled={generate.busy}>
          Preview dashboard
        </button>
        <ErrorNote error={generate.error} />
      </form>

      {preview && (
        <div class="dashboard-preview" aria-label="Preview">
          <h3>Preview</h3>
          <p data-matched>
            {preview.matched.length === 0
              ? 'No known words matched: the preview holds a note listing the words that work.'
              : `Matched: ${preview.matched.join(', ')}`}
          </p>
          <WidgetGrid spec={preview.spec} product={product} />
          <form
            class="save-preview"
            onSubmit={(event) => {
              event.preventDefault();
              void save.run();
            }}
          >
            <label>
              Name
              <input
                name="name"
                required
                maxLength={NAME_MAX}
                value={name}
                onInput={(e) => setName((e.currentTarget as HTMLInputElement).value)}
              />
            </label>
            <label>
              Description <span class="muted">(optional)</span>
              <input
                name="description"
                maxLength={DESCRIPTION_MAX}
                value={description}
                onInput={(e) => setDescription((e.currentTarget as HTMLInputElement).value)}
              />
            </label>
            <div class="row-actions">
              <button type="submit" aria-busy={save.busy} disabled={save.busy || !name.trim()}>
                Save dashboard
              </button>
              <button type="button" class="outline secondary" onClick={() => setPreview(null)}>
                Discard preview
              </button>
            </div>
            <ErrorNote error={save.error} />
          </form>
        </div>
      )}
      {!preview && <BlankDashboard slug={slug} onCreated={onCreated} />}
    </section>
  );
}

function BlankDashboard({ slug, onCreated }: { slug: string; onCreated: (d: Dashboard) => void }) {
  const [name, setName] = useState('');
  const create = useAction(async () => onCreated(await createDashboard(slug, { name: name.trim() })));
  return (
    <details class="blank-dashboard">
      <summary>Or start a blank dashboard</summary>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void create.run();
        }}
      >
        <div role="group">
          <input
            name="blank-name"
            aria-label="Name of the blank dashboard"
            placeholder="Name"
            required
            maxLength={NAME_MAX}
            value={name}
            onInput={(e) => setName((e.currentTarget as HTMLInputElement).value)}
          />
          <button type="submit" aria-busy={create.busy} disabled={create.busy}>
            Create blank
          </button>
        </div>
        <ErrorNote error={create.error} />
      </form>
    </details>
  );
}
