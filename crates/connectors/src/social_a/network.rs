//! The two networks a `social_a` connection reads, by the names a post's network and a
//! snapshot's detail dimension carry. Their own file, so `posts` (which names a post's network)
//! and `snapshots` (which turns posts into snapshots) both import them without importing each
//! other.

pub(crate) const FACEBOOK: &str = "facebook";
pub(crate) const INSTAGRAM: &str = "instagram";
