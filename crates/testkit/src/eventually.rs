//! Waiting for work the server does in the background (a sync now answers before its run
//! ends): read again until the answer is the one expected, or give up and hand back the last
//! read for the test's own assertion to report.

use std::future::Future;
use std::time::Duration;

/// How many reads, and how far apart: five seconds in all.
const READS: usize = 100;
const PAUSE: Duration = Duration::from_millis(50);

/// Reads with `read` until `done` holds of the answer, at most [`READS`] times [`PAUSE`]
/// apart; answers the last read either way.
pub async fn eventually<T, F, Fut>(mut read: F, done: impl Fn(&T) -> bool) -> T
where
    F: FnMut() -> Fut,
    Fut: Future<Output = T>,
{
    let mut answer = read().await;
    for _ in 1..READS {
        if done(&answer) {
            break;
        }
        tokio::time::sleep(PAUSE).await;
        answer = read().await;
    }
    answer
}
