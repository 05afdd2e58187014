//! Failures a test schedules by path: "the next `times` requests whose path contains this answer
//! that failure", in the order they were scheduled.

#[derive(Debug, Clone)]
struct Scheduled<F> {
    path_contains: String,
    remaining: u32,
    fail: F,
}

/// The failures still to answer; `F` is the fake's own kind of failure.
#[derive(Debug, Clone)]
pub(crate) struct FailureSchedule<F>(Vec<Scheduled<F>>);

// Not derived: a derived `Default` would ask `F: Default`, which no failure kind is.
impl<F> Default for FailureSchedule<F> {
    fn default() -> Self {
        Self(Vec::new())
    }
}

impl<F: Copy> FailureSchedule<F> {
    /// The next `times` requests whose path contains `path_contains` answer `fail`.
    pub fn push(&mut self, path_contains: &str, times: u32, fail: F) {
        self.0.push(Scheduled {
            path_contains: path_contains.to_owned(),
            remaining: times,
            fail,
        });
    }

    /// The failure a request to `path` answers, if one is scheduled (the first scheduled that
    /// matches), counting it used.
    pub fn take(&mut self, path: &str) -> Option<F> {
        let found = self
            .0
            .iter_mut()
            .find(|s| s.remaining > 0 && path.contains(&s.path_contains));
        let fail = found.map(|scheduled| {
            scheduled.remaining -= 1;
            scheduled.fail
        });
        self.0.retain(|s| s.remaining > 0);
        fail
    }
}
