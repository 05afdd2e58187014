//! Field rules garde does not ship, shared by the request types of every route.

use crate::secret::Secret;

/// Text that is only whitespace is refused like empty text: it would be stored trimmed, and an
/// empty channel or headline is nothing anyone can act on.
pub fn not_blank(text: &str, _: &()) -> garde::Result {
    if text.trim().is_empty() {
        return Err(garde::Error::new("must not be blank"));
    }
    Ok(())
}

/// [`payback_domain::validation::check_one_line`] for garde: names, labels and headlines are
/// one line, so no value can open a section of its own in a prompt or a card.
pub fn one_line(text: &str, _: &()) -> garde::Result {
    payback_domain::validation::check_one_line(text).map_err(garde::Error::new)
}

/// A secret (an API key) that is neither blank nor longer than `max` characters; garde's own
/// rules read plain text, and a [`Secret`] shows its value only when asked.
pub fn secret_within<const MAX: usize>(secret: &Secret, _: &()) -> garde::Result {
    let text = secret.expose();
    not_blank(text, &())?;
    if text.chars().count() > MAX {
        return Err(garde::Error::new(format!("length is greater than {MAX}")));
    }
    Ok(())
}

/// What [`web_url`] takes, as a regular expression: a scheme of `http` or `https`, any case.
pub const WEB_URL_PATTERN: &str = "^[Hh][Tt][Tt][Pp][Ss]?:";

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
