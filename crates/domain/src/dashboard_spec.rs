//! A stored dashboard's spec: the widgets it shows and where they sit on the 12-column grid.
//!
//! The spec is what clients render (the built-in Overview is the same shape, kept as a constant
//! by the dashboard), so every rule lives here, checked once before a spec is stored: at most
//! [`MAX_WIDGETS`] widgets, ids of 1-[`ID_MAX_CHARS`] characters unique within the spec, titles
//! of at most [`TITLE_MAX_CHARS`], a layout inside the grid, and per widget type exactly the
//! extra fields that type reads ([`WidgetType::required_field`], [`WidgetType::fields`]).
//! Closed vocabularies (`type`, `size`, `metric`, `series`, `measure`) are enums, so a word
//! outside them is refused while the body is read, naming the field just the same.
//!
//! Widgets are one flat object on the wire (`{"id", "type", "metric", ...}`), so the Rust
//! type is flat too and a spec serializes back exactly as it was sent: absent fields stay
//! absent (a `null` reads as absent).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::roles::wire_enum;

/// At most this many widgets in one spec.
pub const MAX_WIDGETS: usize = 24;
/// A widget id is 1 to this many characters.
pub const ID_MAX_CHARS: usize = 40;
/// A widget title is at most this many characters.
pub const TITLE_MAX_CHARS: usize = 80;
/// A note's text is at most this many characters.
pub const NOTE_MAX_CHARS: usize = 2000;
/// `days` of a time-windowed widget: 1 to this many.
pub const MAX_DAYS: i64 = 365;
/// `days` when a widget that takes it leaves it out.
pub const DEFAULT_DAYS: i64 = 30;
/// Columns of the grid; a layout's `x + w` fits inside them.
pub const GRID_COLUMNS: i64 = 12;
/// Largest `layout.x` (the last column).
pub const MAX_X: i64 = GRID_COLUMNS - 1;
/// Largest `layout.y`, in 32px rows.
pub const MAX_Y: i64 = 500;
/// Largest `layout.h`, in 32px rows.
pub const MAX_H: i64 = 60;

/// The spec's DashboardSpec.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DashboardSpec {
    /// At most 24 widgets; ids unique within the spec. Empty: a blank dashboard.
    pub widgets: Vec<Widget>,
}

/// One widget: the common fields, and the extra field(s) its `type` reads. A field of another
/// type is refused (it would be stored and never drawn).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Widget {
    /// 1-40 characters, stable within the dashboard and unique in it.
    pub id: String,
    /// What the widget draws; decides which extra fields it takes.
    #[serde(rename = "type")]
    pub kind: WidgetType,
    /// At most 80 characters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Width when no `layout` is given: `xs` 2/12, `sm` 3/12, `md` 6/12, `lg` 12/12.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<WidgetSize>,
    /// Where the widget sits on the grid; without one it is packed below the placed widgets.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layout: Option<WidgetLayout>,
    /// `metric` widgets only, and required there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub metric: Option<WidgetMetric>,
    /// `timeseries` widgets only, and required there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub series: Option<WidgetSeries>,
    /// `breakdown` widgets only, and required there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub measure: Option<WidgetMeasure>,
    /// `timeseries`, `funnel` and `breakdown` widgets only: UTC days ending today, 1-365;
    /// default 30.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub days: Option<i64>,
    /// `note` widgets only, and required there: at most 2000 characters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub text: Option<String>,
}

/// A widget's place on the grid of 12 columns and 32px rows, in grid units. All four fields
/// are required; `x + w` is at most 12.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct WidgetLayout {
    /// Column of the left edge, 0-11.
    pub x: i64,
    /// Row of the top edge, 0-500.
    pub y: i64,
    /// Width in columns, 1-12; `x + w` at most 12.
    pub w: i64,
    /// Height in rows, 1-60.
    pub h: i64,
}

