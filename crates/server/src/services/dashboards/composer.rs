//! The deterministic composer: a prompt in, a DashboardSpec out, with no language model.
//!
//! The prompt is lower-cased and split into words (letters and digits; everything else
//! separates them). At each word the longest [`VOCABULARY`] term starting there is taken, so
//! "cost per customer" is CAC and not spend, and "return on ad spend" is payback; each term
//! names a topic, and each topic gives fixed widgets (spend: the 30-day figure and the daily
//! line). A window ("90 days", "2 weeks", "quarterly", ...) sets `days` of the widgets that read
//! one. Metric tiles come first, four to a row, then the charts two to a row, each group in the
//! order the prompt first named its topic. `matched` lists the terms that shaped the spec, in
//! the order they appear, each once. Nothing depends on anything but the prompt's text, so the
//! same prompt always gives the same spec.

use payback_domain::dashboard_spec::{
    DashboardSpec, GRID_COLUMNS, MAX_WIDGETS, Widget, WidgetLayout, WidgetSize, WidgetType,
};
use serde::Serialize;
use utoipa::ToSchema;

use super::prompt_vocabulary::{Draft, Topic, term_at, window_at, words};

pub use super::prompt_vocabulary::VOCABULARY;

/// What the composer made of a prompt: a name to suggest, the spec, and the words it used.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct ComposedDashboard {
    /// The topics found, e.g. `Spend, CAC and Funnel`; `New dashboard` when none was.
    pub name: String,
    pub spec: DashboardSpec,
    /// The vocabulary's terms that shaped the spec, in the order the prompt has them, each
    /// once (a window only when a widget reads one).
    pub matched: Vec<String>,
}

const TILE: (WidgetSize, i64) = (WidgetSize::Sm, 3);
const CHART: (WidgetSize, i64) = (WidgetSize::Md, 8);
const NOTE: (WidgetSize, i64) = (WidgetSize::Lg, 4);

/// What a prompt matching nothing gets: a note saying which words work.
pub const NOTHING_MATCHED: &str = "Nothing in the prompt matched a widget. Ask for spend, ads, \
    revenue, customers, CAC (cost per customer), LTV, LTV:CAC, visits, leads, signups, the \
    funnel, payback, channels (first or last touch) or the approval queue, optionally over a \
    window such as \"last 90 days\".";

/// Composes the spec `prompt` asks for. Deterministic: the same text, the same answer.
pub fn compose(prompt: &str) -> ComposedDashboard {
    let words = words(prompt);
    let mut topics: Vec<Topic> = Vec::new();
    let mut terms: Vec<&'static str> = Vec::new();
    let mut window: Option<(i64, String)> = None;
    let mut window_position = 0;
    let mut at = 0;
    while at < words.len() {
        let rest = &words[at..];
        if let Some((term, topic, len)) = term_at(rest) {
            if !topics.contains(&topic) {
                topics.push(topic);
            }
            if !terms.contains(&term) {
                terms.push(term);
            }
            at += len;
        } else if let Some((days, term, len)) = window_at(rest) {
            // The first window named holds; it is listed where it appeared.
            if window.is_none() {
                window = Some((days, term));
                window_position = terms.len();
            }
            at += len;
        } else {
            at += 1;
        }
    }

    let drafts: Vec<Draft> = topics.iter().flat_map(|topic| topic.widgets()).collect();
    let tiles = drafts.iter().filter(|d| matches!(d, Draft::Tile { .. }));
    let charts = drafts.iter().filter(|d| matches!(d, Draft::Chart { .. }));
    let days = window.as_ref().map(|(days, _)| *days);
    let mut widgets: Vec<Widget> = tiles
        .chain(charts)
        .take(MAX_WIDGETS)
        .map(|draft| widget(*draft, days))
        .collect();
    let mut matched: Vec<String> = terms.iter().map(|term| (*term).to_owned()).collect();
    if let Some((_, term)) = window
        && widgets.iter().any(|w| w.days.is_some())
    {
        matched.insert(window_position, term);
    }
    if widgets.is_empty() {
        widgets.push(note());
    }
    place(&mut widgets);
    ComposedDashboard {
        name: name(&topics),
        spec: DashboardSpec { widgets },
        matched,
    }
}

fn widget(draft: Draft, days: Option<i64>) -> Widget {
    let blank = |id: &str, kind, title: &str, size: WidgetSize| Widget {
        id: id.to_owned(),
        kind,
        title: Some(title.to_owned()),
        size: Some(size),
        layout: None,
        metric: None,
        series: None,
        measure: None,
        days: None,
        text: None,
    };
    match draft {
        Draft::Tile { id, metric, title } => Widget {
            metric: Some(metric),
            ..blank(id, WidgetType::Metric, title, TILE.0)
        },
        Draft::Chart {
            id,
            kind,
            title,
            series,
            measure,
        } => Widget {
            series,
            measure,
            // Only the types that read a window get one.
            days: days.filter(|_| kind.fields().contains(&"days")),
            ..blank(id, kind, title, CHART.0)
        },
    }
}

fn note() -> Widget {
    Widget {
        id: "note".to_owned(),
        kind: WidgetType::Note,
        title: Some("Try other words".to_owned()),
        size: Some(NOTE.0),
        layout: None,
        metric: None,
        series: None,
        measure: None,
        days: None,
        text: Some(NOTHING_MATCHED.to_owned()),
    }
}

