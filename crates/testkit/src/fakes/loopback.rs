//! Serving a fake on `127.0.0.1:0` for as long as the test holds it.

use axum::Router;
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

/// A port taken on loopback, not serving yet: a fake whose answers carry its own origin (paging
/// links) learns it before building its state and routes.
pub(crate) struct Loopback {
    listener: TcpListener,
    origin: String,
}

impl Loopback {
    /// Takes a free port; `fake` names the fake in the panic when that fails.
    pub async fn bind(fake: &str) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .unwrap_or_else(|error| panic!("bind the fake {fake} on loopback: {error}"));
        let address = listener
            .local_addr()
            .unwrap_or_else(|error| panic!("the fake {fake}'s address: {error}"));
        Self {
            listener,
            origin: format!("http://{address}"),
        }
    }

    /// `http://127.0.0.1:PORT`.
    pub fn origin(&self) -> &str {
        &self.origin
    }

    /// Answers with `app` until the returned server is dropped.
    pub fn serve(self, app: Router) -> LoopbackServer {
        let task = tokio::spawn(async move {
            let _ = axum::serve(self.listener, app).await;
        });
        LoopbackServer {
            origin: self.origin,
            task,
        }
    }
}

/// A fake answering on loopback; the server stops when this is dropped, so a test's fakes end
/// with it.
#[derive(Debug)]
pub(crate) struct LoopbackServer {
    origin: String,
    task: JoinHandle<()>,
}

impl LoopbackServer {
    /// Binds a free port and answers with `app` (for fakes that need not know their origin first).
    pub async fn spawn(fake: &str, app: Router) -> Self {
        Loopback::bind(fake).await.serve(app)
    }

    /// `http://127.0.0.1:PORT`.
    pub fn origin(&self) -> &str {
        &self.origin
    }

    /// The `Debug` of the fake holding this server: its name and where it listens.
    pub fn describe(&self, fake: &str, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct(fake)
            .field("base", &self.origin)
            .finish_non_exhaustive()
    }
}

impl Drop for LoopbackServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}
