//! Graph request parameters, gathered from wherever Graph reads them.

use crate::fakes::form::form_pairs;

/// Request parameters: the query string, and for writes the form or JSON body as well (Graph
/// takes parameters from either).
#[derive(Debug, Clone, Default)]
pub(crate) struct Params(Vec<(String, String)>);

impl Params {
    pub fn from_text(text: &str) -> Self {
        Self(form_pairs(text))
    }

    /// A JSON object's members as parameters (strings as they are, other values as JSON).
    pub fn from_json(text: &str) -> Self {
        let Ok(serde_json::Value::Object(members)) = serde_json::from_str(text) else {
            return Self::default();
        };
        Self(
            members
                .into_iter()
                .map(|(key, value)| match value {
                    serde_json::Value::String(text) => (key, text),
                    other => (key, other.to_string()),
                })
                .collect(),
        )
    }

    pub fn extend(&mut self, other: Params) {
        self.0.extend(other.0);
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }

    pub fn pairs(&self) -> &[(String, String)] {
        &self.0
    }
}
