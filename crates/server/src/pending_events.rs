//! `X-Payback-Pending-Events`: how many accepted events of the product an answer does not count
//! yet. A read of ingested data waits a bounded time for the fold (`Config::read_wait_ms`,
//! `services::products::find_settled`); when a burst or a backfill keeps the fold behind, it
//! answers from what is folded and says how much is left. 0 means the answer counts every event
//! accepted before the request.
//!
//! The count is known where the service settles the product, several calls below the handler,
//! and services are also called by the jobs and the demo, which have no header to set. So
//! instead of threading it through every report's return type, the routes that settle run
//! inside [`reported`]: each request gets its own slot for the count (a task-local value that
//! lives exactly as long as the request), [`record`] fills it, and the layer turns it into the
//! header. A request whose handler settled nothing (a refusal, a write) gets no header.

use std::cell::Cell;

use axum::extract::Request;
use axum::http::HeaderValue;
use axum::middleware::Next;
use axum::response::Response;
use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, SchemaFormat, Type};
use utoipa::openapi::{Header, OpenApi, RefOr};
use utoipa_axum::router::OpenApiRouter;

/// The header's name (HTTP names are case-insensitive; this is how it is documented).
pub const HEADER: &str = "X-Payback-Pending-Events";

tokio::task_local! {
    /// The most any settle of the current request found pending; `None` until one settles.
    static PENDING: Cell<Option<u64>>;
}

/// Notes that this request's answer leaves `pending` accepted events uncounted. A request that
/// settles several times reports the largest count. Outside a request under [`reported`] (a
/// job, the demo) there is no header, and nothing happens.
pub fn record(pending: u64) {
    let _ = PENDING.try_with(|slot| {
        let most = slot.get().map_or(pending, |seen| seen.max(pending));
        slot.set(Some(most));
    });
}

/// `router` with the header: the layer sets it on every answer whose handler settled, and the
/// OpenAPI document lists it on the successful answers of the router's GET operations (the
/// reads; writes that settle send it too, undocumented, since their answer is no report).
pub fn reported<S>(mut router: OpenApiRouter<S>) -> OpenApiRouter<S>
where
    S: Clone + Send + Sync + 'static,
{
    document(router.get_openapi_mut());
    router.layer(axum::middleware::from_fn(track))
}

async fn track(request: Request, next: Next) -> Response {
    let mut scoped = std::pin::pin!(PENDING.scope(Cell::new(None), next.run(request)));
    let mut response = scoped.as_mut().await;
    if let Some(pending) = scoped.as_mut().take_value().and_then(|slot| slot.get()) {
        response
            .headers_mut()
            .insert(HEADER, HeaderValue::from(pending));
    }
    response
}

fn document(openapi: &mut OpenApi) {
    let schema = ObjectBuilder::new()
        .schema_type(Type::Integer)
        .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int64)))
        .minimum(Some(0))
        .build();
    let mut header = Header::new(schema);
    header.description = Some(
        "Events accepted for the product that this answer does not count yet: 0 when it counts \
         every event accepted before the request. The read waits for the fold at most \
         `PAYBACK_READ_WAIT_MS` (default 1000 ms); after a large burst or a backfill it answers \
         from what is folded, and a later read counts the rest."
            .to_owned(),
    );
    for item in openapi.paths.paths.values_mut() {
        let Some(read) = item.get.as_mut() else {
            continue;
        };
        for (status, response) in &mut read.responses.responses {
            if let (true, RefOr::T(response)) = (status.starts_with('2'), response) {
                response
                    .headers
                    .insert(HEADER.to_owned(), RefOr::T(header.clone()));
            }
        }
    }
}
