//! What `describe` shows of a tenant's MongoDB. Collections have no declared schema, so each
//! one is sampled: its newest documents (by `_id`, which for ObjectIds is insertion order), their
//! fields flattened into dot paths with the BSON types seen.

use std::collections::HashMap;

use bson::{Bson, Document, doc};
use mongodb::Collection;

use super::client::{Source, classify};
use super::mapping::type_name;
use crate::ConnectorError;
use crate::database::schema::{
    ColumnKind, ColumnSummary, DEFAULT_TABLES, SchemaSummary, TableSummary,
};

/// Documents read from each collection.
pub(super) const SAMPLE_DOCUMENTS: i64 = 50;
/// Path segments flattened; a sub-document deeper than this is listed as one `object` field.
pub(super) const MAX_DEPTH: usize = 3;
/// Fields listed per collection, so documents keyed by data (ids as field names) stay readable.
pub(super) const MAX_FIELDS: usize = 200;

/// The database's collections by name, leaving out views and `system.*` collections.
pub(super) async fn collection_names(source: &Source) -> Result<Vec<String>, ConnectorError> {
    let listing = source
        .database()
        .list_collection_names()
        .filter(doc! { "type": "collection" })
        .authorized_collections(true);
    let mut names: Vec<String> = source
        .call("listing the collections", listing)
        .await?
        .into_iter()
        .filter(|name| !name.starts_with("system."))
        .collect();
    names.sort();
    Ok(names)
}

/// The first [`DEFAULT_TABLES`] collections by name, or the named ones (unknown names fail,
/// all named at once), each sampled.
pub(super) async fn summarize(
    source: &Source,
    subset: Option<&[String]>,
) -> Result<SchemaSummary, ConnectorError> {
    let all = collection_names(source).await?;
    let mut chosen: Vec<String> = match subset {
        None => all.clone(),
        Some(names) => {
            let unknown: Vec<String> = names
                .iter()
                .filter(|name| !all.contains(name))
                .map(|name| format!("`{name}`"))
                .collect();
            if !unknown.is_empty() {
                return Err(ConnectorError::Config(format!(
                    "no collection named {} in database {}",
                    unknown.join(", "),
                    source.database().name()
                )));
            }
            let mut chosen: Vec<String> = Vec::with_capacity(names.len());
            for name in names {
                if !chosen.contains(name) {
                    chosen.push(name.clone());
                }
            }
            chosen
        }
    };
    chosen.truncate(DEFAULT_TABLES);
    let mut tables = Vec::with_capacity(chosen.len());
    for name in &chosen {
        tables.push(summarize_collection(source, name).await?);
    }
    Ok(SchemaSummary {
        tables,
        more_tables: all.len().saturating_sub(chosen.len()),
    })
}

async fn summarize_collection(source: &Source, name: &str) -> Result<TableSummary, ConnectorError> {
    let collection: Collection<Document> = source.database().collection(name);
    let timeout = source.limits().statement_timeout;
    let sampling = collection
        .find(doc! {})
        .sort(doc! { "_id": -1 })
        .limit(SAMPLE_DOCUMENTS)
        .max_time(timeout);
    let mut cursor = source.call("sampling a collection", sampling).await?;
    let mut fields = FieldTypes::default();
    while source
        .call("sampling a collection", cursor.advance())
        .await?
    {
        fields.add_document(&cursor.deserialize_current().map_err(classify)?);
    }
    let counting = collection.estimated_document_count().max_time(timeout);
    let estimate = source.call("counting a collection", counting).await?;
    Ok(TableSummary {
        schema: None,
        name: name.to_owned(),
        columns: fields.columns(),
        row_estimate: i64::try_from(estimate).ok(),
    })
}

/// Every field path seen, in the order first seen, with the types seen there.
#[derive(Debug, Default)]
pub(super) struct FieldTypes {
    paths: Vec<(String, Vec<&'static str>)>,
    index: HashMap<String, usize>,
}

impl FieldTypes {
    pub(super) fn add_document(&mut self, document: &Document) {
        self.walk(document, "", 1);
    }

