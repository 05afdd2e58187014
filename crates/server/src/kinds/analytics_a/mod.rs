//! `analytics_a`: one Google Analytics 4 property, connected through the search-engine grant or
//! Payback's service account. Its days land as `visit`/`engaged` volumes per channel (which the
//! reports take from it alone while it has any: `payback_store::aggregate_stages`), its landing
//! pages' sessions as `landing_sessions` snapshots, and the events its maps name as the daily
//! volume of their stage. Its one route of its own is the event maps'
//! (`POST /products/{slug}/connections/analytics-a/event-maps`); test, sync now and disconnect
//! are the connections' routes.

mod event_maps;

use std::sync::Arc;

use payback_connectors::analytics_a::{
    self, AnalyticsAConfig, AnalyticsASource, ApiOrigins, EventNameMap, PropertyOption, SCOPE,
};
use payback_connectors::google::GoogleAuth;
use payback_connectors::oauth::OAuthClient;
use payback_domain::connection::ConnectionKind;
use payback_store::connections::ConnectionRow;
use payback_store::products::ProductRow;
use serde::Deserialize;
use serde_json::{Value, json};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Granted, Plugin, boxed};
use crate::error::{ApiError, ApiResult};
use crate::services::acting::Caller;
use crate::services::grants::choice::{ChoiceWords, choose_offered};
use crate::services::grants::{
    self, Access, Activation, BoxFuture, GrantProvider, GrantedKind, Selectable,
};
use crate::services::searchco::Searchco;
use crate::services::searchco_account::{ServiceAccountKind, discover_granted};
use crate::services::source_config;
use crate::state::{AppState, OpenFuture};

const KIND: ConnectionKind = ConnectionKind::AnalyticsA;

/// The select (and service-account verify) field choosing the property.
const CHOICE: &str = "analytics_a_property_id";

/// The property choice's refusals.
const WORDS: ChoiceWords = ChoiceWords {
    field: CHOICE,
    offered: "a property this grant reaches",
    none: "this grant reaches no Google Analytics property",
};

/// Where discovery puts the properties in the status's `options`.
const OPTIONS_KEY: &str = "analytics_a_properties";

pub fn plugin() -> Plugin {
    Plugin {
        kind: KIND,
        open,
        routes: || OpenApiRouter::new().routes(routes!(event_maps::replace)),
        grant: Some(Granted::Searchco(Arc::new(AnalyticsA))),
        rules: event_maps::rules,
    }
}

/// What `select` (or verify) stored of the chosen property.
#[derive(Deserialize)]
struct Settings {
    property_id: String,
}

/// The grant's refresh token with Payback's OAuth client (or Payback's service account), the
/// chosen property and the connection's event maps.
fn open<'a>(
    state: &'a AppState,
    _product: &'a ProductRow,
    row: &'a ConnectionRow,
) -> OpenFuture<'a> {
    Box::pin(async move {
        let settings: Settings = source_config::settings_of(row)?;
        let auth = source_config::google_auth(state, row, &[SCOPE]).await?;
        let mut config = AnalyticsAConfig::new(settings.property_id, auth);
        config.origins = origins(state);
        config.event_maps = stored_maps(row)?;
        Ok(boxed(AnalyticsASource::new(state.http.clone(), config)))
    })
}

/// The connection's event maps as stored (`[]` until some are set).
fn stored_maps(row: &ConnectionRow) -> ApiResult<Vec<EventNameMap>> {
    serde_json::from_str(&row.event_maps)
        .map_err(|_| ApiError::internal("an analytics_a connection's event maps are malformed"))
}

/// `PAYBACK_ANALYTICS_A_API_URL` (one origin for the Admin and Data APIs), else Google's two
/// hosts.
fn origins(state: &AppState) -> ApiOrigins {
    match state.config.api_url(KIND) {
        Some(origin) => ApiOrigins::one(origin),
        None => ApiOrigins::google(),
    }
}

/// Every property `auth` reaches, as the status's `options` show them: one listing for the
/// grant and the service account.
async fn discover_with(state: &AppState, auth: &GoogleAuth) -> Result<Value, String> {
    let properties = analytics_a::list_properties(&state.http, &origins(state), auth)
        .await
        .map_err(|err| grants::listing_failed(Searchco::PROVIDER, "Analytics properties", err))?;
    Ok(json!({ OPTIONS_KEY: properties }))
}

