// Cards out of the queue that a person can bring back: snoozed ones (until their time comes)
// and expired proposals, from `GET /queue?status=snoozed` and `?status=expired`; restore is
// offered on each.

import { useState } from 'preact/hooks';
import { api } from '../../api';
import { when } from '../../format';
import { href } from '../../router';
import type { Card, ProductRow } from '../../types';
import { ErrorNote } from '../../ui/states';
import { cardTypeName } from './words';

export function SetAsideList({
  cards,
  products,
  onRestored,
}: {
  cards: Card[];
  products: Map<string, ProductRow>;
  onRestored: () => void;
}) {
  if (cards.length === 0) return null;
  return (
    <section class="set-aside" aria-labelledby="set-aside-title">
      <h2 id="set-aside-title">Snoozed and expired</h2>
      <p class="muted">Out of the queue for now. Restore brings a card back to pending; it never approves it.</p>
      <ul class="set-aside-list">
        {cards.map((card) => (
          <SetAsideItem
            key={card.id}
            card={card}
            product={card.product_slug ? products.get(card.product_slug) : undefined}
            onRestored={onRestored}
          />
        ))}
      </ul>
    </section>
  );
}

function SetAsideItem({ card, product, onRestored }: { card: Card; product: ProductRow | undefined; onRestored: () => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const restore = async () => {
    setBusy(true);
    setError(null);
    try {
      await api.post(`/queue/${encodeURIComponent(card.id)}/restore`, {});
      onRestored();
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
      // A 404 means it already moved on (woke up, was resolved): the reload shows where.
      onRestored();
    } finally {
      setBusy(false);
    }
  };
  return (
    <li data-card={card.id}>
      <div>
        <strong>{card.headline}</strong>
        <br />
        <small class="muted">
          {cardTypeName(card.card_type)}
          {card.product_slug && (
            <>
              {' · '}
              <a href={href(`/p/${card.product_slug}`)}>{product?.name ?? card.product_slug}</a>
            </>
          )}
          {' · '}
          {card.status === 'snoozed' ? `Snoozed until ${when(card.snoozed_until)}` : `Expired ${when(card.expires_at)}`}
        </small>
        <ErrorNote error={error} />
      </div>
      <button type="button" class="small" onClick={restore} aria-busy={busy} disabled={busy} aria-label={`Restore ${card.headline}`}>
        Restore
      </button>
    </li>
  );
}
