//! The log lines a test's app writes, captured on the test's own thread (`#[tokio::test]` runs
//! the app there), so a test can look for a secret in them without a process-wide subscriber.

use std::io::Write;
use std::sync::{Arc, Mutex};

use tracing_subscriber::util::SubscriberInitExt;

/// Every log line written on this test's thread while the guard lives (`#[tokio::test]` runs
/// the app on the test's own thread), so a test can look for a secret in them.
pub struct LogCapture {
    lines: Arc<Mutex<Vec<u8>>>,
    /// The subscriber's guard (`tracing`'s `DefaultGuard`): the capture ends when dropped.
    _guard: Box<dyn std::any::Any>,
}

#[derive(Clone)]
struct Sink(Arc<Mutex<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl LogCapture {
    pub fn start() -> Self {
        let lines = Arc::new(Mutex::new(Vec::new()));
        let sink = Sink(lines.clone());
        let subscriber = tracing_subscriber::fmt()
            .with_env_filter("debug")
            .with_writer(move || sink.clone())
            .with_ansi(false)
            .finish();
        Self {
            lines,
            _guard: Box::new(subscriber.set_default()),
        }
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.lines.lock().unwrap()).into_owned()
    }
}
