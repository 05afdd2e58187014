// `docdb` (MongoDB): a customer document database, connected with one URI and read through
// event maps over collections and field paths.

import { databaseModule } from '../database-kind';

export const docdb = databaseModule({
  kind: 'docdb',
  engine: 'MongoDB',
  connectsByUri: true,
  defaultPort: 27017,
  namespace: null,
  words: { table: 'collection', tables: 'collections', field: 'field path' },
});
