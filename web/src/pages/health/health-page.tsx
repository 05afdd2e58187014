// `#/p/:slug/health`: the product's audit. The score and grade on top, then each category with
// its checks: a status badge, what was checked, the evidence line, and the action that fixes a
// warn or fail (a skip shows its setup step; it does not count toward the score).

import { when } from '../../format';
import type { ProductRow } from '../../types';
import { ProductFrame } from '../../ui/product-frame';
import { Await } from '../../ui/states';
import { useApi } from '../../ui/use-api';
import { WindowPicker } from '../../ui/window-picker';
import type { CheckStatus, HealthCategory, HealthCheck, HealthReport } from './types';
import './health.css';

export function HealthPage({ slug, days }: { slug: string; days: number }) {
  return (
    <ProductFrame slug={slug} tab="/health" actions={<WindowPicker days={days} />}>
      {(product) => <HealthBody product={product} days={days} />}
    </ProductFrame>
  );
}

function HealthBody({ product, days }: { product: ProductRow; days: number }) {
  const report = useApi<HealthReport>(`/products/${encodeURIComponent(product.slug)}/health-report?days=${days}`);
  return (
    <Await loaded={report} what="Auditing the product">
      {(answer) => (
        <>
          <Score report={answer} />
          {answer.categories.map((category) => (
            <Category category={category} />
          ))}
        </>
      )}
    </Await>
  );
}

function Score({ report }: { report: HealthReport }) {
  return (
    <section class="health-score" aria-labelledby="health-score-title">
      <h2 id="health-score-title">Health score</h2>
      {report.score === null ? (
        <p>
          <strong data-score="none">No score yet.</strong> The score appears once the product has events, revenue, spend
          or a synced connection.
        </p>
      ) : (
        <p class="health-figures">
          <span class="health-number" data-score>
            {report.score}
          </span>
          <span class="muted"> / 100</span>
          {report.grade && (
            <span class={`health-grade grade-${report.grade.toLowerCase()}`} data-grade>
              {report.grade}
            </span>
          )}
        </p>
      )}
      <p class="muted" data-window={report.window_days}>
        Last {report.window_days} days, audited {when(report.generated_at)}. A pass counts 100, a warning 50, a failure 0;
        skipped checks do not count.
      </p>
    </section>
  );
}

function Category({ category }: { category: HealthCategory }) {
  const titleId = `health-${category.key}`;
  return (
    <section class="health-category" aria-labelledby={titleId} data-category={category.key}>
      <h2 id={titleId}>
        {category.label}{' '}
        <small class="muted" data-category-score>
          {category.score === null ? 'no score' : `${category.score} / 100`}
        </small>
      </h2>
      <ul class="health-checks">
        {category.checks.map((check) => (
          <CheckRow check={check} />
        ))}
      </ul>
    </section>
  );
}

const STATUS_WORDS: Record<CheckStatus, string> = { pass: 'Pass', warn: 'Warning', fail: 'Fail', skip: 'Skipped' };

function CheckRow({ check }: { check: HealthCheck }) {
  return (
    <li class={`health-check status-${check.status}`} data-check={check.id} data-status={check.status}>
      <div class="health-check-head">
        <span class={`health-badge badge-${check.status}`}>{STATUS_WORDS[check.status]}</span>
        <strong>{check.label}</strong>
      </div>
      <p class="health-evidence" data-field="evidence">
        {check.evidence}
      </p>
      {check.action && (
        <p class="health-action" data-field="action">
          <span class="muted">{check.status === 'skip' ? 'To set up: ' : 'To fix: '}</span>
          <span data-action-text>{check.action}</span>
        </p>
      )}
    </li>
  );
}
