-- Reports whose cost follows the window's days, not the rows stored (issue 20, part 4). The
-- PostgreSQL migration of the same number says what each table holds and why; here the same
-- tables are kept by row-level triggers (SQLite has no statement-level ones), each a few probes
-- of keys the statement that fired it has just touched.
--
-- `ch(X)` below is an identity's first-touch channel, '' for none: the profile's, read where
-- needed. `day(ms)` is the UTC day of an epoch-millisecond instant, spelled as
-- `Timestamp::day` spells it: date((ms - ((ms % 86400000) + 86400000) % 86400000) / 1000,
-- 'unixepoch').

-- 1. What the daily tables need from the rows they sum.

ALTER TABLE stage_identity_days ADD COLUMN plain_events BIGINT NOT NULL DEFAULT 0;
ALTER TABLE stage_identity_days ADD COLUMN plain_value BIGINT NOT NULL DEFAULT 0;
UPDATE stage_identity_days SET plain_events = v.plain_events, plain_value = v.plain_value FROM (
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
WHERE stage_identity_days.product_id = v.product_id AND stage_identity_days.day = v.day
  AND stage_identity_days.stage = v.stage AND stage_identity_days.identity = v.identity;

ALTER TABLE event_days ADD COLUMN value_cents BIGINT NOT NULL DEFAULT 0;
UPDATE event_days SET value_cents = v.value_cents FROM (
    SELECT product_id, day, stage, COALESCE(channel, '') AS channel, identity IS NOT NULL AS identified,
           CASE WHEN instr(namespace, ':') > 0 THEN substr(namespace, 1, instr(namespace, ':') - 1)
                ELSE namespace END AS source,
           CAST(SUM(value_cents) AS BIGINT) AS value_cents
    FROM events WHERE value_cents IS NOT NULL
    GROUP BY 1, 2, 3, 4, 5, 6) AS v
WHERE event_days.product_id = v.product_id AND event_days.day = v.day AND event_days.stage = v.stage
  AND event_days.channel = v.channel AND event_days.identified = v.identified AND event_days.source = v.source;

-- An identity's latest day with a stage is one descent of this index (the moves name it in
-- `INDEXED BY` and still read it by identity alone).
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
) WITHOUT ROWID;
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
) WITHOUT ROWID;
INSERT INTO identity_days (product_id, day, channel, seen, acquired, acquired_revenue)
SELECT product_id, day, channel, SUM(seen), SUM(acquired), SUM(acquired_revenue) FROM (
    SELECT product_id,
           date((COALESCE(last_seen_at, first_seen_at)
                 - ((COALESCE(last_seen_at, first_seen_at) % 86400000) + 86400000) % 86400000) / 1000, 'unixepoch') AS day,
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
) WITHOUT ROWID;
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
) WITHOUT ROWID;
INSERT INTO revenue_days (product_id, day, first_channel, last_channel, identified, rows, cents)
SELECT t.product_id, t.day, COALESCE(p.first_channel, ''), COALESCE(t.last_channel, p.first_channel, ''),
       t.identity IS NOT NULL, COUNT(*), SUM(t.amount_cents)
FROM transactions t LEFT JOIN identity_profiles p ON p.product_id = t.product_id AND p.identity = t.identity
GROUP BY 1, 2, 3, 4, 5;

-- 3. The triggers: each row's contribution under its identity's channel of the moment; a
-- profile whose channel changes moves its identity's contributions. Nothing is added for a
-- product that no longer exists (a cascade).

CREATE TRIGGER stage_identity_days_keys BEFORE UPDATE OF product_id, day, stage, identity ON stage_identity_days
BEGIN
    SELECT RAISE(ABORT, 'stage_identity_days: key columns are never updated (the daily report tables follow inserts and deletes)');
END;
CREATE TRIGGER identity_profiles_keys BEFORE UPDATE OF product_id, identity ON identity_profiles
BEGIN
    SELECT RAISE(ABORT, 'identity_profiles: key columns are never updated (the daily report tables follow inserts and deletes)');
END;

