//! Input rules shared by every door (HTTP, MCP, chat, CLI). Each returns a message that names
//! what is wrong; callers prefix the field name. The bounds are constants, so the machine-readable
//! description (`/openapi.json`) states the same numbers the checks use.

/// Slugs are this many characters at least and at most.
pub const SLUG_MIN_CHARS: usize = 2;
pub const SLUG_MAX_CHARS: usize = 60;
/// What a slug is made of, as [`check_slug`] checks it.
pub const SLUG_PATTERN: &str = "^[a-z0-9][a-z0-9-]*[a-z0-9]$";
/// What [`normalize_currency`] takes: three ASCII letters, either case.
pub const CURRENCY_PATTERN: &str = "^[A-Za-z]{3}$";
/// The longest address [`check_email`] takes (bytes).
pub const EMAIL_MAX_BYTES: usize = 254;
/// What [`check_email`] takes: no whitespace, one `@` after a non-empty local part, and a domain
/// holding a dot that neither starts nor ends it.
pub const EMAIL_PATTERN: &str = r"^[^@\s]+@[^@\s.][^@\s]*\.[^@\s]*[^@\s.]$";
/// Passwords, in characters ([`check_password`]).
pub const PASSWORD_MIN_CHARS: usize = 10;
pub const PASSWORD_MAX_CHARS: usize = 200;
/// A person's name, in characters.
pub const PERSON_NAME_MAX_CHARS: usize = 80;
/// An account's (workspace's) name, in characters, after trimming.
pub const ACCOUNT_NAME_MAX_CHARS: usize = 80;
/// A product's name, in characters, after trimming.
pub const PRODUCT_NAME_MAX_CHARS: usize = 120;
/// A product's domain, in characters.
pub const DOMAIN_MAX_CHARS: usize = 255;
/// An API key's name, in characters, after trimming.
pub const KEY_NAME_MAX_CHARS: usize = 80;
/// Text that must not be blank (only whitespace) holds at least one other character.
pub const NOT_BLANK_PATTERN: &str = r"\S";
/// What [`check_one_line`] takes, as a regular expression (ECMA and Rust syntax alike).
pub const ONE_LINE_PATTERN: &str =
    r"^[^\x00-\x1F\x7F-\x9F\u2028\u2029\u202A-\u202E\u2066-\u2069]*$";
/// [`ONE_LINE_PATTERN`] that is also not blank: one character besides whitespace at least.
pub const ONE_LINE_NOT_BLANK_PATTERN: &str = r"^[^\x00-\x1F\x7F-\x9F\u2028\u2029\u202A-\u202E\u2066-\u2069]*[^\s\x00-\x1F\x7F-\x9F\u2028\u2029\u202A-\u202E\u2066-\u2069][^\x00-\x1F\x7F-\x9F\u2028\u2029\u202A-\u202E\u2066-\u2069]*$";

/// Product slugs: 2-60 characters, `^[a-z0-9][a-z0-9-]*[a-z0-9]$`. Slugs appear in URLs, tool
/// arguments and audit references, so they are immutable once created.
pub fn check_slug(slug: &str) -> Result<(), String> {
    let len = slug.chars().count();
    if !(SLUG_MIN_CHARS..=SLUG_MAX_CHARS).contains(&len) {
        return Err(format!(
            "must be {SLUG_MIN_CHARS}-{SLUG_MAX_CHARS} characters, got {len}"
        ));
    }
    let allowed = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit();
    let bytes: Vec<char> = slug.chars().collect();
    let ends_ok =
        bytes.first().is_some_and(|c| allowed(*c)) && bytes.last().is_some_and(|c| allowed(*c));
    if !ends_ok || !bytes.iter().all(|c| allowed(*c) || *c == '-') {
        return Err(format!(
            "must match {SLUG_PATTERN} (lowercase letters, digits and inner hyphens)"
        ));
    }
    Ok(())
}

/// Currency codes are three ASCII letters; they are stored upper-case.
pub fn normalize_currency(code: &str) -> Result<String, String> {
    if code.len() == 3 && code.chars().all(|c| c.is_ascii_alphabetic()) {
        Ok(code.to_ascii_uppercase())
    } else {
        Err("must be a 3-letter currency code such as USD".to_owned())
    }
}

