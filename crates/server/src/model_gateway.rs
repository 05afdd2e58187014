//! The model gateway: an OpenAI-compatible chat completions endpoint
//! (`PAYBACK_MODEL_GATEWAY_URL` + `/chat/completions`, bearer `PAYBACK_MODEL_GATEWAY_KEY`,
//! model `PAYBACK_MODEL`). Features that ask a model answer 503 while no key is configured.

use serde::Deserialize;
use serde_json::{Value, json};

use crate::error::{ApiError, ApiResult};
use crate::state::AppState;

/// A configured gateway, borrowed from the state for one call.
#[derive(Debug)]
pub struct ModelGateway<'a> {
    http: &'a reqwest::Client,
    url: &'a str,
    key: &'a str,
    model: &'a str,
}

/// What the model answered: the model that answered (gateways may route) and its JSON.
#[derive(Debug)]
pub struct JsonAnswer {
    pub model: String,
    pub value: Value,
}

#[derive(Deserialize)]
struct Completion {
    model: Option<String>,
    choices: Vec<Choice>,
}

#[derive(Deserialize)]
struct Choice {
    message: Message,
}

#[derive(Deserialize)]
struct Message {
    content: Option<String>,
}

impl<'a> ModelGateway<'a> {
    /// The gateway of this instance; 503 when no key is configured.
    pub fn from_state(state: &'a AppState) -> ApiResult<Self> {
        let key = state.config.model_gateway_key.as_ref().ok_or_else(|| {
            ApiError::ServiceUnavailable(
                "the model gateway is not configured (set PAYBACK_MODEL_GATEWAY_KEY)".to_owned(),
            )
        })?;
        Ok(Self {
            http: &state.http,
            url: state.config.model_gateway_url.trim_end_matches('/'),
            key: key.expose(),
            model: &state.config.model,
        })
    }

    /// Asks for one JSON object (`response_format: json_object`, temperature 0 so the same
    /// schema gets the same proposal). 502 when the gateway fails or answers something else.
    pub async fn ask_json(&self, system: &str, user: &str) -> ApiResult<JsonAnswer> {
        let body = json!({
            "model": self.model,
            "temperature": 0,
            "response_format": { "type": "json_object" },
            "messages": [
                { "role": "system", "content": system },
                { "role": "user", "content": user },
            ],
        });
        let unreachable = |err: reqwest::Error| {
            ApiError::BadGateway(format!("the model gateway could not be reached: {err}"))
        };
        let response = self
            .http
            .post(format!("{}/chat/completions", self.url))
            .bearer_auth(self.key)
            .json(&body)
            .send()
            .await
            .map_err(|err| unreachable(err.without_url()))?;
        let status = response.status();
        if !status.is_success() {
            return Err(ApiError::BadGateway(format!(
                "the model gateway answered {status}"
            )));
        }
        let completion: Completion = response.json().await.map_err(|_| {
            ApiError::BadGateway("the model gateway answered an unexpected shape".to_owned())
        })?;
        let content = completion
            .choices
            .into_iter()
            .next()
            .and_then(|choice| choice.message.content)
            .ok_or_else(|| ApiError::BadGateway("the model answered nothing".to_owned()))?;
        let value = serde_json::from_str(strip_fence(&content)).map_err(|_| {
            ApiError::BadGateway("the model did not answer a JSON object".to_owned())
        })?;
        Ok(JsonAnswer {
            model: completion.model.unwrap_or_else(|| self.model.to_owned()),
            value,
        })
    }
}

/// Some models wrap JSON in a Markdown code fence even in JSON mode.
fn strip_fence(content: &str) -> &str {
    let trimmed = content.trim();
    trimmed
        .strip_prefix("```json")
        .or_else(|| trimmed.strip_prefix("```"))
        .and_then(|rest| rest.strip_suffix("```"))
        .map_or(trimmed, str::trim)
}

#[cfg(test)]
mod tests {
    use super::strip_fence;

    #[test]
    fn fences_are_stripped() {
        assert_eq!(strip_fence("```json\n{\"a\":1}\n```"), "{\"a\":1}");
        assert_eq!(strip_fence(" {\"a\":1} "), "{\"a\":1}");
    }
}
