-- Reports whose cost follows the window's days, not the rows stored (issue 20, part 4).
--
-- Until now a report over N days read every per-identity row of those days: the funnel counted
-- distinct identities over `stage_identity_days` and joined each to its profile for the first
-- touch, the conversions report and the primary goal read every event of the stage, attribution
-- joined every revenue row of the window to its profile. At a million events a year's funnel
-- took 1.9 s. Here each such figure gets a daily table keyed (product, day, ...) with a handful
-- of rows per day, maintained by triggers as the rows it sums change, whoever changes them (the
-- fold's upserts, the moves of a merged identity, a profile whose first touch moves earlier):
--
-- - `stage_channel_days`: per day, stage and first-touch channel of the identity ('' = none):
--   the identified events, the identities with the stage that day, the identities whose latest
--   day with the stage is that day (`lasts`: over a window reaching the latest data, their sum
--   is the window's distinct identities), and the identified events without a channel of their
--   own (`plain_events`, `plain_value`: a conversion counts those under the identity's first
--   touch). Read by the funnel, its series and definition, the timeseries, the product row and
--   the conversion tallies.
-- - `identity_days`: per day and first-touch channel: identities last seen that day (`seen`:
--   the attribution coverage), customers acquired that day and those customers' revenue.
-- - `customer_totals`: per product, every customer ever acquired and their revenue (LTV).
-- - `revenue_days`: per day, first-touch channel, last-touch channel (the row's, else the first)
--   and whether the row has an identity: revenue rows' count and net amount.
--
-- The triggers are statement-level with transition tables: one set-based statement per
-- statement of the fold, each probing the identities it names (the `OFFSET 0`-free scalar
-- subqueries run as one index probe per row). The SQLite migration of the same number keeps the
-- same tables with row-level triggers. `stage_identity_days` keys (product, day, stage,
-- identity) and profile keys are never updated (a merge deletes and upserts); a trigger refuses
-- it, since the daily tables could not follow.

-- 1. What the daily tables need from the rows they sum.

-- A stage's identified events without a channel of their own, per identity and day, and their
-- value: filled from the events stored before (each under the identity it counts for now, as
-- `identity_sql.rs` resolves it), then by the fold.
ALTER TABLE stage_identity_days ADD COLUMN plain_events BIGINT NOT NULL DEFAULT 0;
ALTER TABLE stage_identity_days ADD COLUMN plain_value BIGINT NOT NULL DEFAULT 0;
UPDATE stage_identity_days s SET plain_events = v.plain_events, plain_value = v.plain_value FROM (
    SELECT product_id, stage, day, identity, COUNT(*) AS plain_events,
           CAST(COALESCE(SUM(value_cents), 0) AS BIGINT) AS plain_value
    FROM (SELECT e.product_id, e.stage, e.day, e.value_cents,
                 CASE substr(e.identity, 1, 2)
                   WHEN 'a:' THEN COALESCE((SELECT 'u:' || l.user_id FROM identity_links l
                       WHERE l.product_id = e.product_id AND l.anonymous_id = substr(e.identity, 3)), e.identity)
                   WHEN 'e:' THEN COALESCE((SELECT COALESCE((SELECT 'u:' || l.user_id FROM identity_links l
                       WHERE l.product_id = o.product_id AND substr(o.identity, 1, 2) = 'a:'
                       AND l.anonymous_id = substr(o.identity, 3)), o.identity) FROM email_identities o
                       WHERE o.product_id = e.product_id AND o.email = substr(e.identity, 3)), e.identity)
                   ELSE e.identity END AS identity
          FROM events e WHERE e.identity IS NOT NULL AND e.channel IS NULL) AS plain
    GROUP BY product_id, stage, day, identity) AS v
WHERE s.product_id = v.product_id AND s.day = v.day AND s.stage = v.stage AND s.identity = v.identity;

-- The events' own values per daily row (a conversion's value by channel).
ALTER TABLE event_days ADD COLUMN value_cents BIGINT NOT NULL DEFAULT 0;
UPDATE event_days d SET value_cents = v.value_cents FROM (
    SELECT product_id, day, stage, COALESCE(channel, '') AS channel, identity IS NOT NULL AS identified,
           split_part(namespace, ':', 1) AS source, CAST(SUM(value_cents) AS BIGINT) AS value_cents
    FROM events WHERE value_cents IS NOT NULL
    GROUP BY 1, 2, 3, 4, 5, 6) AS v
WHERE d.product_id = v.product_id AND d.day = v.day AND d.stage = v.stage AND d.channel = v.channel
  AND d.identified = v.identified AND d.source = v.source;

-- An identity's latest day with a stage is one descent of this index (it served the moves by
-- identity alone, which it still does).
DROP INDEX stage_identity_days_by_identity;
CREATE INDEX stage_identity_days_by_identity ON stage_identity_days(product_id, identity, stage, day);

-- 2. The daily tables, filled from the rows of before.

CREATE TABLE stage_channel_days (
    product_id    TEXT NOT NULL REFERENCES products(id) ON DELETE CASCADE,
    day           TEXT NOT NULL,
    stage         TEXT NOT NULL,
    channel       TEXT NOT NULL,
    events        BIGINT NOT NULL,
    identities    BIGINT NOT NULL,
    lasts         BIGINT NOT NULL,
    plain_events  BIGINT NOT NULL,
    plain_value   BIGINT NOT NULL,
    PRIMARY KEY (product_id, day, stage, channel)
);
INSERT INTO stage_channel_days (product_id, day, stage, channel, events, identities, lasts, plain_events, plain_value)
SELECT s.product_id, s.day, s.stage, COALESCE(p.first_channel, ''), SUM(s.events), COUNT(*),
       SUM(CASE WHEN s.day = s.latest THEN 1 ELSE 0 END), SUM(s.plain_events), SUM(s.plain_value)
FROM (SELECT product_id, day, stage, identity, events, plain_events, plain_value,
             MAX(day) OVER (PARTITION BY product_id, identity, stage) AS latest
      FROM stage_identity_days) AS s
LEFT JOIN identity_profiles p ON p.product_id = s.product_id AND p.identity = s.identity
GROUP BY s.product_id, s.day, s.stage, COALESCE(p.first_channel, '');

CREATE TABLE identity_days (
    product_id        TEXT NOT NULL REFERENCES products(id) ON DELETE CASCADE,
    day               TEXT NOT NULL,
    channel           TEXT NOT NULL,
    seen              BIGINT NOT NULL,
    acquired          BIGINT NOT NULL,
    acquired_revenue  BIGINT NOT NULL,
    PRIMARY KEY (product_id, day, channel)
);

-- The UTC day (`YYYY-MM-DD`) of an epoch-millisecond instant, as `Timestamp::day` spells it.
CREATE FUNCTION payback_day(at BIGINT) RETURNS TEXT LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
$$ SELECT to_char(DATE '1970-01-01' + CAST((at - ((at % 86400000) + 86400000) % 86400000) / 86400000 AS INTEGER),
                  'YYYY-MM-DD') $$;

INSERT INTO identity_days (product_id, day, channel, seen, acquired, acquired_revenue)
SELECT product_id, day, channel, SUM(seen), SUM(acquired), SUM(acquired_revenue) FROM (
    SELECT product_id, payback_day(COALESCE(last_seen_at, first_seen_at)) AS day,
           COALESCE(first_channel, '') AS channel, 1 AS seen, 0 AS acquired, 0 AS acquired_revenue
    FROM identity_profiles
    UNION ALL
    SELECT product_id, acquired_day, COALESCE(first_channel, ''), 0, 1, revenue_cents
    FROM identity_profiles WHERE acquired_at IS NOT NULL) AS c
GROUP BY product_id, day, channel;

CREATE TABLE customer_totals (
    product_id  TEXT PRIMARY KEY REFERENCES products(id) ON DELETE CASCADE,
    customers   BIGINT NOT NULL,
    revenue     BIGINT NOT NULL
);
INSERT INTO customer_totals (product_id, customers, revenue)
SELECT product_id, COUNT(*), SUM(revenue_cents) FROM identity_profiles
WHERE acquired_at IS NOT NULL GROUP BY product_id;

CREATE TABLE revenue_days (
    product_id     TEXT NOT NULL REFERENCES products(id) ON DELETE CASCADE,
    day            TEXT NOT NULL,
    first_channel  TEXT NOT NULL,
    last_channel   TEXT NOT NULL,
    identified     BOOLEAN NOT NULL,
    rows           BIGINT NOT NULL,
    cents          BIGINT NOT NULL,
    PRIMARY KEY (product_id, day, first_channel, last_channel, identified)
);
INSERT INTO revenue_days (product_id, day, first_channel, last_channel, identified, rows, cents)
SELECT t.product_id, t.day, COALESCE(p.first_channel, ''), COALESCE(t.last_channel, p.first_channel, ''),
       t.identity IS NOT NULL, COUNT(*), SUM(t.amount_cents)
FROM transactions t LEFT JOIN identity_profiles p ON p.product_id = t.product_id AND p.identity = t.identity
GROUP BY 1, 2, 3, 4, 5;

-- 3. The triggers. Each adds deltas: a row's contribution under its identity's first-touch
-- channel of the moment, and a profile whose channel changes moves its identity's
-- contributions. Deltas for a product that no longer exists (a cascade) are dropped.

CREATE FUNCTION payback_refuse_key_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '%: key columns are never updated (the daily report tables follow inserts and deletes)', TG_TABLE_NAME;
END $$;

CREATE TRIGGER stage_identity_days_keys BEFORE UPDATE OF product_id, day, stage, identity
    ON stage_identity_days FOR EACH ROW EXECUTE FUNCTION payback_refuse_key_update();
CREATE TRIGGER identity_profiles_keys BEFORE UPDATE OF product_id, identity
    ON identity_profiles FOR EACH ROW EXECUTE FUNCTION payback_refuse_key_update();

-- Adds `(product_id, identity, day, stage, events, identities, lasts, plain_events, plain_value)`
-- rows, given as arrays, to `stage_channel_days` under each identity's channel now.
CREATE FUNCTION stage_channel_days_add(products TEXT[], identities TEXT[], days TEXT[], stages TEXT[],
    events BIGINT[], counts BIGINT[], lasts BIGINT[], plain_events BIGINT[], plain_values BIGINT[])
RETURNS void LANGUAGE sql AS $$
    INSERT INTO stage_channel_days AS h (product_id, day, stage, channel, events, identities, lasts, plain_events, plain_value)
    SELECT c.product_id, c.day, c.stage, c.channel, SUM(c.events), SUM(c.identities), SUM(c.lasts),
           SUM(c.plain_events), SUM(c.plain_value)
    FROM (SELECT u.product_id, u.day, u.stage, u.events, u.identities, u.lasts, u.plain_events, u.plain_value,
                 COALESCE((SELECT p.first_channel FROM identity_profiles p
                           WHERE p.product_id = u.product_id AND p.identity = u.identity), '') AS channel
          FROM unnest(products, identities, days, stages, events, counts, lasts, plain_events, plain_values)
               AS u(product_id, identity, day, stage, events, identities, lasts, plain_events, plain_value)
          WHERE u.product_id IN (SELECT id FROM products)) AS c
    GROUP BY c.product_id, c.day, c.stage, c.channel
    ON CONFLICT (product_id, day, stage, channel) DO UPDATE SET
        events = h.events + excluded.events, identities = h.identities + excluded.identities,
        lasts = h.lasts + excluded.lasts, plain_events = h.plain_events + excluded.plain_events,
        plain_value = h.plain_value + excluded.plain_value
$$;

CREATE FUNCTION stage_identity_days_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    -- Each row counts; the latest new day of an (identity, stage) becomes its latest day unless
    -- an older row is later, and the one it replaces stops being.
    PERFORM stage_channel_days_add(array_agg(product_id), array_agg(identity), array_agg(day), array_agg(stage),
        array_agg(events), array_agg(identities), array_agg(lasts), array_agg(plain_events), array_agg(plain_value))
    FROM (
        SELECT product_id, identity, day, stage, events, 1::BIGINT AS identities, 0::BIGINT AS lasts,
               plain_events, plain_value FROM new_rows
        UNION ALL
        SELECT g.product_id, g.identity, d.day, g.stage, 0, 0, d.lasts, 0, 0
        FROM (SELECT product_id, identity, stage, MAX(day) AS newest, array_agg(day) AS days
              FROM new_rows GROUP BY product_id, identity, stage) AS g
        CROSS JOIN LATERAL (SELECT MAX(t.day) AS before FROM stage_identity_days t
            WHERE t.product_id = g.product_id AND t.identity = g.identity AND t.stage = g.stage
              AND t.day <> ALL (g.days)) AS b
        CROSS JOIN LATERAL (VALUES (g.newest, 1::BIGINT), (b.before, -1::BIGINT)) AS d(day, lasts)
        WHERE (b.before IS NULL OR b.before < g.newest) AND d.day IS NOT NULL) AS rows;
    RETURN NULL;
END $$;

CREATE FUNCTION stage_identity_days_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM stage_channel_days_add(array_agg(n.product_id), array_agg(n.identity), array_agg(n.day), array_agg(n.stage),
        array_agg(n.events - o.events), array_agg(0::BIGINT), array_agg(0::BIGINT),
        array_agg(n.plain_events - o.plain_events), array_agg(n.plain_value - o.plain_value))
    FROM new_rows n JOIN old_rows o
      ON o.product_id = n.product_id AND o.day = n.day AND o.stage = n.stage AND o.identity = n.identity;
    RETURN NULL;
END $$;

CREATE FUNCTION stage_identity_days_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM stage_channel_days_add(array_agg(product_id), array_agg(identity), array_agg(day), array_agg(stage),
        array_agg(events), array_agg(identities), array_agg(lasts), array_agg(plain_events), array_agg(plain_value))
    FROM (
        SELECT product_id, identity, day, stage, -events AS events, -1::BIGINT AS identities, 0::BIGINT AS lasts,
               -plain_events AS plain_events, -plain_value AS plain_value FROM old_rows
        UNION ALL
        SELECT g.product_id, g.identity, d.day, g.stage, 0, 0, d.lasts, 0, 0
        FROM (SELECT product_id, identity, stage, MAX(day) AS newest FROM old_rows
              GROUP BY product_id, identity, stage) AS g
        CROSS JOIN LATERAL (SELECT MAX(t.day) AS after FROM stage_identity_days t
            WHERE t.product_id = g.product_id AND t.identity = g.identity AND t.stage = g.stage) AS r
        CROSS JOIN LATERAL (VALUES (g.newest, -1::BIGINT), (r.after, 1::BIGINT)) AS d(day, lasts)
        WHERE (r.after IS NULL OR r.after < g.newest) AND d.day IS NOT NULL) AS rows;
    -- A merge (`ingest/moves.rs`) adds a moved row's events to the row of the identity it now
    -- counts for, and deletes it: its channel-less events go along here. The identity it counts
    -- for is found as `identity_sql.rs` finds it.
    UPDATE stage_identity_days t SET plain_events = t.plain_events + m.plain_events,
        plain_value = t.plain_value + m.plain_value
    FROM (SELECT o.product_id, o.day, o.stage, r.target, SUM(o.plain_events) AS plain_events,
                 SUM(o.plain_value) AS plain_value
          FROM old_rows o CROSS JOIN LATERAL (SELECT CASE substr(o.identity, 1, 2)
              WHEN 'a:' THEN (SELECT 'u:' || l.user_id FROM identity_links l
                  WHERE l.product_id = o.product_id AND l.anonymous_id = substr(o.identity, 3))
              WHEN 'e:' THEN (SELECT COALESCE((SELECT 'u:' || l.user_id FROM identity_links l
                  WHERE l.product_id = h.product_id AND substr(h.identity, 1, 2) = 'a:'
                  AND l.anonymous_id = substr(h.identity, 3)), h.identity) FROM email_identities h
                  WHERE h.product_id = o.product_id AND h.email = substr(o.identity, 3))
              END AS target) AS r
          WHERE (o.plain_events <> 0 OR o.plain_value <> 0) AND r.target IS NOT NULL AND r.target <> o.identity
          GROUP BY o.product_id, o.day, o.stage, r.target) AS m
    WHERE t.product_id = m.product_id AND t.day = m.day AND t.stage = m.stage AND t.identity = m.target;
    RETURN NULL;
END $$;

CREATE TRIGGER stage_identity_days_inserted AFTER INSERT ON stage_identity_days
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stage_identity_days_inserted();
CREATE TRIGGER stage_identity_days_updated AFTER UPDATE ON stage_identity_days
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stage_identity_days_updated();
CREATE TRIGGER stage_identity_days_deleted AFTER DELETE ON stage_identity_days
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION stage_identity_days_deleted();

-- Adds `(product_id, transaction identity, day, last_channel, amount, rows)` rows to
-- `revenue_days` under each identity's channel now.
CREATE FUNCTION revenue_days_add(products TEXT[], identities TEXT[], days TEXT[], lasts TEXT[],
    amounts BIGINT[], counts BIGINT[])
RETURNS void LANGUAGE sql AS $$
    INSERT INTO revenue_days AS r (product_id, day, first_channel, last_channel, identified, rows, cents)
    SELECT c.product_id, c.day, COALESCE(c.first_channel, ''), COALESCE(c.last_channel, c.first_channel, ''),
           c.identity IS NOT NULL, SUM(c.rows), SUM(c.cents)
    FROM (SELECT u.product_id, u.identity, u.day, u.last_channel, u.cents, u.rows,
                 (SELECT p.first_channel FROM identity_profiles p
                  WHERE p.product_id = u.product_id AND p.identity = u.identity) AS first_channel
          FROM unnest(products, identities, days, lasts, amounts, counts)
               AS u(product_id, identity, day, last_channel, cents, rows)
          WHERE u.product_id IN (SELECT id FROM products)) AS c
    GROUP BY 1, 2, 3, 4, 5
    ON CONFLICT (product_id, day, first_channel, last_channel, identified) DO UPDATE SET
        rows = r.rows + excluded.rows, cents = r.cents + excluded.cents
$$;

CREATE FUNCTION transactions_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM revenue_days_add(array_agg(product_id), array_agg(identity), array_agg(day), array_agg(last_channel),
            array_agg(amount_cents), array_agg(1::BIGINT)) FROM new_rows;
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM revenue_days_add(array_agg(product_id), array_agg(identity), array_agg(day), array_agg(last_channel),
            array_agg(-amount_cents), array_agg(-1::BIGINT)) FROM old_rows;
    ELSE
        -- Only rows whose counted figures changed (a recomputed last touch often stays).
        PERFORM revenue_days_add(array_agg(product_id), array_agg(identity), array_agg(day), array_agg(last_channel),
            array_agg(amount_cents), array_agg(rows))
        FROM (SELECT o.product_id, o.identity, o.day, o.last_channel, -o.amount_cents AS amount_cents, -1::BIGINT AS rows
              FROM old_rows o JOIN new_rows n ON n.id = o.id
              WHERE (o.product_id, o.identity, o.day, o.last_channel, o.amount_cents)
                    IS DISTINCT FROM (n.product_id, n.identity, n.day, n.last_channel, n.amount_cents)
              UNION ALL
              SELECT n.product_id, n.identity, n.day, n.last_channel, n.amount_cents, 1::BIGINT
              FROM old_rows o JOIN new_rows n ON n.id = o.id
              WHERE (o.product_id, o.identity, o.day, o.last_channel, o.amount_cents)
                    IS DISTINCT FROM (n.product_id, n.identity, n.day, n.last_channel, n.amount_cents)) AS changed;
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER transactions_inserted AFTER INSERT ON transactions
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION transactions_changed();
CREATE TRIGGER transactions_updated AFTER UPDATE ON transactions
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION transactions_changed();
CREATE TRIGGER transactions_deleted AFTER DELETE ON transactions
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION transactions_changed();

-- Moves the contributions of identities whose first-touch channel changed from `was` to `now`
-- ('' = none): their daily stage rows and their revenue rows.
CREATE FUNCTION identity_channels_moved(products TEXT[], identities TEXT[], was TEXT[], now TEXT[])
RETURNS void LANGUAGE sql AS $$
    INSERT INTO stage_channel_days AS h (product_id, day, stage, channel, events, identities, lasts, plain_events, plain_value)
    SELECT m.product_id, s.day, s.stage, ch.channel, SUM(ch.sign * s.events), SUM(ch.sign),
           SUM(ch.sign * s.last), SUM(ch.sign * s.plain_events), SUM(ch.sign * s.plain_value)
    FROM unnest(products, identities, was, now) AS m(product_id, identity, was, now)
    CROSS JOIN LATERAL (SELECT t.day, t.stage, t.events, t.plain_events, t.plain_value,
            CASE WHEN t.day = MAX(t.day) OVER (PARTITION BY t.stage) THEN 1 ELSE 0 END AS last
        FROM stage_identity_days t WHERE t.product_id = m.product_id AND t.identity = m.identity) AS s
    CROSS JOIN LATERAL (VALUES (m.was, -1), (m.now, 1)) AS ch(channel, sign)
    WHERE m.product_id IN (SELECT id FROM products)
    GROUP BY m.product_id, s.day, s.stage, ch.channel
    ON CONFLICT (product_id, day, stage, channel) DO UPDATE SET
        events = h.events + excluded.events, identities = h.identities + excluded.identities,
        lasts = h.lasts + excluded.lasts, plain_events = h.plain_events + excluded.plain_events,
        plain_value = h.plain_value + excluded.plain_value;
    INSERT INTO revenue_days AS r (product_id, day, first_channel, last_channel, identified, rows, cents)
    SELECT m.product_id, t.day, ch.channel, COALESCE(t.last_channel, NULLIF(ch.channel, ''), ''), true,
           SUM(ch.sign), SUM(ch.sign * t.amount_cents)
    FROM unnest(products, identities, was, now) AS m(product_id, identity, was, now)
    CROSS JOIN LATERAL (SELECT x.day, x.last_channel, x.amount_cents FROM transactions x
        WHERE x.product_id = m.product_id AND x.identity = m.identity) AS t
    CROSS JOIN LATERAL (VALUES (m.was, -1), (m.now, 1)) AS ch(channel, sign)
    WHERE m.product_id IN (SELECT id FROM products)
    GROUP BY 1, 2, 3, 4
    ON CONFLICT (product_id, day, first_channel, last_channel, identified) DO UPDATE SET
        rows = r.rows + excluded.rows, cents = r.cents + excluded.cents
$$;

-- Adds profiles' own contributions (`sign` 1 for rows that are, -1 for rows that were):
-- identities last seen, customers acquired and their revenue per day, the customer totals.
CREATE FUNCTION identity_days_add(products TEXT[], seen_days TEXT[], acquired_days TEXT[], channels TEXT[],
    revenues BIGINT[], signs BIGINT[])
RETURNS void LANGUAGE sql AS $$
    INSERT INTO identity_days AS i (product_id, day, channel, seen, acquired, acquired_revenue)
    SELECT c.product_id, c.day, c.channel, SUM(c.seen), SUM(c.acquired), SUM(c.revenue)
    FROM (SELECT u.product_id, u.seen_day AS day, u.channel, u.sign AS seen, 0::BIGINT AS acquired, 0::BIGINT AS revenue
          FROM unnest(products, seen_days, acquired_days, channels, revenues, signs)
               AS u(product_id, seen_day, acquired_day, channel, revenue, sign)
          UNION ALL
          SELECT u.product_id, u.acquired_day, u.channel, 0, u.sign, u.sign * u.revenue
          FROM unnest(products, seen_days, acquired_days, channels, revenues, signs)
               AS u(product_id, seen_day, acquired_day, channel, revenue, sign)
          WHERE u.acquired_day IS NOT NULL) AS c
    WHERE c.product_id IN (SELECT id FROM products)
    GROUP BY c.product_id, c.day, c.channel
    ON CONFLICT (product_id, day, channel) DO UPDATE SET
        seen = i.seen + excluded.seen, acquired = i.acquired + excluded.acquired,
        acquired_revenue = i.acquired_revenue + excluded.acquired_revenue;
    INSERT INTO customer_totals AS t (product_id, customers, revenue)
    SELECT u.product_id, SUM(u.sign), SUM(u.sign * u.revenue)
    FROM unnest(products, seen_days, acquired_days, channels, revenues, signs)
         AS u(product_id, seen_day, acquired_day, channel, revenue, sign)
    WHERE u.acquired_day IS NOT NULL AND u.product_id IN (SELECT id FROM products)
    GROUP BY u.product_id
    ON CONFLICT (product_id) DO UPDATE SET customers = t.customers + excluded.customers,
        revenue = t.revenue + excluded.revenue
$$;

CREATE FUNCTION identity_profiles_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM identity_days_add(array_agg(product_id), array_agg(payback_day(COALESCE(last_seen_at, first_seen_at))),
            array_agg(CASE WHEN acquired_at IS NOT NULL THEN acquired_day END), array_agg(COALESCE(first_channel, '')),
            array_agg(revenue_cents), array_agg(1::BIGINT)) FROM new_rows;
        -- Rows of an identity counted before it had a profile move to its channel.
        PERFORM identity_channels_moved(array_agg(product_id), array_agg(identity), array_agg(''::TEXT),
            array_agg(first_channel)) FROM new_rows WHERE first_channel IS NOT NULL AND first_channel <> '';
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM identity_days_add(array_agg(product_id), array_agg(payback_day(COALESCE(last_seen_at, first_seen_at))),
            array_agg(CASE WHEN acquired_at IS NOT NULL THEN acquired_day END), array_agg(COALESCE(first_channel, '')),
            array_agg(revenue_cents), array_agg(-1::BIGINT)) FROM old_rows;
        PERFORM identity_channels_moved(array_agg(product_id), array_agg(identity), array_agg(first_channel),
            array_agg(''::TEXT)) FROM old_rows WHERE first_channel IS NOT NULL AND first_channel <> '';
    ELSE
        PERFORM identity_days_add(array_agg(c.product_id), array_agg(v.seen_day), array_agg(v.acquired_day),
            array_agg(v.channel), array_agg(v.revenue), array_agg(v.sign))
        FROM (SELECT o.product_id, payback_day(COALESCE(o.last_seen_at, o.first_seen_at)) AS seen_day,
                     CASE WHEN o.acquired_at IS NOT NULL THEN o.acquired_day END AS acquired_day,
                     COALESCE(o.first_channel, '') AS channel, o.revenue_cents AS revenue,
                     payback_day(COALESCE(n.last_seen_at, n.first_seen_at)) AS new_seen_day,
                     CASE WHEN n.acquired_at IS NOT NULL THEN n.acquired_day END AS new_acquired_day,
                     COALESCE(n.first_channel, '') AS new_channel, n.revenue_cents AS new_revenue
              FROM old_rows o JOIN new_rows n ON n.product_id = o.product_id AND n.identity = o.identity) AS c
        CROSS JOIN LATERAL (VALUES (c.seen_day, c.acquired_day, c.channel, c.revenue, -1::BIGINT),
            (c.new_seen_day, c.new_acquired_day, c.new_channel, c.new_revenue, 1::BIGINT))
            AS v(seen_day, acquired_day, channel, revenue, sign)
        WHERE (c.seen_day, c.acquired_day, c.channel, c.revenue)
              IS DISTINCT FROM (c.new_seen_day, c.new_acquired_day, c.new_channel, c.new_revenue);
        PERFORM identity_channels_moved(array_agg(n.product_id), array_agg(n.identity),
            array_agg(COALESCE(o.first_channel, '')), array_agg(COALESCE(n.first_channel, '')))
        FROM old_rows o JOIN new_rows n ON n.product_id = o.product_id AND n.identity = o.identity
        WHERE COALESCE(o.first_channel, '') <> COALESCE(n.first_channel, '');
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER identity_profiles_inserted AFTER INSERT ON identity_profiles
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION identity_profiles_changed();
CREATE TRIGGER identity_profiles_updated AFTER UPDATE ON identity_profiles
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION identity_profiles_changed();
CREATE TRIGGER identity_profiles_deleted AFTER DELETE ON identity_profiles
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION identity_profiles_changed();