/// Emails are compared and stored trimmed and lower-case.
pub fn normalize_email(email: &str) -> String {
    email.trim().to_ascii_lowercase()
}

/// A pragmatic address check: one `@`, a non-empty local part, a dotted domain, no spaces.
pub fn check_email(email: &str) -> Result<(), String> {
    let valid = email.len() <= EMAIL_MAX_BYTES
        && !email.chars().any(char::is_whitespace)
        && email.split_once('@').is_some_and(|(local, domain)| {
            !local.is_empty()
                && !domain.contains('@')
                && domain.contains('.')
                && !domain.starts_with('.')
                && !domain.ends_with('.')
        });
    if valid {
        Ok(())
    } else {
        Err("must be an email address".to_owned())
    }
}

/// Passwords are 10 to 200 characters.
pub fn check_password(password: &str) -> Result<(), String> {
    let len = password.chars().count();
    if (PASSWORD_MIN_CHARS..=PASSWORD_MAX_CHARS).contains(&len) {
        Ok(())
    } else {
        Err(format!(
            "must be {PASSWORD_MIN_CHARS}-{PASSWORD_MAX_CHARS} characters, got {len}"
        ))
    }
}

/// Names, labels and headlines are one line of plain text: no line breaks, tabs or other
/// control characters, no Unicode line or paragraph separators and no bidirectional overrides.
/// They are shown inside other text (a prompt a founder pastes into a coding agent, a card, a
/// log line), where a line break would let a value open a section of its own and pass for
/// instructions, and an override would show other words than the ones stored.
pub fn check_one_line(text: &str) -> Result<(), String> {
    let breaking = |c: &char| {
        c.is_control()
            || matches!(c, '\u{2028}' | '\u{2029}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
    };
    match text.chars().find(breaking) {
        Some(found) => Err(format!(
            "must be one line of text without line breaks or control characters (found U+{:04X})",
            u32::from(found)
        )),
        None => Ok(()),
    }
}

/// [`check_one_line`] with the field's name leading the message (`name: must be one line ...`).
pub fn check_one_line_field(field: &str, text: &str) -> Result<(), String> {
    check_one_line(text).map_err(|msg| format!("{field}: {msg}"))
}

/// Checks a string's length in characters against an inclusive range.
pub fn check_length(text: &str, min: usize, max: usize) -> Result<(), String> {
    let len = text.chars().count();
    if len < min || len > max {
        Err(if min == 0 {
            format!("must be at most {max} characters, got {len}")
        } else {
            format!("must be {min}-{max} characters, got {len}")
        })
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line() {
        assert!(check_one_line("Shop · Ünïcode — fine").is_ok());
        assert!(check_one_line("").is_ok());
        for bad in [
            "a\nb",
            "a\rb",
            "tab\there",
            "nul\0",
            "\u{85}next",
            "sep\u{2028}",
            "\u{202E}evil",
        ] {
            let refused = check_one_line(bad).expect_err(bad);
            assert!(refused.starts_with("must be one line"), "{refused}");
        }
        assert_eq!(
            check_one_line("Shop\n\n## Urgent"),
            Err(
                "must be one line of text without line breaks or control characters (found U+000A)"
                    .to_owned()
            )
        );
    }

    #[test]
    fn slugs() {
        assert!(check_slug("ab").is_ok());
        assert!(check_slug("my-app-2").is_ok());
        for bad in ["a", "-ab", "ab-", "Ab", "a_b", "a b", &"a".repeat(61)] {
            assert!(check_slug(bad).is_err(), "{bad} should be refused");
        }
    }

    #[test]
    fn currencies_and_emails() {
        assert_eq!(normalize_currency("eur"), Ok("EUR".to_owned()));
        assert!(normalize_currency("EURO").is_err());
        assert!(check_email("a@b.co").is_ok());
        assert!(check_email("nope").is_err());
        assert!(check_email("a@b").is_err());
        assert_eq!(normalize_email("  Ann@Example.COM "), "ann@example.com");
    }

    #[test]
    fn lengths_count_characters_not_bytes() {
        assert!(check_length("ééé", 1, 3).is_ok());
        assert!(check_length("", 1, 3).is_err());
        assert!(check_password("short").is_err());
        assert!(check_password("long enough!").is_ok());
    }
}
