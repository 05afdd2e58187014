// The audit history as a table, newest first: who did what, through which door, to which card
// or product, with the raw payload one click away. Used on its own page and inside a product.

import { query as encodeQuery } from '../../api';
import { when } from '../../format';
import { href, setQuery } from '../../router';
import type { ProductRow } from '../../types';
import { Await, Empty } from '../../ui/states';
import type { Column } from '../../ui/table';
import { Table } from '../../ui/table';
import { useApi } from '../../ui/use-api';
import type { HistoryEvent } from './types';
import { actionWords, cardTypeName } from './words';

const dayChoices = [1, 7, 30, 90, 365];
const limitChoices = [50, 100, 500, 1000];

const viaNames: Record<string, string> = {
  dashboard: 'Dashboard',
  mcp: 'MCP',
  api: 'API',
  job: 'Job',
  chat: 'Chat',
};

function actorWords(actor: string): string {
  if (actor === 'keeper') return 'AI agent';
  if (actor === 'system') return 'System';
  if (actor === 'policy') return 'Policy engine';
  return actor;
}

/**
 * `product` fixes the list to one product (the product's History tab); otherwise it is a filter.
 * `offerAccountEvents` adds the switch for the account's own events (`?account=1`, sent as
 * `include=account`, which the API answers for owners only and never with a product).
 */
export function HistoryList({
  query,
  product,
  products,
  offerAccountEvents,
}: {
  query: URLSearchParams;
  product?: string;
  products?: ProductRow[];
  offerAccountEvents?: boolean;
}) {
  const days = query.get('days') ?? '30';
  const limit = query.get('limit') ?? '100';
  const withAccount = !product && offerAccountEvents === true && query.get('account') === '1';
  const productFilter = product ?? (withAccount ? '' : query.get('product') ?? '');
  const names = new Map((products ?? []).map((row) => [row.slug, row.name]));
  const loaded = useApi<HistoryEvent[]>(
    `/history${encodeQuery({ product: productFilter, days, limit, include: withAccount ? 'account' : '' })}`,
  );

  const columns: Column<HistoryEvent>[] = [
    { title: 'When', cell: (event) => <time dateTime={event.occurred_at}>{when(event.occurred_at)}</time> },
    { title: 'Who', cell: (event) => actorWords(event.actor) },
    { title: 'Via', cell: (event) => viaNames[event.via] ?? event.via },
    {
      title: 'Action',
      cell: (event) => (
        <>
          {actionWords(event.action)}
          <br />
          <small class="muted">
            <code>{event.action}</code>
          </small>
        </>
      ),
    },
    ...(product
      ? []
      : [
          {
            title: 'Product',
            cell: (event: HistoryEvent) =>
              event.product_slug ? (
                <a href={href(`/p/${event.product_slug}/history`)}>{names.get(event.product_slug) ?? event.product_slug}</a>
              ) : (
                <span class="muted">Account</span>
              ),
          },
        ]),
    {
      title: 'Card',
      cell: (event) =>
        event.card_headline ? (
          <>
            {event.card_headline}
            <br />
            <small class="muted">{cardTypeName(event.card_type)}</small>
          </>
        ) : (
          '—'
        ),
    },
    { title: 'Details', cell: (event) => <Payload payload={event.payload} /> },
  ];

  return (
    <>
      <form class="filters" onSubmit={(event) => event.preventDefault()}>
        {!product && products && (
          <label>
            Product
            <select
              value={productFilter}
              onChange={(event) => setQuery({ product: (event.currentTarget as HTMLSelectElement).value, account: null })}
            >
              <option value="">All products</option>
              {products.map((row) => (
                <option value={row.slug}>{row.name}</option>
              ))}
            </select>
          </label>
        )}
        {!product && offerAccountEvents && (
          <label>
            <input
              type="checkbox"
              role="switch"
              name="account_events"
              checked={withAccount}
              onChange={(event) =>
                setQuery({ account: (event.currentTarget as HTMLInputElement).checked ? '1' : null, product: null })
              }
            />
            Account events too (team, API keys, profiles, sign-up)
          </label>
        )}
        <label>
          Window
          <select value={days} onChange={(event) => setQuery({ days: (event.currentTarget as HTMLSelectElement).value })}>
            {dayChoices.map((choice) => (
              <option value={String(choice)}>{choice === 1 ? 'Today' : `Last ${choice} days`}</option>
            ))}
          </select>
        </label>
        <label>
          Show at most
          <select value={limit} onChange={(event) => setQuery({ limit: (event.currentTarget as HTMLSelectElement).value })}>
            {limitChoices.map((choice) => (
              <option value={String(choice)}>{choice} events</option>
            ))}
          </select>
        </label>
      </form>
      <Await loaded={loaded} what="Loading the history">
        {(events) =>
          events.length === 0 ? (
            <Empty title="No history in this window">
              <p>
                Proposals, approvals, policy changes and other edits are recorded here as they happen. Try a longer window.
              </p>
            </Empty>
          ) : (
            <Table columns={columns} rows={events} rowKey={(event) => String(event.id)} caption={`${events.length} events, newest first`} />
          )
        }
      </Await>
    </>
  );
}

function Payload({ payload }: { payload: unknown }) {
  const empty = payload === null || (typeof payload === 'object' && Object.keys(payload as object).length === 0);
  if (empty) return <span class="muted">—</span>;
  return (
    <details class="payload">
      <summary>Payload</summary>
      <pre>{JSON.stringify(payload, null, 2)}</pre>
    </details>
  );
}
