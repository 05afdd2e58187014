-- How a database connection's tables become events: a JSON array of event maps (checked by
-- `payback_domain::event_map::check_maps` before it is stored). Other kinds keep '[]'.
ALTER TABLE connections ADD COLUMN event_maps TEXT NOT NULL DEFAULT '[]';