CREATE TRIGGER stage_identity_days_inserted AFTER INSERT ON stage_identity_days
WHEN EXISTS (SELECT 1 FROM products WHERE id = NEW.product_id)
BEGIN
    -- The row, and whether it is now its identity's latest day with the stage.
    INSERT INTO stage_channel_days (product_id, day, stage, channel, events, identities, lasts, plain_events, plain_value)
    SELECT NEW.product_id, NEW.day, NEW.stage,
           COALESCE((SELECT first_channel FROM identity_profiles
                     WHERE product_id = NEW.product_id AND identity = NEW.identity), ''),
           NEW.events, 1,
           NOT EXISTS (SELECT 1 FROM stage_identity_days WHERE product_id = NEW.product_id
                       AND identity = NEW.identity AND stage = NEW.stage AND day > NEW.day),
           NEW.plain_events, NEW.plain_value
    WHERE true
    ON CONFLICT (product_id, day, stage, channel) DO UPDATE SET
        events = stage_channel_days.events + excluded.events, identities = stage_channel_days.identities + 1, lasts = stage_channel_days.lasts + excluded.lasts,
        plain_events = stage_channel_days.plain_events + excluded.plain_events, plain_value = stage_channel_days.plain_value + excluded.plain_value;
    -- The day it replaces as the latest.
    UPDATE stage_channel_days SET lasts = stage_channel_days.lasts - 1
    WHERE product_id = NEW.product_id AND stage = NEW.stage
      AND channel = COALESCE((SELECT first_channel FROM identity_profiles
                              WHERE product_id = NEW.product_id AND identity = NEW.identity), '')
      AND day = (SELECT MAX(day) FROM stage_identity_days WHERE product_id = NEW.product_id
                 AND identity = NEW.identity AND stage = NEW.stage AND day < NEW.day)
      AND NOT EXISTS (SELECT 1 FROM stage_identity_days WHERE product_id = NEW.product_id
                      AND identity = NEW.identity AND stage = NEW.stage AND day > NEW.day);
END;

CREATE TRIGGER stage_identity_days_updated AFTER UPDATE OF events, plain_events, plain_value ON stage_identity_days
BEGIN
    UPDATE stage_channel_days SET events = stage_channel_days.events + NEW.events - OLD.events,
        plain_events = stage_channel_days.plain_events + NEW.plain_events - OLD.plain_events,
        plain_value = stage_channel_days.plain_value + NEW.plain_value - OLD.plain_value
    WHERE product_id = NEW.product_id AND day = NEW.day AND stage = NEW.stage
      AND channel = COALESCE((SELECT first_channel FROM identity_profiles
                              WHERE product_id = NEW.product_id AND identity = NEW.identity), '');
END;

CREATE TRIGGER stage_identity_days_deleted AFTER DELETE ON stage_identity_days
BEGIN
    UPDATE stage_channel_days SET events = stage_channel_days.events - OLD.events, identities = stage_channel_days.identities - 1,
        lasts = stage_channel_days.lasts - (NOT EXISTS (SELECT 1 FROM stage_identity_days WHERE product_id = OLD.product_id
                                     AND identity = OLD.identity AND stage = OLD.stage AND day > OLD.day)),
        plain_events = stage_channel_days.plain_events - OLD.plain_events, plain_value = stage_channel_days.plain_value - OLD.plain_value
    WHERE product_id = OLD.product_id AND day = OLD.day AND stage = OLD.stage
      AND channel = COALESCE((SELECT first_channel FROM identity_profiles
                              WHERE product_id = OLD.product_id AND identity = OLD.identity), '');
    -- The identity's day before it becomes the latest.
    UPDATE stage_channel_days SET lasts = stage_channel_days.lasts + 1
    WHERE product_id = OLD.product_id AND stage = OLD.stage
      AND channel = COALESCE((SELECT first_channel FROM identity_profiles
                              WHERE product_id = OLD.product_id AND identity = OLD.identity), '')
      AND day = (SELECT MAX(day) FROM stage_identity_days WHERE product_id = OLD.product_id
                 AND identity = OLD.identity AND stage = OLD.stage AND day < OLD.day)
      AND NOT EXISTS (SELECT 1 FROM stage_identity_days WHERE product_id = OLD.product_id
                      AND identity = OLD.identity AND stage = OLD.stage AND day > OLD.day);
    -- A merge (`ingest/moves.rs`) adds a moved row's events to the row of the identity it now
    -- counts for, then deletes it: its channel-less events go along here, to the identity found
    -- as `identity_sql.rs` finds it.
    UPDATE stage_identity_days SET plain_events = plain_events + OLD.plain_events,
        plain_value = plain_value + OLD.plain_value
    WHERE (OLD.plain_events <> 0 OR OLD.plain_value <> 0)
      AND product_id = OLD.product_id AND day = OLD.day AND stage = OLD.stage AND identity <> OLD.identity
      AND identity = (CASE substr(OLD.identity, 1, 2)
          WHEN 'a:' THEN (SELECT 'u:' || l.user_id FROM identity_links l
              WHERE l.product_id = OLD.product_id AND l.anonymous_id = substr(OLD.identity, 3))
          WHEN 'e:' THEN (SELECT COALESCE((SELECT 'u:' || l.user_id FROM identity_links l
              WHERE l.product_id = h.product_id AND substr(h.identity, 1, 2) = 'a:'
              AND l.anonymous_id = substr(h.identity, 3)), h.identity) FROM email_identities h
              WHERE h.product_id = OLD.product_id AND h.email = substr(OLD.identity, 3))
          END);
