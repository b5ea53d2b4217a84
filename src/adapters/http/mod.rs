//! HTTP transports over TCP (feature `http`): [`client::HttpClientLoop`] runs an MCP
//! client session over Streamable HTTP or the legacy HTTP+SSE transport, on the sans-IO
//! core in [`crate::http::client`].

pub mod client;
