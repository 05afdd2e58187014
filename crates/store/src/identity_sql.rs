//! The identity a row counts under now, in SQL.
//!
//! An event keeps the identity it was stored under. When an anonymous identity (`a:<id>`) is
//! later linked to a user, its maintained rows (profile, daily rows, touches, revenue rows) move
//! to the user's identity (`ingest/moves.rs`), but its events are not rewritten: finding them
//! would take an index by identity over every event, the most expensive tree of the ingest fold
//! (migration 0011). Readers of raw events that group or join by identity resolve it here
//! instead, with the same lookup of a link the moves use.
//!
//! Macros rather than functions so the moves' statements stay `&'static str` constants.

/// The linked user's identity (`u:<user id>`) of the row `$row` (a table name or alias with
/// `identity` and `product_id` columns) when its identity is a linked anonymous one, else
/// `NULL`: one probe of the `identity_links` key.
macro_rules! linked_user {
    ($row:literal) => {
        concat!(
            "(SELECT 'u:' || l.user_id FROM identity_links l WHERE l.product_id = ",
            $row,
            ".product_id AND substr(",
            $row,
            ".identity, 1, 2) = 'a:' AND l.anonymous_id = substr(",
            $row,
            ".identity, 3))"
        )
    };
}

/// The identity the row `$row` counts under now: its linked user's for a linked anonymous
/// identity, else its own (`NULL` stays `NULL`).
macro_rules! current_identity {
    ($row:literal) => {
        concat!(
            "COALESCE(",
            $crate::identity_sql::linked_user!($row),
            ", ",
            $row,
            ".identity)"
        )
    };
}

pub(crate) use {current_identity, linked_user};
