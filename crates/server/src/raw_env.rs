//! The `PAYBACK_*` environment as a figment provider that keeps every value the text it is.
//!
//! figment's own `Env` provider guesses each value's type: `1008016813601991` (a Meta app id)
//! becomes a number, and a string setting then fails to load ("invalid type: found unsigned
//! int"), while `000123` would lose its zeros. Here every value stays a string, and
//! [`crate::Config::load`] extracts leniently, so numeric and boolean settings still parse
//! their text while string settings take it unchanged.

use figment::value::{Dict, Map, Value};
use figment::{Metadata, Profile, Provider};

/// Variables named `{prefix}KEY`, offered as the lower-cased `key` with the value as a string.
#[derive(Debug, Clone)]
pub struct RawEnv {
    prefix: &'static str,
    vars: Vec<(String, String)>,
}

impl RawEnv {
    /// The process environment's variables that start with `prefix` (`PAYBACK_`).
    pub fn process(prefix: &'static str) -> Self {
        Self::from_vars(prefix, std::env::vars())
    }

    /// The given variables that start with `prefix` (tests build their environment here
    /// instead of changing the process's).
    pub fn from_vars(
        prefix: &'static str,
        vars: impl IntoIterator<Item = (String, String)>,
    ) -> Self {
        Self {
            prefix,
            vars: vars.into_iter().collect(),
        }
    }
}

impl Provider for RawEnv {
    fn metadata(&self) -> Metadata {
        let prefix = self.prefix;
        // Errors name the variable as it was set: `PAYBACK_SOCIALCO_CLIENT_ID`.
        Metadata::named(format!("`{prefix}` environment variable(s)")).interpolater(
            move |_: &Profile, keys: &[&str]| {
                let key = keys.join(".").to_ascii_uppercase();
                format!("{prefix}{key}")
            },
        )
    }

    fn data(&self) -> Result<Map<Profile, Dict>, figment::Error> {
        let dict: Dict = self
            .vars
            .iter()
            .filter_map(|(name, value)| {
                let key = name.strip_prefix(self.prefix)?.trim().to_ascii_lowercase();
                (!key.is_empty()).then(|| (key, Value::from(value.clone())))
            })
            .collect();
        Ok(Profile::Default.collect(dict))
    }
}