/// The properties of a discovery's options.
fn offered(options: &Value) -> Vec<PropertyOption> {
    serde_json::from_value(options[OPTIONS_KEY].clone()).unwrap_or_default()
}

/// The connection of `property`.
fn activation(property: &PropertyOption) -> Activation {
    Activation {
        kind: KIND,
        config: json!({
            "property_id": property.property_id,
            "display_name": property.display_name,
            "account": property.account,
        }),
        audit: json!({ "property_id": property.property_id }),
    }
}

/// `analytics_a` in the search-engine grant.
struct AnalyticsA;

impl GrantedKind<Searchco> for AnalyticsA {
    fn kind(&self) -> ConnectionKind {
        KIND
    }

    fn scopes(&self) -> &'static [&'static str] {
        &[SCOPE]
    }

    fn access(&self) -> Access {
        Access {
            title: "Google Analytics",
            lines: &[
                "Read the sessions, landing pages and event counts of the property you choose next.",
                "Change nothing in Google Analytics.",
            ],
        }
    }

    fn choice_field(&self) -> &'static str {
        CHOICE
    }

    /// Every property the granting login reaches.
    fn discover<'a>(
        &'a self,
        state: &'a AppState,
        client: &'a OAuthClient,
        refresh_token: &'a String,
    ) -> BoxFuture<'a, Result<Value, String>> {
        discover_granted(self, state, client, refresh_token)
    }

    fn service_account(&self) -> Option<&dyn ServiceAccountKind> {
        Some(self)
    }

    /// The chosen property; optional when the grant reaches exactly one.
    fn activate<'a>(
        &'a self,
        _state: &'a AppState,
        _caller: &'a Caller,
        chosen: &'a Selectable,
        choice: Option<&'a str>,
    ) -> BoxFuture<'a, ApiResult<Activation>> {
        Box::pin(async move {
            let properties = offered(&chosen.options);
            Ok(activation(choose_property(&properties, choice)?))
        })
    }
}

impl ServiceAccountKind for AnalyticsA {
    fn discover<'a>(
        &'a self,
        state: &'a AppState,
        auth: &'a GoogleAuth,
    ) -> BoxFuture<'a, Result<Value, String>> {
        Box::pin(discover_with(state, auth))
    }

    /// The chosen property, offered to the account and proven by a one-day report.
    fn verify<'a>(
        &'a self,
        state: &'a AppState,
        auth: &'a GoogleAuth,
        options: &'a Value,
        choice: &'a str,
    ) -> BoxFuture<'a, ApiResult<Activation>> {
        Box::pin(async move {
            let properties = offered(options);
            let property = choose_property(&properties, Some(choice))?;
            let mut config = AnalyticsAConfig::new(property.property_id.clone(), auth.clone());
            config.origins = origins(state);
            config.read_yesterday(&state.http).await.map_err(|err| {
                ApiError::bad_request(format!(
                    "{CHOICE}: the service account cannot read property {}: {err}",
                    property.property_id
                ))
            })?;
            Ok(activation(property))
        })
    }
}

/// The property to connect: the one named, exactly as offered (`properties/` before the id is
/// taken too), or the only one there is.
fn choose_property<'a>(
    properties: &'a [PropertyOption],
    chosen: Option<&str>,
) -> ApiResult<&'a PropertyOption> {
    choose_offered(
        properties,
        chosen,
        |property, id| property.property_id == id.trim().trim_start_matches("properties/"),
        |property| &property.property_id,
        WORDS,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::services::grants::choice::refusals;

    fn property(id: &str) -> PropertyOption {
        PropertyOption {
            property_id: id.into(),
            display_name: format!("site {id}"),
            account: "Shop".into(),
        }
    }

    #[test]
    fn the_choice_takes_the_resource_name_and_refuses_in_analytics_words() {
        let two = [property("11"), property("12")];
        let named =
            |id| choose_property(&two, Some(id)).map(|property| property.property_id.as_str());
        assert_eq!(named("properties/12").ok(), Some("12"));
        assert_eq!(named(" 11 ").ok(), Some("11"));
        assert_eq!(
            refusals(choose_property, &two, "99"),
            [
                "analytics_a_property_id: 99 is not a property this grant reaches",
                "analytics_a_property_id: this grant reaches no Google Analytics property",
            ]
        );
    }
}
