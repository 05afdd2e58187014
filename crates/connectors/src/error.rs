//! The one error type of the connectors.

/// Why a connector call failed. Messages never carry credentials.
#[derive(Debug, thiserror::Error)]
pub enum ConnectorError {
    /// The vendor refused the credentials (401/403).
    #[error("the credentials were refused: {0}")]
    Unauthorized(String),
    /// The vendor kept answering 429 after the retries.
    #[error("rate limited by the vendor: {0}")]
    RateLimited(String),
    /// The vendor answered with an error or a shape we do not understand.
    #[error("the vendor answered: {0}")]
    Vendor(String),
    /// The vendor could not be reached.
    #[error("could not reach the vendor: {0}")]
    Unreachable(String),
    /// The connection's configuration cannot work (a currency mismatch, a missing field).
    #[error("{0}")]
    Config(String),
}
