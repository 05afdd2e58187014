-- The ad account each spend row was read from (issue 21). A sync run replaces one ad account's
-- rows for the days it read, so a day the network restated, or a campaign removed, is right
-- after the next run; rows written by hand or by the demo have none (''). Deletes by account
-- and days walk the primary key's (product_id, day) prefix.
ALTER TABLE spend_rows ADD COLUMN ad_account TEXT NOT NULL DEFAULT '';
