-- Nothing changes in this file: on SQLite the inbox is a database file of its own, and its
-- event counts come with `migrations/sqlite-inbox/0002_inbox_event_counts.sql`. The version
-- exists so both backends' migration sets stay in step.
SELECT 1;
