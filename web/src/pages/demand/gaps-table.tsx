// The keywords a competitor ranks better for than the product, at the source's latest reading:
// the ones the product ranks nowhere for first, then the widest gaps.

import { count, day } from '../../format';
import { Table } from '../../ui/table';
import type { Column } from '../../ui/table';
import type { KeywordGap } from './types';
import { position, sourceLabel } from './words';

const COLUMNS: Column<KeywordGap>[] = [
  { title: 'Keyword', cell: (row) => row.keyword },
  { title: 'Your position', cell: (row) => (row.position === null ? 'not ranked' : position(row.position)), numeric: true },
  { title: 'Competitor', cell: (row) => row.competitor },
  { title: 'Their position', cell: (row) => position(row.competitor_position), numeric: true },
  { title: 'Volume', cell: (row) => (row.volume === null ? '—' : count(row.volume)), numeric: true },
  { title: 'Source', cell: (row) => sourceLabel(row.source) },
  { title: 'As of', cell: (row) => day(row.as_of) },
];

export function GapsTable({ gaps }: { gaps: KeywordGap[] }) {
  return <Table columns={COLUMNS} rows={gaps} rowKey={(row) => `${row.source}:${row.keyword}`} />;
}
