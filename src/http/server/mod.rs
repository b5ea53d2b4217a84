//! The Streamable HTTP and legacy HTTP+SSE server core.

mod body;
mod classify;
mod config;
mod log;
mod mac;
mod refusal;
mod request;
mod response;
mod session_id;
mod streams;
mod table;

pub use body::{PostBody, classify_body};
pub use classify::{Classified, RequestKind, classify};
pub use config::{
    AuthChallenge, DEFAULT_IDLE_TIMEOUT, DEFAULT_KEEPALIVE, DEFAULT_MAX_BODY, DEFAULT_RETRY_MS, HostPolicy,
    JsonResponses, OriginPolicy, ServerConfig,
};
pub use refusal::{AuthVerdict, BadRequest, Refusal, SESSION_NOT_FOUND, TRANSPORT_ERROR};
pub use request::{Headers, RequestHead};
pub use response::{BufferTooSmall, MIN_RESPONSE_BUFFER, Response, reason};
pub use session_id::{IdMinter, MAX_SESSION_ID_LEN, SIGNED_ID_LEN, SessionId, SessionKey, SessionTicket};
pub use streams::{BodyKind, GET_STREAM, OpenError, PushError, ReadOutcome, StreamConfig, StreamOutput, Streams};
pub use table::{Entry, Lookup, SessionHandle, SessionStore, SessionTable, Slots};
