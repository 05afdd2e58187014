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

pub type StoreResult<T> = Result<T, StoreError>;
