//! The client side of MCP's HTTP transports, sans-IO: Streamable HTTP (2025-03-26 on),
//! falling back to HTTP+SSE (2024-11-05).
//!
//! (Module documentation with the driving loop follows once the API settles.)

mod config;
mod decide;
mod drain;
mod event;
mod exchange;
mod input;
mod outgoing;
mod request;
mod state;
mod text;
mod url;

pub use config::{
    ClientConfig, ConfigError, DEFAULT_ENDPOINT_URL_CAPACITY, DEFAULT_TOKEN_CAPACITY, MIN_SLOT, Reconnect,
    TransportMode,
};
pub use event::{
    Event, Expiry, Failure, HttpMisbehavior, LostReason, Output, Received, RetryError, SendError, TokenError, Transport,
};
pub use exchange::{ExchangeId, ExchangeKind, HttpMethod};
pub use request::{HttpRequest, MAX_REQUEST_HEADERS};
pub use state::HttpClient;
pub use url::{Url, UrlError};
