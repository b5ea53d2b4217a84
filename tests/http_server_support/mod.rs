//! An `HttpServer` in this process, on its own thread and a free loopback port, with a
//! small handler (every request answered at once), stopped when dropped; the request
//! helpers are the hostile-input tests' (raw HTTP/1.1, nothing trusted).

use std::net::{SocketAddr, TcpListener};
use std::sync::mpsc;
use std::thread::JoinHandle;

use mcp_sansio::adapters::app::{Context, Handler};
use mcp_sansio::adapters::http::server::{HttpServer, ServerOptions, Stopper};
use mcp_sansio::mcp::{Implementation, ListChanged, Method, Role, ServerCapabilities};
use mcp_sansio::session::{Config, Event};
use mcp_sansio::wire::{ErrorCode, RawJson};

#[path = "../http_hostile/support.rs"]
#[allow(dead_code)]
pub mod raw;

pub use raw::{INITIALIZE, Raw, Resp, Session, Target, open_session, post, post_head};

/// Answers `tools/list` (one tool), `tools/call` of `echo` (its `message` back, or
/// `size` bytes of `x`, or an error whose `data` is `fail_size` bytes of `x`), and
/// everything else with -32601.
pub struct Echo;

impl Handler for Echo {
    type Message = ();

    fn on_event(&mut self, cx: &mut Context<'_, ()>, event: Event<'_>) {
        let Event::Request(mut req) = event else { return };
        match req.method {
            Method::ToolsList => {
                cx.reply(
                    &mut req,
                    &RawJson::from_static(r#"{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]}"#),
                );
            }
            Method::ToolsCall => {
                let args = req.params.and_then(|p| p.get("arguments"));
                if let Some(n) = args.and_then(|a| a.get("fail_size")).and_then(|s| s.as_u64()) {
                    let data = "x".repeat(n as usize);
                    cx.reply_error_data(&mut req, ErrorCode::INVALID_PARAMS, "failed", Some(&data));
                    return;
                }
                let size = args.and_then(|a| a.get("size")).and_then(|s| s.as_u64());
                let text = match size {
                    Some(n) => "x".repeat(n as usize),
                    None => {
                        args.and_then(|a| a.get("message")).and_then(|m| m.decode::<String>().ok()).unwrap_or_default()
                    }
                };
                let result = serde_json::json!({"content":[{"type":"text","text":text}]});
                cx.reply(&mut req, &result);
            }
            _ => {
                cx.reply_error(&mut req, ErrorCode::METHOD_NOT_FOUND, "Method not found");
            }
        }
    }
}

/// The running server.
pub struct Served {
    pub target: Target,
    stopper: Stopper,
    thread: Option<JoinHandle<()>>,
}

impl Served {
    /// Serves `Echo` with the options `make` builds for the address it will listen on.
    pub fn start(make: impl FnOnce(SocketAddr) -> ServerOptions<'static> + Send + 'static) -> Served {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
        let addr = listener.local_addr().unwrap();
        let (tx, rx) = mpsc::channel();
        let thread = std::thread::spawn(move || {
            let config = Config::new(Role::Server, Implementation::new("http-test", "0.1.0"))
                .capabilities(ServerCapabilities::new().tools(ListChanged::NO));
            let mut server: HttpServer<'static, Echo> =
                HttpServer::with_listener(listener, config, make(addr)).expect("the server starts");
            tx.send(server.stopper()).unwrap();
            server.run(&mut Echo).expect("the server runs");
        });
        let stopper = rx.recv().expect("the server started");
        Served { target: Target { addr, path: "/mcp".into() }, stopper, thread: Some(thread) }
    }

    pub fn connect(&self) -> Raw {
        self.target.connect()
    }

    /// Sends `request` (a whole request's bytes) on a new connection; the answer.
    pub fn once(&self, request: &str) -> Resp {
        let mut raw = self.connect();
        raw.send(request.as_bytes()).unwrap();
        raw.response().unwrap_or_else(|e| panic!("no answer to {request:?}: {e}"))
    }
}

impl std::ops::Deref for Served {
    type Target = Target;
    fn deref(&self) -> &Target {
        &self.target
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        self.stopper.stop();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