END;

CREATE TRIGGER transactions_inserted AFTER INSERT ON transactions
WHEN EXISTS (SELECT 1 FROM products WHERE id = NEW.product_id)
BEGIN
    INSERT INTO revenue_days (product_id, day, first_channel, last_channel, identified, rows, cents)
    SELECT NEW.product_id, NEW.day, COALESCE(p.first_channel, ''), COALESCE(NEW.last_channel, p.first_channel, ''),
           NEW.identity IS NOT NULL, 1, NEW.amount_cents
    FROM (SELECT (SELECT first_channel FROM identity_profiles
                  WHERE product_id = NEW.product_id AND identity = NEW.identity) AS first_channel) AS p
    WHERE true
    ON CONFLICT (product_id, day, first_channel, last_channel, identified) DO UPDATE SET
        rows = revenue_days.rows + 1, cents = revenue_days.cents + excluded.cents;
END;

CREATE TRIGGER transactions_deleted AFTER DELETE ON transactions
BEGIN
    UPDATE revenue_days SET rows = revenue_days.rows - 1, cents = revenue_days.cents - OLD.amount_cents
    WHERE (product_id, day, first_channel, last_channel, identified) = (
        SELECT OLD.product_id, OLD.day, COALESCE(p.first_channel, ''), COALESCE(OLD.last_channel, p.first_channel, ''),
               OLD.identity IS NOT NULL
        FROM (SELECT (SELECT first_channel FROM identity_profiles
                      WHERE product_id = OLD.product_id AND identity = OLD.identity) AS first_channel) AS p);
END;

CREATE TRIGGER transactions_updated AFTER UPDATE OF identity, day, last_channel, amount_cents ON transactions
WHEN OLD.identity IS NOT NEW.identity OR OLD.day IS NOT NEW.day OR OLD.last_channel IS NOT NEW.last_channel
     OR OLD.amount_cents IS NOT NEW.amount_cents
BEGIN
    UPDATE revenue_days SET rows = revenue_days.rows - 1, cents = revenue_days.cents - OLD.amount_cents
    WHERE (product_id, day, first_channel, last_channel, identified) = (
        SELECT OLD.product_id, OLD.day, COALESCE(p.first_channel, ''), COALESCE(OLD.last_channel, p.first_channel, ''),
               OLD.identity IS NOT NULL
        FROM (SELECT (SELECT first_channel FROM identity_profiles
                      WHERE product_id = OLD.product_id AND identity = OLD.identity) AS first_channel) AS p);
    INSERT INTO revenue_days (product_id, day, first_channel, last_channel, identified, rows, cents)
    SELECT NEW.product_id, NEW.day, COALESCE(p.first_channel, ''), COALESCE(NEW.last_channel, p.first_channel, ''),
           NEW.identity IS NOT NULL, 1, NEW.amount_cents
    FROM (SELECT (SELECT first_channel FROM identity_profiles
                  WHERE product_id = NEW.product_id AND identity = NEW.identity) AS first_channel) AS p
    WHERE true
    ON CONFLICT (product_id, day, first_channel, last_channel, identified) DO UPDATE SET
        rows = revenue_days.rows + 1, cents = revenue_days.cents + excluded.cents;
