//! Beating a lease's heartbeat while the work it guards runs (`payback_domain::lease`): an
//! approved budget change being asked of its network, a job, a sync run. The beat is part of
//! the work's own future, so when the work goes (it ends, its request is dropped, its process
//! dies) the beating stops with it, and another instance takes the lease once the heartbeat is
//! dead.
//!
//! Beats follow the state's clock (`state.clock.now()`), not the timer: the timer only looks
//! often whether the clock has moved a beat's length since the last one. On the wall clock that
//! is a beat every 15 seconds; under a test's manual clock a live holder beats as soon as the
//! test moves the clock, and never while it stands still.

use std::future::Future;
use std::time::Duration;

use payback_domain::lease::HEARTBEAT_EVERY_MS;
use payback_domain::{Clock, Timestamp};
use payback_store::error::StoreResult;

/// How often the clock is looked at; a beat costs a write only when one is due.
const LOOK_EVERY: Duration = Duration::from_millis(250);

/// Runs `work` to its end, calling `beat(now)` whenever the clock has moved
/// [`HEARTBEAT_EVERY_MS`] since the lease was taken (`since`) or last beat. `beat` answers whether
/// the lease is still held; once it is not (another holder took it over), beating stops and the
/// work goes on to its end: its outcome is fenced off where it is booked. `what` names the lease
/// in the log.
pub async fn while_beating<W, B, F>(
    clock: &dyn Clock,
    since: Timestamp,
    what: &str,
    work: W,
    mut beat: B,
) -> W::Output
where
    W: Future,
    B: FnMut(Timestamp) -> F,
    F: Future<Output = StoreResult<bool>>,
{
    tokio::pin!(work);
    let mut last = since;
    let mut held = true;
    let mut look = tokio::time::interval(LOOK_EVERY);
    look.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            biased;
            done = &mut work => return done,
            _ = look.tick(), if held => {
                let now = clock.now();
                if now.millis() - last.millis() < HEARTBEAT_EVERY_MS {
                    continue;
                }
                match beat(now).await {
                    Ok(true) => last = now,
                    Ok(false) => {
                        tracing::warn!(lease = what, "lease taken over while its work ran; its outcome will not be booked");
                        held = false;
                    }
                    // A beat that fails is tried again at the next look: the lease lives until
                    // three beats are missed.
                    Err(error) => tracing::warn!(lease = what, %error, "heartbeat not written"),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::{Arc, Mutex};

    use payback_domain::ManualClock;

    use super::*;

    #[tokio::test]
    async fn beats_when_the_clock_moves_a_beat_and_stops_with_the_work() {
        let start = Timestamp::from_millis(1_000_000);
        let clock = ManualClock::starting_at(start);
        let beats = Arc::new(Mutex::new(Vec::new()));
        let (finish, finished) = tokio::sync::oneshot::channel::<()>();
        let seen = Arc::clone(&beats);
        let mover = clock.clone();
        let driver = async move {
            // The clock standing still: no beat.
            tokio::time::sleep(LOOK_EVERY * 3).await;
            mover.advance(10_000);
            tokio::time::sleep(LOOK_EVERY * 3).await;
            mover.advance(10_000);
            tokio::time::sleep(LOOK_EVERY * 3).await;
            let _ = finish.send(());
        };
        let work = async move {
            let _ = finished.await;
            "done"
        };
        let (out, ()) = tokio::join!(
            while_beating(&clock, start, "test", work, |now| {
                let seen = Arc::clone(&seen);
                async move {
                    seen.lock().unwrap().push(now);
                    Ok(true)
                }
            }),
            driver
        );
        assert_eq!(out, "done");
        // 10 s moved: not a beat's length; 20 s: one beat.
        assert_eq!(*beats.lock().unwrap(), vec![start.plus_millis(20_000)]);
    }

    #[tokio::test]
    async fn stops_beating_once_the_lease_is_lost() {
        let start = Timestamp::from_millis(1_000_000);
        let clock = ManualClock::starting_at(start);
        let calls = Arc::new(AtomicUsize::new(0));
        let counted = Arc::clone(&calls);
        let mover = clock.clone();
        let work = async move {
            for _ in 0..3 {
                mover.advance(HEARTBEAT_EVERY_MS);
                tokio::time::sleep(LOOK_EVERY * 2).await;
            }
        };
        while_beating(&clock, start, "test", work, |_| {
            counted.fetch_add(1, Ordering::SeqCst);
            async { Ok(false) }
        })
        .await;
        assert_eq!(calls.load(Ordering::SeqCst), 1);
    }
}