wire_enum! {
    /// What a widget draws.
    WidgetType {
        Metric => "metric",
        Timeseries => "timeseries",
        Funnel => "funnel",
        Payback => "payback",
        Queue => "queue",
        Breakdown => "breakdown",
        Note => "note",
    }
}

wire_enum! {
    /// A widget's width when it has no layout.
    WidgetSize { Xs => "xs", Sm => "sm", Md => "md", Lg => "lg" }
}

wire_enum! {
    /// The number a `metric` widget shows.
    WidgetMetric {
        Spend30d => "spend_30d",
        Revenue30d => "revenue_30d",
        Customers30d => "customers_30d",
        Cac => "cac",
        Ltv => "ltv",
        LtvCac => "ltv_cac",
        Visits30d => "visits_30d",
        Leads30d => "leads_30d",
        PendingCards => "pending_cards",
    }
}

wire_enum! {
    /// The daily line a `timeseries` widget draws.
    WidgetSeries {
        Spend => "spend",
        Revenue => "revenue",
        Visits => "visits",
        Leads => "leads",
        Customers => "customers",
    }
}

wire_enum! {
    /// What a `breakdown` widget splits by channel.
    WidgetMeasure {
        Spend => "spend",
        RevenueFirst => "revenue_first",
        RevenueLast => "revenue_last",
    }
}

impl WidgetSize {
    /// Columns of the 12-column grid this size spans.
    pub fn columns(self) -> i64 {
        match self {
            WidgetSize::Xs => 2,
            WidgetSize::Sm => 3,
            WidgetSize::Md => 6,
            WidgetSize::Lg => 12,
        }
    }
}

/// The extra fields a widget may carry, as the wire names them.
pub const EXTRA_FIELDS: [&str; 5] = ["metric", "series", "measure", "days", "text"];

impl WidgetType {
    /// The extra field this type cannot do without, if any.
    pub fn required_field(self) -> Option<&'static str> {
        match self {
            WidgetType::Metric => Some("metric"),
            WidgetType::Timeseries => Some("series"),
            WidgetType::Breakdown => Some("measure"),
            WidgetType::Note => Some("text"),
            WidgetType::Funnel | WidgetType::Payback | WidgetType::Queue => None,
        }
    }

    /// Every extra field this type reads (the required one included).
    pub fn fields(self) -> &'static [&'static str] {
        match self {
            WidgetType::Metric => &["metric"],
            WidgetType::Timeseries => &["series", "days"],
            WidgetType::Funnel => &["days"],
            WidgetType::Payback | WidgetType::Queue => &[],
            WidgetType::Breakdown => &["measure", "days"],
            WidgetType::Note => &["text"],
        }
    }
}

impl Widget {
    /// The extra fields this widget carries, as the wire names them, in [`EXTRA_FIELDS`] order.
    fn extras_present(&self) -> Vec<&'static str> {
        let present = [
            self.metric.is_some(),
            self.series.is_some(),
            self.measure.is_some(),
            self.days.is_some(),
            self.text.is_some(),
        ];
        EXTRA_FIELDS
            .iter()
            .zip(present)
            .filter_map(|(field, here)| here.then_some(*field))
            .collect()
    }

    /// The window a time-windowed widget reads: its `days`, or [`DEFAULT_DAYS`].
    pub fn days_or_default(&self) -> i64 {
        self.days.unwrap_or(DEFAULT_DAYS)
    }
}

/// A rule a spec broke: `field` is the path inside the spec (`widgets[3].layout.w`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpecError {
    pub field: String,
    pub message: String,
}

impl std::fmt::Display for SpecError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl std::error::Error for SpecError {}

fn refuse(field: impl Into<String>, message: impl Into<String>) -> SpecError {
    SpecError {
        field: field.into(),
        message: message.into(),
    }
}

