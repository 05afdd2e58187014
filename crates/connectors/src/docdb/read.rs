//! One map's read: the documents of its collection whose timestamp falls in the window, oldest
//! first, fetched in batches of `page_rows` through one cursor and handed to the sink a page at a
//! time, so a deep backfill never holds more than one page.

use bson::{Document, doc};
use mongodb::Collection;
use payback_domain::event::IncomingEvent;
use payback_domain::event_map::EventMap;

use super::client::{Source, classify};
use super::mapping::DocumentRow;
use super::query;
use crate::database::EventSink;
use crate::database::record::MapReader;
use crate::{ConnectorError, SyncWindow};

/// Reads one map into the sink; answers its status line (`orders: 120 rows, 118 events`).
pub(super) async fn read_map(
    source: &Source,
    map: &EventMap,
    window: SyncWindow,
    product_currency: &str,
    sink: &mut impl EventSink,
) -> Result<String, ConnectorError> {
    let limits = source.limits();
    let page_rows = limits.page_rows.max(1);
    let filter = query::filter(map, window)
        .map_err(|reason| ConnectorError::Config(format!("map of `{}`: {reason}", map.table)))?;
    let collection: Collection<Document> = source.database().collection(&map.table);
    ensure_within_limit(source, &collection, map, filter.clone()).await?;

    let find = collection
        .find(filter)
        .sort(query::sort(map))
        .projection(query::projection(map))
        .batch_size(u32::try_from(page_rows).unwrap_or(u32::MAX))
        .limit(i64::try_from(limits.max_rows_per_map.saturating_add(1)).unwrap_or(i64::MAX))
        .max_time(limits.statement_timeout);
    let mut cursor = source.call("reading a collection", find).await?;
    let mut reader = MapReader::new(map, product_currency, window.to);
    let mut page: Vec<IncomingEvent> = Vec::with_capacity(page_rows);
    let mut documents_in_page = 0;
    while source
        .call("reading a collection", cursor.advance())
        .await?
    {
        // Documents written after the limit check can still push a read past the limit.
        if reader.counts.rows >= limits.max_rows_per_map {
            return Err(too_many(map, limits.max_rows_per_map));
        }
        let document = cursor.deserialize_current().map_err(classify)?;
        page.extend(reader.event(&DocumentRow(&document)));
        documents_in_page += 1;
        if documents_in_page == page_rows {
            flush(sink, &mut page).await?;
            documents_in_page = 0;
        }
    }
    flush(sink, &mut page).await?;
    Ok(reader.counts.describe(&reader.label()))
}

/// Fails before anything is written when the window holds more documents than a run may read:
/// one `find` skipping that many, asking whether a document is left.
async fn ensure_within_limit(
    source: &Source,
    collection: &Collection<Document>,
    map: &EventMap,
    filter: Document,
) -> Result<(), ConnectorError> {
    let limits = source.limits();
    let probe = collection
        .find(filter)
        .projection(doc! { "_id": 1 })
        .skip(u64::try_from(limits.max_rows_per_map).unwrap_or(u64::MAX))
        .limit(1)
        .max_time(limits.statement_timeout);
    let mut cursor = source.call("counting a collection", probe).await?;
    if source
        .call("counting a collection", cursor.advance())
        .await?
    {
        return Err(too_many(map, limits.max_rows_per_map));
    }
    Ok(())
}

fn too_many(map: &EventMap, limit: usize) -> ConnectorError {
    ConnectorError::Config(format!(
        "collection `{}` holds more than {limit} documents in the sync window; add a filter to its map so one run reads fewer",
        map.table
    ))
}

async fn flush(
    sink: &mut impl EventSink,
    page: &mut Vec<IncomingEvent>,
) -> Result<(), ConnectorError> {
    if page.is_empty() {
        return Ok(());
    }
    sink.write(std::mem::take(page)).await
}
