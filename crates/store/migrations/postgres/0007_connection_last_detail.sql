-- What the last successful run read, as the connector says it (`orders: 120 rows, 118 events,
-- 2 skipped (first: ...)`), so people see skipped rows without reading the server log.
ALTER TABLE connections ADD COLUMN last_detail TEXT;
