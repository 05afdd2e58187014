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
    DashboardSpec, GRID_COLUMNS, MAX_DAYS, MAX_WIDGETS, Widget, WidgetLayout, WidgetMeasure,
    WidgetMetric, WidgetSeries, WidgetSize, WidgetType,
};
use serde::Serialize;
use utoipa::ToSchema;

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

/// What a prompt can ask for; each gives fixed widgets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Topic {
    Spend,
    Revenue,
    Customers,
    Cac,
    Ltv,
    LtvCac,
    Visits,
    Leads,
    Funnel,
    Payback,
    Queue,
    FirstTouch,
    LastTouch,
    ChannelSpend,
}

/// Every term the composer knows and the topic it names. Terms are matched word for word
/// (after lower-casing and splitting on anything but letters and digits, so `LTV:CAC` and
/// `ltv/cac` are the term `ltv:cac`); the longest term starting at a word wins.
pub const VOCABULARY: &[(&str, &str)] = &[
    // Spend.
    ("spend", "spend"),
    ("spending", "spend"),
    ("spent", "spend"),
    ("ad spend", "spend"),
    ("ads", "spend"),
    ("ad", "spend"),
    ("advertising", "spend"),
    ("budget", "spend"),
    ("budgets", "spend"),
    ("cost", "spend"),
    ("costs", "spend"),
    // Revenue.
    ("revenue", "revenue"),
    ("sales", "revenue"),
    ("income", "revenue"),
    ("mrr", "revenue"),
    ("arr", "revenue"),
    ("earnings", "revenue"),
    ("money", "revenue"),
    // Customers.
    ("customers", "customers"),
    ("customer", "customers"),
    ("buyers", "customers"),
    ("purchases", "customers"),
    ("conversions", "customers"),
    ("paying users", "customers"),
    // CAC.
    ("cac", "cac"),
    ("cpa", "cac"),
    ("cost per customer", "cac"),
    ("cost per acquisition", "cac"),
    ("cost per conversion", "cac"),
    ("acquisition cost", "cac"),
    ("customer acquisition cost", "cac"),
    // LTV.
    ("ltv", "ltv"),
    ("clv", "ltv"),
    ("lifetime value", "ltv"),
    ("customer lifetime value", "ltv"),
    // LTV:CAC.
    ("ltv:cac", "ltv_cac"),
    ("ltv to cac", "ltv_cac"),
    ("unit economics", "ltv_cac"),
    // Visits.
    ("visits", "visits"),
    ("visit", "visits"),
    ("visitors", "visits"),
    ("traffic", "visits"),
    ("sessions", "visits"),
    ("pageviews", "visits"),
    ("page views", "visits"),
    // Leads.
    ("leads", "leads"),
    ("lead", "leads"),
    ("prospects", "leads"),
    // The funnel (signups are one of its stages).
    ("funnel", "funnel"),
    ("signups", "funnel"),
    ("signup", "funnel"),
    ("sign ups", "funnel"),
    ("sign up", "funnel"),
    ("registrations", "funnel"),
    ("activation", "funnel"),
    ("conversion rate", "funnel"),
    ("drop off", "funnel"),
    ("stages", "funnel"),
    ("pipeline", "funnel"),
    // Payback.
    ("payback", "payback"),
    ("pay back", "payback"),
    ("paid back", "payback"),
    ("break even", "payback"),
    ("breakeven", "payback"),
    ("cohort", "payback"),
    ("cohorts", "payback"),
    ("roi", "payback"),
    ("roas", "payback"),
    ("return on ad spend", "payback"),
    // The approval queue.
    ("queue", "queue"),
    ("approvals", "queue"),
    ("approval", "queue"),
    ("proposals", "queue"),
    ("pending", "queue"),
    ("cards", "queue"),
    // Channels.
    ("channels", "first_touch"),
    ("channel", "first_touch"),
    ("attribution", "first_touch"),
    ("sources", "first_touch"),
    ("first touch", "first_touch"),
    ("breakdown", "first_touch"),
    ("last touch", "last_touch"),
    ("last click", "last_touch"),
    ("spend by channel", "channel_spend"),
    ("spend per channel", "channel_spend"),
    ("channel spend", "channel_spend"),
];

impl Topic {
    fn parse(word: &str) -> Option<Topic> {
        Some(match word {
            "spend" => Topic::Spend,
            "revenue" => Topic::Revenue,
            "customers" => Topic::Customers,
            "cac" => Topic::Cac,
            "ltv" => Topic::Ltv,
            "ltv_cac" => Topic::LtvCac,
            "visits" => Topic::Visits,
            "leads" => Topic::Leads,
            "funnel" => Topic::Funnel,
            "payback" => Topic::Payback,
            "queue" => Topic::Queue,
            "first_touch" => Topic::FirstTouch,
            "last_touch" => Topic::LastTouch,
            "channel_spend" => Topic::ChannelSpend,
            _ => return None,
        })
    }

