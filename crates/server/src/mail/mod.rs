//! Outgoing mail through the configured transport: `log` (recipient and subject only, since
//! bodies carry single-use links), `file:DIR` (one RFC 5322 `.eml` per message) or
//! `smtp://user:pass@host:port`.

pub mod messages;

use std::path::PathBuf;

use lettre::message::Mailbox;
use lettre::{AsyncFileTransport, AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use crate::error::ApiError;

pub use messages::Mail;

#[derive(Clone, Debug)]
enum Transport {
    Log,
    File(AsyncFileTransport<Tokio1Executor>),
    Smtp(AsyncSmtpTransport<Tokio1Executor>),
}

#[derive(Clone, Debug)]
pub struct Mailer {
    from: Mailbox,
    transport: Transport,
}

impl Mailer {
    /// Builds the transport named by `PAYBACK_MAIL`.
    pub fn from_config(spec: &str, from: &str) -> Result<Self, ApiError> {
        let from: Mailbox = from
            .parse()
            .map_err(|err| ApiError::Config(format!("mail_from: {err}")))?;
        let transport = if spec == "log" {
            Transport::Log
        } else if let Some(dir) = spec.strip_prefix("file:") {
            let dir = PathBuf::from(dir);
            std::fs::create_dir_all(&dir).map_err(|err| {
                ApiError::Config(format!("mail: cannot create {}: {err}", dir.display()))
            })?;
            Transport::File(AsyncFileTransport::new(dir))
        } else if spec.starts_with("smtp://") || spec.starts_with("smtps://") {
            let smtp = AsyncSmtpTransport::<Tokio1Executor>::from_url(spec)
                .map_err(|err| ApiError::Config(format!("mail: invalid SMTP URL: {err}")))?
                .build();
            Transport::Smtp(smtp)
        } else {
            return Err(ApiError::Config(
                "mail: expected log, file:DIR or smtp://user:pass@host:port".to_owned(),
            ));
        };
        Ok(Self { from, transport })
    }

    /// Sends a message. Delivery problems are logged, never surfaced to the caller: the link a
    /// mail carries is also available through the API (invites) or can be sent again.
    pub async fn send(&self, mail: Mail) {
        if let Err(err) = self.try_send(&mail).await {
            tracing::warn!(to = %mail.to, subject = %mail.subject, error = %err, "mail not delivered");
        }
    }

    async fn try_send(&self, mail: &Mail) -> Result<(), String> {
        if let Transport::Log = self.transport {
            tracing::info!(to = %mail.to, subject = %mail.subject, "mail (log transport; set PAYBACK_MAIL=file:DIR to keep bodies)");
            return Ok(());
        }
        let to: Mailbox = mail
            .to
            .parse()
            .map_err(|err| format!("bad recipient: {err}"))?;
        let message = Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(&mail.subject)
            .body(mail.body.clone())
            .map_err(|err| err.to_string())?;
        match &self.transport {
            Transport::Log => Ok(()),
            Transport::File(file) => file
                .send(message)
                .await
                .map(drop)
                .map_err(|err| err.to_string()),
            Transport::Smtp(smtp) => smtp
                .send(message)
                .await
                .map(drop)
                .map_err(|err| err.to_string()),
        }
    }
}
