//! A minimal SMTP server on loopback that accepts every message and keeps its DATA, so the
//! `smtp://` transport is tested against a real SMTP conversation.

use std::sync::{Arc, Mutex};

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

#[derive(Debug, Clone, Default)]
pub struct SmtpSink {
    messages: Arc<Mutex<Vec<String>>>,
    pub port: u16,
}

impl SmtpSink {
    pub async fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind smtp");
        let port = listener.local_addr().expect("smtp addr").port();
        let sink = SmtpSink {
            messages: Arc::default(),
            port,
        };
        let messages = sink.messages.clone();
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let messages = messages.clone();
                tokio::spawn(async move {
                    let _ = converse(stream, messages).await;
                });
            }
        });
        sink
    }

    /// The DATA of every message received so far.
    pub fn messages(&self) -> Vec<String> {
        self.messages.lock().map(|m| m.clone()).unwrap_or_default()
    }
}

async fn converse(
    stream: tokio::net::TcpStream,
    messages: Arc<Mutex<Vec<String>>>,
) -> std::io::Result<()> {
    let (read, mut write) = stream.into_split();
    let mut lines = BufReader::new(read).lines();
    write.write_all(b"220 sink.test ESMTP\r\n").await?;
    while let Some(line) = lines.next_line().await? {
        let verb = line
            .split_whitespace()
            .next()
            .unwrap_or_default()
            .to_ascii_uppercase();
        match verb.as_str() {
            "EHLO" | "HELO" => {
                write
                    .write_all(b"250-sink.test\r\n250 8BITMIME\r\n")
                    .await?
            }
            "MAIL" | "RCPT" | "RSET" | "NOOP" => write.write_all(b"250 OK\r\n").await?,
            "DATA" => {
                write.write_all(b"354 end with .\r\n").await?;
                let mut data = String::new();
                while let Some(line) = lines.next_line().await? {
                    if line == "." {
                        break;
                    }
                    data.push_str(&line);
                    data.push('\n');
                }
                if let Ok(mut all) = messages.lock() {
                    all.push(data);
                }
                write.write_all(b"250 queued\r\n").await?;
            }
            "QUIT" => {
                write.write_all(b"221 bye\r\n").await?;
                break;
            }
            _ => write.write_all(b"502 not implemented\r\n").await?,
        }
    }
    Ok(())
}
