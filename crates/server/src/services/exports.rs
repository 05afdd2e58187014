//! CSV exports of a product's raw events and revenue rows.
//!
//! The body is streamed: pages of [`PAGE_ROWS`] rows are read by id (keyset pagination) and
//! encoded one at a time as the client reads, so an export of any size holds one page in
//! memory. The first page is read before answering, so a failing database answers 500 rather
//! than a 200 with a truncated body; a failure on a later page ends the body early (the status
//! is already sent) and is logged. The pages are a plain stream of bytes; the HTTP door wraps
//! them in its body (`routes/exports.rs`).

use bytes::Bytes;
use futures_util::stream::{self, BoxStream, StreamExt};
use payback_domain::Timestamp;
use payback_store::Db;
use payback_store::reports::exports::{self, EventExportRow, TransactionExportRow};

use crate::error::{ApiError, ApiResult};
use crate::services::acting::Caller;
use crate::services::billing;
use crate::services::products;
use crate::state::AppState;

/// Rows per page read from the database.
pub const PAGE_ROWS: i64 = 2_000;

pub const EVENT_COLUMNS: &[&str] = &[
    "id",
    "occurred_at",
    "day",
    "namespace",
    "dedupe_id",
    "stage",
    "name",
    "identity",
    "anonymous_id",
    "user_id",
    "email",
    "value_cents",
    "currency",
    "channel",
    "utm_source",
    "utm_medium",
    "utm_campaign",
    "utm_content",
    "utm_term",
    "gclid",
    "fbclid",
    "referrer",
    "landing_url",
    "properties",
];

pub const TRANSACTION_COLUMNS: &[&str] = &[
    "id",
    "occurred_at",
    "day",
    "source",
    "source_ref",
    "kind",
    "stage",
    "identity",
    "amount_cents",
    "currency",
    "first_channel",
    "last_channel",
];

/// Which table an export reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Export {
    Events,
    Transactions,
}

impl Export {
    fn columns(self) -> &'static [&'static str] {
        match self {
            Export::Events => EVENT_COLUMNS,
            Export::Transactions => TRANSACTION_COLUMNS,
        }
    }

    fn suffix(self) -> &'static str {
        match self {
            Export::Events => "events",
            Export::Transactions => "transactions",
        }
    }
}

/// The encoded pages in order; an `Err` ends the export early (a page failed to read).
pub type CsvPages = BoxStream<'static, std::io::Result<Bytes>>;

/// An export ready to answer: the download name and the pages, read as they are consumed.
pub struct CsvExport {
    pub filename: String,
    pub pages: CsvPages,
}

impl std::fmt::Debug for CsvExport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CsvExport")
            .field("filename", &self.filename)
            .finish_non_exhaustive()
    }
}

/// One encoded page: the CSV bytes, how many rows it held, and the last id it read.
struct Page {
    bytes: Bytes,
    rows: i64,
    last_id: i64,
}

/// Where the next page starts.
struct Cursor {
    db: Db,
    product_id: String,
    export: Export,
    after_id: i64,
}

/// The caller's product as CSV: `<slug>-events.csv` or `<slug>-transactions.csv`. The header
/// row is always present, so an empty product answers the header alone.
pub async fn export(
    state: &AppState,
    caller: &Caller,
    slug: &str,
    export: Export,
) -> ApiResult<CsvExport> {
    // An export is a copy of everything accepted: it waits for the whole fold.
    let product = products::find_exact(state, caller.scope()?, slug).await?;
    // Exports are a plan's feature (issue 41): refused with 402 after the product's 404.
    billing::require(state, caller.scope()?, billing::Feature::Exports).await?;
    let mut first = read_page(&state.store, &product.id, export, 0, true).await?;
    let filename = format!("{}-{}.csv", product.slug, export.suffix());
    let cursor = (first.rows == PAGE_ROWS).then(|| Cursor {
        db: state.store.clone(),
        product_id: product.id.clone(),
        export,
        after_id: first.last_id,
    });
    let head = std::mem::take(&mut first.bytes);
    let pages = stream::unfold((Some(head), cursor), |(pending, cursor)| async move {
        if let Some(bytes) = pending {
            return Some((Ok(bytes), (None, cursor)));
        }
        let mut cursor = cursor?;
        match read_page(
            &cursor.db,
            &cursor.product_id,
            cursor.export,
            cursor.after_id,
            false,
        )
        .await
        {
            Ok(page) if page.rows == 0 => None,
            Ok(page) => {
                let next = (page.rows == PAGE_ROWS).then(|| {
                    cursor.after_id = page.last_id;
                    cursor
                });
                Some((Ok(page.bytes), (None, next)))
            }
            Err(err) => {
                tracing::error!(error = %err, product_id = %cursor.product_id, "CSV export stopped");
                Some((Err(std::io::Error::other("export stopped")), (None, None)))
            }
        }
    });
    Ok(CsvExport {
        filename,
        pages: pages.boxed(),
    })
}

