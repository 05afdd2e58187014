// One analysis: the overall score and each criterion's score, weight and note, or why there is
// none (the page did not load, the model failed).

import { when } from '../../format';
import type { Column } from '../../ui/table';
import { Table } from '../../ui/table';
import type { Analysis, Score } from './types';

export function AnalysisView({ analysis }: { analysis: Analysis }) {
  if (analysis.status === 'error') {
    return (
      <article class="analysis" data-analysis={analysis.id} data-status="error">
        <header>
          <strong>Not scored</strong> <small class="muted">{when(analysis.analyzed_at)}</small>
        </header>
        <p role="alert" class="error-note">
          {analysis.error}
        </p>
      </article>
    );
  }
  const columns: Column<Score>[] = [
    { title: 'Criterion', cell: (score) => score.label },
    { title: 'Weight', numeric: true, cell: (score) => String(score.weight) },
    { title: 'Score', numeric: true, cell: (score) => String(score.score) },
    { title: 'Note', cell: (score) => score.note ?? '' },
  ];
  return (
    <article class="analysis" data-analysis={analysis.id} data-status="ok">
      <header>
        <strong class="overall-score" data-score={analysis.overall_score ?? ''}>
          {analysis.overall_score} / 100
        </strong>{' '}
        <small class="muted">
          {when(analysis.analyzed_at)} · {analysis.model}
        </small>
      </header>
      {analysis.summary && <p class="analysis-summary">{analysis.summary}</p>}
      <Table columns={columns} rows={analysis.scores} rowKey={(score) => score.key} />
    </article>
  );
}
