-- What PostgreSQL alone costs per ingested event: a fold's hot writes done inside the server,
-- rows generated there (no client, HTTP, JSON or driver), 1M events preloaded, then four
-- 20,000-event folds timed (the statements `write_events()` and `COMMIT`; `incoming_rows`
-- only generates the rows). Creates, and leaves, the database pg_floor.
--
--   psql -U postgres -h 127.0.0.1 -f crates/bench/replica/postgres_floor.sql              # today's layout
--   psql -U postgres -h 127.0.0.1 -v lean=true -f crates/bench/replica/postgres_floor.sql # the lean one
--
-- Today's layout: the event row and its three indexes, the dedupe key, a profile upsert per
-- identity and a daily identity row upsert, keyed by text product and identity. The lean one:
-- no index on raw events, a touch row per channel-bearing event, and the maintained trees keyed
-- by integer product and identity ids (each identity's id found in, or added to, identity_ids).
\set ON_ERROR_STOP on
\if :{?lean}
\else
  \set lean false
\endif
\timing off
DROP DATABASE IF EXISTS pg_floor;
CREATE DATABASE pg_floor;
\c pg_floor
CREATE TABLE events (id BIGSERIAL PRIMARY KEY, product_id TEXT NOT NULL, namespace TEXT NOT NULL,
  dedupe_id TEXT NOT NULL, stage TEXT NOT NULL, name TEXT, occurred_at BIGINT NOT NULL, day TEXT NOT NULL,
  identity TEXT, anonymous_id TEXT, user_id TEXT, email TEXT, value_cents BIGINT, currency TEXT,
  channel TEXT, attribution TEXT, properties TEXT, received_at BIGINT NOT NULL, utm_campaign TEXT);
CREATE TABLE event_keys (key BIGINT PRIMARY KEY, event_id BIGINT NOT NULL);
-- The maintained trees, keyed by integer ids in the lean layout and by texts today.
\if :lean
  \set key_type BIGINT
\else
  \set key_type TEXT
\endif
CREATE TABLE identity_profiles (product_id :key_type NOT NULL, identity :key_type NOT NULL,
  first_seen_at BIGINT NOT NULL, last_seen_at BIGINT, first_channel TEXT,
  revenue_cents BIGINT NOT NULL DEFAULT 0, PRIMARY KEY (product_id, identity));
CREATE TABLE stage_identity_days (product_id :key_type NOT NULL, day TEXT NOT NULL, stage TEXT NOT NULL,
  identity :key_type NOT NULL, events BIGINT NOT NULL, PRIMARY KEY (product_id, day, stage, identity));

-- The events of one fold, as the benchmark sends them: 70% visits, 30% of events paid clicks.
CREATE FUNCTION incoming_rows(size INT, base BIGINT) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  CREATE TEMP TABLE incoming (LIKE events) ON COMMIT DROP;
  INSERT INTO incoming (id, product_id, namespace, dedupe_id, stage, occurred_at, day, identity,
                        channel, received_at)
  SELECT nextval('events_id_seq'), 'c0ffee00-0000-4000-8000-000000000001', 'api:bench',
         gen_random_uuid()::text,
         (ARRAY['visit','visit','visit','visit','visit','visit','visit','engaged','lead','signup'])[1 + floor(random() * 10)::int],
         base + g * 5 - floor(random() * 300000)::bigint, '2026-11-25',
         'a:anon-' || floor(random() * 100000)::int,
         CASE WHEN random() < 0.3 THEN 'paid_google' END, base
  FROM generate_series(1, size) g;
  UPDATE incoming SET attribution = '{"gclid":"g1"}', utm_campaign = 'brand' WHERE channel IS NOT NULL;
END $$;

\if :lean
CREATE TABLE identity_ids (product_id BIGINT NOT NULL, identity TEXT NOT NULL, id BIGSERIAL,
  PRIMARY KEY (product_id, identity));
CREATE TABLE identity_touches (product_id BIGINT NOT NULL, identity BIGINT NOT NULL,
  occurred_at BIGINT NOT NULL, event_id BIGINT NOT NULL, channel TEXT NOT NULL,
  PRIMARY KEY (product_id, identity, occurred_at, event_id));
CREATE FUNCTION write_events() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO events SELECT * FROM incoming;
  INSERT INTO event_keys SELECT ('x' || substr(md5(dedupe_id), 1, 16))::bit(64)::bigint, id FROM incoming;
  INSERT INTO identity_ids (product_id, identity)
  SELECT DISTINCT 1, identity FROM incoming ORDER BY 2 ON CONFLICT DO NOTHING;
  CREATE TEMP TABLE keyed ON COMMIT DROP AS
    SELECT i.id AS event_id, m.id AS identity, i.occurred_at, i.day, i.stage, i.channel
    FROM incoming i JOIN identity_ids m ON m.product_id = 1 AND m.identity = i.identity;
  INSERT INTO identity_touches
  SELECT 1, identity, occurred_at, event_id, channel FROM keyed WHERE channel IS NOT NULL ORDER BY 2, 3;
  INSERT INTO identity_profiles (product_id, identity, first_seen_at, last_seen_at, first_channel)
  SELECT 1, identity, MIN(occurred_at), MAX(occurred_at), MIN(channel) FROM keyed GROUP BY 2 ORDER BY 2
  ON CONFLICT (product_id, identity) DO UPDATE
    SET last_seen_at = GREATEST(identity_profiles.last_seen_at, excluded.last_seen_at);
  INSERT INTO stage_identity_days
  SELECT 1, day, stage, identity, COUNT(*) FROM keyed GROUP BY 2, 3, 4 ORDER BY 2, 3, 4
  ON CONFLICT (product_id, day, stage, identity) DO UPDATE
    SET events = stage_identity_days.events + excluded.events;
END $$;
\else
CREATE INDEX events_by_identity ON events(product_id, identity, occurred_at);
CREATE INDEX events_by_stage ON events(product_id, stage, occurred_at);
CREATE INDEX events_by_campaign ON events(product_id, utm_campaign) WHERE utm_campaign IS NOT NULL;
CREATE FUNCTION write_events() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO events SELECT * FROM incoming;
  INSERT INTO event_keys SELECT ('x' || substr(md5(dedupe_id), 1, 16))::bit(64)::bigint, id FROM incoming;
  INSERT INTO identity_profiles (product_id, identity, first_seen_at, last_seen_at, first_channel)
  SELECT product_id, identity, MIN(occurred_at), MAX(occurred_at), MIN(channel)
  FROM incoming GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (product_id, identity) DO UPDATE
    SET last_seen_at = GREATEST(identity_profiles.last_seen_at, excluded.last_seen_at);
  INSERT INTO stage_identity_days
  SELECT product_id, day, stage, identity, COUNT(*) FROM incoming GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
  ON CONFLICT (product_id, day, stage, identity) DO UPDATE
    SET events = stage_identity_days.events + excluded.events;
END $$;
\endif

-- 1M events first, in folds of 100,000.
SELECT format('BEGIN; SELECT incoming_rows(100000, %s); SELECT write_events(); COMMIT;',
              1790000000000 + i * 500000)
FROM generate_series(0, 9) i \gexec
VACUUM ANALYZE;
\echo timed folds of 20,000 events: write_events(), then COMMIT
\timing on
BEGIN; SELECT incoming_rows(20000, 1790010000000); SELECT write_events(); COMMIT;
BEGIN; SELECT incoming_rows(20000, 1790010100000); SELECT write_events(); COMMIT;
BEGIN; SELECT incoming_rows(20000, 1790010200000); SELECT write_events(); COMMIT;
BEGIN; SELECT incoming_rows(20000, 1790010300000); SELECT write_events(); COMMIT;