END;

-- A profile's own contributions: seen on its last day, acquired on its acquisition day, the
-- totals. Inserted, updated (old out, new in, when any of them changed) and deleted.
CREATE TRIGGER identity_profiles_inserted AFTER INSERT ON identity_profiles
WHEN EXISTS (SELECT 1 FROM products WHERE id = NEW.product_id)
BEGIN
    INSERT INTO identity_days (product_id, day, channel, seen, acquired, acquired_revenue)
    SELECT NEW.product_id,
           date((COALESCE(NEW.last_seen_at, NEW.first_seen_at)
                 - ((COALESCE(NEW.last_seen_at, NEW.first_seen_at) % 86400000) + 86400000) % 86400000) / 1000, 'unixepoch'),
           COALESCE(NEW.first_channel, ''), 1, 0, 0
    WHERE true
    ON CONFLICT (product_id, day, channel) DO UPDATE SET seen = identity_days.seen + 1;
    INSERT INTO identity_days (product_id, day, channel, seen, acquired, acquired_revenue)
    SELECT NEW.product_id, NEW.acquired_day, COALESCE(NEW.first_channel, ''), 0, 1, NEW.revenue_cents
    WHERE NEW.acquired_at IS NOT NULL
    ON CONFLICT (product_id, day, channel) DO UPDATE SET acquired = identity_days.acquired + 1,
        acquired_revenue = identity_days.acquired_revenue + excluded.acquired_revenue;
    INSERT INTO customer_totals (product_id, customers, revenue)
    SELECT NEW.product_id, 1, NEW.revenue_cents WHERE NEW.acquired_at IS NOT NULL
    ON CONFLICT (product_id) DO UPDATE SET customers = customer_totals.customers + 1, revenue = customer_totals.revenue + excluded.revenue;
END;

CREATE TRIGGER identity_profiles_deleted AFTER DELETE ON identity_profiles
BEGIN
    UPDATE identity_days SET seen = identity_days.seen - 1
    WHERE product_id = OLD.product_id AND channel = COALESCE(OLD.first_channel, '')
      AND day = date((COALESCE(OLD.last_seen_at, OLD.first_seen_at)
                      - ((COALESCE(OLD.last_seen_at, OLD.first_seen_at) % 86400000) + 86400000) % 86400000) / 1000, 'unixepoch');
    UPDATE identity_days SET acquired = identity_days.acquired - 1, acquired_revenue = identity_days.acquired_revenue - OLD.revenue_cents
    WHERE OLD.acquired_at IS NOT NULL AND product_id = OLD.product_id AND day = OLD.acquired_day
      AND channel = COALESCE(OLD.first_channel, '');
    UPDATE customer_totals SET customers = customer_totals.customers - 1, revenue = customer_totals.revenue - OLD.revenue_cents
    WHERE OLD.acquired_at IS NOT NULL AND product_id = OLD.product_id;
END;

CREATE TRIGGER identity_profiles_updated AFTER UPDATE ON identity_profiles
WHEN OLD.first_channel IS NOT NEW.first_channel OR OLD.acquired_at IS NOT NEW.acquired_at
     OR OLD.acquired_day IS NOT NEW.acquired_day OR OLD.revenue_cents IS NOT NEW.revenue_cents
     OR date((COALESCE(OLD.last_seen_at, OLD.first_seen_at)
              - ((COALESCE(OLD.last_seen_at, OLD.first_seen_at) % 86400000) + 86400000) % 86400000) / 1000, 'unixepoch')
        IS NOT date((COALESCE(NEW.last_seen_at, NEW.first_seen_at)
              - ((COALESCE(NEW.last_seen_at, NEW.first_seen_at) % 86400000) + 86400000) % 86400000) / 1000, 'unixepoch')
