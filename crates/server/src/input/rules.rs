//! Field rules garde does not ship, shared by the request types of every route and the
//! arguments of every MCP tool, and the bounds of the fields both doors take.

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

/// `POST /distribution` and the `record_distribution` tool.
pub mod distribution {
    /// `productSlug`, in characters (a slug is at most this long).
    pub const PRODUCT_SLUG_MAX_CHARS: usize = payback_domain::validation::SLUG_MAX_CHARS;
    /// `channel` and `kind`, in characters.
    pub const LABEL_MAX_CHARS: usize = 80;
    /// `url` and `note`, in characters.
    pub const TEXT_MAX_CHARS: usize = 2000;
    /// `utmCampaign`, in characters.
    pub const CAMPAIGN_MAX_CHARS: usize = 200;
}

/// `POST /products/{slug}/spend/proposals` and the `propose_spend_change` tool.
pub mod spend {
    /// `campaign_id`, in characters.
    pub const CAMPAIGN_ID_MAX_CHARS: usize = 200;
    /// `rationale`, in characters.
    pub const RATIONALE_MIN_CHARS: usize = 10;
    pub const RATIONALE_MAX_CHARS: usize = 2000;
}
