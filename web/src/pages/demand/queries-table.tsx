// The window's search queries per source, most clicked first.

import { count } from '../../format';
import { Table } from '../../ui/table';
import type { Column } from '../../ui/table';
import type { SearchQuery } from './types';
import { position, sourceLabel } from './words';

const COLUMNS: Column<SearchQuery>[] = [
  { title: 'Query', cell: (row) => row.query },
  { title: 'Source', cell: (row) => sourceLabel(row.source) },
  { title: 'Clicks', cell: (row) => count(row.clicks), numeric: true },
  { title: 'Impressions', cell: (row) => count(row.impressions), numeric: true },
  { title: 'Position', cell: (row) => position(row.position), numeric: true },
];

export function QueriesTable({ queries }: { queries: SearchQuery[] }) {
  return (
    <Table columns={COLUMNS} rows={queries} rowKey={(row) => `${row.source}:${row.query}`} />
  );
}
