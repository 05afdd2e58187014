//! Credentials: random tokens with their prefixes, SHA-256 hashes for lookup, argon2id for
//! passwords.

use std::sync::Arc;
use std::time::Duration;

use argon2::Argon2;
use argon2::{PasswordHash, PasswordHasher, PasswordVerifier};
use rand::Rng;
use sha2::{Digest, Sha256};
use tokio::sync::Semaphore;

use crate::error::ApiError;

pub const SESSION_PREFIX: &str = "svc_sess_";
pub const API_KEY_PREFIX: &str = "svc_live_";
pub const WRITE_KEY_PREFIX: &str = "svc_pub_";

const BASE62: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// `prefix` followed by 32 random bytes in base62 (43 characters).
pub fn new_token(prefix: &str) -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    format!("{prefix}{}", base62(&bytes))
}

/// Base62 of a big-endian number, left-padded to the length 32 bytes always need.
fn base62(bytes: &[u8; 32]) -> String {
    let mut digits = bytes.to_vec();
    let mut out = Vec::with_capacity(43);
    while digits.iter().any(|d| *d != 0) {
        let mut remainder = 0u32;
        for digit in digits.iter_mut() {
            let acc = (remainder << 8) | u32::from(*digit);
            *digit = (acc / 62) as u8;
            remainder = acc % 62;
        }
        out.push(BASE62[remainder as usize]);
    }
    while out.len() < 43 {
        out.push(BASE62[0]);
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

/// Hex SHA-256: how sessions, API keys and one-time tokens are stored and looked up.
pub fn token_hash(token: &str) -> String {
    let digest = Sha256::digest(token.as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// Argon2id with the crate's recommended parameters. CPU-bound: runs on the blocking pool.
pub async fn hash_password(password: String) -> Result<String, ApiError> {
    tokio::task::spawn_blocking(move || {
        PasswordHasher::<PasswordHash>::hash_password(&Argon2::default(), password.as_bytes())
            .map(|hash| hash.to_string())
            .map_err(ApiError::internal)
    })
    .await
    .map_err(ApiError::internal)?
}

pub async fn verify_password(password: String, stored_hash: String) -> Result<bool, ApiError> {
    tokio::task::spawn_blocking(move || {
        Ok(Argon2::default()
            .verify_password(password.as_bytes(), stored_hash.as_str())
            .is_ok())
    })
    .await
    .map_err(ApiError::internal)?
}

/// Password hashing for request handlers, with a bound on how many hashes run at once.
///
/// Each argon2id hash takes about 19 MiB and tens of milliseconds of a core; public routes
/// (sign-up, login, claim, accept-invite) hash for anyone who asks, so without a bound a burst
/// from many addresses could exhaust memory and starve every other request. Callers beyond the
/// bound wait their turn for at most [`PASSWORD_QUEUE_WAIT`], then get a 503.
#[derive(Clone, Debug)]
pub struct Passwords {
    permits: Arc<Semaphore>,
    wait: Duration,
}

/// How long a request waits for a free hashing slot before it is told to try again.
pub const PASSWORD_QUEUE_WAIT: Duration = Duration::from_secs(10);

impl Passwords {
    /// At most `concurrent` hashes at once (at least one); a caller waits up to `wait`.
    pub fn new(concurrent: usize, wait: Duration) -> Self {
        Self {
            permits: Arc::new(Semaphore::new(concurrent.max(1))),
            wait,
        }
    }

    /// One slot per core (more would only make each hash slower), waiting up to
    /// [`PASSWORD_QUEUE_WAIT`].
    pub fn per_core() -> Self {
        let cores = std::thread::available_parallelism().map_or(2, usize::from);
        Self::new(cores, PASSWORD_QUEUE_WAIT)
    }

    /// One hashing slot, held until dropped (a 503 after the wait when none frees up).
    pub async fn slot(&self) -> Result<tokio::sync::SemaphorePermit<'_>, ApiError> {
        match tokio::time::timeout(self.wait, self.permits.acquire()).await {
            Ok(Ok(permit)) => Ok(permit),
            Ok(Err(closed)) => Err(ApiError::internal(closed)),
            Err(_) => Err(ApiError::ServiceUnavailable(
                "too many sign-ins at once; try again in a few seconds".to_owned(),
            )),
        }
    }

    pub async fn hash(&self, password: String) -> Result<String, ApiError> {
        let _slot = self.slot().await?;
        hash_password(password).await
    }

    pub async fn verify(&self, password: String, stored_hash: String) -> Result<bool, ApiError> {
        let _slot = self.slot().await?;
        verify_password(password, stored_hash).await
    }
}

/// Compares secrets without leaking where they differ through timing.
pub fn constant_time_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_carry_prefix_and_fixed_length() {
        let token = new_token(SESSION_PREFIX);
        assert!(token.starts_with(SESSION_PREFIX));
        assert_eq!(token.len(), SESSION_PREFIX.len() + 43);
        assert!(
            token[SESSION_PREFIX.len()..]
                .chars()
                .all(|c| c.is_ascii_alphanumeric())
        );
        assert_ne!(token, new_token(SESSION_PREFIX));
    }

    #[test]
    fn base62_of_extremes() {
        assert_eq!(base62(&[0u8; 32]), "0".repeat(43));
        let max = base62(&[255u8; 32]);
        assert_eq!(max.len(), 43);
    }

    #[test]
    fn hashes_are_hex_sha256() {
        assert_eq!(
            token_hash("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert!(constant_time_eq("same", "same"));
        assert!(!constant_time_eq("same", "sane"));
    }

    #[tokio::test]
    async fn hashing_beyond_the_bound_waits_for_a_slot() {
        let passwords = Passwords::new(1, PASSWORD_QUEUE_WAIT);
        let held = passwords.slot().await.unwrap();
        // With the only slot taken, a hash cannot start; once it is freed, it runs.
        let waiting = tokio::spawn({
            let passwords = passwords.clone();
            async move { passwords.hash("correct horse".to_owned()).await }
        });
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(!waiting.is_finished());
        drop(held);
        assert!(waiting.await.unwrap().unwrap().starts_with("$argon2id$"));
    }

    #[tokio::test]
    async fn a_full_queue_answers_503_after_the_wait() {
        let passwords = Passwords::new(1, Duration::from_millis(20));
        let _held = passwords.slot().await.unwrap();
        let refused = passwords
            .hash("correct horse".to_owned())
            .await
            .unwrap_err();
        assert!(
            matches!(refused, ApiError::ServiceUnavailable(_)),
            "{refused:?}"
        );
    }

    #[tokio::test]
    async fn passwords_verify_only_themselves() {
        let hash = hash_password("correct horse".to_owned()).await.unwrap();
        assert!(hash.starts_with("$argon2id$"));
        assert!(
            verify_password("correct horse".to_owned(), hash.clone())
                .await
                .unwrap()
        );
        assert!(
            !verify_password("wrong horse!".to_owned(), hash)
                .await
                .unwrap()
        );
    }
}
