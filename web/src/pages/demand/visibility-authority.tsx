// AI-search visibility (the score, each engine, the site audit's health) and the domain's
// authority figures, each at its latest reading; a figure no source measures reads "—".

import { count, day } from '../../format';
import type { AiVisibility, Authority } from './types';
import { score } from './words';

export function VisibilityFigures({ visibility }: { visibility: AiVisibility }) {
  return (
    <>
      <dl class="demand-figures">
        <div data-figure="ai_score" data-value={visibility.score ?? ''}>
          <dt>AI visibility score</dt>
          <dd>{score(visibility.score)}</dd>
        </div>
        <div data-figure="site_health" data-value={visibility.site_health ?? ''}>
          <dt>Site health</dt>
          <dd>{score(visibility.site_health)}</dd>
        </div>
      </dl>
      {visibility.engines.length > 0 && (
        <ul class="demand-engines">
          {visibility.engines.map((engine) => (
            <li data-engine={engine.engine} data-value={engine.visibility}>
              <strong>{engine.engine}</strong> <span data-field="visibility">{score(engine.visibility)}</span>{' '}
              <small class="muted">as of {day(engine.as_of)}</small>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

const AUTHORITY: { key: keyof Authority; label: string }[] = [
  { key: 'domain_rating', label: 'Domain rating' },
  { key: 'backlinks', label: 'Backlinks' },
  { key: 'referring_domains', label: 'Referring domains' },
  { key: 'rank', label: 'Rank' },
  { key: 'organic_keywords', label: 'Organic keywords' },
  { key: 'organic_traffic', label: 'Organic traffic' },
];

export function AuthorityFigures({ authority }: { authority: Authority }) {
  return (
    <dl class="demand-figures">
      {AUTHORITY.map(({ key, label }) => {
        const value = authority[key];
        const shown = value === null ? '—' : key === 'domain_rating' ? score(value) : count(value);
        return (
          <div data-figure={key} data-value={value ?? ''}>
            <dt>{label}</dt>
            <dd>{shown}</dd>
          </div>
        );
      })}
    </dl>
  );
}
