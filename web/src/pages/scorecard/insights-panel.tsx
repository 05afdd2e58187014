// Week-on-week insights of the last two completed weeks: a line per row that moved by 25% or
// more, and the model's cards when the server has a model gateway. Read-only: nothing here
// changes spend or queues anything.

import { useApi } from '../../ui/use-api';
import { Await } from '../../ui/states';
import type { Insights } from './types';

export function InsightsPanel({ base }: { base: string; currency: string }) {
  const loaded = useApi<Insights>(`${base}/insights`);
  return (
    <section class="scorecard-insights" aria-label="Insights">
      <h2>Insights</h2>
      <Await loaded={loaded} what="Reading the last two weeks">
        {(insights) => (
          <>
            {insights.highlights.length === 0 ? (
              <p class="muted">No row moved by 25% or more between the last two completed weeks.</p>
            ) : (
              <ul>
                {insights.highlights.map((h) => (
                  <li data-highlight={h.metric} class={h.direction === 'up' ? 'up' : 'down'}>
                    {h.text}
                  </li>
                ))}
              </ul>
            )}
            {insights.cards.map((card) => (
              <article class="scorecard-card">
                <strong>{card.title}</strong>
                <p>{card.text}</p>
              </article>
            ))}
            {insights.ai && insights.model && <p class="muted">Cards written by {insights.model}.</p>}
          </>
        )}
      </Await>
    </section>
  );
}
