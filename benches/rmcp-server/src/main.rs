//! A minimal stdio server on the official Rust SDK (rmcp), one echo tool, written the way
//! its documentation shows (`#[tool_router]`, `#[tokio::main]`).
//!
//!     rmcp-echo-server            serve(stdio_pipes()): non-blocking pipes on Linux, which
//!                                 rmcp recommends when both streams are pipes
//!     rmcp-echo-server --stdio    serve(stdio()): tokio's blocking stdin/stdout handles

use rmcp::handler::server::{router::tool::ToolRouter, wrapper::Parameters};
use rmcp::model::{ServerCapabilities, ServerConfig};
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

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let service = if std::env::args().any(|a| a == "--stdio") {
        Echo::new().serve(stdio()).await?
    } else {
        Echo::new().serve(stdio_pipes()).await?
    };
    service.waiting().await?;
    Ok(())
}
