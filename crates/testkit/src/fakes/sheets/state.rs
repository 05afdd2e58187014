//! The fake's memory: the access tokens it issued (with their scopes), the spreadsheets and their
//! permissions, the failures a test scheduled, and every request.

use std::collections::{BTreeMap, HashMap};

use axum::http::StatusCode;
use axum::response::Response;
use serde_json::Value;

use crate::fakes::recorder::{Recorded, RecordedRequest, RequestLog};
use crate::fakes::schedule::FailureSchedule;

/// One permission on a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Permission {
    pub id: String,
    pub role: String,
    pub kind: String,
    pub email: String,
}

/// One spreadsheet.
#[derive(Debug, Clone, PartialEq)]
pub struct Spreadsheet {
    pub id: String,
    pub title: String,
    /// Sheet titles in order.
    pub sheets: Vec<String>,
    /// Each sheet's rows, as written.
    pub values: BTreeMap<String, Vec<Vec<Value>>>,
    pub permissions: Vec<Permission>,
    /// The service account that created it (its owner).
    pub owner: String,
}

#[derive(Debug)]
pub(crate) struct State {
    /// The token endpoint's own URL: the audience assertions must name.
    pub token_url: String,
    /// Access token -> (service account, scopes).
    pub tokens: HashMap<String, (String, Vec<String>)>,
    pub spreadsheets: BTreeMap<String, Spreadsheet>,
    pub created: Vec<String>,
    pub next_id: u64,
    pub schedule: FailureSchedule<StatusCode>,
    pub log: RequestLog,
}

impl State {
    pub fn new(token_url: String) -> Self {
        Self {
            token_url,
            tokens: HashMap::new(),
            spreadsheets: BTreeMap::new(),
            created: Vec::new(),
            next_id: 0,
            schedule: FailureSchedule::default(),
            log: RequestLog::default(),
        }
    }
}

impl Recorded for State {
    const BODY_LIMIT: usize = 8 * 1024 * 1024;

    fn log(&mut self) -> &mut RequestLog {
        &mut self.log
    }

    fn scheduled_answer(&mut self, request: &RecordedRequest) -> Option<Response> {
        let status = self.schedule.take(&request.path)?;
        Some(super::api::google_error(
            status,
            "The fake was told to fail this request.",
        ))
    }
}
