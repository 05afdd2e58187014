//! Credentials at rest: sealed with XChaCha20-Poly1305 under `PAYBACK_SECRET_KEY` (base64 of 32
//! bytes). The account id is the associated data, so a sealed blob copied into another account's
//! rows does not open. Nothing here logs or formats a plaintext.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use chacha20poly1305::aead::{Aead, AeadCore, KeyInit, OsRng, Payload};
use chacha20poly1305::{XChaCha20Poly1305, XNonce};
use payback_store::connections::SealedCredential;

use crate::error::ApiError;

pub struct CredentialBox {
    cipher: XChaCha20Poly1305,
}

impl std::fmt::Debug for CredentialBox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CredentialBox([redacted])")
    }
}

impl CredentialBox {
    /// The box for a configured key; a key that is not base64 of exactly 32 bytes stops the
    /// service at start rather than failing on the first connect.
    pub fn from_key(base64_key: &str) -> Result<Self, ApiError> {
        let bytes = STANDARD.decode(base64_key.trim()).map_err(|_| {
            ApiError::Config("PAYBACK_SECRET_KEY must be base64 of 32 random bytes".to_owned())
        })?;
        let cipher = XChaCha20Poly1305::new_from_slice(&bytes).map_err(|_| {
            ApiError::Config(format!(
                "PAYBACK_SECRET_KEY must decode to 32 bytes, not {}",
                bytes.len()
            ))
        })?;
        Ok(Self { cipher })
    }

    pub fn seal(&self, account_id: &str, plaintext: &[u8]) -> Result<SealedCredential, ApiError> {
        let nonce = XChaCha20Poly1305::generate_nonce(&mut OsRng);
        let ciphertext = self
            .cipher
            .encrypt(
                &nonce,
                Payload {
                    msg: plaintext,
                    aad: account_id.as_bytes(),
                },
            )
            .map_err(|_| ApiError::internal("sealing a credential failed"))?;
        Ok(SealedCredential {
            nonce: nonce.to_vec(),
            ciphertext,
        })
    }

    pub fn open(&self, account_id: &str, sealed: &SealedCredential) -> Result<Vec<u8>, ApiError> {
        let nonce: [u8; 24] = sealed
            .nonce
            .as_slice()
            .try_into()
            .map_err(|_| ApiError::internal("a stored credential has a malformed nonce"))?;
        self.cipher
            .decrypt(
                &XNonce::from(nonce),
                Payload {
                    msg: &sealed.ciphertext,
                    aad: account_id.as_bytes(),
                },
            )
            .map_err(|_| {
                ApiError::internal(
                    "a stored credential does not open: was PAYBACK_SECRET_KEY changed?",
                )
            })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn sample_key() -> String {
        STANDARD.encode([7_u8; 32])
    }

    #[test]
    fn sealed_credentials_open_only_for_their_account() {
        let vault = CredentialBox::from_key(&sample_key()).unwrap();
        let sealed = vault.seal("acct-1", b"sk_test_secret").unwrap();
        assert!(
            !sealed
                .ciphertext
                .windows(14)
                .any(|w| w == b"sk_test_secret")
        );
        assert_eq!(vault.open("acct-1", &sealed).unwrap(), b"sk_test_secret");
        assert!(vault.open("acct-2", &sealed).is_err());
    }

    #[test]
    fn keys_must_be_base64_of_32_bytes() {
        assert!(CredentialBox::from_key("not base64!").is_err());
        assert!(CredentialBox::from_key(&STANDARD.encode([1_u8; 16])).is_err());
        assert!(
            format!("{:?}", CredentialBox::from_key(&sample_key()).unwrap()).contains("redacted")
        );
    }
}
