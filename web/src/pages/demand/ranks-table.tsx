// Each SEO source's keywords at its latest reading, best position first.

import { count, day } from '../../format';
import { Table } from '../../ui/table';
import type { Column } from '../../ui/table';
import type { KeywordRank } from './types';
import { position, sourceLabel } from './words';

const COLUMNS: Column<KeywordRank>[] = [
  { title: 'Keyword', cell: (row) => row.keyword },
  { title: 'Position', cell: (row) => position(row.position), numeric: true },
  { title: 'Volume', cell: (row) => (row.volume === null ? '—' : count(row.volume)), numeric: true },
  {
    title: 'Page',
    cell: (row) =>
      row.url === null ? (
        '—'
      ) : (
        <a href={row.url} target="_blank" rel="noopener noreferrer">
          {row.url}
        </a>
      ),
  },
  { title: 'Source', cell: (row) => sourceLabel(row.source) },
  { title: 'As of', cell: (row) => day(row.as_of) },
];

export function RanksTable({ ranks }: { ranks: KeywordRank[] }) {
  return (
    <Table columns={COLUMNS} rows={ranks} rowKey={(row) => `${row.source}:${row.keyword}`} />
  );
}