    fn walk(&mut self, document: &Document, prefix: &str, depth: usize) {
        for (key, value) in document {
            let path = if prefix.is_empty() {
                key.clone()
            } else {
                format!("{prefix}.{key}")
            };
            match value {
                Bson::Document(inner) if depth < MAX_DEPTH && !inner.is_empty() => {
                    self.walk(inner, &path, depth + 1);
                }
                _ => self.record(path, type_name(value)),
            }
        }
    }

    fn record(&mut self, path: String, type_name: &'static str) {
        if let Some(&at) = self.index.get(&path) {
            let types = &mut self.paths[at].1;
            if !types.contains(&type_name) {
                types.push(type_name);
            }
        } else if self.paths.len() < MAX_FIELDS {
            self.index.insert(path.clone(), self.paths.len());
            self.paths.push((path, vec![type_name]));
        }
    }

    /// One column per path: its types joined by `|` (nulls left out when a value was also
    /// seen), and a kind when they all agree.
    pub(super) fn columns(&self) -> Vec<ColumnSummary> {
        self.paths
            .iter()
            .map(|(path, types)| {
                let valued: Vec<&str> = types
                    .iter()
                    .copied()
                    .filter(|name| !matches!(*name, "null" | "undefined"))
                    .collect();
                let shown = if valued.is_empty() {
                    types.clone()
                } else {
                    valued.clone()
                };
                let mut kinds = valued.iter().map(|name| kind(name));
                let first = kinds.next();
                let kind = match first {
                    Some(first) if kinds.all(|other| other == first) => first,
                    _ => ColumnKind::Other,
                };
                ColumnSummary {
                    name: path.clone(),
                    data_type: shown.join("|"),
                    kind,
                }
            })
            .collect()
    }
}

/// The coarse kind of a BSON type: doubles count as decimals, since amounts are stored in them.
fn kind(type_name: &str) -> ColumnKind {
    match type_name {
        "date" | "timestamp" => ColumnKind::Timestamp,
        "int" | "long" => ColumnKind::Integer,
        "double" | "decimal" => ColumnKind::Decimal,
        "string" | "objectId" | "symbol" => ColumnKind::Text,
        "bool" => ColumnKind::Boolean,
        _ => ColumnKind::Other,
    }
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use bson::{DateTime, Decimal128};

    use super::*;

    fn column(name: &str, data_type: &str, kind: ColumnKind) -> ColumnSummary {
        ColumnSummary {
            name: name.to_owned(),
            data_type: data_type.to_owned(),
            kind,
        }
    }

    #[test]
    fn fields_flatten_to_depth_three_with_every_type_seen() {
        let mut fields = FieldTypes::default();
        fields.add_document(&doc! {
            "_id": 1_i32,
            "at": DateTime::from_millis(0),
            "total": Decimal128::from_str("1.50").expect("decimal"),
            "mixed": "a",
            "maybe": Bson::Null,
            "customer": { "email": "a@b.co", "address": { "city": "Oslo", "geo": { "lat": 1.0 } }, "empty": {} },
            "tags": ["x"],
        });
        fields.add_document(&doc! {
            "_id": 2_i64,
            "mixed": 3_i32,
            "maybe": true,
            "never": Bson::Null,
        });
        assert_eq!(
            fields.columns(),
            vec![
                column("_id", "int|long", ColumnKind::Integer),
                column("at", "date", ColumnKind::Timestamp),
                column("total", "decimal", ColumnKind::Decimal),
                column("mixed", "string|int", ColumnKind::Other),
                column("maybe", "bool", ColumnKind::Boolean),
                column("customer.email", "string", ColumnKind::Text),
                column("customer.address.city", "string", ColumnKind::Text),
                column("customer.address.geo", "object", ColumnKind::Other),
                column("customer.empty", "object", ColumnKind::Other),
                column("tags", "array", ColumnKind::Other),
                column("never", "null", ColumnKind::Other),
            ]
        );
    }

    #[test]
    fn fields_stop_at_the_cap() {
        let mut fields = FieldTypes::default();
        let mut wide = Document::new();
        for n in 0..MAX_FIELDS + 5 {
            wide.insert(format!("f{n}"), 1_i32);
        }
        fields.add_document(&wide);
        let columns = fields.columns();
        assert_eq!(columns.len(), MAX_FIELDS);
        assert_eq!(columns[MAX_FIELDS - 1].name, format!("f{}", MAX_FIELDS - 1));
    }
}
