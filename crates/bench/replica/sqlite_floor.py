#!/usr/bin/env python3
"""What SQLite alone costs per ingested event, without HTTP, JSON, Rust or sqlx.

Replicates the fold's writes with Python's sqlite3 module on a file database with the pragmas
of the fold's connection, preloads 1M events, then times five 20,000-event transactions and
prints the mean rate. The tables are those of the store (see crates/store/migrations/sqlite);
which of them a fold writes is chosen by letters:

  E  events rows (rowid table, no secondary index)
  I  the three secondary indexes of events (identity, stage, campaign)
  J  only the stage and campaign indexes of events (no identity index)
  K  event_keys (dedupe by a random 64-bit key)
  P  identity_profiles upserts (one per identity of the transaction)
  S  stage_identity_days upserts (one per day, stage and identity of the transaction)
  D  an index of stage_identity_days by product and identity (finds an identity's daily rows
     when it is merged into a user, instead of the identity index of events)
  T  identity_touches: one row per channel-bearing event (a table the store does not have;
     the candidate replacement of the identity index)
  N  the maintained trees (P, S, T) keyed by integer product and identity ids instead of
     their texts, each identity's id looked up (and new ones stored) in identity_ids

With a third argument `sql`, each timed transaction writes from a staging table already in
memory (filled before the clock starts) with one INSERT ... SELECT per tree, so not even
Python's per-row cost is counted: what SQLite's B-trees, WAL and commit cost alone.

usage: sqlite_floor.py LETTERS [live|30d] [sql]   e.g. sqlite_floor.py EJKPSTD live sql
"""
import json
import os
import random
import sqlite3
import sys
import tempfile
import time
import uuid
from collections import Counter

LETTERS = sys.argv[1]
SPREAD = sys.argv[2] if len(sys.argv) > 2 else "live"
IN_SQL = len(sys.argv) > 3 and sys.argv[3] == "sql"
IDENTITIES = 100_000
PRELOAD = 1_000_000
FOLD = 20_000
NOW = 1_790_000_000_000
DAY = 86_400_000

SCHEMA = """
CREATE TABLE events (id INTEGER PRIMARY KEY AUTOINCREMENT, product_id TEXT NOT NULL,
  namespace TEXT NOT NULL, dedupe_id TEXT NOT NULL, stage TEXT NOT NULL, name TEXT,
  occurred_at BIGINT NOT NULL, day TEXT NOT NULL, identity TEXT, anonymous_id TEXT,
  user_id TEXT, email TEXT, value_cents BIGINT, currency TEXT, channel TEXT, attribution TEXT,
  properties TEXT, received_at BIGINT NOT NULL, utm_campaign TEXT);
CREATE TABLE event_keys (key INTEGER PRIMARY KEY, event_id INTEGER NOT NULL);
CREATE TABLE identity_profiles (product_id TEXT NOT NULL, identity TEXT NOT NULL,
  first_seen_at BIGINT NOT NULL, last_seen_at BIGINT, first_channel TEXT,
  revenue_cents BIGINT NOT NULL DEFAULT 0, PRIMARY KEY (product_id, identity)) WITHOUT ROWID;
CREATE TABLE stage_identity_days (product_id TEXT NOT NULL, day TEXT NOT NULL,
  stage TEXT NOT NULL, identity TEXT NOT NULL, events BIGINT NOT NULL,
  PRIMARY KEY (product_id, day, stage, identity)) WITHOUT ROWID;
CREATE TABLE identity_touches (product_id TEXT NOT NULL, identity TEXT NOT NULL,
  occurred_at BIGINT NOT NULL, event_id INTEGER NOT NULL, channel TEXT NOT NULL,
  PRIMARY KEY (product_id, identity, occurred_at, event_id)) WITHOUT ROWID;
"""
IDENTITY_IDS = """
CREATE TABLE identity_ids (product_id INTEGER NOT NULL, identity TEXT NOT NULL,
  id INTEGER NOT NULL, PRIMARY KEY (product_id, identity)) WITHOUT ROWID;
"""
IDENTITY_INDEX = """
CREATE INDEX events_by_identity ON events(product_id, identity, occurred_at);
"""
EVENT_INDEXES = """
CREATE INDEX events_by_stage ON events(product_id, stage, occurred_at);
CREATE INDEX events_by_campaign ON events(product_id, utm_campaign) WHERE utm_campaign IS NOT NULL;
"""
INSERT_EVENT = (
    "INSERT INTO events (id, product_id, namespace, dedupe_id, stage, name, occurred_at, day, "
    "identity, anonymous_id, user_id, email, value_cents, currency, channel, attribution, "
    "utm_campaign, properties, received_at) VALUES (" + ",".join("?" * 19) + ")"
)

