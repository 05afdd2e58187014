-- Stored dashboards: a product's named widget specs (`GET/POST /products/{slug}/dashboards`).
--
-- `spec` is the DashboardSpec as JSON text, checked by `domain/src/dashboard_spec.rs` before it
-- is written and read back exactly as it was sent. `account_id` is the tenant every read and
-- write filters on, so another account's dashboard is simply not found. Deletion removes the
-- row (the history keeps what it was); a deleted product takes its dashboards with it. Lists
-- read a product's dashboards oldest first, hence the index by (product, created_at).
CREATE TABLE dashboards (
    id            TEXT PRIMARY KEY,
    account_id    TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    product_id    TEXT NOT NULL REFERENCES products(id) ON DELETE CASCADE,
    name          TEXT NOT NULL,
    description   TEXT,
    spec          TEXT NOT NULL,
    created_by    TEXT NOT NULL,
    updated_by    TEXT,
    created_at    BIGINT NOT NULL,
    updated_at    BIGINT NOT NULL
);
CREATE INDEX dashboards_by_product ON dashboards(product_id, created_at);