/// `value` within `min..=max`, or the error naming `field`.
fn within(field: String, value: i64, min: i64, max: i64) -> Result<(), SpecError> {
    if (min..=max).contains(&value) {
        Ok(())
    } else {
        Err(refuse(field, format!("must be {min}-{max}, got {value}")))
    }
}

impl DashboardSpec {
    /// A spec without widgets: what a dashboard created from neither a spec nor a prompt holds.
    pub fn blank() -> Self {
        Self::default()
    }

    /// Checks every rule, answering the first broken one (widgets in order, and within a
    /// widget: id, title, layout, then its type's fields). The count comes first, so an
    /// oversized spec is refused as such rather than for its 25th widget.
    pub fn check(&self) -> Result<(), SpecError> {
        if self.widgets.len() > MAX_WIDGETS {
            return Err(refuse(
                "widgets",
                format!("at most {MAX_WIDGETS} widgets, got {}", self.widgets.len()),
            ));
        }
        let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
        for (index, widget) in self.widgets.iter().enumerate() {
            let at = format!("widgets[{index}]");
            check_widget(&at, widget)?;
            if let Some(first) = seen.insert(widget.id.as_str(), index) {
                return Err(refuse(
                    format!("{at}.id"),
                    format!("{:?} is already the id of widgets[{first}]", widget.id),
                ));
            }
        }
        Ok(())
    }
}

fn check_widget(at: &str, widget: &Widget) -> Result<(), SpecError> {
    let id_chars = widget.id.chars().count();
    if !(1..=ID_MAX_CHARS).contains(&id_chars) {
        return Err(refuse(
            format!("{at}.id"),
            format!("must be 1-{ID_MAX_CHARS} characters, got {id_chars}"),
        ));
    }
    if let Some(title) = &widget.title {
        let chars = title.chars().count();
        if chars > TITLE_MAX_CHARS {
            return Err(refuse(
                format!("{at}.title"),
                format!("must be at most {TITLE_MAX_CHARS} characters, got {chars}"),
            ));
        }
    }
    if let Some(layout) = &widget.layout {
        check_layout(&format!("{at}.layout"), layout)?;
    }
    check_type_fields(at, widget)
}

fn check_layout(at: &str, layout: &WidgetLayout) -> Result<(), SpecError> {
    within(format!("{at}.x"), layout.x, 0, MAX_X)?;
    within(format!("{at}.y"), layout.y, 0, MAX_Y)?;
    within(format!("{at}.w"), layout.w, 1, GRID_COLUMNS)?;
    within(format!("{at}.h"), layout.h, 1, MAX_H)?;
    // Each value may be in range while the widget still runs off the grid's right edge.
    if layout.x + layout.w > GRID_COLUMNS {
        return Err(refuse(
            format!("{at}.w"),
            format!(
                "x + w must be at most {GRID_COLUMNS} (the grid's columns), got {} + {}",
                layout.x, layout.w
            ),
        ));
    }
    Ok(())
}