product = str(uuid.uuid4())
next_id = 0


def events(count):
    """Events as the benchmark sends them: 70% visits, 40% of those with a paid click."""
    global next_id
    rows = []
    for _ in range(count):
        next_id += 1
        person = random.randrange(IDENTITIES)
        if SPREAD == "live":
            at = NOW + next_id * 5 - random.randrange(300_000)
        else:
            at = NOW - random.randrange(30 * DAY)
        day = time.strftime("%Y-%m-%d", time.gmtime(at / 1000))
        stage = random.choice(["visit"] * 7 + ["engaged", "lead", "signup"])
        paid = stage == "visit" and random.random() < 0.4
        attribution = json.dumps({"gclid": f"g{random.randrange(10**6)}"}) if paid else None
        rows.append((next_id, product, "api:bench", str(uuid.uuid4()), stage, None, at, day,
                     f"a:anon-{person}", f"anon-{person}", None, None, None, None,
                     "paid_google" if paid else None, attribution,
                     "brand" if paid else None, None, NOW))
    return rows


def integer_keys(db, rows):
    """Rows for the maintained trees keyed by integers: the product's id and each identity's,
    found in (or added to) identity_ids, one probe per identity of the transaction."""
    ids = {}
    for identity in sorted({row[8] for row in rows}):
        found = db.execute("SELECT id FROM identity_ids WHERE product_id = 1 AND identity = ?",
                           (identity,)).fetchone()
        if found is None:
            found = (int(identity.rsplit("-", 1)[1]),)
            db.execute("INSERT INTO identity_ids VALUES (1, ?, ?)", (identity, found[0]))
        ids[identity] = found[0]
    return [row[:1] + (1,) + row[2:8] + (ids[row[8]],) + row[9:] for row in rows]


def fold(db, rows):
    db.executemany(INSERT_EVENT, rows)
    if "N" in LETTERS:
        rows = integer_keys(db, rows)
        product_key = 1
    else:
        product_key = product
    if "K" in LETTERS:
        db.executemany("INSERT INTO event_keys VALUES (?, ?)",
                       [(random.getrandbits(63), row[0]) for row in rows])
    if "P" in LETTERS:
        # One upsert per identity, its changes merged first, as the fold does.
        profiles = {}
        for row in rows:
            at, channel = row[6], row[14]
            seen = profiles.setdefault(row[8], [at, at, channel])
            seen[0], seen[1], seen[2] = min(seen[0], at), max(seen[1], at), seen[2] or channel
        db.executemany(
            "INSERT INTO identity_profiles VALUES (?, ?, ?, ?, ?, 0) ON CONFLICT DO UPDATE SET "
            "last_seen_at = max(last_seen_at, excluded.last_seen_at)",
            [(product_key, identity, *seen) for identity, seen in sorted(profiles.items())])
    if "S" in LETTERS:
        days = Counter((row[7], row[4], row[8]) for row in rows)
        db.executemany(
            "INSERT INTO stage_identity_days VALUES (?, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET "
            "events = events + excluded.events",
            [(product_key, *key, count) for key, count in sorted(days.items())])
    if "T" in LETTERS:
        db.executemany("INSERT INTO identity_touches VALUES (?, ?, ?, ?, ?)",
                       [(product_key, row[8], row[6], row[0], row[14]) for row in rows if row[14]])


