//! What the customer-database kinds (`sql_a`, `sql_b`, `docdb`) share: the connect body of a
//! tenant's credentials, the answer, and the opener (the checked database read through the
//! connection's event maps). Their event maps and mapping suggestions are `routes/databases.rs`.

use payback_connectors::Source;
use payback_connectors::docdb::DocdbSource;
use payback_connectors::sql::SqlSource;
use payback_domain::connection::{ConnectionKind, ConnectionStatus};
use payback_domain::event_map::EventMap;
use payback_store::connections::ConnectionRow;
use payback_store::products::ProductRow;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::boxed;
use crate::error::ApiResult;
use crate::extract::{Caller, Json};
use crate::secret::Secret;
use crate::services::database_env::EnvNames;
use crate::services::databases::{self, DatabaseInput};
use crate::services::source_config::{self, Database};
use crate::state::{AppState, OpenFuture};

/// The `sql-b` and `docdb` connect body.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DatabaseRequest {
    /// `sql-b`: `{host, port?, user, password?, database, sslmode?}`; `docdb`: `{uri}` (a
    /// connection string naming the database); at most 4096 bytes serialized. Stored encrypted,
    /// never returned.
    #[schema(value_type = Object)]
    #[serde(deserialize_with = "Secret::from_json")]
    credentials: Secret,
    event_maps: Option<Vec<EventMap>>,
    /// `pending` (staged, never synced) or `active`; default: active when there are maps.
    status: Option<String>,
}

impl From<DatabaseRequest> for DatabaseInput {
    fn from(body: DatabaseRequest) -> Self {
        DatabaseInput {
            credentials: Some(body.credentials),
            env: EnvNames::default(),
            event_maps: body.event_maps,
            status: body.status,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DatabaseConnected {
    ok: bool,
    connection_id: String,
    status: ConnectionStatus,
}

/// Connects the product's database of `kind`.
pub async fn connect(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    kind: ConnectionKind,
    input: DatabaseInput,
) -> ApiResult<Json<DatabaseConnected>> {
    let (connection_id, status) = databases::connect(state, caller, slug, kind, input).await?;
    Ok(Json(DatabaseConnected {
        ok: true,
        connection_id,
        status,
    }))
}

/// The checked database and the event maps.
pub fn open<'a>(
    state: &'a AppState,
    product: &'a ProductRow,
    row: &'a ConnectionRow,
) -> OpenFuture<'a> {
    Box::pin(async move {
        let maps = source_config::event_maps(row)?;
        let currency = &product.currency;
        let source: Box<dyn Source> = match source_config::database(state, row).await? {
            Database::Sql(config) => boxed(SqlSource::new(config, maps, currency)),
            Database::Docdb(config) => boxed(DocdbSource::new(config, maps, currency)),
        };
        Ok(source)
    })
}