fn check_type_fields(at: &str, widget: &Widget) -> Result<(), SpecError> {
    let kind = widget.kind;
    let present = widget.extras_present();
    if let Some(required) = kind.required_field()
        && !present.contains(&required)
    {
        return Err(refuse(
            format!("{at}.{required}"),
            format!("required for a {kind} widget"),
        ));
    }
    if let Some(foreign) = present.iter().find(|field| !kind.fields().contains(field)) {
        let takes = match kind.fields() {
            [] => "no extra fields".to_owned(),
            fields => format!("only {}", fields.join(", ")),
        };
        return Err(refuse(
            format!("{at}.{foreign}"),
            format!("not a field of a {kind} widget (it takes {takes})"),
        ));
    }
    if let Some(days) = widget.days {
        within(format!("{at}.days"), days, 1, MAX_DAYS)?;
    }
    if let Some(text) = &widget.text {
        let chars = text.chars().count();
        if chars > NOTE_MAX_CHARS {
            return Err(refuse(
                format!("{at}.text"),
                format!("must be at most {NOTE_MAX_CHARS} characters, got {chars}"),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // a failing unwrap is the test's failure message
mod tests {
    use serde_json::{Value, json};

    use super::*;

    fn parse(value: Value) -> DashboardSpec {
        serde_json::from_value(value).unwrap()
    }

    /// One widget of every type, with every field its type takes.
    fn full() -> Value {
        json!({"widgets": [
            {"id": "spend", "type": "metric", "metric": "spend_30d", "title": "Spend", "size": "sm",
             "layout": {"x": 0, "y": 0, "w": 3, "h": 2}},
            {"id": "line", "type": "timeseries", "series": "revenue", "days": 90, "size": "md"},
            {"id": "funnel", "type": "funnel", "days": 1, "layout": {"x": 6, "y": 2, "w": 6, "h": 60}},
            {"id": "payback", "type": "payback", "title": ""},
            {"id": "queue", "type": "queue", "size": "xs"},
            {"id": "channels", "type": "breakdown", "measure": "revenue_last", "days": 365,
             "layout": {"x": 11, "y": 500, "w": 1, "h": 1}},
            {"id": "n".repeat(ID_MAX_CHARS), "type": "note", "text": "t".repeat(NOTE_MAX_CHARS),
             "title": "T".repeat(TITLE_MAX_CHARS), "size": "lg"}
        ]})
    }

    #[test]
    fn a_full_spec_passes_and_serializes_back_exactly() {
        let spec = parse(full());
        assert_eq!(spec.check(), Ok(()));
        assert_eq!(serde_json::to_value(&spec).unwrap(), full());
        assert_eq!(spec.widgets[1].days_or_default(), 90);
        assert_eq!(spec.widgets[4].days_or_default(), DEFAULT_DAYS);
        assert_eq!(DashboardSpec::blank().check(), Ok(()));
        assert_eq!(
            serde_json::to_value(DashboardSpec::blank()).unwrap(),
            json!({"widgets": []})
        );
    }

    /// `(change to the full spec's widget, field named, words in the message)`.
    #[test]
    fn each_rule_names_its_field() {
        let cases: Vec<(usize, Value, &str, &str)> = vec![
            (0, json!({"id": ""}), "widgets[0].id", "1-40"),
            (0, json!({"id": "x".repeat(41)}), "widgets[0].id", "got 41"),
            (1, json!({"id": "spend"}), "widgets[1].id", "widgets[0]"),
            (
                0,
                json!({"title": "x".repeat(81)}),
                "widgets[0].title",
                "80",
            ),
            (
                0,
                json!({"layout": {"x": -1, "y": 0, "w": 3, "h": 2}}),
                "widgets[0].layout.x",
                "0-11",
            ),
            (
                0,
                json!({"layout": {"x": 12, "y": 0, "w": 1, "h": 2}}),
                "widgets[0].layout.x",
                "got 12",
            ),
            (
                0,
                json!({"layout": {"x": 0, "y": 501, "w": 3, "h": 2}}),
                "widgets[0].layout.y",
                "0-500",
            ),
            (
                0,
                json!({"layout": {"x": 0, "y": 0, "w": 0, "h": 2}}),
                "widgets[0].layout.w",
                "1-12",
            ),
            (
                0,
                json!({"layout": {"x": 0, "y": 0, "w": 13, "h": 2}}),
                "widgets[0].layout.w",
                "1-12",
            ),
            (
                0,
                json!({"layout": {"x": 8, "y": 0, "w": 6, "h": 2}}),
                "widgets[0].layout.w",
                "x + w",
            ),
            (
                0,
                json!({"layout": {"x": 0, "y": 0, "w": 3, "h": 0}}),
                "widgets[0].layout.h",
                "1-60",
            ),
            (
                0,
                json!({"layout": {"x": 0, "y": 0, "w": 3, "h": 61}}),
                "widgets[0].layout.h",
                "1-60",
            ),
            (0, json!({"metric": null}), "widgets[0].metric", "required"),
            (1, json!({"series": null}), "widgets[1].series", "required"),
            (
                5,
                json!({"measure": null}),
                "widgets[5].measure",
                "required",
            ),
            (6, json!({"text": null}), "widgets[6].text", "required"),
            (0, json!({"days": 30}), "widgets[0].days", "metric widget"),
            (3, json!({"days": 30}), "widgets[3].days", "no extra fields"),
            (4, json!({"text": "x"}), "widgets[4].text", "queue widget"),
            (
                2,
                json!({"series": "spend"}),
                "widgets[2].series",
                "only days",
            ),
            (
                1,
                json!({"measure": "spend"}),
                "widgets[1].measure",
                "series, days",
            ),
            (
                6,
                json!({"metric": "cac"}),
                "widgets[6].metric",
                "note widget",
            ),
            (1, json!({"days": 0}), "widgets[1].days", "1-365"),
            (2, json!({"days": 366}), "widgets[2].days", "got 366"),
            (5, json!({"days": -3}), "widgets[5].days", "1-365"),
            (
                6,
                json!({"text": "x".repeat(NOTE_MAX_CHARS + 1)}),
                "widgets[6].text",
                "2000",
            ),
        ];
        for (index, change, field, words) in cases {
            let mut value = full();
            for (key, new) in change.as_object().unwrap() {
                value["widgets"][index][key] = new.clone();
            }
            let err = parse(value).check().unwrap_err();
            assert_eq!(err.field, field, "{change}: {err}");
            assert!(err.message.contains(words), "{change}: {err}");
        }
    }

    #[test]
    fn at_most_24_widgets_counted_before_anything_else() {
        let widget = json!({"id": "same", "type": "payback"});
        let spec = parse(json!({"widgets": vec![widget.clone(); MAX_WIDGETS + 1]}));
        assert_eq!(
            spec.check().unwrap_err().to_string(),
            "widgets: at most 24 widgets, got 25"
        );
        let ids: Vec<Value> = (0..MAX_WIDGETS)
            .map(|i| json!({"id": format!("w{i}"), "type": "payback"}))
            .collect();
        assert_eq!(parse(json!({ "widgets": ids })).check(), Ok(()));
    }

    #[test]
    fn closed_vocabularies_and_missing_fields_are_refused_while_reading() {
        let bad = [
            json!({"widgets": [{"id": "a", "type": "pie"}]}),
            json!({"widgets": [{"id": "a", "type": "metric", "metric": "roas"}]}),
            json!({"widgets": [{"id": "a", "type": "timeseries", "series": "ctr"}]}),
            json!({"widgets": [{"id": "a", "type": "breakdown", "measure": "clicks"}]}),
            json!({"widgets": [{"id": "a", "type": "queue", "size": "xl"}]}),
            json!({"widgets": [{"id": "a", "type": "queue", "layout": {"x": 0, "y": 0, "w": 1}}]}),
            json!({"widgets": [{"id": "a", "type": "queue", "colour": "red"}]}),
            json!({"widgets": [{"type": "queue"}]}),
            json!({"widgets": [{"id": "a"}]}),
            json!({}),
        ];
        for value in bad {
            assert!(
                serde_json::from_value::<DashboardSpec>(value.clone()).is_err(),
                "{value}"
            );
        }
    }

    #[test]
    fn each_type_takes_its_own_fields() {
        for kind in WidgetType::ALL {
            let fields = kind.fields();
            if let Some(required) = kind.required_field() {
                assert!(fields.contains(&required), "{kind}");
            }
            assert!(fields.iter().all(|field| EXTRA_FIELDS.contains(field)));
        }
        let widths: Vec<i64> = WidgetSize::ALL.iter().map(|s| s.columns()).collect();
        assert_eq!(widths, [2, 3, 6, 12]);
    }
}
