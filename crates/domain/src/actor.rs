//! Who changed something, and through which door. Every change of state records one.

use serde::{Deserialize, Serialize};

/// The door a change came through, as recorded in history (`via`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Via {
    Dashboard,
    Mcp,
    Api,
    Job,
    Chat,
}

impl Via {
    pub fn as_str(self) -> &'static str {
        match self {
            Via::Dashboard => "dashboard",
            Via::Mcp => "mcp",
            Via::Api => "api",
            Via::Job => "job",
            Via::Chat => "chat",
        }
    }

    pub fn parse(word: &str) -> Option<Self> {
        [Via::Dashboard, Via::Mcp, Via::Api, Via::Job, Via::Chat]
            .into_iter()
            .find(|via| via.as_str() == word)
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
