-- When each identity was last active, so "identities active in a window ending now" is a range
-- count on one index instead of a DISTINCT over every (stage, day, identity) row of the window.
ALTER TABLE identity_profiles ADD COLUMN last_seen_at BIGINT;
UPDATE identity_profiles SET last_seen_at = COALESCE(
    (SELECT MAX(e.occurred_at) FROM events e
     WHERE e.product_id = identity_profiles.product_id AND e.identity = identity_profiles.identity),
    first_seen_at);
CREATE INDEX identity_profiles_by_last_seen ON identity_profiles(product_id, last_seen_at, first_channel);
