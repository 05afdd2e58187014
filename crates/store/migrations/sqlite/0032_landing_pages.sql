-- Landing pages (`/products/{slug}/landing-pages`): the pages a product tracks, the exclude
-- filters that hide paths from discovery, each page's analyses, and the daily first-party
-- visits per landing path the fold keeps.
--
-- A page is keyed by its path (`payback_domain::landing_path`: no query, fragment or trailing
-- `/`), one per product. `account_id` is the tenant every read and write filters on, so another
-- account's page or filter is simply not found. Deleting a page deletes its analyses (the
-- service does it in the same transaction; the foreign key says so too); traffic stays, since
-- it belongs to the path, not to the page.
CREATE TABLE landing_pages (
    id          TEXT PRIMARY KEY,
    account_id  TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    product_id  TEXT NOT NULL REFERENCES products(id) ON DELETE CASCADE,
    path        TEXT NOT NULL,
    url         TEXT NOT NULL,
    -- `manual`, or the source kind that discovered it.
    source      TEXT NOT NULL,
    created_at  BIGINT NOT NULL,
    UNIQUE (product_id, path)
);

CREATE TABLE landing_page_filters (
    id          TEXT PRIMARY KEY,
    account_id  TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    product_id  TEXT NOT NULL REFERENCES products(id) ON DELETE CASCADE,
    pattern     TEXT NOT NULL,
    enabled     BOOLEAN NOT NULL,
    created_at  BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL
);
CREATE INDEX landing_page_filters_by_product ON landing_page_filters(product_id, created_at);

-- `scores` is the scored rubric as JSON text (`[]` for an error); read newest first per page.
CREATE TABLE landing_page_analyses (
    id             TEXT PRIMARY KEY,
    page_id        TEXT NOT NULL REFERENCES landing_pages(id) ON DELETE CASCADE,
    product_id     TEXT NOT NULL REFERENCES products(id) ON DELETE CASCADE,
    analyzed_at    BIGINT NOT NULL,
    model          TEXT NOT NULL,
    status         TEXT NOT NULL,
    overall_score  BIGINT,
    scores         TEXT NOT NULL,
    summary        TEXT,
    error          TEXT
);
CREATE INDEX landing_page_analyses_by_page ON landing_page_analyses(page_id, analyzed_at);

-- First-party `visit` events per landing path and UTC day, counted by the fold as it stores each
-- new event (`store/src/landing_pages/visits.rs`), so a page's traffic reads a handful of rows
-- per day instead of the window's raw events. Keyed path first: one page's days are one range.
CREATE TABLE landing_path_days (
    product_id  TEXT NOT NULL REFERENCES products(id) ON DELETE CASCADE,
    path        TEXT NOT NULL,
    day         TEXT NOT NULL,
    visits      BIGINT NOT NULL,
    PRIMARY KEY (product_id, path, day)
) WITHOUT ROWID;

-- The visits stored before this migration, with `landing_path`'s rule spelled in SQL.
INSERT INTO landing_path_days (product_id, path, day, visits)
SELECT product_id, CASE WHEN rtrim(p, '/') = '' THEN '/' ELSE rtrim(p, '/') END, day, COUNT(*)
FROM (
    SELECT product_id, day,
           CASE WHEN instr(h, '/') > 0 THEN substr(h, instr(h, '/')) ELSE '' END AS p
    FROM (
        SELECT product_id, day,
               CASE WHEN instr(q, '://') > 0 THEN substr(q, instr(q, '://') + 3) ELSE q END AS h
        FROM (
            SELECT product_id, day,
                   CASE WHEN instr(f, '?') > 0 THEN substr(f, 1, instr(f, '?') - 1) ELSE f END AS q
            FROM (
                SELECT product_id, day,
                       CASE WHEN instr(u, '#') > 0 THEN substr(u, 1, instr(u, '#') - 1) ELSE u END AS f
                FROM (
                    SELECT product_id, day, trim(json_extract(attribution, '$.landing_url')) AS u
                    FROM events WHERE stage = 'visit' AND attribution IS NOT NULL
                ) AS raw WHERE u IS NOT NULL
            ) AS unfragmented
        ) AS unqueried
    ) AS hostless
) AS paths
GROUP BY 1, 2, 3;
