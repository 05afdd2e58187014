//! A product's scorecard layout: sections of rows, each row a catalog metric or a manual row.
//! The first read stores the `default` template's available rows; a save (`POST
//! /products/{slug}/scorecard`) or a template replaces the layout whole, audited.

use std::collections::BTreeSet;

use payback_store::products::ProductRow;
use payback_store::scorecard::layouts;
use serde::{Deserialize, Serialize};
use serde_json::json;
use utoipa::ToSchema;

use crate::error::{ApiError, ApiResult};
use crate::services::acting::Caller;
use crate::services::audit;
use crate::services::scorecard::catalog::{self, Connected, Unit};
use crate::services::scorecard::templates;
use crate::state::AppState;

/// Sections a layout may hold.
pub const MAX_SECTIONS: usize = 12;
/// Rows a layout may hold, over all its sections.
pub const MAX_ROWS: usize = 60;
/// Characters of a section's or a row's label.
pub const MAX_LABEL_CHARS: usize = 80;

/// One row as stored: a catalog metric, or a manual row's own key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Row {
    pub metric: String,
    pub label: String,
    pub manual: bool,
    pub unit: Unit,
}

/// One section as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Section {
    pub key: String,
    pub label: String,
    pub rows: Vec<Row>,
}

/// The stored layout and the template it came from (`None` after a custom save).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    pub sections: Vec<Section>,
    pub template: Option<String>,
}

impl Layout {
    /// Every row, in order, with its section.
    pub fn rows(&self) -> impl Iterator<Item = (&Section, &Row)> {
        self.sections
            .iter()
            .flat_map(|section| section.rows.iter().map(move |row| (section, row)))
    }
}

/// A row as a save sends it.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct RowInput {
    /// A catalog metric, or for a manual row a new key `^[a-z][a-z0-9_]{1,39}$`.
    pub metric: String,
    /// 1-80 characters; a catalog row defaults to the catalog's label, a manual row needs one.
    pub label: Option<String>,
    /// Whether the row is typed by hand (`POST .../scorecard/values`).
    pub manual: Option<bool>,
    /// A manual row's unit (`count` by default); a catalog row keeps the catalog's.
    pub unit: Option<Unit>,
}

/// A section as a save sends it.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct SectionInput {
    /// Optional; derived from the label when absent. `^[a-z][a-z0-9_]{0,39}$`, unique.
    pub key: Option<String>,
    /// 1-80 characters on one line.
    pub label: String,
    /// At most 60 (and 60 in all sections).
    pub rows: Option<Vec<RowInput>>,
}

/// `POST /products/{slug}/scorecard`.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct LayoutInput {
    /// At most 12 sections and 60 rows in all; each metric once.
    pub sections: Vec<SectionInput>,
    /// The template this layout is (a name), or null for a custom layout (the default).
    #[serde(default)]
    pub template: Option<String>,
}

/// A template's sections as layout sections; with `only`, the rows of sources it has
/// connected, dropping sections left empty (the first read's provisioning).
pub fn from_template(name: &str, only: Option<&Connected>) -> Vec<Section> {
    templates::find(name)
        .unwrap_or_default()
        .iter()
        .map(|section| Section {
            key: section.key.to_owned(),
            label: section.label.to_owned(),
            rows: section
                .metrics
                .iter()
                .filter_map(|metric| catalog::find(metric))
                .filter(|def| only.is_none_or(|connected| connected.has(def.source)))
                .map(|def| Row {
                    metric: def.metric.to_owned(),
                    label: def.label.to_owned(),
                    manual: false,
                    unit: def.unit,
                })
                .collect(),
        })
        .filter(|section| only.is_none() || !section.rows.is_empty())
        .collect()
}

/// The product's layout, provisioning the `default` template's available rows on the first
/// read. New connections never change a stored layout.
pub async fn load_or_provision(state: &AppState, product: &ProductRow) -> ApiResult<Layout> {
    let scope = payback_store::AccountScope::trusted(product.account_id.clone());
    let row = match layouts::find(&state.store, &scope, &product.id).await? {
        Some(row) => row,
        None => {
            let connected = Connected::of(state, product).await?;
            let sections = from_template(templates::DEFAULT, Some(&connected));
            let text = serde_json::to_string(&sections).map_err(ApiError::internal)?;
            layouts::provision(
                &state.store,
                &scope,
                &product.id,
                &text,
                templates::DEFAULT,
                state.clock.now(),
            )
            .await?
        }
    };
    let sections: Vec<Section> = serde_json::from_str(&row.sections).map_err(ApiError::internal)?;
    Ok(Layout {
        sections,
        template: row.template,
    })
}

