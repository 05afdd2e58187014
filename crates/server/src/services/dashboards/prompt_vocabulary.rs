//! The composer's vocabulary (`composer.rs`): the terms a dashboard prompt may use, the topic
//! each names and the widgets each topic gives, and how a prompt's words are read into terms
//! and windows.

use payback_domain::dashboard_spec::{
    MAX_DAYS, WidgetMeasure, WidgetMetric, WidgetSeries, WidgetType,
};

/// What a prompt can ask for; each gives fixed widgets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Topic {
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
    pub(super) fn parse(word: &str) -> Option<Topic> {
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
    pub(super) fn label(self) -> &'static str {
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
    pub(super) fn widgets(self) -> Vec<Draft> {
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
pub(super) enum Draft {
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

/// The words of `prompt`: lower-cased runs of letters and digits.
pub(super) fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// The longest vocabulary term whose words start `rest`: (term, topic, words it spans).
pub(super) fn term_at(rest: &[String]) -> Option<(&'static str, Topic, usize)> {
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
pub(super) fn window_at(rest: &[String]) -> Option<(i64, String, usize)> {
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
