-- Each inbox batch's event count beside its payload, so a reader that stopped waiting for the
-- fold can say how many of its product's events are still pending (`X-Payback-Pending-Events`)
-- without reading payloads; the product's index carries it. Batches already waiting are
-- counted from their payload once, here.
ALTER TABLE event_inbox ADD COLUMN events BIGINT NOT NULL DEFAULT 0;
UPDATE event_inbox SET events = json_array_length(payload::json);
DROP INDEX event_inbox_by_product;
CREATE INDEX event_inbox_by_product ON event_inbox(product_id, id) INCLUDE (events);
