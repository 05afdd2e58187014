//! A stand-in for a replica set's primary on loopback that announces a second member: every
//! `hello` it answers names the member's port among the set's hosts, as a tenant's server (or
//! one answering for it) could name an address next to the API host. The member's listener only
//! counts the connections it accepts, so a test can see whether a driver followed the
//! announcement. The primary speaks just enough of the wire protocol (`OP_QUERY` for the first
//! handshake, `OP_MSG` after) for a ping and an empty `listCollections`. Shared with the
//! server's tests.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use bson::{Bson, DateTime, Document, doc};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

const OP_REPLY: i32 = 1;
const OP_QUERY: i32 = 2004;
const OP_MSG: i32 = 2013;

pub struct FakeReplicaSet {
    pub primary_port: u16,
    pub member_port: u16,
    member_connections: Arc<AtomicUsize>,
}

impl FakeReplicaSet {
    /// Starts both listeners on the current runtime; they live as long as it does.
    pub async fn start() -> Self {
        let primary = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let member = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let primary_port = primary.local_addr().expect("address").port();
        let member_port = member.local_addr().expect("address").port();
        let member_connections = Arc::new(AtomicUsize::new(0));
        let counter = Arc::clone(&member_connections);
        tokio::spawn(async move {
            while let Ok((stream, _)) = member.accept().await {
                counter.fetch_add(1, Ordering::SeqCst);
                drop(stream);
            }
        });
        let hosts = vec![
            format!("127.0.0.1:{primary_port}"),
            format!("127.0.0.1:{member_port}"),
        ];
        tokio::spawn(async move {
            while let Ok((stream, _)) = primary.accept().await {
                tokio::spawn(answer(stream, hosts.clone()));
            }
        });
        Self {
            primary_port,
            member_port,
            member_connections,
        }
    }

    /// `mongodb://127.0.0.1:<primary>/<database>`.
    pub fn uri(&self, database: &str) -> String {
        format!("mongodb://127.0.0.1:{}/{database}", self.primary_port)
    }

    /// How many connections the announced member has accepted.
    pub fn member_connections(&self) -> usize {
        self.member_connections.load(Ordering::SeqCst)
    }
}

/// Answers one connection's messages until it closes.
async fn answer(mut stream: TcpStream, hosts: Vec<String>) {
    let mut next_id = 1;
    loop {
        let mut header = [0_u8; 16];
        if stream.read_exact(&mut header).await.is_err() {
            return;
        }
        let word = |at: usize| {
            i32::from_le_bytes([header[at], header[at + 1], header[at + 2], header[at + 3]])
        };
        let (length, request_id, op_code) = (word(0), word(4), word(12));
        let mut body = vec![0_u8; usize::try_from(length).unwrap_or(16).saturating_sub(16)];
        if stream.read_exact(&mut body).await.is_err() {
            return;
        }
        let (command, reply_op) = match op_code {
            // flags, a C string (the collection), skip, count, then the query document.
            OP_QUERY => {
                let name_end = 4 + body[4..].iter().position(|b| *b == 0).unwrap_or(0);
                (document(&body[name_end + 9..]), OP_REPLY)
            }
            // flags, then a kind-0 section: the command document.
            OP_MSG => (document(&body[5..]), OP_MSG),
            _ => return,
        };
        let reply = reply_to(&command, &hosts);
        let mut bytes = Vec::new();
        reply.to_writer(&mut bytes).expect("a document");
        let mut payload = Vec::new();
        if reply_op == OP_REPLY {
            payload.extend_from_slice(&0_i32.to_le_bytes()); // response flags
            payload.extend_from_slice(&0_i64.to_le_bytes()); // cursor id
            payload.extend_from_slice(&0_i32.to_le_bytes()); // starting from
            payload.extend_from_slice(&1_i32.to_le_bytes()); // documents returned
        } else {
            payload.extend_from_slice(&0_u32.to_le_bytes()); // flags
            payload.push(0); // a kind-0 section
        }
        payload.extend_from_slice(&bytes);
        let total = i32::try_from(16 + payload.len()).expect("a small reply");
        let mut message = Vec::with_capacity(16 + payload.len());
        for word in [total, next_id, request_id, reply_op] {
            message.extend_from_slice(&word.to_le_bytes());
        }
        message.extend_from_slice(&payload);
        next_id += 1;
        if stream.write_all(&message).await.is_err() {
            return;
        }
    }
}

fn document(bytes: &[u8]) -> Document {
    Document::from_reader(bytes).unwrap_or_default()
}

fn reply_to(command: &Document, hosts: &[String]) -> Document {
    let name = command.keys().next().map(String::as_str).unwrap_or("");
    match name.to_ascii_lowercase().as_str() {
        "hello" | "ismaster" => doc! {
            "helloOk": true,
            "isWritablePrimary": true,
            "ismaster": true,
            "setName": "rs0",
            "setVersion": 1,
            "hosts": hosts.iter().cloned().map(Bson::String).collect::<Vec<_>>(),
            "primary": hosts[0].clone(),
            "me": hosts[0].clone(),
            "maxBsonObjectSize": 16_777_216,
            "maxMessageSizeBytes": 48_000_000,
            "maxWriteBatchSize": 100_000,
            "localTime": DateTime::now(),
            "logicalSessionTimeoutMinutes": 30,
            "connectionId": 1,
            "minWireVersion": 0,
            "maxWireVersion": 17,
            "readOnly": false,
            "ok": 1.0,
        },
        "listcollections" => {
            let database = command.get_str("$db").unwrap_or("test");
            doc! {
                "cursor": {
                    "id": 0_i64,
                    "ns": format!("{database}.$cmd.listCollections"),
                    "firstBatch": [],
                },
                "ok": 1.0,
            }
        }
        _ => doc! { "ok": 1.0 },
    }
}
