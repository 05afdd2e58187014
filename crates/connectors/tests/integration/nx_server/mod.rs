//! nx-27017 (a MongoDB wire-protocol server on SQLite, from PyPI) on a free loopback port, one
//! per test binary, with in-memory databases. `scripts/docdb-setup` installs it; without it the
//! tests fail saying so.
//!
//! The server is started through a small Python wrapper that exits (removing its pid and log
//! directory) as soon as its stdin closes. The test binary holds the pipe's other end for its
//! whole life, so the server goes away with the binary however the binary ends.

use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// Starts nx-27017 on `sys.argv[1]` and stops it when stdin reaches its end.
const WRAPPER: &str = r#"
import os, shutil, sys, tempfile, threading
port = sys.argv[1]
home = tempfile.mkdtemp(prefix="payback-nx-")

def stop_when_the_tests_end():
    sys.stdin.buffer.read()
    shutil.rmtree(home, ignore_errors=True)
    os._exit(0)

threading.Thread(target=stop_when_the_tests_end, daemon=True).start()
sys.argv = ["nx-27017", "--host", "127.0.0.1", "--port", port, "--data-dir", "memory",
            "--pid-file", os.path.join(home, "nx.pid"), "--log-file", os.path.join(home, "nx.log")]
from nx_27017.nx_27017 import main
main()
"#;

pub struct NxServer {
    pub port: u16,
    /// Kept for its stdin: the server lives as long as this pipe is open.
    _child: Mutex<Child>,
}

impl NxServer {
    /// `mongodb://127.0.0.1:<port>/<database>`.
    pub fn uri(&self, database: &str) -> String {
        format!("mongodb://127.0.0.1:{}/{database}", self.port)
    }
}

/// The binary's server, started on first use.
pub fn server() -> &'static NxServer {
    static SERVER: OnceLock<NxServer> = OnceLock::new();
    SERVER.get_or_init(start)
}

fn start() -> NxServer {
    require_installed();
    let port = free_port();
    let mut child = Command::new("python3")
        .arg("-c")
        .arg(WRAPPER)
        .arg(port.to_string())
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("python3 starts");
    let address = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    let started = Instant::now();
    loop {
        if TcpStream::connect_timeout(&address, Duration::from_millis(200)).is_ok() {
            break;
        }
        if let Some(status) = child.try_wait().expect("the server's status") {
            panic!("nx-27017 exited ({status}) before accepting connections on port {port}");
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "nx-27017 did not accept connections on port {port} within 30s"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    NxServer {
        port,
        _child: Mutex::new(child),
    }
}

fn require_installed() {
    let importable = Command::new("python3")
        .args(["-c", "import nx_27017"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success());
    assert!(
        importable,
        "nx-27017 is not installed: run scripts/docdb-setup (it installs the MongoDB \
         wire-protocol server the docdb tests run against)"
    );
}

/// A port nothing listens on right now.
pub fn free_port() -> u16 {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).expect("a free port");
    listener.local_addr().expect("its address").port()
}
