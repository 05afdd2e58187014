// `sql_a` (PostgreSQL): a customer database, read through event maps; the shared database form,
// editor and card with PostgreSQL's facts.

import { databaseModule, TABLE_WORDS } from '../database-kind';

export const sql_a = databaseModule({
  kind: 'sql_a',
  engine: 'PostgreSQL',
  connectsByUri: false,
  defaultPort: 5432,
  namespace: 'Schema (if not public)',
  words: TABLE_WORDS,
});
