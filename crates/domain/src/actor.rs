//! Who changed something, and through which door. Every change of state records one.

use crate::roles::wire_enum;

wire_enum! {
    /// The door a change came through, as recorded in history (`via`).
    Via {
        Dashboard => "dashboard",
        Mcp => "mcp",
        Api => "api",
        Job => "job",
        Chat => "chat",
    }
}

/// `who` is a human's email, `keeper` (an agent holding an API key), `system` or `policy`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Actor {
    pub who: String,
    pub via: Via,
}

impl Actor {
    /// The name recorded for agents acting through an account API key.
    pub const KEEPER: &'static str = "keeper";
    pub const SYSTEM: &'static str = "system";

    pub fn human(email: impl Into<String>, via: Via) -> Self {
        Self {
            who: email.into(),
            via,
        }
    }

    pub fn keeper(via: Via) -> Self {
        Self {
            who: Self::KEEPER.to_owned(),
            via,
        }
    }

    pub fn system() -> Self {
        Self {
            who: Self::SYSTEM.to_owned(),
            via: Via::Job,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doors_keep_their_stored_words() {
        let words: Vec<&str> = Via::ALL.iter().map(|via| via.as_str()).collect();
        assert_eq!(words, ["dashboard", "mcp", "api", "job", "chat"]);
        assert_eq!(serde_json::to_value(Via::Mcp).unwrap(), "mcp");
        assert_eq!(Via::try_from("chat".to_owned()), Ok(Via::Chat));
        let unknown = Via::try_from("email".to_owned()).unwrap_err();
        assert_eq!(unknown.to_string(), "`email` is not a Via");
    }
}
