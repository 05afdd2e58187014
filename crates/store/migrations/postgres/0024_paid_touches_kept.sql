-- The ads report credits each revenue row to the identity's last paid touch at or before it,
-- and each customer to the last paid touch before acquisition. It searched each identity's
-- touches for every revenue row and customer of the window (100-130 ms for a year at 1M events
-- on SQLite, issue 20, part 4); the fold now keeps the answer on the rows, as it keeps the
-- last touch (`store/src/ingest/last_touches.rs`), and the report groups by it.
ALTER TABLE transactions ADD COLUMN paid_touch_id BIGINT;
ALTER TABLE identity_profiles ADD COLUMN acquired_touch_id BIGINT;

UPDATE transactions SET paid_touch_id = (
    SELECT t.event_id FROM identity_touches t
    WHERE t.product_id = transactions.product_id AND t.identity = transactions.identity
      AND t.occurred_at <= transactions.occurred_at AND substr(t.channel, 1, 5) = 'paid_'
    ORDER BY t.occurred_at DESC, t.event_id DESC LIMIT 1)
WHERE identity IS NOT NULL;

UPDATE identity_profiles SET acquired_touch_id = (
    SELECT t.event_id FROM identity_touches t
    WHERE t.product_id = identity_profiles.product_id AND t.identity = identity_profiles.identity
      AND t.occurred_at <= identity_profiles.acquired_at AND substr(t.channel, 1, 5) = 'paid_'
    ORDER BY t.occurred_at DESC, t.event_id DESC LIMIT 1)
WHERE acquired_at IS NOT NULL;