STAGING = """
CREATE TEMP TABLE staging (id INTEGER, product_id TEXT, namespace TEXT, dedupe_id TEXT,
  stage TEXT, name TEXT, occurred_at BIGINT, day TEXT, identity TEXT, anonymous_id TEXT,
  user_id TEXT, email TEXT, value_cents BIGINT, currency TEXT, channel TEXT, attribution TEXT,
  utm_campaign TEXT, properties TEXT, received_at BIGINT, key INTEGER);
"""


def stage(db, rows):
    """Untimed: the transaction's rows, with their random dedupe keys, into the staging table."""
    db.execute("BEGIN")
    db.execute("DELETE FROM staging")
    db.executemany("INSERT INTO staging VALUES (" + ",".join("?" * 20) + ")",
                   [row + (random.getrandbits(63),) for row in rows])
    db.execute("COMMIT")


def fold_in_sql(db):
    """The fold of the staged rows, one statement per tree (letters as in `fold`; not N)."""
    db.execute("INSERT INTO events SELECT id, product_id, namespace, dedupe_id, stage, name, "
               "occurred_at, day, identity, anonymous_id, user_id, email, value_cents, currency, "
               "channel, attribution, properties, received_at, utm_campaign FROM staging")
    if "K" in LETTERS:
        db.execute("INSERT INTO event_keys SELECT key, id FROM staging")
    if "P" in LETTERS:
        db.execute(
            "INSERT INTO identity_profiles SELECT product_id, identity, MIN(occurred_at), "
            "MAX(occurred_at), MAX(channel), 0 FROM staging GROUP BY product_id, identity "
            "ORDER BY identity ON CONFLICT DO UPDATE SET "
            "last_seen_at = max(last_seen_at, excluded.last_seen_at)")
    if "S" in LETTERS:
        db.execute(
            "INSERT INTO stage_identity_days SELECT product_id, day, stage, identity, COUNT(*) "
            "FROM staging GROUP BY product_id, day, stage, identity ORDER BY day, stage, identity "
            "ON CONFLICT DO UPDATE SET events = events + excluded.events")
    if "T" in LETTERS:
        db.execute("INSERT INTO identity_touches SELECT product_id, identity, occurred_at, id, "
                   "channel FROM staging WHERE channel IS NOT NULL")


def main():
    path = os.path.join(tempfile.mkdtemp(), "floor.db")
    db = sqlite3.connect(path, isolation_level=None)
    for pragma in ("journal_mode=wal", "synchronous=normal", "cache_size=-262144",
                   "wal_autocheckpoint=65536"):
        db.execute("PRAGMA " + pragma)
    schema = SCHEMA
    if "N" in LETTERS:
        # Only the maintained trees: events keep their texts (exports read them).
        head, tail = schema.split("CREATE TABLE identity_profiles")
        tail = tail.replace("product_id TEXT", "product_id INTEGER")
        tail = tail.replace("identity TEXT NOT NULL", "identity INTEGER NOT NULL")
        schema = head + "CREATE TABLE identity_profiles" + tail + IDENTITY_IDS
    if "I" in LETTERS:
        schema += IDENTITY_INDEX + EVENT_INDEXES
    elif "J" in LETTERS:
        schema += EVENT_INDEXES
    if "D" in LETTERS:
        schema += "CREATE INDEX stage_identity_days_by_identity ON stage_identity_days(product_id, identity);"
    db.executescript(schema)
    if IN_SQL:
        db.execute("PRAGMA temp_store=memory")
        db.executescript(STAGING)
    db.execute("BEGIN")
    for _ in range(PRELOAD // 100_000):
        fold(db, events(100_000))
    db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    spent = 0.0
    for _ in range(5):
        rows = events(FOLD)
        if IN_SQL:
            stage(db, rows)
        started = time.perf_counter()
        db.execute("BEGIN IMMEDIATE")
        if IN_SQL:
            fold_in_sql(db)
        else:
            fold(db, rows)
        db.execute("COMMIT")
        spent += time.perf_counter() - started
    mode = " sql" if IN_SQL else ""
    print(f"{LETTERS} {SPREAD}{mode}: {5 * FOLD / spent:,.0f} events/s")


main()
