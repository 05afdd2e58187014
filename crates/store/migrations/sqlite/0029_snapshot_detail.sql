-- A text that goes with a snapshot's value: the page that ranks for a keyword position. Null
-- where a value has none (every snapshot written before).
ALTER TABLE snapshots ADD COLUMN detail TEXT;
