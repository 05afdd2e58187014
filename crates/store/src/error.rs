//! The store's failures, already sorted into what a caller can act on.

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// A uniqueness rule refused the write; the text names what is taken.
    #[error("{0}")]
    Conflict(String),
    #[error("could not open the database: {0}")]
    Connect(String),
    #[error("migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    /// A batch in the ingest inbox could not be written or read back as events.
    #[error("ingest inbox payload: {0}")]
    Payload(#[from] serde_json::Error),
    /// The ingest writer is gone: the service is shutting down.
    #[error("the event writer has stopped")]
    WriterStopped,
}

impl StoreError {
    /// Maps a unique-constraint violation to a [`StoreError::Conflict`] carrying `what`, and
    /// passes every other error through.
    pub fn conflict_on_unique(err: sqlx::Error, what: &str) -> Self {
        let unique = err
            .as_database_error()
            .is_some_and(|db| db.is_unique_violation());
        if unique {
            StoreError::Conflict(what.to_owned())
        } else {
            StoreError::Database(err)
        }
    }
}

impl StoreError {
    /// True when the database gave up on the transaction only because of another one running at
    /// the same time (PostgreSQL's deadlock and serialization failures, SQLite's busy or locked
    /// database): the whole transaction may simply be run again.
    pub fn is_transient(&self) -> bool {
        let StoreError::Database(err) = self else {
            return false;
        };
        err.as_database_error()
            .and_then(|db| db.code())
            .is_some_and(|code| matches!(code.as_ref(), "40P01" | "40001" | "5" | "6" | "517"))
    }
}

pub type StoreResult<T> = Result<T, StoreError>;
