-- Last touch from a per-identity touch table instead of an identity index over every event.
--
-- `events_by_identity` took one entry per event at a random place (keyed by identity), so each
-- ingested event dirtied about one page of it, written to the WAL at commit and back at the
-- checkpoint: the largest random-keyed tree of a fold. Its readers were the last touch of
-- revenue rows, the last paid touch of attribution, and the merge of an anonymous identity into
-- its user. Now:
-- - `identity_touches` holds only channel-bearing events with an identity (about a quarter of
--   events in typical traffic), keyed so "the identity's latest touch at or before t" is one
--   descent;
-- - an anonymous identity's daily rows are found through their own index by identity (one
--   entry per identity, stage and day, not per event);
-- - events keep the identity they were stored under; readers resolve a merged anonymous
--   identity to its user through `identity_links` (`store/src/identity_sql.rs`).
CREATE TABLE identity_touches (
    product_id   TEXT NOT NULL REFERENCES products(id) ON DELETE CASCADE,
    identity     TEXT NOT NULL,
    occurred_at  BIGINT NOT NULL,
    event_id     BIGINT NOT NULL,
    channel      TEXT NOT NULL,
    PRIMARY KEY (product_id, identity, occurred_at, event_id)
);
INSERT INTO identity_touches (product_id, identity, occurred_at, event_id, channel)
SELECT product_id, identity, occurred_at, id, channel FROM events
WHERE identity IS NOT NULL AND channel IS NOT NULL;

CREATE INDEX stage_identity_days_by_identity ON stage_identity_days(product_id, identity);

DROP INDEX events_by_identity;
