-- Fewer and smaller random-keyed B-trees per ingested event. Each event lands at a random
-- place in every index keyed by something random (its dedupe id, its identity), and on SQLite
-- every page such an insert touches is written to the WAL at commit and again at checkpoint:
-- at a million events a fold rewrote most of those trees. Measured on the same schema with
-- 20,000-event transactions at 1M events (BENCHMARKS.md): 11,200 -> 17,300 rows/s.

-- 1. Dedupe by a 64-bit key (a hash of product, namespace and dedupe id, computed by the
--    writer) instead of a unique index over the three texts: 16 bytes an entry instead of
--    about 90. The writer compares the stored event on a key hit, so two distinct ids whose
--    keys collide are both kept: the later one is deduplicated exactly, in
--    `event_key_collisions`. Events stored before this migration get their keys from the
--    service at its next start (`event_keys_backfill` names the last such event).
CREATE TABLE event_keys (
    key       INTEGER PRIMARY KEY,
    event_id  INTEGER NOT NULL
);
CREATE TABLE event_key_collisions (
    product_id  TEXT NOT NULL REFERENCES products(id) ON DELETE CASCADE,
    namespace   TEXT NOT NULL,
    dedupe_id   TEXT NOT NULL,
    event_id    INTEGER NOT NULL,
    PRIMARY KEY (product_id, namespace, dedupe_id)
) WITHOUT ROWID;
CREATE TABLE event_keys_backfill (
    through_event_id  INTEGER NOT NULL
);
INSERT INTO event_keys_backfill (through_event_id) SELECT MAX(id) FROM events HAVING MAX(id) IS NOT NULL;

-- SQLite cannot drop a table's UNIQUE constraint: the table is rebuilt without it.
CREATE TABLE events_rebuilt (
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
    utm_campaign  TEXT
);
INSERT INTO events_rebuilt (id, product_id, namespace, dedupe_id, stage, name, occurred_at, day, identity,
    anonymous_id, user_id, email, value_cents, currency, channel, attribution, properties, received_at, utm_campaign)
SELECT id, product_id, namespace, dedupe_id, stage, name, occurred_at, day, identity,
    anonymous_id, user_id, email, value_cents, currency, channel, attribution, properties, received_at, utm_campaign
FROM events;
DROP TABLE events;
ALTER TABLE events_rebuilt RENAME TO events;
CREATE INDEX events_by_identity ON events(product_id, identity, occurred_at);
CREATE INDEX events_by_stage ON events(product_id, stage, occurred_at);
CREATE INDEX events_by_campaign ON events(product_id, utm_campaign) WHERE utm_campaign IS NOT NULL;

-- 2. One B-tree for the daily identity rollup instead of three (rows, primary key, by-day
--    index): keyed day first, so "distinct identities over a window" reads one range of it,
--    as the dropped by-day index did, and the rows live in the key.
CREATE TABLE stage_identity_days_rebuilt (
    product_id  TEXT NOT NULL REFERENCES products(id) ON DELETE CASCADE,
    day         TEXT NOT NULL,
    stage       TEXT NOT NULL,
    identity    TEXT NOT NULL,
    events      BIGINT NOT NULL,
    PRIMARY KEY (product_id, day, stage, identity)
) WITHOUT ROWID;
INSERT INTO stage_identity_days_rebuilt (product_id, day, stage, identity, events)
SELECT product_id, day, stage, identity, events FROM stage_identity_days;
DROP TABLE stage_identity_days;
ALTER TABLE stage_identity_days_rebuilt RENAME TO stage_identity_days;

-- 3. Profiles live in their key too: an upsert touches one B-tree page instead of the key's
--    and the row's.
CREATE TABLE identity_profiles_rebuilt (
    product_id      TEXT NOT NULL REFERENCES products(id) ON DELETE CASCADE,
    identity        TEXT NOT NULL,
    first_seen_at   BIGINT NOT NULL,
    last_seen_at    BIGINT,
    first_touch_at  BIGINT,
    first_channel   TEXT,
    acquired_at     BIGINT,
    acquired_day    TEXT,
    revenue_cents   BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (product_id, identity)
) WITHOUT ROWID;
INSERT INTO identity_profiles_rebuilt (product_id, identity, first_seen_at, last_seen_at, first_touch_at,
    first_channel, acquired_at, acquired_day, revenue_cents)
SELECT product_id, identity, first_seen_at, last_seen_at, first_touch_at,
    first_channel, acquired_at, acquired_day, revenue_cents FROM identity_profiles;
DROP TABLE identity_profiles;
ALTER TABLE identity_profiles_rebuilt RENAME TO identity_profiles;
CREATE INDEX identity_profiles_by_acquisition ON identity_profiles(product_id, acquired_at);
CREATE INDEX identity_profiles_by_last_seen ON identity_profiles(product_id, last_seen_at, first_channel);
