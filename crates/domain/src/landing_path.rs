//! The one spelling of a landing page's path, shared by every place that keys traffic by it: a
//! tracked page's `path`, the fold's daily visits per landing path (from a `visit` event's
//! `attribution.landing_url`), and the `landing_sessions` snapshots analytics sources write
//! (their dimension). Three spellings would split one page's traffic across three keys.
//!
//! The rule is plain string work, so migration `0032_landing_pages` can spell it in SQL for the
//! visits stored before it: cut at the first `#`, then at the first `?`; drop everything up to
//! and including `://` when present; the path starts at the first `/` (none: the root); trailing
//! `/` are dropped, and what is left empty is the root `/`.

/// The landing path of a URL or of a path: `https://x.io/pricing/?a=1#top` -> `/pricing`,
/// `https://x.io` -> `/`, `/blog/` -> `/blog`.
pub fn landing_path(url_or_path: &str) -> String {
    let text = url_or_path.trim();
    let text = text.split('#').next().unwrap_or_default();
    let text = text.split('?').next().unwrap_or_default();
    let after_scheme = text.split_once("://").map_or(text, |(_, rest)| rest);
    let path = after_scheme
        .find('/')
        .map_or("", |slash| &after_scheme[slash..]);
    let path = path.trim_end_matches('/');
    if path.is_empty() {
        "/".to_owned()
    } else {
        path.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::landing_path;

    #[test]
    fn urls_and_paths_share_one_spelling() {
        for (given, path) in [
            ("https://x.io/pricing/?a=1#top", "/pricing"),
            ("https://x.io", "/"),
            ("https://x.io/", "/"),
            ("https://x.io?next=https://y.io/a", "/"),
            ("http://x.io:8080/a/b//", "/a/b"),
            ("/blog/", "/blog"),
            ("/", "/"),
            ("", "/"),
            ("x.io/docs#intro", "/docs"),
            ("/Case/Kept", "/Case/Kept"),
        ] {
            assert_eq!(landing_path(given), path, "{given}");
        }
    }
}
