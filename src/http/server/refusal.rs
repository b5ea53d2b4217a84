//! Every way the core refuses a request, with its status and the response it writes.
//!
//! Refusals of requests to the MCP endpoints carry an id-less JSON-RPC error body
//! (`"id": null` up to 2025-06-18, no `id` from 2025-11-25, as the session layer does),
//! which the specification allows on every HTTP error and which clients show to users;
//! a request for another path gets a bare 404.

use core::fmt;

use super::config::ServerConfig;
use super::modern::HeaderMismatch;
use super::response::{BufferTooSmall, Response, ResponseWriter};
use crate::ProtocolVersion;
use crate::http::headers::write_challenge;
use crate::wire::{ErrorCode, ErrorId, FrameWriter, Rule};

/// JSON-RPC code of transport-level refusals (the TypeScript SDK's choice).
pub const TRANSPORT_ERROR: ErrorCode = ErrorCode(-32000);

/// JSON-RPC code of the 404 for an unknown or ended session (the TypeScript SDK's).
pub const SESSION_NOT_FOUND: ErrorCode = ErrorCode(-32001);

/// What is wrong with a request the core answers 400.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum BadRequest {
    /// A field that must appear once appeared twice (its name).
    DuplicateField(&'static str),
    /// `Host` is missing (HTTP/1.1 requires it; an HTTP/2 adapter passes `:authority`).
    MissingHost,
    /// `Host` is not a valid host.
    MalformedHost,
    /// `Content-Length` is not a number.
    MalformedContentLength,
    /// `Mcp-Session-Id` is not 1 to 256 visible ASCII characters.
    MalformedSessionId,
    /// A request other than `initialize` came without `Mcp-Session-Id`.
    MissingSessionId,
    /// `MCP-Protocol-Version` names no published version.
    UnknownProtocolVersion,
    /// `MCP-Protocol-Version` names a version this server does not serve.
    UnsupportedProtocolVersion,
    /// The session negotiated 2025-06-18 or later and the header is missing.
    MissingProtocolVersion,
    /// The header names another version than the session negotiated.
    ProtocolVersionMismatch,
    /// `Last-Event-ID` is not visible ASCII, or names no event of this session.
    MalformedLastEventId,
    /// The body is not valid JSON (-32700).
    InvalidJson,
    /// The body is JSON but not a valid message for this session (-32600).
    InvalidMessage(Rule),
    /// `initialize` in a batch, which 2025-03-26 forbids (-32600).
    InitializeInBatch,
    /// A 2026-07-28 request's standard headers are missing or disagree with its body
    /// (-32020, see [`check_modern_headers`](super::check_modern_headers)).
    HeaderMismatch(HeaderMismatch),
}

impl BadRequest {
    fn code(self) -> ErrorCode {
        match self {
            Self::InvalidJson => ErrorCode::PARSE_ERROR,
            Self::InvalidMessage(_) | Self::InitializeInBatch => ErrorCode::INVALID_REQUEST,
            Self::HeaderMismatch(_) => ErrorCode::HEADER_MISMATCH,
            _ => TRANSPORT_ERROR,
        }
    }

    fn message(self) -> &'static str {
        match self {
            Self::DuplicateField(_) => "Bad Request: a header that must appear once appears twice",
            Self::MissingHost => "Bad Request: missing Host header",
            Self::MalformedHost => "Bad Request: malformed Host header",
            Self::MalformedContentLength => "Bad Request: malformed Content-Length",
            Self::MalformedSessionId => "Bad Request: malformed Mcp-Session-Id",
            Self::MissingSessionId => "Bad Request: Mcp-Session-Id header is required",
            Self::UnknownProtocolVersion => "Bad Request: unknown MCP-Protocol-Version",
            Self::UnsupportedProtocolVersion => "Bad Request: unsupported MCP-Protocol-Version",
            Self::MissingProtocolVersion => "Bad Request: MCP-Protocol-Version header is required",
            Self::ProtocolVersionMismatch => "Bad Request: MCP-Protocol-Version differs from the negotiated version",
            Self::MalformedLastEventId => "Bad Request: malformed Last-Event-ID",
            Self::InvalidJson => "Parse error: the body is not valid JSON",
            Self::InvalidMessage(rule) => rule.describe(),
            Self::InitializeInBatch => "initialize must not be part of a batch",
            Self::HeaderMismatch(m) => m.message(),
        }
    }
}

/// How the application judged the request's credentials (see
/// [`RequestHead::bearer_token`](super::RequestHead::bearer_token)).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum AuthVerdict<'r> {
    /// Let it in (also the verdict of a server without authorization).
    #[default]
    Allow,
    /// No token, or a token that is invalid or expired: 401 with a Bearer challenge.
    Unauthorized {
        /// RFC 6750 `error`, such as `"invalid_token"` (`None` when no token was sent).
        error: Option<&'r str>,
        /// `error_description`.
        description: Option<&'r str>,
    },
    /// A valid token without the scopes this request needs: 403
    /// `error="insufficient_scope"` naming `scope` (the configured scope when `None`).
    InsufficientScope {
        /// The scopes needed.
        scope: Option<&'r str>,
        /// `error_description`.
        description: Option<&'r str>,
    },
}

