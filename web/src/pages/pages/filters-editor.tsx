// The exclude filters: each one's pattern with a switch and a delete, and a form adding one.
// A pattern without `*` is a path prefix by whole segments; with `*`, a glob over the path.

import { useState } from 'preact/hooks';
import { Field } from '../../ui/field';
import { ErrorNote } from '../../ui/states';
import { useAction } from '../../ui/use-api';
import { createFilter, deleteFilter, updateFilter } from './requests';
import type { ExcludeFilter } from './types';
import { PATTERN_MAX } from './types';

export function FiltersEditor({
  slug,
  filters,
  onChanged,
}: {
  slug: string;
  filters: ExcludeFilter[];
  onChanged: () => void;
}) {
  const [pattern, setPattern] = useState('');
  const add = useAction(async () => {
    await createFilter(slug, pattern.trim());
    setPattern('');
    onChanged();
  });
  return (
    <div class="landing-filters">
      {filters.length === 0 ? (
        <p class="muted">No filters: every page counts.</p>
      ) : (
        <ul class="filter-list">
          {filters.map((filter) => (
            <FilterRow key={filter.id} slug={slug} filter={filter} onChanged={onChanged} />
          ))}
        </ul>
      )}
      <form
        aria-label="Add a filter"
        onSubmit={(event) => {
          event.preventDefault();
          void add.run();
        }}
      >
        <Field
          label="Exclude pattern"
          name="pattern"
          required
          maxLength={PATTERN_MAX}
          placeholder="/blog or *.pdf"
          hint="Starts with / or *. /blog hides /blog and /blog/…, not /blogger; * matches any characters."
          value={pattern}
          onInput={(e) => setPattern((e.currentTarget as HTMLInputElement).value)}
        />
        <button type="submit" aria-busy={add.busy} disabled={add.busy}>
          Add filter
        </button>
        <ErrorNote error={add.error} />
      </form>
    </div>
  );
}

function FilterRow({ slug, filter, onChanged }: { slug: string; filter: ExcludeFilter; onChanged: () => void }) {
  // The switch follows the click at once; a refusal puts it back.
  const [enabled, setEnabled] = useState(filter.enabled);
  const toggle = useAction(async (on: boolean) => {
    setEnabled(on);
    try {
      await updateFilter(slug, filter.id, { enabled: on });
    } catch (failure) {
      setEnabled(!on);
      throw failure;
    }
    onChanged();
  });
  const remove = useAction(async () => {
    await deleteFilter(slug, filter.id);
    onChanged();
  });
  return (
    <li data-filter={filter.pattern}>
      <label>
        <input
          type="checkbox"
          role="switch"
          checked={enabled}
          disabled={toggle.busy}
          aria-label={`Filter ${filter.pattern} enabled`}
          onChange={(e) => void toggle.run((e.currentTarget as HTMLInputElement).checked)}
        />
        <code>{filter.pattern}</code>
      </label>
      <button
        type="button"
        class="outline secondary small"
        aria-label={`Delete filter ${filter.pattern}`}
        disabled={remove.busy}
        onClick={() => void remove.run()}
      >
        Delete
      </button>
      <ErrorNote error={toggle.error ?? remove.error} />
    </li>
  );
}