/// The product's stored layout without provisioning one (the public view reads what is there,
/// or an empty matrix).
pub async fn stored(state: &AppState, product: &ProductRow) -> ApiResult<Option<Layout>> {
    let scope = payback_store::AccountScope::trusted(product.account_id.clone());
    let Some(row) = layouts::find(&state.store, &scope, &product.id).await? else {
        return Ok(None);
    };
    let sections: Vec<Section> = serde_json::from_str(&row.sections).map_err(ApiError::internal)?;
    Ok(Some(Layout {
        sections,
        template: row.template,
    }))
}

fn is_key(text: &str, min_rest: usize) -> bool {
    let mut chars = text.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && (min_rest..=39).contains(&chars.clone().count())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// Whether `key` may name a manual row: `^[a-z][a-z0-9_]{1,39}$`.
pub fn is_manual_key(key: &str) -> bool {
    is_key(key, 1)
}

/// A label: 1-80 characters on one line, not only whitespace; stored trimmed.
fn check_label(field: &str, label: &str) -> ApiResult<String> {
    let trimmed = label.trim();
    if trimmed.is_empty() || label.chars().count() > MAX_LABEL_CHARS {
        return Err(ApiError::bad_request(format!(
            "{field}: must be 1-{MAX_LABEL_CHARS} characters, not only spaces"
        )));
    }
    payback_domain::validation::check_one_line(label)
        .map_err(|why| ApiError::bad_request(format!("{field}: {why}")))?;
    Ok(trimmed.to_owned())
}

/// A section key from its label: lower-case letters and digits, runs of anything else as `_`.
fn key_from_label(label: &str, index: usize) -> String {
    let mut key = String::new();
    for c in label.chars() {
        if c.is_ascii_alphanumeric() {
            key.push(c.to_ascii_lowercase());
        } else if !key.is_empty() && !key.ends_with('_') {
            key.push('_');
        }
        if key.len() >= 32 {
            break;
        }
    }
    let key = key.trim_end_matches('_').to_owned();
    if is_key(&key, 0) {
        key
    } else {
        format!("section_{}", index + 1)
    }
}

/// Checks a save: the sections, their rows and the template name. 400 naming the field (or the
/// unknown metric) on the first problem.
pub fn check(input: LayoutInput) -> ApiResult<Layout> {
    let sections = input.sections;
    if sections.len() > MAX_SECTIONS {
        return Err(ApiError::bad_request(format!(
            "sections: at most {MAX_SECTIONS} sections"
        )));
    }
    for (s, section) in sections.iter().enumerate() {
        if section
            .rows
            .as_ref()
            .is_some_and(|rows| rows.len() > MAX_ROWS)
        {
            return Err(ApiError::bad_request(format!(
                "sections[{s}].rows: at most {MAX_ROWS} rows"
            )));
        }
    }
    let total: usize = sections
        .iter()
        .map(|s| s.rows.as_ref().map_or(0, Vec::len))
        .sum();
    if total > MAX_ROWS {
        return Err(ApiError::bad_request(format!(
            "sections: at most {MAX_ROWS} rows in all"
        )));
    }
    if let Some(name) = &input.template
        && templates::find(name).is_none()
    {
        return Err(ApiError::bad_request(format!(
            "template: must be one of {} or null",
            templates::names()
        )));
    }
    let mut keys = BTreeSet::new();
    let mut metrics = BTreeSet::new();
    let mut checked = Vec::with_capacity(sections.len());
    for (s, section) in sections.into_iter().enumerate() {
        let label = check_label(&format!("sections[{s}].label"), &section.label)?;
        let key = match section.key {
            Some(key) if is_key(&key, 0) => key,
            Some(_) => {
                return Err(ApiError::bad_request(format!(
                    "sections[{s}].key: must match ^[a-z][a-z0-9_]{{0,39}}$"
                )));
            }
            None => {
                let mut key = key_from_label(&label, s);
                let base = key.clone();
                let mut n = 2;
                while keys.contains(&key) {
                    key = format!("{base}_{n}");
                    n += 1;
                }
                key
            }
        };
        if !keys.insert(key.clone()) {
            return Err(ApiError::bad_request(format!(
                "sections[{s}].key: {key} is used by another section"
            )));
        }
        let mut rows = Vec::new();
        for (r, row) in section.rows.unwrap_or_default().into_iter().enumerate() {
            let field = format!("sections[{s}].rows[{r}]");
            let row = check_row(&field, row)?;
            if !metrics.insert(row.metric.clone()) {
                return Err(ApiError::bad_request(format!(
                    "{field}.metric: {} is on the scorecard already",
                    row.metric
                )));
            }
            rows.push(row);
        }
        checked.push(Section { key, label, rows });
    }
    Ok(Layout {
        sections: checked,
        template: input.template,
    })
}

fn check_row(field: &str, row: RowInput) -> ApiResult<Row> {
    let metric = row.metric;
    if row.manual == Some(true) {
        if catalog::find(&metric).is_some() {
            return Err(ApiError::bad_request(format!(
                "{field}.metric: {metric} is a catalog metric; a manual row takes a new key"
            )));
        }
        if !is_manual_key(&metric) {
            return Err(ApiError::bad_request(format!(
                "{field}.metric: a manual row's key must match ^[a-z][a-z0-9_]{{1,39}}$"
            )));
        }
        let label = row.label.ok_or_else(|| {
            ApiError::bad_request(format!("{field}.label: required on a manual row"))
        })?;
        return Ok(Row {
            metric,
            label: check_label(&format!("{field}.label"), &label)?,
            manual: true,
            unit: row.unit.unwrap_or(Unit::Count),
        });
    }
    let Some(def) = catalog::find(&metric) else {
        return Err(ApiError::bad_request(format!(
            "{field}.metric: unknown metric {}",
            super::quoted(&metric)
        )));
    };
    let label = match row.label {
        Some(label) => check_label(&format!("{field}.label"), &label)?,
        None => def.label.to_owned(),
    };
    Ok(Row {
        metric: metric.clone(),
        label,
        manual: false,
        unit: def.unit,
    })
}

/// Replaces the product's layout with `layout`, recording `action` (`scorecard.save` or
/// `scorecard.template`) with what it replaced, in one transaction.
pub async fn save(
    state: &AppState,
    caller: &Caller,
    product: &ProductRow,
    layout: &Layout,
    action: &str,
) -> ApiResult<()> {
    let scope = caller.scope()?;
    let text = serde_json::to_string(&layout.sections).map_err(ApiError::internal)?;
    let now = state.clock.now();
    let mut tx = state.store.begin().await?;
    let previous = layouts::replace(
        &mut tx,
        scope,
        &product.id,
        &text,
        layout.template.as_deref(),
        now,
    )
    .await?;
    let before: Option<serde_json::Value> = previous.as_ref().map(|row| {
        json!({
            "sections": serde_json::from_str::<serde_json::Value>(&row.sections).unwrap_or_default(),
            "template": row.template,
        })
    });
    let payload = json!({
        "before": before,
        "after": { "sections": &layout.sections, "template": &layout.template },
    });
    audit::record_product(&mut tx, &caller.actor(), product, action, payload, now).await?;
    tx.commit().await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(metric: &str) -> RowInput {
        RowInput {
            metric: metric.to_owned(),
            label: None,
            manual: None,
            unit: None,
        }
    }

    fn one_section(rows: Vec<RowInput>) -> LayoutInput {
        LayoutInput {
            sections: vec![SectionInput {
                key: None,
                label: "Weekly numbers".to_owned(),
                rows: Some(rows),
            }],
            template: None,
        }
    }

    fn refusal(input: LayoutInput) -> String {
        match check(input) {
            Err(ApiError::BadRequest(message)) => message,
            other => panic!("expected a 400, got {other:?}"),
        }
    }

    #[test]
    fn a_save_is_checked_field_by_field() {
        let layout = check(one_section(vec![row("visits")])).unwrap();
        assert_eq!(layout.sections[0].key, "weekly_numbers");
        assert_eq!(layout.sections[0].rows[0].label, "Visits");
        assert!(refusal(one_section(vec![row("nope")])).contains("unknown metric \"nope\""));
        assert!(
            refusal(one_section(vec![row("visits"), row("visits")]))
                .starts_with("sections[0].rows[1].metric")
        );
        let manual = RowInput {
            manual: Some(true),
            ..row("mrr")
        };
        assert!(refusal(one_section(vec![manual])).starts_with("sections[0].rows[0].label"));
        let bad_key = RowInput {
            manual: Some(true),
            label: Some("X".to_owned()),
            ..row("9x")
        };
        assert!(refusal(one_section(vec![bad_key])).starts_with("sections[0].rows[0].metric"));
        let many = LayoutInput {
            sections: (0..13)
                .map(|i| SectionInput {
                    key: None,
                    label: format!("S{i}"),
                    rows: None,
                })
                .collect(),
            template: None,
        };
        assert!(refusal(many).starts_with("sections: at most 12"));
    }
}
