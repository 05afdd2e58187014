-- The SQLite inbox file: accepted batches waiting to be folded into the main database. One
-- row per batch, appended in order; a request is answered once its row is committed here.
CREATE TABLE event_inbox (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    product_id   TEXT NOT NULL,
    received_at  BIGINT NOT NULL,
    payload      TEXT NOT NULL
);
CREATE INDEX event_inbox_by_product ON event_inbox(product_id, id);
