// The product's cards waiting for a human; deciding happens on the queue page.

import { count, when } from '../format';
import { href } from '../router';
import type { Card, ProductRow } from '../types';
import { useWidgetData } from './data';
import { WidgetAwait } from './widget-state';

const SHOWN_CARDS = 5;

export function QueueWidget({ product }: { product: ProductRow }) {
  const loaded = useWidgetData<Card[]>('/queue');
  return (
    <WidgetAwait loaded={loaded} what="Loading the queue">
      {(cards) => {
        const mine = cards.filter((card) => card.product_slug === product.slug);
        if (mine.length === 0) {
          return <p class="muted">Nothing waits for a decision on {product.name}.</p>;
        }
        return (
          <>
            <ul class="queue-list">
              {mine.slice(0, SHOWN_CARDS).map((card) => (
                <li data-card={card.id}>
                  <strong>{card.headline}</strong>
                  <br />
                  <small class="muted">
                    {card.card_type.replace('_', ' ')} · {card.metric_line} · {when(card.created_at)}
                  </small>
                </li>
              ))}
            </ul>
            <p class="widget-foot">
              <a href={href('/queue')}>
                {mine.length > SHOWN_CARDS ? `All ${count(mine.length)} pending cards` : 'Decide in the queue'} →
              </a>
            </p>
          </>
        );
      }}
    </WidgetAwait>
  );
}
