-- Fewer and smaller random-keyed B-trees per ingested event (the SQLite migration of the same
-- number says more). Each event lands at a random place in every index keyed by something
-- random (its dedupe id, its identity), and each such page is logged and written back.

-- 1. Dedupe by a 64-bit key (a hash of product, namespace and dedupe id, computed by the
--    writer) instead of a unique index over the three texts. The writer compares the stored
--    event on a key hit, so two distinct ids whose keys collide are both kept: the later one
--    is deduplicated exactly, in `event_key_collisions`. Events stored before this migration
--    get their keys from the service at its next start (`event_keys_backfill`).
CREATE TABLE event_keys (
    key       BIGINT PRIMARY KEY,
    event_id  BIGINT NOT NULL
);
CREATE TABLE event_key_collisions (
    product_id  TEXT NOT NULL REFERENCES products(id) ON DELETE CASCADE,
    namespace   TEXT NOT NULL,
    dedupe_id   TEXT NOT NULL,
    event_id    BIGINT NOT NULL,
    PRIMARY KEY (product_id, namespace, dedupe_id)
);
CREATE TABLE event_keys_backfill (
    through_event_id  BIGINT NOT NULL
);
INSERT INTO event_keys_backfill (through_event_id) SELECT MAX(id) FROM events HAVING MAX(id) IS NOT NULL;
ALTER TABLE events DROP CONSTRAINT events_product_id_namespace_dedupe_id_key;

-- 2. The daily identity rollup keyed day first, so "distinct identities over a window" reads
--    one range of the primary key and the by-day index (one more random insert per row) goes.
ALTER TABLE stage_identity_days DROP CONSTRAINT stage_identity_days_pkey;
ALTER TABLE stage_identity_days ADD PRIMARY KEY (product_id, day, stage, identity);
DROP INDEX stage_identity_days_by_day;
