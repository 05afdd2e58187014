// Each network's figures over the window.

import { count, percent } from '../../format';
import { Table } from '../../ui/table';
import type { Column } from '../../ui/table';
import type { SocialNetworkRow } from './types';
import { networkName } from './networks';

const COLUMNS: Column<SocialNetworkRow>[] = [
  { title: 'Network', cell: (row) => networkName(row.network) },
  { title: 'Followers', cell: (row) => count(row.followers), numeric: true },
  { title: 'Impressions', cell: (row) => count(row.impressions), numeric: true },
  { title: 'Engagement', cell: (row) => count(row.engagement), numeric: true },
  { title: 'Engagement rate', cell: (row) => percent(row.engagement_rate), numeric: true },
];

export function NetworksTable({ networks }: { networks: SocialNetworkRow[] }) {
  return <Table columns={COLUMNS} rows={networks} rowKey={(row) => row.network} />;
}
