//! The three seeded tables a report can read, and which one answers a request's dimensions and
//! metrics (the tables are apart: a report mixing them is refused).

use super::state::Analytics;
use crate::fakes::day::Day;

/// Which seeded table a report reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Table {
    Sessions,
    Landing,
    Events,
}

/// A row of the seeded table: its dimension values by name, its metric values by name.
pub(super) struct Fact {
    pub(super) dimensions: Vec<(&'static str, String)>,
    pub(super) metrics: Vec<(&'static str, u64)>,
}

pub(super) fn facts(
    analytics: &Analytics,
    table: Table,
    property: &str,
    first: Day,
    last: Day,
) -> Vec<Fact> {
    let within = |p: &str, d: Day| p == property && d >= first && d <= last;
    match table {
        Table::Sessions => analytics
            .sessions
            .iter()
            .filter(|((p, d, _, _), _)| within(p, *d))
            .map(|((_, d, source, medium), (sessions, engaged))| Fact {
                dimensions: vec![
                    ("date", ga_date(*d)),
                    ("sessionSource", source.clone()),
                    ("sessionMedium", medium.clone()),
                ],
                metrics: vec![("sessions", *sessions), ("engagedSessions", *engaged)],
            })
            .collect(),
        Table::Landing => analytics
            .landing
            .iter()
            .filter(|((p, d, _), _)| within(p, *d))
            .map(|((_, d, page), sessions)| Fact {
                dimensions: vec![("date", ga_date(*d)), ("landingPage", page.clone())],
                metrics: vec![("sessions", *sessions)],
            })
            .collect(),
        Table::Events => analytics
            .events
            .iter()
            .filter(|((p, d, _), _)| within(p, *d))
            .map(|((_, d, name), count)| Fact {
                dimensions: vec![("date", ga_date(*d)), ("eventName", name.clone())],
                metrics: vec![("eventCount", *count)],
            })
            .collect(),
    }
}

/// A day as GA4's `date` dimension writes it: `YYYYMMDD`.
fn ga_date(day: Day) -> String {
    day.to_string().replace('-', "")
}

/// The table that can answer `dimensions` and `metrics`, if one can.
pub(super) fn table_for(dimensions: &[String], metrics: &[String]) -> Result<Table, String> {
    let known_dimension = [
        "date",
        "sessionSource",
        "sessionMedium",
        "landingPage",
        "eventName",
    ];
    let known_metric = ["sessions", "engagedSessions", "eventCount"];
    if let Some(unknown) = dimensions
        .iter()
        .find(|d| !known_dimension.contains(&d.as_str()))
    {
        return Err(format!(
            "Field {unknown} is not a valid dimension. For a list of valid dimensions and metrics, see https://developers.google.com/analytics/devguides/reporting/data/v1/api-schema"
        ));
    }
    if let Some(unknown) = metrics.iter().find(|m| !known_metric.contains(&m.as_str())) {
        return Err(format!(
            "Field {unknown} is not a valid metric. For a list of valid dimensions and metrics, see https://developers.google.com/analytics/devguides/reporting/data/v1/api-schema"
        ));
    }
    let has = |name: &str| dimensions.iter().any(|d| d == name);
    let events = metrics.iter().any(|m| m == "eventCount") || has("eventName");
    let landing = has("landingPage");
    let sources = has("sessionSource") || has("sessionMedium");
    let table = match (events, landing, sources) {
        (true, false, false) => Table::Events,
        (false, true, false) => Table::Landing,
        (false, false, _) => Table::Sessions,
        _ => return Err("This fake answers sessions by date, source and medium, sessions by date and landing page, or event counts by date and name; not a mix of them".to_owned()),
    };
    if table == Table::Events && metrics.iter().any(|m| m != "eventCount") {
        return Err("This fake answers eventName with eventCount only".to_owned());
    }
    if table != Table::Events && metrics.iter().any(|m| m == "eventCount") {
        return Err("This fake answers eventCount by date and eventName only".to_owned());
    }
    Ok(table)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_mixing_tables_is_refused() {
        let s = |list: &[&str]| list.iter().map(|x| (*x).to_owned()).collect::<Vec<_>>();
        assert_eq!(
            table_for(&s(&["date", "sessionSource"]), &s(&["sessions"])),
            Ok(Table::Sessions)
        );
        assert_eq!(
            table_for(&s(&["date", "eventName"]), &s(&["eventCount"])),
            Ok(Table::Events)
        );
        assert!(table_for(&s(&["landingPage", "eventName"]), &s(&["sessions"])).is_err());
        assert!(table_for(&s(&["city"]), &s(&["sessions"])).is_err());
    }
}
