-- Each batch's event count beside its payload, so a reader that stopped waiting for the fold
-- can say how many of its product's events are still pending (`X-Payback-Pending-Events`)
-- without reading payloads. The count is also the last column of the product's index, which
-- then answers the sum alone: a column added after the payload is stored after it, and reading
-- it from the table would walk each payload's overflow pages.
ALTER TABLE event_inbox ADD COLUMN events INTEGER NOT NULL DEFAULT 0;
UPDATE event_inbox SET events = json_array_length(payload);
DROP INDEX event_inbox_by_product;
CREATE INDEX event_inbox_by_product ON event_inbox(product_id, id, events);
