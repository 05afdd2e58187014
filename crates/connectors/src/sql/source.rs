//! A `sql_a`/`sql_b` connection as a [`Source`](crate::Source), through the databases' shared
//! [`DatabaseSource`].

use payback_domain::event_map::EventMap;

use crate::database::EventSink;
use crate::database::source::{Database, DatabaseSource};
use crate::{ConnectorError, SyncWindow};

use super::session::Session;
use super::{SqlConfig, introspect, read};

/// One relational database connection, ready to read for one product.
pub type SqlSource = DatabaseSource<SqlConfig>;

impl Database for SqlConfig {
    /// Connects and reports what the connector sees, e.g.
    /// `PostgreSQL 15.20 answers; database shop, 12 tables readable; read-only session`.
    async fn test(&self) -> Result<String, ConnectorError> {
        let mut session = Session::open(self).await?;
        let tables = introspect::list_tables(&mut session, None).await;
        let settings = session.settings.clone();
        let database = session.errors.database().to_owned();
        session.close().await;
        let tables = tables?;
        // `Session::open` refused the session unless the server called it read-only.
        Ok(format!(
            "{} answers; {database}, {} {} readable; read-only session",
            settings.server,
            tables.len(),
            if tables.len() == 1 { "table" } else { "tables" },
        ))
    }

    /// Reads every map's rows in the window into the sink, a page at a time. Answers the status
    /// line: one `MapCounts::describe` per map, joined by `; `.
    async fn read(
        &self,
        maps: &[EventMap],
        window: SyncWindow,
        product_currency: &str,
        sink: &mut impl EventSink,
    ) -> Result<String, ConnectorError> {
        let mut session = Session::open(self).await?;
        let user = session.errors.user().to_owned();
        let mut lines = Vec::with_capacity(maps.len());
        let mut outcome = Ok(());
        for map in maps {
            let line = read::read_map(
                &mut session,
                map,
                window,
                product_currency,
                self.limits,
                &user,
                sink,
            )
            .await;
            match line {
                Ok(line) => lines.push(line),
                Err(err) => {
                    outcome = Err(err);
                    break;
                }
            }
        }
        session.close().await;
        outcome.map(|()| lines.join("; "))
    }
}
