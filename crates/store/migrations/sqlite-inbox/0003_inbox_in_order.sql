-- The fold takes the oldest batches up to a number of events (`Inbox::pending`): their ids and
-- event counts in id order, read from this index rather than from the table, where the count is
-- stored after the payload and reading it would walk each payload's overflow pages.
CREATE INDEX event_inbox_in_order ON event_inbox(id, events);
