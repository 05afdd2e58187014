-- Snapshots and keyword spend (issue 21).
--
-- Dated metric values that are not events (search clicks per query, AI visibility, followers),
-- one per (product, source kind, day, metric, dimension): a sync upserts what it read, so a
-- restated value replaces the one before and a re-read stores nothing twice. The metric words
-- and how a report makes a day's value of each are `domain/src/snapshot_metric.rs`;
-- `dimension` is what the value is about ('' for the whole property). Reports read one metric
-- over a range of days across every kind, hence the index by (product, metric, day); the key
-- keeps a kind's rows together for what one source wrote.
CREATE TABLE snapshots (
    product_id  TEXT NOT NULL REFERENCES products(id) ON DELETE CASCADE,
    kind        TEXT NOT NULL,
    day         TEXT NOT NULL,
    metric      TEXT NOT NULL,
    dimension   TEXT NOT NULL DEFAULT '',
    value       REAL NOT NULL,
    updated_at  BIGINT NOT NULL,
    PRIMARY KEY (product_id, kind, day, metric, dimension)
);
CREATE INDEX snapshots_by_metric ON snapshots(product_id, metric, day);

-- Spend per keyword, for networks that report it apart from ads (Google Ads' keyword_view
-- beside ad_group_ad): a second breakdown of the same ad groups' spend, so it never enters
-- `spend_rows`, whose every level must sum to the campaigns' spend. Only the ads report's
-- keyword level reads it (with the keyword-grain rows of `spend_rows`; the rest of the
-- channel's spend is its `no_dimension` row); CAC, ROAS, payback and the series read
-- `spend_rows` alone. A sync replaces an ad account's keyword rows for the days it read, in
-- the transaction that replaces its spend rows (`store/src/spend.rs::replace_account_days`);
-- deletes by account and days walk the key's (product_id, day) prefix, as `spend_rows`'.
CREATE TABLE spend_keyword_rows (
    product_id     TEXT NOT NULL REFERENCES products(id) ON DELETE CASCADE,
    day            TEXT NOT NULL,
    network        TEXT NOT NULL,
    channel        TEXT NOT NULL,
    ad_account     TEXT NOT NULL,
    campaign_id    TEXT NOT NULL DEFAULT '',
    campaign_name  TEXT,
    ad_group_id    TEXT NOT NULL DEFAULT '',
    ad_group_name  TEXT,
    keyword_id     TEXT NOT NULL,
    keyword        TEXT,
    spend_cents    BIGINT NOT NULL,
    impressions    BIGINT NOT NULL DEFAULT 0,
    clicks         BIGINT NOT NULL DEFAULT 0,
    updated_at     BIGINT NOT NULL,
    PRIMARY KEY (product_id, day, network, campaign_id, ad_group_id, keyword_id)
);
