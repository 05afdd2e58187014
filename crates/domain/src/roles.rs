//! The closed vocabularies of accounts, memberships and products, with their wire spellings.

/// Declares a closed string enum with one spelling used on the wire and in the database.
/// The spellings are taken as `tt`, not `literal`: a `literal` fragment reaches derive macros
/// wrapped in an invisible group, and utoipa then ignores the `serde(rename)` and documents
/// the Rust variant names.
macro_rules! wire_enum {
    ($(#[$meta:meta])* $name:ident { $($variant:ident => $text:tt),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize, utoipa::ToSchema)]
        pub enum $name {
            $(#[serde(rename = $text)] $variant),+
        }

        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $text),+ }
            }

            pub fn parse(text: &str) -> Option<Self> {
                match text { $($text => Some($name::$variant),)+ _ => None }
            }
        }

        /// A stored spelling read back: anything else is a row this version cannot trust, and
        /// reading it fails loudly rather than standing in for some default.
        impl TryFrom<String> for $name {
            type Error = $crate::roles::UnknownWord;

            fn try_from(text: String) -> Result<Self, $crate::roles::UnknownWord> {
                Self::parse(&text).ok_or($crate::roles::UnknownWord {
                    vocabulary: stringify!($name),
                    word: text,
                })
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}
pub(crate) use wire_enum;

/// A word outside its closed vocabulary, met where only the vocabulary's words are stored.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{word}` is not a {vocabulary}")]
pub struct UnknownWord {
    pub vocabulary: &'static str,
    pub word: String,
}

wire_enum! {
    /// The tenant's role: operators see every account in the portfolio.
    AccountRole { Customer => "customer", Operator => "operator" }
}

wire_enum! {
    /// A person's role inside one account.
    MemberRole { Owner => "owner", Member => "member" }
}

wire_enum! {
    /// Where a membership stands.
    MemberStatus { Active => "active", Invited => "invited", Disabled => "disabled" }
}

wire_enum! {
    /// Where a product stands in its life.
    ProductStage { Validation => "validation", Live => "live", Killed => "killed" }
}

wire_enum! {
    /// The verdict at a product's gate date.
    GateResult { Pass => "pass", Fail => "fail", Pivot => "pivot" }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings_round_trip() {
        for role in MemberRole::ALL {
            assert_eq!(MemberRole::parse(role.as_str()), Some(*role));
        }
        assert_eq!(ProductStage::parse("killed"), Some(ProductStage::Killed));
        assert_eq!(ProductStage::parse("Killed"), None);
        assert_eq!(
            ProductStage::try_from("live".to_owned()),
            Ok(ProductStage::Live)
        );
        let unknown = MemberRole::try_from("admin".to_owned()).unwrap_err();
        assert_eq!(unknown.to_string(), "`admin` is not a MemberRole");
    }
}