async fn read_page(
    db: &Db,
    product_id: &str,
    export: Export,
    after_id: i64,
    with_header: bool,
) -> ApiResult<Page> {
    // RFC 4180 line ends; fields holding a comma, quote or line break are quoted.
    let mut writer = csv::WriterBuilder::new()
        .terminator(csv::Terminator::CRLF)
        .from_writer(Vec::new());
    if with_header {
        writer
            .write_record(export.columns())
            .map_err(ApiError::internal)?;
    }
    let (rows, last_id) = match export {
        Export::Events => {
            let page = exports::events_page(db, product_id, after_id, PAGE_ROWS).await?;
            for row in &page {
                writer
                    .write_record(event_record(row))
                    .map_err(ApiError::internal)?;
            }
            (page.len(), page.last().map(|row| row.id))
        }
        Export::Transactions => {
            let page = exports::transactions_page(db, product_id, after_id, PAGE_ROWS).await?;
            for row in &page {
                writer
                    .write_record(transaction_record(row))
                    .map_err(ApiError::internal)?;
            }
            (page.len(), page.last().map(|row| row.id))
        }
    };
    let bytes = writer.into_inner().map_err(ApiError::internal)?;
    Ok(Page {
        bytes: Bytes::from(bytes),
        rows: i64::try_from(rows).map_err(ApiError::internal)?,
        last_id: last_id.unwrap_or(after_id),
    })
}

/// Spreadsheets run a cell that starts with `=`, `+`, `-`, `@`, tab or carriage return as a
/// formula. Text fields can come from anyone holding a product's public write key, so such a
/// cell is prefixed with `'` (the OWASP CSV-injection rule); numbers are written as numbers.
pub fn neutralize(text: &str) -> String {
    match text.chars().next() {
        Some('=' | '+' | '-' | '@' | '\t' | '\r') => format!("'{text}"),
        _ => text.to_owned(),
    }
}

fn text(value: Option<&str>) -> String {
    value.map(neutralize).unwrap_or_default()
}

fn number(value: Option<i64>) -> String {
    value.map(|v| v.to_string()).unwrap_or_default()
}

fn event_record(row: &EventExportRow) -> Vec<String> {
    let attribution: serde_json::Value = row
        .attribution
        .as_deref()
        .and_then(|json| serde_json::from_str(json).ok())
        .unwrap_or_default();
    let utm = |key: &str| text(attribution.get(key).and_then(serde_json::Value::as_str));
    vec![
        row.id.to_string(),
        Timestamp::from_millis(row.occurred_at).to_rfc3339(),
        row.day.clone(),
        row.namespace.clone(),
        neutralize(&row.dedupe_id),
        row.stage.clone(),
        text(row.name.as_deref()),
        text(row.identity.as_deref()),
        text(row.anonymous_id.as_deref()),
        text(row.user_id.as_deref()),
        text(row.email.as_deref()),
        number(row.value_cents),
        row.currency.clone().unwrap_or_default(),
        row.channel.clone().unwrap_or_default(),
        utm("utm_source"),
        utm("utm_medium"),
        utm("utm_campaign"),
        utm("utm_content"),
        utm("utm_term"),
        utm("gclid"),
        utm("fbclid"),
        utm("referrer"),
        utm("landing_url"),
        // A JSON object always starts with `{`: nothing to neutralize.
        row.properties.clone().unwrap_or_default(),
    ]
}

fn transaction_record(row: &TransactionExportRow) -> Vec<String> {
    vec![
        row.id.to_string(),
        Timestamp::from_millis(row.occurred_at).to_rfc3339(),
        row.day.clone(),
        row.source.clone(),
        text(Some(&row.source_ref)),
        row.kind.clone(),
        row.stage.clone().unwrap_or_default(),
        text(row.identity.as_deref()),
        row.amount_cents.to_string(),
        row.currency.clone(),
        row.first_channel.clone(),
        row.last_channel.clone(),
    ]
}
