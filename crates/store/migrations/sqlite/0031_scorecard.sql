-- The weekly scorecard (issue 40): a product's layout, its manual cells, its share link and the
-- spreadsheet it syncs to. Every figure of the matrix is read from the reports' daily tables;
-- only what a person typed or chose lives here.
--
-- `scorecard_layouts`: one per product, stored by the first read (the `default` template's
-- available rows) and replaced whole by a save or a template. `sections` is the checked
-- layout as JSON text; `template` the template last applied (NULL after a custom save).
CREATE TABLE scorecard_layouts (
    product_id  TEXT PRIMARY KEY REFERENCES products(id) ON DELETE CASCADE,
    account_id  TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    sections    TEXT NOT NULL,
    template    TEXT,
    updated_at  BIGINT NOT NULL
);

-- Values typed into a manual row, one per (product, row key, ISO week `YYYY-Www`); a NULL
-- value is a cell cleared on purpose. A row removed from the layout keeps its cells, so
-- adding it back brings them back.
CREATE TABLE scorecard_manual_cells (
    product_id  TEXT NOT NULL REFERENCES products(id) ON DELETE CASCADE,
    metric      TEXT NOT NULL,
    week        TEXT NOT NULL,
    value       REAL,
    updated_at  BIGINT NOT NULL,
    PRIMARY KEY (product_id, metric, week)
);

-- The live share link of a product's scorecard, at most one. The public route finds it by the
-- SHA-256 of the token (`token_hash`), never by the token; the token is kept so sharing again
-- answers the live link (the issue's rule). Revoking deletes the row.
CREATE TABLE scorecard_shares (
    product_id  TEXT PRIMARY KEY REFERENCES products(id) ON DELETE CASCADE,
    token_hash  TEXT NOT NULL UNIQUE,
    token       TEXT NOT NULL,
    created_by  TEXT NOT NULL,
    created_at  BIGINT NOT NULL
);

-- The spreadsheet a product's scorecard was synced to (created by the first sync, re-created
-- when the spreadsheet service no longer finds it).
CREATE TABLE scorecard_spreadsheets (
    product_id       TEXT PRIMARY KEY REFERENCES products(id) ON DELETE CASCADE,
    spreadsheet_id   TEXT NOT NULL,
    spreadsheet_url  TEXT NOT NULL,
    synced_at        BIGINT NOT NULL
);
