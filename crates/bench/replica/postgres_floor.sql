-- What PostgreSQL alone costs per ingested event: the fold's hot writes (event row and its
-- three indexes, dedupe key, profile upsert, daily identity row upsert) done server-side by one
-- function, rows generated in the server (no client, HTTP, JSON or driver), 1M events
-- preloaded, then four 20,000-event folds timed. Creates (and leaves) the database pg_floor.
--   psql -U postgres -h 127.0.0.1 -f crates/bench/replica/postgres_floor.sql
\timing off
DROP DATABASE IF EXISTS pg_floor;
CREATE DATABASE pg_floor;
\c pg_floor
CREATE TABLE events (id BIGSERIAL PRIMARY KEY, product_id TEXT NOT NULL, namespace TEXT NOT NULL, dedupe_id TEXT NOT NULL,
  stage TEXT NOT NULL, name TEXT, occurred_at BIGINT NOT NULL, day TEXT NOT NULL, identity TEXT, anonymous_id TEXT,
  user_id TEXT, email TEXT, value_cents BIGINT, currency TEXT, channel TEXT, attribution TEXT, properties TEXT,
  received_at BIGINT NOT NULL, utm_campaign TEXT);
CREATE INDEX events_by_identity ON events(product_id, identity, occurred_at);
CREATE INDEX events_by_stage ON events(product_id, stage, occurred_at);
CREATE INDEX events_by_campaign ON events(product_id, utm_campaign) WHERE utm_campaign IS NOT NULL;
CREATE TABLE event_keys (key BIGINT PRIMARY KEY, event_id BIGINT NOT NULL);
CREATE TABLE identity_profiles (product_id TEXT NOT NULL, identity TEXT NOT NULL, first_seen_at BIGINT NOT NULL,
  last_seen_at BIGINT, first_channel TEXT, revenue_cents BIGINT NOT NULL DEFAULT 0, PRIMARY KEY (product_id, identity));
CREATE TABLE stage_identity_days (product_id TEXT NOT NULL, day TEXT NOT NULL, stage TEXT NOT NULL, identity TEXT NOT NULL,
  events BIGINT NOT NULL, PRIMARY KEY (product_id, day, stage, identity));
CREATE OR REPLACE FUNCTION fold(size INT, base BIGINT) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  CREATE TEMP TABLE IF NOT EXISTS incoming (LIKE events) ON COMMIT DROP;
  INSERT INTO incoming (id, product_id, namespace, dedupe_id, stage, occurred_at, day, identity, anonymous_id, channel, attribution, utm_campaign, received_at)
  SELECT nextval('events_id_seq'), 'c0ffee00-0000-4000-8000-000000000001', 'api:bench', gen_random_uuid()::text,
         (ARRAY['visit','visit','visit','visit','visit','visit','visit','engaged','lead','signup'])[1 + floor(random()*10)::int],
         base + g*5 - floor(random()*300000)::bigint, '2026-11-25', 'a:anon-' || floor(random()*100000)::int,
         NULL, CASE WHEN random() < 0.3 THEN 'paid_google' END, NULL, NULL, base
  FROM generate_series(1, size) g;
  UPDATE incoming SET attribution = '{"gclid":"g1"}', utm_campaign = 'brand' WHERE channel IS NOT NULL;
  INSERT INTO events SELECT * FROM incoming;
  INSERT INTO event_keys SELECT ('x' || substr(md5(dedupe_id), 1, 16))::bit(64)::bigint, id FROM incoming;
  INSERT INTO identity_profiles (product_id, identity, first_seen_at, last_seen_at, first_channel)
  SELECT product_id, identity, MIN(occurred_at), MAX(occurred_at), MIN(channel) FROM incoming GROUP BY 1, 2 ORDER BY 1, 2
  ON CONFLICT (product_id, identity) DO UPDATE SET last_seen_at = GREATEST(identity_profiles.last_seen_at, excluded.last_seen_at);
  INSERT INTO stage_identity_days SELECT product_id, day, stage, identity, COUNT(*) FROM incoming GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
  ON CONFLICT (product_id, day, stage, identity) DO UPDATE SET events = stage_identity_days.events + excluded.events;
END $$;
SELECT fold(100000, 1790000000000);
SELECT fold(100000, 1790000500000);
SELECT fold(100000, 1790001000000);
SELECT fold(100000, 1790001500000);
SELECT fold(100000, 1790002000000);
SELECT fold(100000, 1790002500000);
SELECT fold(100000, 1790003000000);
SELECT fold(100000, 1790003500000);
SELECT fold(100000, 1790004000000);
SELECT fold(100000, 1790004500000);
VACUUM ANALYZE;
\timing on
SELECT fold(20000, 1790010000000);
SELECT fold(20000, 1790010100000);
SELECT fold(20000, 1790010200000);
SELECT fold(20000, 1790010300000);
