//! The Streamable HTTP and legacy HTTP+SSE server core.

mod classify;
mod config;
mod refusal;
mod request;
mod response;

pub use classify::{Classified, RequestKind, classify};
pub use config::{
    AuthChallenge, DEFAULT_IDLE_TIMEOUT, DEFAULT_KEEPALIVE, DEFAULT_MAX_BODY, DEFAULT_RETRY_MS, HostPolicy,
    JsonResponses, OriginPolicy, ServerConfig,
};
pub use refusal::{AuthVerdict, BadRequest, Refusal, SESSION_NOT_FOUND, TRANSPORT_ERROR};
pub use request::{Headers, RequestHead};
pub use response::{BufferTooSmall, MIN_RESPONSE_BUFFER, Response, reason};
