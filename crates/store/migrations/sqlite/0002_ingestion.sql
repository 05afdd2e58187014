-- Ingestion and attribution: raw events, identities, revenue rows, spend, and the per-identity
-- and daily tables that reports read (never full scans of raw events).
-- Sentinels: '' stands for "none" in columns that are part of a unique key (NULLs never
-- collide in unique constraints on either backend).

-- Publishable write keys for the browser snippet; one live key per product.
CREATE TABLE tracking_keys (
    key         TEXT PRIMARY KEY,
    product_id  TEXT NOT NULL REFERENCES products(id) ON DELETE CASCADE,
    created_at  BIGINT NOT NULL,
    revoked_at  BIGINT
);
CREATE INDEX tracking_keys_by_product ON tracking_keys(product_id, revoked_at);

-- Every accepted event. `identity` is the canonical identity key ('u:<user_id>' or
-- 'a:<anonymous_id>'), rewritten when an anonymous identity is linked to a user.
CREATE TABLE events (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    product_id    TEXT NOT NULL REFERENCES products(id) ON DELETE CASCADE,
    namespace     TEXT NOT NULL,
    dedupe_id     TEXT NOT NULL,
    stage         TEXT NOT NULL,
    name          TEXT,
    occurred_at   BIGINT NOT NULL,
    day           TEXT NOT NULL,
    identity      TEXT,
    anonymous_id  TEXT,
    user_id       TEXT,
    email         TEXT,
    value_cents   BIGINT,
    currency      TEXT,
    channel       TEXT,
    attribution   TEXT,
    properties    TEXT,
    received_at   BIGINT NOT NULL,
    UNIQUE (product_id, namespace, dedupe_id)
);
CREATE INDEX events_by_identity ON events(product_id, identity, occurred_at);
CREATE INDEX events_by_time ON events(product_id, occurred_at);
-- Conversions and drill-downs read one stage's events over a window.
CREATE INDEX events_by_stage ON events(product_id, stage, occurred_at);

-- Anonymous ids linked to a user id (first link wins).
CREATE TABLE identity_links (
    product_id    TEXT NOT NULL REFERENCES products(id) ON DELETE CASCADE,
    anonymous_id  TEXT NOT NULL,
    user_id       TEXT NOT NULL,
    linked_at     BIGINT NOT NULL,
    PRIMARY KEY (product_id, anonymous_id)
);

-- One row per canonical identity, maintained at write time.
CREATE TABLE identity_profiles (
    product_id      TEXT NOT NULL REFERENCES products(id) ON DELETE CASCADE,
    identity        TEXT NOT NULL,
    first_seen_at   BIGINT NOT NULL,
    first_touch_at  BIGINT,
    first_channel   TEXT,
    acquired_at     BIGINT,
    acquired_day    TEXT,
    revenue_cents   BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (product_id, identity)
);
CREATE INDEX identity_profiles_by_acquisition ON identity_profiles(product_id, acquired_at);

-- Revenue rows: valued converted/payment events, and (later) processor charges, refunds and
-- disputes. `last_channel` is the identity's latest channel-bearing event at or before the row.
CREATE TABLE transactions (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    product_id     TEXT NOT NULL REFERENCES products(id) ON DELETE CASCADE,
    source         TEXT NOT NULL,
    source_ref     TEXT NOT NULL,
    kind           TEXT NOT NULL,
    stage          TEXT,
    identity       TEXT,
    occurred_at    BIGINT NOT NULL,
    day            TEXT NOT NULL,
    amount_cents   BIGINT NOT NULL,
    currency       TEXT NOT NULL,
    event_id       BIGINT,
    last_touch_at  BIGINT,
    last_channel   TEXT,
    UNIQUE (product_id, source, source_ref)
);
CREATE INDEX transactions_by_time ON transactions(product_id, occurred_at);
CREATE INDEX transactions_by_identity ON transactions(product_id, identity, occurred_at);