/// Why the core refused a request, which decides the response.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum Refusal<'r> {
    /// No endpoint at this path: 404 with no body.
    NoSuchPath,
    /// The method is not served there: 405 with `Allow`.
    MethodNotAllowed {
        /// The `Allow` value.
        allow: &'static str,
    },
    /// 400.
    BadRequest(BadRequest),
    /// `Host` is not one this server answers to (DNS rebinding): 403.
    HostNotAllowed,
    /// `Origin` is present and not allowed: 403.
    OriginNotAllowed,
    /// The application refused the credentials: 401 or 403 with `WWW-Authenticate`.
    Auth(AuthVerdict<'r>),
    /// `Accept` does not allow what the response must be: 406.
    NotAcceptable,
    /// The body is not `application/json`: 415.
    UnsupportedMediaType,
    /// The body is longer than the configured cap: 413, before reading it. The adapter
    /// should close the connection rather than read the body.
    BodyTooLarge,
    /// The session is unknown, ended or expired: 404; the client starts a new one.
    SessionNotFound,
    /// No session can be added now: 503 with `Retry-After`.
    Busy,
}

impl fmt::Display for Refusal<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.status(), self.message())
    }
}

impl Refusal<'_> {
    /// The status code.
    pub fn status(&self) -> u16 {
        match self {
            Self::NoSuchPath | Self::SessionNotFound => 404,
            Self::MethodNotAllowed { .. } => 405,
            Self::BadRequest(_) => 400,
            Self::HostNotAllowed | Self::OriginNotAllowed => 403,
            Self::Auth(AuthVerdict::InsufficientScope { .. }) => 403,
            Self::Auth(_) => 401,
            Self::NotAcceptable => 406,
            Self::UnsupportedMediaType => 415,
            Self::BodyTooLarge => 413,
            Self::Busy => 503,
        }
    }

    /// Whether the adapter should close the connection after the response instead of
    /// reading (and discarding) the request's body.
    pub fn closes_connection(&self) -> bool {
        matches!(self, Self::BodyTooLarge)
    }

    fn code(&self) -> ErrorCode {
        match self {
            Self::BadRequest(b) => b.code(),
            Self::SessionNotFound => SESSION_NOT_FOUND,
            _ => TRANSPORT_ERROR,
        }
    }

    /// The error message of the JSON-RPC body.
    pub fn message(&self) -> &'static str {
        match self {
            Self::NoSuchPath => "Not Found",
            Self::MethodNotAllowed { .. } => "Method Not Allowed",
            Self::BadRequest(b) => b.message(),
            Self::HostNotAllowed => "Forbidden: Host not allowed",
            Self::OriginNotAllowed => "Forbidden: Origin not allowed",
            Self::Auth(AuthVerdict::InsufficientScope { .. }) => "Forbidden: insufficient scope",
            Self::Auth(_) => "Unauthorized",
            Self::NotAcceptable => "Not Acceptable: the client must accept both application/json and text/event-stream",
            Self::UnsupportedMediaType => "Unsupported Media Type: Content-Type must be application/json",
            Self::BodyTooLarge => "Content Too Large",
            Self::SessionNotFound => "Session not found",
            Self::Busy => "Service Unavailable: too many sessions",
        }
    }

    /// Writes the response into `out`. `version` decides the form of the id-less
    /// error (`null` or omitted); `None` (not known yet) writes `null`.
    pub fn write<'o, 'a>(
        &'a self,
        config: &'a ServerConfig<'a>,
        version: Option<ProtocolVersion>,
        out: &'o mut [u8],
    ) -> Result<Response<'o>, BufferTooSmall> {
        let mut w = ResponseWriter::new(out, self.status());
        match self {
            Self::NoSuchPath => return w.finish(),
            Self::MethodNotAllowed { allow } => {
                w.header("Allow", allow.as_bytes());
            }
            Self::Busy => {
                w.header_u64("Retry-After", u64::from(config.retry_after_secs));
            }
            Self::Auth(verdict) => {
                let mut params: [(&str, &str); 4] = [("", ""); 4];
                let mut n = 0;
                let mut push = |name: &'static str, value: Option<&'a str>| {
                    if let Some(v) = value {
                        params[n] = (name, v);
                        n += 1;
                    }
                };
                match verdict {
                    AuthVerdict::InsufficientScope { scope, description } => {
                        push("error", Some("insufficient_scope"));
                        push("scope", scope.or(config.auth.scope));
                        push("resource_metadata", config.auth.resource_metadata);
                        push("error_description", *description);
                    }
                    AuthVerdict::Unauthorized { error, description } => {
                        push("resource_metadata", config.auth.resource_metadata);
                        push("scope", config.auth.scope);
                        push("error", *error);
                        push("error_description", *description);
                    }
                    AuthVerdict::Allow => {}
                }
                w.header_with("WWW-Authenticate", |buf| {
                    write_challenge(buf, "Bearer", &params[..n]).map_err(|e| match e {
                        crate::http::headers::HeaderWriteError::BufferTooSmall { needed, .. } => needed,
                        // Text a header cannot carry: the challenge goes without it.
                        _ => 0,
                    })
                });
            }
            _ => {}
        }
        w.header("Content-Type", b"application/json");
        let id = if version.is_some_and(ProtocolVersion::error_id_optional) { ErrorId::Omitted } else { ErrorId::Null };
        let (code, message) = (self.code(), self.message());
        w.finish_with(|buf| {
            let mut fw = FrameWriter::unterminated(buf);
            match fw.error(id, code, message) {
                Ok(range) => Ok(range.len()),
                Err(crate::wire::EncodeError::BufferTooSmall { needed, .. }) => Err(needed),
                Err(_) => Ok(0),
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(r: Refusal<'_>, config: &ServerConfig<'_>, v: Option<ProtocolVersion>) -> std::string::String {
        let mut out = [0u8; 1024];
        let resp = r.write(config, v, &mut out).unwrap();
        std::format!(
            "{} {}{}",
            resp.status,
            core::str::from_utf8(resp.field_lines()).unwrap(),
            core::str::from_utf8(resp.body).unwrap()
        )
    }

    #[test]
    fn bodies_and_fields() {
        let c = ServerConfig::new();
        assert_eq!(written(Refusal::NoSuchPath, &c, None), "404 ");
        assert_eq!(
            written(Refusal::MethodNotAllowed { allow: "GET, POST, DELETE" }, &c, None),
            "405 Allow: GET, POST, DELETE\r\nContent-Type: application/json\r\n\
             {\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32000,\"message\":\"Method Not Allowed\"}}"
        );
        assert_eq!(
            written(Refusal::SessionNotFound, &c, Some(ProtocolVersion::V2025_11_25)),
            "404 Content-Type: application/json\r\n\
             {\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32001,\"message\":\"Session not found\"}}"
        );
        assert!(written(Refusal::Busy, &c, None).starts_with("503 Retry-After: 5\r\n"));
        assert!(written(Refusal::BadRequest(BadRequest::InvalidJson), &c, None).contains("\"code\":-32700"));
        let mismatch = Refusal::BadRequest(BadRequest::HeaderMismatch(HeaderMismatch::MissingMethod));
        assert_eq!(
            written(mismatch, &c, Some(ProtocolVersion::V2026_07_28)),
            "400 Content-Type: application/json\r\n\
             {\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32020,\"message\":\"Header mismatch: Mcp-Method header is required\"}}"
        );
    }

    #[test]
    fn challenges() {
        let mut c = ServerConfig::new();
        c.auth.resource_metadata = Some("https://mcp.example/.well-known/oauth-protected-resource");
        c.auth.scope = Some("mcp:tools");
        let r = Refusal::Auth(AuthVerdict::Unauthorized { error: Some("invalid_token"), description: None });
        assert!(written(r, &c, None).starts_with(
            "401 WWW-Authenticate: Bearer resource_metadata=\"https://mcp.example/.well-known/oauth-protected-resource\", \
             scope=\"mcp:tools\", error=\"invalid_token\"\r\n"
        ));
        let r = Refusal::Auth(AuthVerdict::InsufficientScope {
            scope: Some("files:write"),
            description: Some("need \"w\""),
        });
        assert!(written(r, &c, None).starts_with(
            "403 WWW-Authenticate: Bearer error=\"insufficient_scope\", scope=\"files:write\", \
             resource_metadata=\"https://mcp.example/.well-known/oauth-protected-resource\", error_description=\"need \\\"w\\\"\"\r\n"
        ));
        let bare = Refusal::Auth(AuthVerdict::Unauthorized { error: None, description: None });
        assert!(written(bare, &ServerConfig::new(), None).starts_with("401 WWW-Authenticate: Bearer\r\n"));
    }

    #[test]
    fn small_buffer() {
        let mut out = [0u8; 40];
        let e = Refusal::SessionNotFound.write(&ServerConfig::new(), None, &mut out).unwrap_err();
        assert_eq!(e.capacity, 40);
        assert!(e.needed > 40);
        let mut exact = std::vec![0u8; e.needed];
        assert!(Refusal::SessionNotFound.write(&ServerConfig::new(), None, &mut exact).is_ok());
    }
}
