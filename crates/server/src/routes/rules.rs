//! Field rules garde does not ship, shared by the request types of every route.

/// Text that is only whitespace is refused like empty text: it would be stored trimmed, and an
/// empty channel or headline is nothing anyone can act on.
pub fn not_blank(text: &str, _: &()) -> garde::Result {
    if text.trim().is_empty() {
        return Err(garde::Error::new("must not be blank"));
    }
    Ok(())
}

/// Links are opened from the dashboard, so only `http` and `https` are taken; `javascript:` or
/// `file:` URLs would be clicked by a human trusting the queue.
pub fn web_url(url: &str, _: &()) -> garde::Result {
    let scheme = url
        .split_once(':')
        .map(|(scheme, _)| scheme.to_ascii_lowercase());
    match scheme.as_deref() {
        Some("http" | "https") => Ok(()),
        _ => Err(garde::Error::new("must be an http or https URL")),
    }
}
