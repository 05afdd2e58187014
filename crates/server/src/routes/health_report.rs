//! Routes: the product's health report.

use axum::extract::{Path, State};
use serde::Deserialize;
use serde_json::json;
use utoipa::IntoParams;
use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, SchemaFormat, Type};
use utoipa::openapi::{OpenApi, RefOr, Schema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Caller, Json, Query};
use crate::pending_events;
use crate::routes::tags;
use crate::services::health_report::{self, HealthReport};
use crate::state::AppState;

const PATH: &str = "/products/{slug}/health-report";

/// A read of ingested data: it says how many of the product's events it does not count yet
/// (`X-Payback-Pending-Events`).
pub fn router() -> OpenApiRouter<AppState> {
    let mut router = OpenApiRouter::new().routes(routes!(health_report));
    document_days(router.get_openapi_mut());
    pending_events::reported(router)
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct HealthReportParams {
    /// The N UTC days ending today, 1-3650; default 30. The CAC trend compares them with the N
    /// days before.
    days: Option<i64>,
}

/// The product's health audit: checks in four categories (`tracking`, `funnel`, `advertising`,
/// `seo_social`), each with its status, the one metric line behind it and the action that fixes
/// it; a score (0-100, skips left out, null until the product has data) and its grade. The
/// docs/health-and-growth.md's "Health report" lists every check and its thresholds.
#[utoipa::path(get, path = "/products/{slug}/health-report", tag = tags::REPORTS, security(("bearer" = [])),
    params(("slug" = String, Path, description = "product slug"), HealthReportParams),
    responses((status = 200, body = HealthReport), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn health_report(
    State(state): State<AppState>,
    caller: Caller,
    Path(slug): Path<String>,
    Query(params): Query<HealthReportParams>,
) -> ApiResult<Json<HealthReport>> {
    Ok(Json(
        health_report::report(&state, &caller, &slug, params.days).await?,
    ))
}

/// States the bounds `health_report::window` checks on `days`, from its own constants (the
/// attribute syntax takes only literals).
fn document_days(openapi: &mut OpenApi) {
    let schema = ObjectBuilder::new()
        .schema_type(Type::Integer)
        .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int64)))
        .minimum(Some(1))
        .maximum(Some(health_report::MAX_DAYS))
        .default(Some(json!(health_report::DEFAULT_DAYS)))
        .build();
    let Some(operation) = openapi
        .paths
        .paths
        .get_mut(PATH)
        .and_then(|item| item.get.as_mut())
    else {
        return;
    };
    for parameter in operation.parameters.iter_mut().flatten() {
        if let RefOr::T(parameter) = parameter
            && parameter.name == "days"
        {
            parameter.schema = Some(RefOr::T(Schema::Object(schema.clone())));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_is_documented_with_the_bounds_the_service_checks() {
        let router = router();
        let document = serde_json::to_value(router.get_openapi()).unwrap_or_default();
        let days = document["paths"][PATH]["get"]["parameters"]
            .as_array()
            .and_then(|params| params.iter().find(|p| p["name"] == "days").cloned())
            .unwrap_or_default();
        assert_eq!(days["in"], "query");
        assert_eq!(days["schema"]["minimum"], 1);
        assert_eq!(days["schema"]["maximum"], health_report::MAX_DAYS);
        assert_eq!(days["schema"]["default"], health_report::DEFAULT_DAYS);
    }
}
