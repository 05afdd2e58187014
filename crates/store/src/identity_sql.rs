//! The identity an event counts under now, in SQL.
//!
//! An event keeps the identity it was stored under. When an anonymous identity (`a:<id>`) is
//! later linked to a user, its maintained rows (profile, daily rows, touches, revenue rows) move
//! to the user's identity, but its events are not rewritten: finding them would take an index
//! by identity over every event, the most expensive tree of the ingest fold (migration 0011).
//! Readers of raw events that group or join by identity resolve it here instead.

/// An SQL expression for the current identity of the row whose identity column is `identity`
/// and product column `product_id` (both qualified, e.g. `e.identity`): the linked user's
/// identity for a linked anonymous identity, else the identity itself (`NULL` stays `NULL`).
pub(crate) fn current_identity(identity: &str, product_id: &str) -> String {
    format!(
        "COALESCE((SELECT 'u:' || l.user_id FROM identity_links l \
         WHERE l.product_id = {product_id} AND substr({identity}, 1, 2) = 'a:' \
         AND l.anonymous_id = substr({identity}, 3)), {identity})"
    )
}