-- Daily rollup: one row per identity, stage and day, with its event count. Distinct identities
-- per stage over a window read from here.
CREATE TABLE stage_identity_days (
    product_id  TEXT NOT NULL REFERENCES products(id) ON DELETE CASCADE,
    stage       TEXT NOT NULL,
    day         TEXT NOT NULL,
    identity    TEXT NOT NULL,
    events      BIGINT NOT NULL,
    PRIMARY KEY (product_id, stage, day, identity)
);
CREATE INDEX stage_identity_days_by_day ON stage_identity_days(product_id, day);

-- Daily rollup of every event by stage, event channel ('' = none), whether it had an
-- identity, and the source that wrote it (`api`, `web`, later connector kinds).
CREATE TABLE event_days (
    product_id  TEXT NOT NULL REFERENCES products(id) ON DELETE CASCADE,
    day         TEXT NOT NULL,
    stage       TEXT NOT NULL,
    channel     TEXT NOT NULL,
    identified  BOOLEAN NOT NULL,
    source      TEXT NOT NULL,
    events      BIGINT NOT NULL,
    PRIMARY KEY (product_id, day, stage, channel, identified, source)
);

-- Daily aggregate stage volumes written by sources (analytics, databases); a stage is fed by
-- one source only.
CREATE TABLE aggregate_stage_days (
    product_id  TEXT NOT NULL REFERENCES products(id) ON DELETE CASCADE,
    day         TEXT NOT NULL,
    stage       TEXT NOT NULL,
    source      TEXT NOT NULL,
    volume      BIGINT NOT NULL,
    PRIMARY KEY (product_id, day, stage, source)
);

-- Daily ad spend at the finest grain a network reports ('' where it has no such dimension).
CREATE TABLE spend_rows (
    product_id     TEXT NOT NULL REFERENCES products(id) ON DELETE CASCADE,
    day            TEXT NOT NULL,
    network        TEXT NOT NULL,
    channel        TEXT NOT NULL,
    campaign_id    TEXT NOT NULL DEFAULT '',
    campaign_name  TEXT,
    ad_group_id    TEXT NOT NULL DEFAULT '',
    ad_group_name  TEXT,
    keyword_id     TEXT NOT NULL DEFAULT '',
    keyword        TEXT,
    ad_id          TEXT NOT NULL DEFAULT '',
    ad_name        TEXT,
    spend_cents    BIGINT NOT NULL,
    impressions    BIGINT NOT NULL DEFAULT 0,
    clicks         BIGINT NOT NULL DEFAULT 0,
    source         TEXT NOT NULL,
    updated_at     BIGINT NOT NULL,
    PRIMARY KEY (product_id, day, network, campaign_id, ad_group_id, keyword_id, ad_id)
);
CREATE INDEX spend_rows_by_channel ON spend_rows(product_id, channel, day);

-- The saved funnel (absent: the built-in ladder).
CREATE TABLE funnel_definitions (
    product_id  TEXT PRIMARY KEY REFERENCES products(id) ON DELETE CASCADE,
    steps       TEXT NOT NULL,
    updated_at  BIGINT NOT NULL
);

-- Conversion definitions, upserted by key.
CREATE TABLE conversions (
    product_id         TEXT NOT NULL REFERENCES products(id) ON DELETE CASCADE,
    key                TEXT NOT NULL,
    label              TEXT NOT NULL,
    tier               TEXT NOT NULL,
    stage              TEXT NOT NULL,
    source             TEXT,
    event_name         TEXT,
    value_mode         TEXT NOT NULL,
    fixed_value_cents  BIGINT,
    currency           TEXT,
    score_mode         TEXT NOT NULL,
    target_cpa_cents   BIGINT,
    grade_weights      TEXT,
    is_active          BOOLEAN NOT NULL,
    created_at         BIGINT NOT NULL,
    updated_at         BIGINT NOT NULL,
    PRIMARY KEY (product_id, key)
);
