//! The Stripe key: its shape is checked before any call, and it is scrubbed from every text that
//! could reach an error, a log line or the connection's status.

use crate::ConnectorError;

/// What a well-formed key is, read from its prefix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct KeyKind {
    restricted: bool,
    live: bool,
}

impl KeyKind {
    pub(crate) fn describe(self) -> &'static str {
        if self.restricted {
            "restricted key"
        } else {
            "secret key"
        }
    }

    pub(crate) fn mode(self) -> &'static str {
        if self.live { "live" } else { "test" }
    }
}

const PREFIXES: [(&str, KeyKind); 4] = [
    (
        "sk_live_",
        KeyKind {
            restricted: false,
            live: true,
        },
    ),
    (
        "sk_test_",
        KeyKind {
            restricted: false,
            live: false,
        },
    ),
    (
        "rk_live_",
        KeyKind {
            restricted: true,
            live: true,
        },
    ),
    (
        "rk_test_",
        KeyKind {
            restricted: true,
            live: false,
        },
    ),
];

/// What [`check`] accepts, as a regular expression: one of the prefixes, then letters and digits.
pub(crate) fn pattern() -> String {
    let prefixes: Vec<&str> = PREFIXES.iter().map(|(prefix, _)| *prefix).collect();
    format!("^({})[A-Za-z0-9]+$", prefixes.join("|"))
}

/// Accepts secret and restricted keys, live or test. The message names what is wrong but never
/// repeats the key (a publishable key pasted by mistake is still a key someone may not want in
/// a status line).
pub(crate) fn check(key: &str) -> Result<KeyKind, ConnectorError> {
    if key.starts_with("pk_") {
        return Err(ConnectorError::Config(
            "the payments key is a publishable key (pk_...); Payback needs a secret key \
             (sk_live_/sk_test_) or a restricted key (rk_live_/rk_test_) with read access"
                .to_owned(),
        ));
    }
    let kind = PREFIXES
        .iter()
        .find_map(|(prefix, kind)| key.strip_prefix(prefix).map(|rest| (rest, *kind)));
    match kind {
        Some((rest, kind))
            if !rest.is_empty() && rest.chars().all(|c| c.is_ascii_alphanumeric()) =>
        {
            Ok(kind)
        }
        _ => Err(ConnectorError::Config(
            "the payments key must be a Stripe secret key (sk_live_... or sk_test_...) or \
             restricted key (rk_live_... or rk_test_...), letters and digits only after the prefix"
                .to_owned(),
        )),
    }
}

/// What replaces a key in any text we pass on.
const REDACTED: &str = "[redacted key]";

/// Removes `key` and anything shaped like a Stripe key (Stripe's own messages quote a masked
/// form such as `sk_test_****abcd`) from `text`.
pub(crate) fn redact(text: &str, key: &str) -> String {
    let text = if key.is_empty() {
        text.to_owned()
    } else {
        text.replace(key, REDACTED)
    };
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(at) = find_key_start(rest) {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        let end = tail
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '*'))
            .unwrap_or(tail.len());
        out.push_str(REDACTED);
        rest = &tail[end..];
    }
    out.push_str(rest);
    out
}

/// The byte offset of the first `sk_`/`rk_`/`pk_` that starts a word.
fn find_key_start(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    (0..bytes.len().saturating_sub(2)).find(|&i| {
        let starts_word = i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
        starts_word && matches!(&bytes[i..i + 3], b"sk_" | b"rk_" | b"pk_")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_the_four_key_kinds() {
        assert_eq!(
            check("sk_live_abc123").map(KeyKind::mode).ok(),
            Some("live")
        );
        assert_eq!(
            check("rk_test_abc123").map(KeyKind::describe).ok(),
            Some("restricted key")
        );
        for bad in [
            "",
            "sk_live_",
            "pk_live_abc",
            "sk_prod_abc",
            "sk_test_ab c",
            "whsec_abc",
        ] {
            let err = check(bad).err().map(|e| e.to_string()).unwrap_or_default();
            assert!(
                matches!(check(bad), Err(ConnectorError::Config(_))),
                "{bad}"
            );
            // A bare prefix is no secret; anything longer must not be repeated.
            assert!(bad.len() <= "sk_live_".len() || !err.contains(bad), "{err}");
        }
    }

    #[test]
    fn redacts_the_key_and_masked_forms() {
        let key = "sk_test_51Secret";
        let text =
            "Invalid API Key provided: sk_test_****cret; also sk_test_51Secret and rk_live_x.";
        let clean = redact(text, key);
        assert_eq!(
            clean,
            "Invalid API Key provided: [redacted key]; also [redacted key] and [redacted key]."
        );
        assert_eq!(redact("task_done risk_level", key), "task_done risk_level");
    }
}