BEGIN
    UPDATE identity_days SET seen = identity_days.seen - 1
    WHERE product_id = OLD.product_id AND channel = COALESCE(OLD.first_channel, '')
      AND day = date((COALESCE(OLD.last_seen_at, OLD.first_seen_at)
                      - ((COALESCE(OLD.last_seen_at, OLD.first_seen_at) % 86400000) + 86400000) % 86400000) / 1000, 'unixepoch');
    UPDATE identity_days SET acquired = identity_days.acquired - 1, acquired_revenue = identity_days.acquired_revenue - OLD.revenue_cents
    WHERE OLD.acquired_at IS NOT NULL AND product_id = OLD.product_id AND day = OLD.acquired_day
      AND channel = COALESCE(OLD.first_channel, '');
    INSERT INTO identity_days (product_id, day, channel, seen, acquired, acquired_revenue)
    SELECT NEW.product_id,
           date((COALESCE(NEW.last_seen_at, NEW.first_seen_at)
                 - ((COALESCE(NEW.last_seen_at, NEW.first_seen_at) % 86400000) + 86400000) % 86400000) / 1000, 'unixepoch'),
           COALESCE(NEW.first_channel, ''), 1, 0, 0
    WHERE true
    ON CONFLICT (product_id, day, channel) DO UPDATE SET seen = identity_days.seen + 1;
    INSERT INTO identity_days (product_id, day, channel, seen, acquired, acquired_revenue)
    SELECT NEW.product_id, NEW.acquired_day, COALESCE(NEW.first_channel, ''), 0, 1, NEW.revenue_cents
    WHERE NEW.acquired_at IS NOT NULL
    ON CONFLICT (product_id, day, channel) DO UPDATE SET acquired = identity_days.acquired + 1,
        acquired_revenue = identity_days.acquired_revenue + excluded.acquired_revenue;
    INSERT INTO customer_totals (product_id, customers, revenue)
    SELECT NEW.product_id,
           (NEW.acquired_at IS NOT NULL) - (OLD.acquired_at IS NOT NULL),
           (CASE WHEN NEW.acquired_at IS NOT NULL THEN NEW.revenue_cents ELSE 0 END)
           - (CASE WHEN OLD.acquired_at IS NOT NULL THEN OLD.revenue_cents ELSE 0 END)
    WHERE NEW.acquired_at IS NOT NULL OR OLD.acquired_at IS NOT NULL
    ON CONFLICT (product_id) DO UPDATE SET customers = customer_totals.customers + excluded.customers,
        revenue = customer_totals.revenue + excluded.revenue;
END;

