//! Minimal servers on the official Rust SDK (rmcp), one echo tool, written the way its
//! documentation shows (`#[tool_router]`, `#[tokio::main]`, `StreamableHttpService` on axum).
//!
//!     rmcp-echo-server                 stdio: serve(stdio_pipes()), non-blocking pipes on
//!                                      Linux, which rmcp recommends when both are pipes
//!     rmcp-echo-server --stdio         stdio: serve(stdio()), tokio's blocking handles
//!     rmcp-echo-server --http ADDR     Streamable HTTP at /mcp on ADDR (e.g. 127.0.0.1:0),
//!                                      rmcp's defaults: stateful sessions
//!                                      (LocalSessionManager), every POST answered with an
//!                                      SSE stream (priming event, then the response)
//!     rmcp-echo-server --http ADDR --json
//!                                      the same with `json_response`, which rmcp honours
//!                                      only without sessions (`legacy_session_mode: false`):
//!                                      stateless, answers application/json
//!
//! TCP_NODELAY is set on every connection (without it, rmcp served as its examples show
//! answers each SSE response about 40 ms late at one request in flight: Nagle against the
//! client's delayed ACK). In HTTP mode it prints `listening on http://ADDR` (the bound address) on stderr when
//! ready and serves until killed.

use std::sync::Arc;

use axum::serve::ListenerExt;

use rmcp::handler::server::{router::tool::ToolRouter, wrapper::Parameters};
use rmcp::model::{ServerCapabilities, ServerConfig};
use rmcp::transport::streamable_http_server::{
    StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
};
use rmcp::transport::{stdio, stdio_pipes};
use rmcp::{ServerHandler, ServiceExt, tool, tool_handler, tool_router};

#[derive(Debug, Clone)]
struct Echo {
    #[allow(dead_code)]
    tool_router: ToolRouter<Self>,
}

#[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
struct EchoRequest {
    /// What to echo.
    message: String,
}

#[tool_router]
impl Echo {
    fn new() -> Self {
        Self { tool_router: Self::tool_router() }
    }

    #[tool(description = "Echoes the message back")]
    async fn echo(&self, Parameters(EchoRequest { message }): Parameters<EchoRequest>) -> String {
        message
    }
}

#[tool_handler]
impl ServerHandler for Echo {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}

async fn serve_http(addr: &str, json: bool) -> Result<(), Box<dyn std::error::Error>> {
    let config = if json {
        StreamableHttpServerConfig::default().with_legacy_session_mode(false).with_json_response(true)
    } else {
        StreamableHttpServerConfig::default()
    };
    let service = StreamableHttpService::new(|| Ok(Echo::new()), Arc::new(LocalSessionManager::default()), config);
    let router = axum::Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let local = listener.local_addr()?;
    // TCP_NODELAY, as axum's documentation shows for latency-sensitive servers: without it
    // an SSE answer (head, then the event, then the end as separate writes) waits out the
    // client's delayed ACK (about 40 ms) at one request in flight.
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    eprintln!("listening on http://{local}");
    axum::serve(listener, router).await?;
    Ok(())
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "--http") {
        let addr = args.get(i + 1).ok_or("--http needs an address, e.g. 127.0.0.1:3000")?;
        return serve_http(addr, args.iter().any(|a| a == "--json")).await;
    }
    let service = if args.iter().any(|a| a == "--stdio") {
        Echo::new().serve(stdio()).await?
    } else {
        Echo::new().serve(stdio_pipes()).await?
    };
    service.waiting().await?;
    Ok(())
}
