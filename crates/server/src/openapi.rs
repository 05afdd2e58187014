//! The OpenAPI document's frame (title, version, security scheme). Paths and schemas are
//! collected from the handlers by `utoipa-axum` as routes are registered.

use utoipa::Modify;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::openapi::{ContentBuilder, OpenApi, Ref, ResponseBuilder};

#[derive(utoipa::OpenApi)]
#[openapi(
    info(
        title = "Payback",
        version = "0.2.0",
        description = "Did this spend pay back? Per product: ad spend, funnel events and revenue joined, \
                       with CAC, LTV, attribution and an approval queue in which only humans decide. \
                       Every error answers `{\"error\": \"...\"}`; on any route, a path or query holding `%00` \
                       (and any JSON string holding U+0000) answers 400 naming where."
    ),
    modifiers(&BearerAuth),
    components(schemas(crate::error::ErrorBody))
)]
pub struct ApiDoc;

struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some("An account API key `svc_live_...`, a session token `svc_sess_...` or the operator token"))
                    .build(),
            ),
        );
    }
}

/// Adds the 400 every route can answer (a path or query holding `%00`, refused before any
/// handler runs) to the operations whose own annotations list no 400. Runs on the finished
/// document, once every route has registered its operations.
pub fn document_refused_nul(openapi: &mut OpenApi) {
    let refused = ResponseBuilder::new()
        .description("The path or query holds `%00` (a NUL character)")
        .content(
            "application/json",
            ContentBuilder::new()
                .schema(Some(Ref::from_schema_name("ErrorBody")))
                .build(),
        )
        .build();
    for item in openapi.paths.paths.values_mut() {
        let operations = [
            &mut item.get,
            &mut item.put,
            &mut item.post,
            &mut item.delete,
            &mut item.patch,
        ];
        for operation in operations.into_iter().flatten() {
            operation
                .responses
                .responses
                .entry("400".to_owned())
                .or_insert_with(|| refused.clone().into());
        }
    }
}