-- A profile whose first-touch channel changes moves its identity's daily stage rows and revenue
-- rows to the channel it has now; so does one that appears while its identity already has rows
-- (a merge moves a user's first rows before the user's profile exists) or goes while it still has
-- some (not in the fold's order: a merge moves the rows first).
CREATE TRIGGER identity_profiles_channel_moved AFTER UPDATE OF first_channel ON identity_profiles
WHEN COALESCE(OLD.first_channel, '') <> COALESCE(NEW.first_channel, '')
BEGIN
    UPDATE stage_channel_days SET events = stage_channel_days.events - m.events, identities = stage_channel_days.identities - 1,
        lasts = stage_channel_days.lasts - m.last, plain_events = stage_channel_days.plain_events - m.plain_events,
        plain_value = stage_channel_days.plain_value - m.plain_value
    FROM (SELECT t.day, t.stage, t.events, t.plain_events, t.plain_value,
                 t.day = (SELECT MAX(l.day) FROM stage_identity_days l WHERE l.product_id = NEW.product_id
                          AND l.identity = NEW.identity AND l.stage = t.stage) AS last
          FROM stage_identity_days t WHERE t.product_id = NEW.product_id AND t.identity = NEW.identity) AS m
    WHERE stage_channel_days.product_id = NEW.product_id AND stage_channel_days.day = m.day
      AND stage_channel_days.stage = m.stage AND stage_channel_days.channel = COALESCE(OLD.first_channel, '');
    INSERT INTO stage_channel_days (product_id, day, stage, channel, events, identities, lasts, plain_events, plain_value)
    SELECT NEW.product_id, t.day, t.stage, COALESCE(NEW.first_channel, ''), t.events, 1,
           t.day = (SELECT MAX(l.day) FROM stage_identity_days l WHERE l.product_id = NEW.product_id
                    AND l.identity = NEW.identity AND l.stage = t.stage),
           t.plain_events, t.plain_value
    FROM stage_identity_days t WHERE t.product_id = NEW.product_id AND t.identity = NEW.identity
    ON CONFLICT (product_id, day, stage, channel) DO UPDATE SET
        events = stage_channel_days.events + excluded.events, identities = stage_channel_days.identities + 1, lasts = stage_channel_days.lasts + excluded.lasts,
        plain_events = stage_channel_days.plain_events + excluded.plain_events, plain_value = stage_channel_days.plain_value + excluded.plain_value;
    UPDATE revenue_days SET rows = revenue_days.rows - m.rows, cents = revenue_days.cents - m.cents
    FROM (SELECT day, COALESCE(last_channel, NULLIF(COALESCE(OLD.first_channel, ''), ''), '') AS last_channel, COUNT(*) AS rows,
                 SUM(amount_cents) AS cents
          FROM transactions WHERE product_id = NEW.product_id AND identity = NEW.identity
          GROUP BY 1, 2) AS m
    WHERE revenue_days.product_id = NEW.product_id AND revenue_days.day = m.day AND revenue_days.first_channel = COALESCE(OLD.first_channel, '')
      AND revenue_days.last_channel = m.last_channel AND revenue_days.identified = 1;
    INSERT INTO revenue_days (product_id, day, first_channel, last_channel, identified, rows, cents)
    SELECT NEW.product_id, day, COALESCE(NEW.first_channel, ''), COALESCE(last_channel, NULLIF(COALESCE(NEW.first_channel, ''), ''), ''), 1, COUNT(*), SUM(amount_cents)
    FROM transactions WHERE product_id = NEW.product_id AND identity = NEW.identity
    GROUP BY 1, 2, 3, 4
    ON CONFLICT (product_id, day, first_channel, last_channel, identified) DO UPDATE SET
        rows = revenue_days.rows + excluded.rows, cents = revenue_days.cents + excluded.cents;
END;

CREATE TRIGGER identity_profiles_channel_appeared AFTER INSERT ON identity_profiles
WHEN COALESCE(NEW.first_channel, '') <> '' AND EXISTS (SELECT 1 FROM products WHERE id = NEW.product_id)
BEGIN
    UPDATE stage_channel_days SET events = stage_channel_days.events - m.events, identities = stage_channel_days.identities - 1,
        lasts = stage_channel_days.lasts - m.last, plain_events = stage_channel_days.plain_events - m.plain_events,
        plain_value = stage_channel_days.plain_value - m.plain_value
    FROM (SELECT t.day, t.stage, t.events, t.plain_events, t.plain_value,
                 t.day = (SELECT MAX(l.day) FROM stage_identity_days l WHERE l.product_id = NEW.product_id
                          AND l.identity = NEW.identity AND l.stage = t.stage) AS last
          FROM stage_identity_days t WHERE t.product_id = NEW.product_id AND t.identity = NEW.identity) AS m
    WHERE stage_channel_days.product_id = NEW.product_id AND stage_channel_days.day = m.day
      AND stage_channel_days.stage = m.stage AND stage_channel_days.channel = '';
    INSERT INTO stage_channel_days (product_id, day, stage, channel, events, identities, lasts, plain_events, plain_value)
    SELECT NEW.product_id, t.day, t.stage, NEW.first_channel, t.events, 1,
           t.day = (SELECT MAX(l.day) FROM stage_identity_days l WHERE l.product_id = NEW.product_id
                    AND l.identity = NEW.identity AND l.stage = t.stage),
           t.plain_events, t.plain_value
    FROM stage_identity_days t WHERE t.product_id = NEW.product_id AND t.identity = NEW.identity
    ON CONFLICT (product_id, day, stage, channel) DO UPDATE SET
        events = stage_channel_days.events + excluded.events, identities = stage_channel_days.identities + 1, lasts = stage_channel_days.lasts + excluded.lasts,
        plain_events = stage_channel_days.plain_events + excluded.plain_events, plain_value = stage_channel_days.plain_value + excluded.plain_value;
    UPDATE revenue_days SET rows = revenue_days.rows - m.rows, cents = revenue_days.cents - m.cents
    FROM (SELECT day, COALESCE(last_channel, NULLIF('', ''), '') AS last_channel, COUNT(*) AS rows,
                 SUM(amount_cents) AS cents
          FROM transactions WHERE product_id = NEW.product_id AND identity = NEW.identity
          GROUP BY 1, 2) AS m
    WHERE revenue_days.product_id = NEW.product_id AND revenue_days.day = m.day AND revenue_days.first_channel = ''
      AND revenue_days.last_channel = m.last_channel AND revenue_days.identified = 1;
    INSERT INTO revenue_days (product_id, day, first_channel, last_channel, identified, rows, cents)
    SELECT NEW.product_id, day, NEW.first_channel, COALESCE(last_channel, NULLIF(NEW.first_channel, ''), ''), 1, COUNT(*), SUM(amount_cents)
    FROM transactions WHERE product_id = NEW.product_id AND identity = NEW.identity
    GROUP BY 1, 2, 3, 4
    ON CONFLICT (product_id, day, first_channel, last_channel, identified) DO UPDATE SET
        rows = revenue_days.rows + excluded.rows, cents = revenue_days.cents + excluded.cents;
END;

CREATE TRIGGER identity_profiles_channel_gone AFTER DELETE ON identity_profiles
WHEN COALESCE(OLD.first_channel, '') <> ''
BEGIN
    UPDATE stage_channel_days SET events = stage_channel_days.events - m.events, identities = stage_channel_days.identities - 1,
        lasts = stage_channel_days.lasts - m.last, plain_events = stage_channel_days.plain_events - m.plain_events,
        plain_value = stage_channel_days.plain_value - m.plain_value
    FROM (SELECT t.day, t.stage, t.events, t.plain_events, t.plain_value,
                 t.day = (SELECT MAX(l.day) FROM stage_identity_days l WHERE l.product_id = OLD.product_id
                          AND l.identity = OLD.identity AND l.stage = t.stage) AS last
          FROM stage_identity_days t WHERE t.product_id = OLD.product_id AND t.identity = OLD.identity) AS m
    WHERE stage_channel_days.product_id = OLD.product_id AND stage_channel_days.day = m.day
      AND stage_channel_days.stage = m.stage AND stage_channel_days.channel = OLD.first_channel;
    INSERT INTO stage_channel_days (product_id, day, stage, channel, events, identities, lasts, plain_events, plain_value)
    SELECT OLD.product_id, t.day, t.stage, '', t.events, 1,
           t.day = (SELECT MAX(l.day) FROM stage_identity_days l WHERE l.product_id = OLD.product_id
                    AND l.identity = OLD.identity AND l.stage = t.stage),
           t.plain_events, t.plain_value
    FROM stage_identity_days t WHERE t.product_id = OLD.product_id AND t.identity = OLD.identity
    ON CONFLICT (product_id, day, stage, channel) DO UPDATE SET
        events = stage_channel_days.events + excluded.events, identities = stage_channel_days.identities + 1, lasts = stage_channel_days.lasts + excluded.lasts,
        plain_events = stage_channel_days.plain_events + excluded.plain_events, plain_value = stage_channel_days.plain_value + excluded.plain_value;
    UPDATE revenue_days SET rows = revenue_days.rows - m.rows, cents = revenue_days.cents - m.cents
    FROM (SELECT day, COALESCE(last_channel, NULLIF(OLD.first_channel, ''), '') AS last_channel, COUNT(*) AS rows,
                 SUM(amount_cents) AS cents
          FROM transactions WHERE product_id = OLD.product_id AND identity = OLD.identity
          GROUP BY 1, 2) AS m
    WHERE revenue_days.product_id = OLD.product_id AND revenue_days.day = m.day AND revenue_days.first_channel = OLD.first_channel
      AND revenue_days.last_channel = m.last_channel AND revenue_days.identified = 1;
    INSERT INTO revenue_days (product_id, day, first_channel, last_channel, identified, rows, cents)
    SELECT OLD.product_id, day, '', COALESCE(last_channel, NULLIF('', ''), ''), 1, COUNT(*), SUM(amount_cents)
    FROM transactions WHERE product_id = OLD.product_id AND identity = OLD.identity
    GROUP BY 1, 2, 3, 4
    ON CONFLICT (product_id, day, first_channel, last_channel, identified) DO UPDATE SET
        rows = revenue_days.rows + excluded.rows, cents = revenue_days.cents + excluded.cents;
END;
