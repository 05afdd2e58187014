// The product's conversion definitions with what each counted in the last 30 days, and the
// edit and delete controls for each.

import { useCallback } from 'preact/hooks';
import { api } from '../../api';
import { count, money } from '../../format';
import { Table } from '../../ui/table';
import { useAction } from '../../ui/use-api';
import { ConfirmAction } from '../../ui/confirm-action';
import type { Conversion, ListedConversion } from './types';

export function ConversionList({
  slug,
  currency,
  conversions,
  onEdit,
  onDeleted,
}: {
  slug: string;
  currency: string;
  conversions: ListedConversion[];
  onEdit: (conversion: Conversion) => void;
  onDeleted: (key: string) => void;
}) {
  return (
    <Table
      caption="Conversion definitions, with the last 30 days"
      rows={conversions}
      rowKey={(c) => c.key}
      columns={[
        {
          title: 'Conversion',
          cell: (c) => (
            <>
              <strong>{c.label}</strong> <code>{c.key}</code>
              {!c.is_active && <small class="muted"> inactive</small>}
            </>
          ),
        },
        { title: 'Tier', cell: (c) => c.tier },
        {
          title: 'Counts',
          cell: (c) => (
            <>
              {c.stage} events
              {c.event_name && (
                <>
                  {' '}
                  named <code>{c.event_name}</code>
                </>
              )}
              {c.source && <> from {c.source}</>}
            </>
          ),
        },
        {
          title: 'Value',
          cell: (c) => (
            <>
              {valueWords(c, currency)}
              {c.target_cpa_cents !== null && (
                <small class="muted funnel-rate">target {money(c.target_cpa_cents, currency)} each</small>
              )}
            </>
          ),
        },
        { title: '30 days', numeric: true, cell: (c) => count(c.volume_30d) },
        { title: 'Value, 30 days', numeric: true, cell: (c) => money(c.value_30d_cents, currency) },
        {
          title: 'Actions',
          cell: (c) => (
            <div class="funnel-buttons">
              <button type="button" class="outline small" onClick={() => onEdit(c)} aria-label={`Edit ${c.key}`}>
                Edit
              </button>
              <DeleteConversion slug={slug} conversionKey={c.key} label={c.label} onDeleted={onDeleted} />
            </div>
          ),
        },
      ]}
    />
  );
}

function valueWords(c: Conversion, currency: string): string {
  if (c.value_mode === 'fixed') return `${money(c.fixed_value_cents ?? 0, currency)} each`;
  if (c.value_mode === 'transaction') return "the event's amount";
  return 'none';
}

function DeleteConversion({
  slug,
  conversionKey,
  label,
  onDeleted,
}: {
  slug: string;
  conversionKey: string;
  label: string;
  onDeleted: (key: string) => void;
}) {
  const remove = useAction(
    useCallback(
      () =>
        api.post<{ ok: boolean }>(
          `/products/${encodeURIComponent(slug)}/conversions/${encodeURIComponent(conversionKey)}/delete`,
        ),
      [slug, conversionKey],
    ),
  );
  return (
    <ConfirmAction
      label="Delete"
      confirmLabel={`Delete ${conversionKey}`}
      question={`Delete “${label}”? Its events stay; only this definition and its report go.`}
      busy={remove.busy}
      error={remove.error}
      onConfirm={async () => {
        const answer = await remove.run();
        if (answer) onDeleted(conversionKey);
        return answer !== undefined;
      }}
    />
  );
}