/// Lays the widgets out left to right in rows of 12 columns, each as wide as its size and as
/// tall as its kind; a widget that does not fit the row, or is of another height than the
/// row's (the first chart after the tiles), starts the next row.
fn place(widgets: &mut [Widget]) {
    let (mut x, mut y, mut row_height) = (0, 0, 0);
    for widget in widgets {
        let size = widget.size.unwrap_or(WidgetSize::Lg);
        let w = size.columns();
        let h = match widget.kind {
            WidgetType::Metric => TILE.1,
            WidgetType::Note => NOTE.1,
            _ => CHART.1,
        };
        if x + w > GRID_COLUMNS || (x > 0 && h != row_height) {
            (x, y, row_height) = (0, y + row_height, 0);
        }
        widget.layout = Some(WidgetLayout { x, y, w, h });
        x += w;
        row_height = row_height.max(h);
    }
}

/// `Spend, CAC and Funnel`; past 80 characters the first three and "more".
fn name(topics: &[Topic]) -> String {
    let labels: Vec<&str> = topics.iter().map(|topic| topic.label()).collect();
    let joined = |labels: &[&str]| match labels {
        [] => "New dashboard".to_owned(),
        [one] => (*one).to_owned(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    };
    let full = joined(&labels);
    if full.chars().count() <= crate::services::dashboards::NAME_MAX_CHARS {
        full
    } else {
        let first: Vec<&str> = labels.iter().take(3).copied().collect();
        format!("{} and more", first.join(", "))
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // a failing unwrap is the test's failure message
mod tests {
    use super::*;

    fn ids(composed: &ComposedDashboard) -> Vec<&str> {
        composed
            .spec
            .widgets
            .iter()
            .map(|w| w.id.as_str())
            .collect()
    }

    #[test]
    fn synonyms_and_the_longest_term_win() {
        let composed = compose("Show me CAC, cost per customer and our ads");
        assert_eq!(composed.matched, ["cac", "cost per customer", "ads"]);
        assert_eq!(ids(&composed), ["cac", "spend-30d", "spend-daily"]);
        assert_eq!(composed.name, "CAC and Spend");

        let composed = compose("ROAS (return on ad spend) and LTV:CAC");
        assert_eq!(composed.matched, ["roas", "return on ad spend", "ltv:cac"]);
        assert_eq!(ids(&composed), ["ltv-cac", "payback"]);
    }

    #[test]
    fn tiles_first_then_charts_on_the_grid() {
        let composed =
            compose("funnel, revenue, signups and spend by channel over the last 90 days");
        assert_eq!(
            composed.matched,
            [
                "funnel",
                "revenue",
                "signups",
                "spend by channel",
                "90 days"
            ]
        );
        assert_eq!(
            ids(&composed),
            ["revenue-30d", "funnel", "revenue-daily", "channels-spend"]
        );
        let layouts: Vec<(i64, i64, i64, i64)> = composed
            .spec
            .widgets
            .iter()
            .map(|w| {
                let l = w.layout.unwrap();
                (l.x, l.y, l.w, l.h)
            })
            .collect();
        assert_eq!(
            layouts,
            [(0, 0, 3, 3), (0, 3, 6, 8), (6, 3, 6, 8), (0, 11, 6, 8)]
        );
        let days: Vec<Option<i64>> = composed.spec.widgets.iter().map(|w| w.days).collect();
        assert_eq!(days, [None, Some(90), Some(90), Some(90)]);
        assert_eq!(composed.spec.check(), Ok(()));
    }

    #[test]
    fn windows_in_words() {
        for (prompt, days, term) in [
            ("revenue 2 weeks", 7 * 2, "2 weeks"),
            ("revenue quarterly", 90, "quarterly"),
            ("revenue this year", 365, "year"),
            ("revenue 5000 days", 365, "5000 days"),
            ("revenue 0 days", 1, "0 days"),
        ] {
            let composed = compose(prompt);
            assert_eq!(composed.spec.widgets[1].days, Some(days), "{prompt}");
            assert_eq!(composed.matched, ["revenue", term], "{prompt}");
        }
        // Tiles read 30 days whatever the prompt says: the window is not claimed.
        let composed = compose("CAC for the last 90 days");
        assert_eq!(composed.matched, ["cac"]);
        assert_eq!(composed.spec.widgets[0].days, None);
    }

    #[test]
    fn the_same_prompt_gives_the_same_spec() {
        let prompt = "Ads, signups, revenue, payback, LTV, leads, visits and the queue";
        assert_eq!(compose(prompt), compose(prompt));
        assert_eq!(compose(prompt), compose(&prompt.to_uppercase()));
    }

    #[test]
    fn nothing_matched_gives_a_note() {
        let composed = compose("hello there, 90 days");
        assert!(composed.matched.is_empty());
        assert_eq!(composed.name, "New dashboard");
        assert_eq!(ids(&composed), ["note"]);
        assert_eq!(composed.spec.check(), Ok(()));
    }

    #[test]
    fn the_whole_vocabulary_fits_one_spec() {
        let every: Vec<&str> = VOCABULARY.iter().map(|(term, _)| *term).collect();
        let composed = compose(&every.join(" | "));
        assert_eq!(composed.spec.check(), Ok(()));
        assert!(composed.spec.widgets.len() <= MAX_WIDGETS);
        assert_eq!(composed.matched.len(), VOCABULARY.len());
        assert!(composed.name.ends_with("and more"), "{}", composed.name);
        for (term, topic) in VOCABULARY {
            assert!(Topic::parse(topic).is_some(), "{term}: {topic}");
        }
    }
}
