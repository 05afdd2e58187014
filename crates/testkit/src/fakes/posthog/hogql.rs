//! The HogQL statements the fake evaluates: the shapes PostHog's query API receives from
//! Payback's runs, recognised by their tables and `GROUP BY`, each bounded by the two
//! `toDateTime('YYYY-MM-DD HH:MM:SS')` instants of its `WHERE` and filtered by `event IN
//! ('...')` where it has one. Anything else answers `None` (a 400 `validation_error`).

use std::collections::BTreeMap;

use payback_domain::Timestamp;
use serde_json::{Value, json};

use super::{Event, Session};

type Table = (Vec<&'static str>, Vec<Vec<Value>>);

/// The columns and rows of `query`, or `None` for a statement the fake does not know.
pub(crate) fn run(query: &str, sessions: &[Session], events: &[Event]) -> Option<Table> {
    let (from, to) = bounds(query)?;
    let inside = |at: Timestamp| at >= from && at < to;
    if query.contains("FROM sessions") && query.contains("$entry_pathname") {
        let mut counts: BTreeMap<(String, String), i64> = BTreeMap::new();
        for session in sessions.iter().filter(|session| inside(session.started_at)) {
            *counts
                .entry((session.started_at.day(), session.entry_path.clone()))
                .or_default() += 1;
        }
        let rows = counts
            .into_iter()
            .map(|((day, path), count)| vec![json!(day), json!(path), json!(count)])
            .collect();
        return Some((vec!["day", "path", "sessions"], rows));
    }
    if !query.contains("FROM events") {
        return None;
    }
    let names = event_list(query)?;
    let chosen = events
        .iter()
        .filter(|event| inside(event.at) && names.contains(&event.event));
    if query.contains("GROUP BY event, day, path") {
        let mut counts: BTreeMap<(String, String, Option<String>), i64> = BTreeMap::new();
        for event in chosen {
            *counts
                .entry((event.event.clone(), event.at.day(), event.pathname.clone()))
                .or_default() += 1;
        }
        let rows = counts
            .into_iter()
            .map(|((event, day, path), count)| {
                vec![json!(event), json!(day), json!(path), json!(count)]
            })
            .collect();
        return Some((vec!["event", "day", "path", "count"], rows));
    }
    if query.contains("GROUP BY event, day") {
        let mut counts: BTreeMap<(String, String), i64> = BTreeMap::new();
        for event in chosen {
            *counts
                .entry((event.event.clone(), event.at.day()))
                .or_default() += 1;
        }
        let rows = counts
            .into_iter()
            .map(|((event, day), count)| vec![json!(event), json!(day), json!(count)])
            .collect();
        return Some((vec!["event", "day", "count"], rows));
    }
    if query.contains("GROUP BY session_id, event") {
        let mut pairs: BTreeMap<(Option<String>, String), ()> = BTreeMap::new();
        for event in chosen {
            pairs.insert((event.session_id.clone(), event.event.clone()), ());
        }
        let rows = pairs
            .into_keys()
            .map(|(session, event)| vec![json!(session), json!(event)])
            .collect();
        return Some((vec!["session_id", "event"], rows));
    }
    None
}

/// The statement's trailing `LIMIT n` (none when it sets no limit) and `OFFSET m` (0).
pub(crate) fn limit_and_offset(query: &str) -> (Option<usize>, usize) {
    let number_after = |word: &str| {
        let at = query.rfind(word)? + word.len();
        query[at..].split_whitespace().next()?.parse::<usize>().ok()
    };
    (
        number_after(" LIMIT "),
        number_after(" OFFSET ").unwrap_or(0),
    )
}

/// The two `toDateTime('...')` instants, in order.
fn bounds(query: &str) -> Option<(Timestamp, Timestamp)> {
    let mut found = query.split("toDateTime('").skip(1).filter_map(|rest| {
        let text = rest.get(..19)?;
        Timestamp::parse_rfc3339(&format!("{}Z", text.replace(' ', "T")))
    });
    Some((found.next()?, found.next()?))
}

/// The names of `event IN ('a', 'b\'c')`, unescaped.
fn event_list(query: &str) -> Option<Vec<String>> {
    let start = query.find("event IN (")? + "event IN (".len();
    let mut names = Vec::new();
    let mut chars = query[start..].chars();
    loop {
        match chars.next()? {
            ')' => return Some(names),
            '\'' => {
                let mut name = String::new();
                loop {
                    match chars.next()? {
                        '\\' => name.push(chars.next()?),
                        '\'' => break,
                        c => name.push(c),
                    }
                }
                names.push(name);
            }
            _ => {}
        }
    }
}
