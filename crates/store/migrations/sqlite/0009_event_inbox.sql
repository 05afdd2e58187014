-- Accepted batches wait in an inbox until the writer folds them into `events` and the tables
-- reports read. On SQLite the inbox is a database file of its own (`<database>.inbox`, its
-- schema in `migrations/sqlite-inbox`), so appending never waits for the one writer of this
-- file; see `store/src/ingest/inbox.rs`.

-- A batch the database refused while folding it (it was valid when accepted, so this means a
-- defect or a product deleted meanwhile): kept with the error instead of blocking the batches
-- behind it. No foreign key: the product may be what went missing.
CREATE TABLE ingest_failures (
    inbox_id     BIGINT NOT NULL,
    product_id   TEXT NOT NULL,
    received_at  BIGINT NOT NULL,
    payload      TEXT NOT NULL,
    error        TEXT NOT NULL
);
CREATE INDEX ingest_failures_by_product ON ingest_failures(product_id);
