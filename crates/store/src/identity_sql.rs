//! The identity a row counts under now, in SQL.
//!
//! An event keeps the identity it was stored under. When an anonymous identity (`a:<id>`) is
//! later linked to a user, its maintained rows (profile, daily rows, touches, revenue rows) move
//! to the user's identity (`ingest/moves.rs`), but its events are not rewritten: finding them
//! would take an index by identity over every event, the most expensive tree of the ingest fold
//! (migration 0011). Readers of raw events that group or join by identity resolve it here
//! instead, with the same lookup of a link the moves use.
//!
//! An event known only by its email is stored under the email's holder of the moment
//! (`ingest/emails.rs`), or under `e:<email>` while nobody holds it. When someone later claims
//! the email, `e:<email>`'s maintained rows move to them; its events are resolved here through
//! `email_identities` (and a holding anonymous identity through its link).
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

/// The identity now holding the email of the row `$row`, whose identity is `e:<email>`: the
/// holder stored in `email_identities` (`e:<email>` itself while nobody holds it), or a holding
/// anonymous identity's linked user. One probe of each primary key.
macro_rules! email_holder {
    ($row:literal) => {
        concat!(
            "(SELECT COALESCE((SELECT 'u:' || l.user_id FROM identity_links l WHERE l.product_id = o.product_id \
             AND substr(o.identity, 1, 2) = 'a:' AND l.anonymous_id = substr(o.identity, 3)), o.identity) \
             FROM email_identities o WHERE o.product_id = ",
            $row,
            ".product_id AND o.email = substr(",
            $row,
            ".identity, 3))"
        )
    };
}

/// The identity the row `$row` counts under now: its linked user's for a linked anonymous
/// identity, its email's holder for an email-only identity, else its own (`NULL` stays `NULL`).
/// The prefix decides which lookup runs, so a user's row costs none.
macro_rules! current_identity {
    ($row:literal) => {
        concat!(
            "CASE substr(",
            $row,
            ".identity, 1, 2) WHEN 'a:' THEN COALESCE(",
            $crate::identity_sql::linked_user!($row),
            ", ",
            $row,
            ".identity) WHEN 'e:' THEN COALESCE(",
            $crate::identity_sql::email_holder!($row),
            ", ",
            $row,
            ".identity) ELSE ",
            $row,
            ".identity END"
        )
    };
}

pub(crate) use {current_identity, email_holder, linked_user};
