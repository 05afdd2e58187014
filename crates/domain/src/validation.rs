//! Input rules shared by every door (HTTP, MCP, chat, CLI). Each returns a message that names
//! what is wrong; callers prefix the field name.

/// Product slugs: 2-60 characters, `^[a-z0-9][a-z0-9-]*[a-z0-9]$`. Slugs appear in URLs, tool
/// arguments and audit references, so they are immutable once created.
pub fn check_slug(slug: &str) -> Result<(), String> {
    let len = slug.chars().count();
    if !(2..=60).contains(&len) {
        return Err(format!("must be 2-60 characters, got {len}"));
    }
    let allowed = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit();
    let bytes: Vec<char> = slug.chars().collect();
    let ends_ok =
        bytes.first().is_some_and(|c| allowed(*c)) && bytes.last().is_some_and(|c| allowed(*c));
    if !ends_ok || !bytes.iter().all(|c| allowed(*c) || *c == '-') {
        return Err(
            "must match ^[a-z0-9][a-z0-9-]*[a-z0-9]$ (lowercase letters, digits and inner hyphens)"
                .to_owned(),
        );
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
    let valid = email.len() <= 254
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
    if (10..=200).contains(&len) {
        Ok(())
    } else {
        Err(format!("must be 10-200 characters, got {len}"))
    }
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
