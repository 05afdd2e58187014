-- Two reports still read a row per sale (issue 20, part 4): the ads report grouped the
-- window's revenue rows and customers by their paid touch (migration 0024), and cohort payback
-- summed each customer's revenue rows by days since acquisition. At 100k revenue rows a year
-- the first took 130-144 ms on SQLite, and at 10M events both grew with the rows, not the
-- window. They now read sums the fold keeps beside the other daily tables
-- (`store/src/ingest/report_days.rs`, checked by `reports::report_days::differences`).

-- Per day and paid touch (its channel and ad tags, '' for none): the revenue rows booked that
-- day credited to it (`transactions.paid_*`) and the customers acquired that day credited to
-- it (`identity_profiles.acquired_paid_*`).
CREATE TABLE paid_touch_days (
    product_id     TEXT NOT NULL REFERENCES products(id) ON DELETE CASCADE,
    day            TEXT NOT NULL,
    channel        TEXT NOT NULL,
    tags           TEXT NOT NULL,
    revenue_rows   BIGINT NOT NULL,
    revenue_cents  BIGINT NOT NULL,
    customers      BIGINT NOT NULL,
    PRIMARY KEY (product_id, day, channel, tags)
) WITHOUT ROWID;
INSERT INTO paid_touch_days (product_id, day, channel, tags, revenue_rows, revenue_cents, customers)
SELECT product_id, day, channel, tags, SUM(revenue_rows), SUM(revenue_cents), SUM(customers) FROM (
    SELECT product_id, day, COALESCE(paid_channel, '') AS channel, COALESCE(paid_tags, '') AS tags,
           1 AS revenue_rows, amount_cents AS revenue_cents, 0 AS customers
    FROM transactions
    UNION ALL
    SELECT product_id, acquired_day, COALESCE(acquired_paid_channel, ''), COALESCE(acquired_paid_tags, ''), 0, 0, 1
    FROM identity_profiles WHERE acquired_at IS NOT NULL
) AS touched
GROUP BY product_id, day, channel, tags;

-- Per acquisition day and point of the cohort curve (`reports::payback::POINT_DAYS`: 0, 7,
-- 14, 30, 60, 90): the revenue rows of the customers acquired that day booked more days after
-- it than the point before and at most the point's (point 0: the acquisition day itself), and
-- their net cents. A point's cumulative revenue is the sum up to it; rows before the
-- acquisition day or more than 90 days after it count for no point.
CREATE TABLE cohort_revenue_days (
    product_id    TEXT NOT NULL REFERENCES products(id) ON DELETE CASCADE,
    acquired_day  TEXT NOT NULL,
    point_day     BIGINT NOT NULL,
    rows          BIGINT NOT NULL,
    cents         BIGINT NOT NULL,
    PRIMARY KEY (product_id, acquired_day, point_day)
) WITHOUT ROWID;
INSERT INTO cohort_revenue_days (product_id, acquired_day, point_day, rows, cents)
SELECT product_id, acquired_day,
       CASE WHEN age <= 0 THEN 0 WHEN age <= 7 THEN 7 WHEN age <= 14 THEN 14
            WHEN age <= 30 THEN 30 WHEN age <= 60 THEN 60 ELSE 90 END,
       COUNT(*), SUM(amount_cents)
FROM (SELECT p.product_id, p.acquired_day, t.amount_cents,
             -- UTC day numbers (floored: `%` truncates, and an event may predate 1970).
             (t.occurred_at - ((t.occurred_at % 86400000) + 86400000) % 86400000) / 86400000
             - (p.acquired_at - ((p.acquired_at % 86400000) + 86400000) % 86400000) / 86400000 AS age
      FROM identity_profiles p
      JOIN transactions t ON t.product_id = p.product_id AND t.identity = p.identity
      WHERE p.acquired_at IS NOT NULL) AS aged
WHERE age >= 0 AND age <= 90
GROUP BY 1, 2, 3;
