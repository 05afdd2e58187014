// `sql_b` (MySQL or MariaDB): a customer database, read through event maps; the shared database
// form, editor and card with MySQL's facts (a map may name another database of the server).

import { databaseModule, TABLE_WORDS } from '../database-kind';

export const sql_b = databaseModule({
  kind: 'sql_b',
  engine: 'MySQL or MariaDB',
  connectsByUri: false,
  defaultPort: 3306,
  namespace: 'Database (if not the connected one)',
  words: TABLE_WORDS,
});