    /// How the suggested name says it.
    fn label(self) -> &'static str {
        match self {
            Topic::Spend => "Spend",
            Topic::Revenue => "Revenue",
            Topic::Customers => "Customers",
            Topic::Cac => "CAC",
            Topic::Ltv => "LTV",
            Topic::LtvCac => "LTV:CAC",
            Topic::Visits => "Visits",
            Topic::Leads => "Leads",
            Topic::Funnel => "Funnel",
            Topic::Payback => "Payback",
            Topic::Queue => "Approvals",
            Topic::FirstTouch => "Channels",
            Topic::LastTouch => "Last touch",
            Topic::ChannelSpend => "Spend by channel",
        }
    }

    /// The topic's widgets: its metric tile (if any), then its chart (if any).
    fn widgets(self) -> Vec<Draft> {
        use WidgetMetric as M;
        use WidgetSeries as S;
        let tile =
            |id: &'static str, metric, title: &'static str| Draft::Tile { id, metric, title };
        let line = |id: &'static str, series, title: &'static str| Draft::Chart {
            id,
            kind: WidgetType::Timeseries,
            title,
            series: Some(series),
            measure: None,
        };
        let chart = |id: &'static str, kind, title: &'static str| Draft::Chart {
            id,
            kind,
            title,
            series: None,
            measure: None,
        };
        let split = |id: &'static str, measure, title: &'static str| Draft::Chart {
            id,
            kind: WidgetType::Breakdown,
            title,
            series: None,
            measure: Some(measure),
        };
        match self {
            Topic::Spend => vec![
                tile("spend-30d", M::Spend30d, "Spend, 30 days"),
                line("spend-daily", S::Spend, "Spend per day"),
            ],
            Topic::Revenue => vec![
                tile("revenue-30d", M::Revenue30d, "Revenue, 30 days"),
                line("revenue-daily", S::Revenue, "Revenue per day"),
            ],
            Topic::Customers => vec![
                tile("customers-30d", M::Customers30d, "Customers, 30 days"),
                line("customers-daily", S::Customers, "Customers per day"),
            ],
            Topic::Cac => vec![tile("cac", M::Cac, "CAC")],
            Topic::Ltv => vec![tile("ltv", M::Ltv, "LTV")],
            Topic::LtvCac => vec![tile("ltv-cac", M::LtvCac, "LTV:CAC")],
            Topic::Visits => vec![
                tile("visits-30d", M::Visits30d, "Visits, 30 days"),
                line("visits-daily", S::Visits, "Visits per day"),
            ],
            Topic::Leads => vec![
                tile("leads-30d", M::Leads30d, "Leads, 30 days"),
                line("leads-daily", S::Leads, "Leads per day"),
            ],
            Topic::Funnel => vec![chart("funnel", WidgetType::Funnel, "Funnel")],
            Topic::Payback => vec![chart("payback", WidgetType::Payback, "Payback")],
            Topic::Queue => vec![
                tile("pending-cards", M::PendingCards, "Pending approvals"),
                chart("queue", WidgetType::Queue, "Approval queue"),
            ],
            Topic::FirstTouch => vec![split(
                "channels-first-touch",
                WidgetMeasure::RevenueFirst,
                "Revenue by channel, first touch",
            )],
            Topic::LastTouch => vec![split(
                "channels-last-touch",
                WidgetMeasure::RevenueLast,
                "Revenue by channel, last touch",
            )],
            Topic::ChannelSpend => vec![split(
                "channels-spend",
                WidgetMeasure::Spend,
                "Spend by channel",
            )],
        }
    }
}

/// A widget before it is placed.
#[derive(Debug, Clone, Copy)]
enum Draft {
    /// A metric tile: 3 columns by 3 rows, four to a row.
    Tile {
        id: &'static str,
        metric: WidgetMetric,
        title: &'static str,
    },
    /// A chart: 6 columns by 8 rows, two to a row.
    Chart {
        id: &'static str,
        kind: WidgetType,
        title: &'static str,
        series: Option<WidgetSeries>,
        measure: Option<WidgetMeasure>,
    },
}

const TILE: (WidgetSize, i64) = (WidgetSize::Sm, 3);
const CHART: (WidgetSize, i64) = (WidgetSize::Md, 8);
const NOTE: (WidgetSize, i64) = (WidgetSize::Lg, 4);

/// What a prompt matching nothing gets: a note saying which words work.
pub const NOTHING_MATCHED: &str = "Nothing in the prompt matched a widget. Ask for spend, ads, \
    revenue, customers, CAC (cost per customer), LTV, LTV:CAC, visits, leads, signups, the \
    funnel, payback, channels (first or last touch) or the approval queue, optionally over a \
    window such as \"last 90 days\".";

/// The words of `prompt`: lower-cased runs of letters and digits.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// The longest vocabulary term whose words start `rest`: (term, topic, words it spans).
fn term_at(rest: &[String]) -> Option<(&'static str, Topic, usize)> {
    let mut best: Option<(&'static str, Topic, usize)> = None;
    for (term, topic) in VOCABULARY {
        let term_words = words(term);
        let fits = term_words.len() <= rest.len()
            && term_words.iter().zip(rest).all(|(want, have)| want == have);
        if fits && best.is_none_or(|(_, _, len)| term_words.len() > len) {
            best = Topic::parse(topic).map(|topic| (*term, topic, term_words.len()));
        }
    }
    best
}

/// A window starting `rest`: `N day(s)|week(s)|month(s)`, or a period word. Answers
/// (days, as the term reads, words spanned). Counts are clamped to 1-365.
fn window_at(rest: &[String]) -> Option<(i64, String, usize)> {
    let period = |word: &str| -> Option<i64> {
        Some(match word {
            "day" | "days" | "daily" => 1,
            "week" | "weeks" | "weekly" => 7,
            "month" | "months" | "monthly" => 30,
            "quarter" | "quarters" | "quarterly" => 90,
            "year" | "years" | "yearly" | "annual" | "annually" => 365,
            _ => return None,
        })
    };
    let first = rest.first()?;
    if let Ok(count) = first.parse::<i64>()
        && let Some(unit) = rest.get(1).filter(|unit| !unit.ends_with("ly"))
        && let Some(days) = period(unit)
    {
        let days = count.saturating_mul(days).clamp(1, MAX_DAYS);
        return Some((days, format!("{first} {unit}"), 2));
    }
    // A bare "day" or "daily" names no window worth drawing; the others stand for one unit.
    match period(first) {
        Some(days) if days > 1 => Some((days, first.clone(), 1)),
        _ => None,
    }
}

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
