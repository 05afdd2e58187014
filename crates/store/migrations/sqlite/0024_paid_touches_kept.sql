-- The ads report credits each revenue row to the identity's last paid touch at or before it,
-- and each customer to the last paid touch before acquisition, grouped by that touch's channel
-- and ad tags. It searched each identity's touches for every revenue row and customer of the
-- window and read each touch's event (100-130 ms for a year at 1M events on SQLite, issue 20,
-- part 4); the fold now keeps the touch, its channel and its ad tags on the rows, as it keeps
-- the last touch (`store/src/ingest/last_touches.rs`, whose `ad_tags_of_touch` writes the same
-- tags object), and the report groups by them: a row per ad, not per sale.
ALTER TABLE transactions ADD COLUMN paid_touch_id BIGINT;
ALTER TABLE transactions ADD COLUMN paid_channel TEXT;
ALTER TABLE transactions ADD COLUMN paid_tags TEXT;
ALTER TABLE identity_profiles ADD COLUMN acquired_touch_id BIGINT;
ALTER TABLE identity_profiles ADD COLUMN acquired_paid_channel TEXT;
ALTER TABLE identity_profiles ADD COLUMN acquired_paid_tags TEXT;

UPDATE transactions SET (paid_touch_id, paid_channel, paid_tags) = (
    SELECT e.id, e.channel, json_object('utm_campaign', json_extract(e.attribution, '$.utm_campaign'), 'utm_id', json_extract(e.attribution, '$.utm_id'), 'utm_term', json_extract(e.attribution, '$.utm_term'), 'utm_content', json_extract(e.attribution, '$.utm_content')) FROM events e WHERE e.id = (
        SELECT t.event_id FROM identity_touches t
        WHERE t.product_id = transactions.product_id AND t.identity = transactions.identity
          AND t.occurred_at <= transactions.occurred_at AND substr(t.channel, 1, 5) = 'paid_'
        ORDER BY t.occurred_at DESC, t.event_id DESC LIMIT 1))
WHERE identity IS NOT NULL;

UPDATE identity_profiles SET (acquired_touch_id, acquired_paid_channel, acquired_paid_tags) = (
    SELECT e.id, e.channel, json_object('utm_campaign', json_extract(e.attribution, '$.utm_campaign'), 'utm_id', json_extract(e.attribution, '$.utm_id'), 'utm_term', json_extract(e.attribution, '$.utm_term'), 'utm_content', json_extract(e.attribution, '$.utm_content')) FROM events e WHERE e.id = (
        SELECT t.event_id FROM identity_touches t
        WHERE t.product_id = identity_profiles.product_id AND t.identity = identity_profiles.identity
          AND t.occurred_at <= identity_profiles.acquired_at AND substr(t.channel, 1, 5) = 'paid_'
        ORDER BY t.occurred_at DESC, t.event_id DESC LIMIT 1))
WHERE acquired_at IS NOT NULL;
