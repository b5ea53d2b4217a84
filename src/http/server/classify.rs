//! The request-head classifier: everything decided before a byte of the body is read.
//!
//! The checks run in this order, and the first that fails decides the response:
//!
//! | # | check | refusal |
//! |---|---|---|
//! | 1 | the path is the MCP endpoint or a legacy endpoint | 404, no body |
//! | 2 | `Host` is present, once, valid, and allowed by [`HostPolicy`] | 400 / 403 |
//! | 3 | `Origin`, when present, is allowed by [`OriginPolicy`] | 403 |
//! | 4 | the method is served at that path | 405 + `Allow` |
//! | 5 | the application's [`AuthVerdict`] | 401 / 403 + `WWW-Authenticate` |
//! | 6 | `Accept` allows the response (POST: both JSON and SSE; GET: SSE) | 406 |
//! | 7 | POST: `Content-Type` is `application/json` (charset, if any, UTF-8) | 415 |
//! | 8 | POST: `Content-Length` is a number not above the cap | 400 / 413 |
//! | 9 | `Mcp-Session-Id` is well formed; GET, DELETE and legacy POSTs carry one | 400 |
//! | 10 | `MCP-Protocol-Version`, when present, names a version served | 400 |
//! | 11 | `Last-Event-ID`, when present, is well formed | 400 |
//!
//! Host and Origin come first: a request from a rebinding page learns nothing, not even
//! which methods exist. An absent `Accept` accepts everything (RFC 9110 §12.5.1), so a
//! client that sends none is served; one that excludes either type is not.
//!
//! What needs the session table (unknown session: 404; the version rules that depend on
//! the negotiated version) and the body comes after, in the server.

use super::config::{HostPolicy, OriginPolicy, ServerConfig};
use super::refusal::{AuthVerdict, BadRequest, Refusal};
use super::request::{Headers, RequestHead, query_param, single, trim};
use crate::ProtocolVersion;
use crate::http::headers::{Accept, HostPort, MediaType, Origin, last_event_id, protocol_version, session_id};

/// What a request asks for, once its head passed every check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum RequestKind {
    /// POST to the MCP endpoint: one message (or a 2025-03-26 batch) for a session, or
    /// an `initialize` that starts one.
    Post,
    /// GET on the MCP endpoint: open the session's standalone SSE stream, or resume a
    /// stream with `Last-Event-ID`.
    Get,
    /// DELETE on the MCP endpoint: end the session.
    Delete,
    /// GET on the legacy SSE path: start a 2024-11-05 HTTP+SSE session.
    LegacyGet,
    /// POST on the legacy message path: one message for a 2024-11-05 session.
    LegacyPost,
}

/// A request head that passed the checks, with the values the server acts on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Classified<'r> {
    /// What it asks for.
    pub kind: RequestKind,
    /// The session it names (`Mcp-Session-Id`, or the legacy POST's query parameter).
    pub session_id: Option<&'r str>,
    /// The `MCP-Protocol-Version` header, when present.
    pub protocol_version: Option<ProtocolVersion>,
    /// The `Last-Event-ID` header, when present and not empty.
    pub last_event_id: Option<&'r str>,
    /// The `Content-Length`, when given.
    pub content_length: Option<u64>,
}

const ALLOW_ALL: &str = "GET, POST, DELETE";
const ALLOW_NO_DELETE: &str = "GET, POST";
const ALLOW_NO_GET: &str = "POST, DELETE";
const ALLOW_POST: &str = "POST";
const ALLOW_GET: &str = "GET";

/// Classifies a request head: the route it takes, or the refusal it gets.
///
/// `auth` is the application's verdict on the request's credentials (read them with
/// [`RequestHead::bearer_token`]); pass [`AuthVerdict::Allow`] when the server has no
/// authorization. [`classify_with`] asks for the verdict only when it is needed.
pub fn classify<'r, H: Headers + ?Sized>(
    config: &ServerConfig<'_>,
    head: &RequestHead<'r, H>,
    auth: AuthVerdict<'r>,
) -> Result<Classified<'r>, Refusal<'r>> {
    classify_with(config, head, |_| auth)
}

/// [`classify`], asking `authorize` for the verdict at step 5, with the kind of request
/// the head is: only requests for an endpoint of this server, from an allowed `Host`
/// and `Origin`, with a method served there, reach the application's token check (a
/// DNS rebinding page or a scan of other paths never does), and the check can depend
/// on what is asked (say, a scope for DELETE). Not called when an earlier check fails.
pub fn classify_with<'r, H: Headers + ?Sized>(
    config: &ServerConfig<'_>,
    head: &RequestHead<'r, H>,
    authorize: impl FnOnce(RequestKind) -> AuthVerdict<'r>,
) -> Result<Classified<'r>, Refusal<'r>> {
    let path = head.path();
    let legacy_get = config.legacy_sse_path.is_some_and(|p| p == path);
    let legacy_post = config.legacy_sse_path.is_some() && path == config.legacy_post_path;
    if path != config.mcp_path && !legacy_get && !legacy_post {
        return Err(Refusal::NoSuchPath);
    }
    check_host(config, head.headers)?;
    check_origin(config, head.headers)?;
    let kind = match (head.method, legacy_get, legacy_post) {
        ("GET", true, _) => RequestKind::LegacyGet,
        (_, true, _) => return Err(Refusal::MethodNotAllowed { allow: ALLOW_GET }),
        ("POST", _, true) => RequestKind::LegacyPost,
        (_, _, true) => return Err(Refusal::MethodNotAllowed { allow: ALLOW_POST }),
        ("POST", ..) => RequestKind::Post,
        ("GET", ..) if config.get_stream => RequestKind::Get,
        ("DELETE", ..) if config.delete => RequestKind::Delete,
        _ => {
            let allow = match (config.get_stream, config.delete) {
                (true, true) => ALLOW_ALL,
                (true, false) => ALLOW_NO_DELETE,
                (false, true) => ALLOW_NO_GET,
                (false, false) => ALLOW_POST,
            };
            return Err(Refusal::MethodNotAllowed { allow });
        }
    };
    let auth = authorize(kind);
    if auth != AuthVerdict::Allow {
        return Err(Refusal::Auth(auth));
    }
    let posts = matches!(kind, RequestKind::Post | RequestKind::LegacyPost);
    check_accept(head.headers, kind)?;
    let mut content_length = None;
    if posts {
        check_content_type(head.headers)?;
        content_length = check_length(config, head.headers)?;
    }
    let raw_session = match kind {
        RequestKind::LegacyPost => {
            let query = head.query().unwrap_or("");
            let value = query_param(query, "sessionId").or_else(|| query_param(query, "session_id"));
            Some(value.ok_or(Refusal::BadRequest(BadRequest::MissingSessionId))?.as_bytes())
        }
        RequestKind::LegacyGet => None,
        _ => field(head.headers, "mcp-session-id")?,
    };
    let session = match raw_session {
        Some(v) => Some(session_id(v).map_err(|_| Refusal::BadRequest(BadRequest::MalformedSessionId))?),
        None => None,
    };
    if session.is_none() && matches!(kind, RequestKind::Get | RequestKind::Delete) {
        return Err(Refusal::BadRequest(BadRequest::MissingSessionId));
    }
    let protocol_version = match field(head.headers, "mcp-protocol-version")? {
        None => None,
        Some(v) => {
            let v = protocol_version(v).map_err(|_| Refusal::BadRequest(BadRequest::UnknownProtocolVersion))?;
            if !config.versions.contains(v) {
                return Err(Refusal::BadRequest(BadRequest::UnsupportedProtocolVersion));
            }
            Some(v)
        }
    };
    let last_event_id = match field(head.headers, "last-event-id")? {
        Some(v) if kind == RequestKind::Get => {
            let id = last_event_id(v).map_err(|_| Refusal::BadRequest(BadRequest::MalformedLastEventId))?;
            (!id.is_empty()).then_some(id)
        }
        _ => None,
    };
    Ok(Classified { kind, session_id: session, protocol_version, last_event_id, content_length })
}

/// The one value of a field that must appear at most once.
fn field<'h, H: Headers + ?Sized>(headers: &'h H, name: &'static str) -> Result<Option<&'h [u8]>, Refusal<'static>> {
    single(headers, name).map_err(|()| Refusal::BadRequest(BadRequest::DuplicateField(name)))
}

fn check_host<H: Headers + ?Sized>(config: &ServerConfig<'_>, headers: &H) -> Result<(), Refusal<'static>> {
    if config.hosts == HostPolicy::Any {
        return Ok(());
    }
    let value = field(headers, "host")?.ok_or(Refusal::BadRequest(BadRequest::MissingHost))?;
    let host = HostPort::parse(value).map_err(|_| Refusal::BadRequest(BadRequest::MalformedHost))?.host;
    let listed = match config.hosts {
        HostPolicy::Allowed(list) => {
            list.iter().any(|name| HostPort::parse(name.as_bytes()).is_ok_and(|allowed| allowed.host.same_as(&host)))
        }
        _ => false,
    };
    if host.is_loopback() || listed { Ok(()) } else { Err(Refusal::HostNotAllowed) }
}

fn check_origin<H: Headers + ?Sized>(config: &ServerConfig<'_>, headers: &H) -> Result<(), Refusal<'static>> {
    let OriginPolicy::Allowed { list, loopback } = config.origins else { return Ok(()) };
    let value = match single(headers, "origin") {
        Ok(None) => return Ok(()),
        Ok(Some(v)) => v,
        Err(()) => return Err(Refusal::OriginNotAllowed),
    };
    let Ok(origin) = Origin::parse(value) else { return Err(Refusal::OriginNotAllowed) };
    let listed = list.iter().any(|o| Origin::parse(o.as_bytes()).is_ok_and(|allowed| allowed.same_origin(&origin)));
    if listed || (loopback && origin.is_loopback()) { Ok(()) } else { Err(Refusal::OriginNotAllowed) }
}

fn check_accept<H: Headers + ?Sized>(headers: &H, kind: RequestKind) -> Result<(), Refusal<'static>> {
    if headers.value("accept", 0).is_none() {
        return Ok(());
    }
    // Several field lines form one list; a type is acceptable when some line allows it
    // (a close reading of RFC 9110 would merge the lines; clients send one).
    let allows = |t: &str, s: &str| {
        let mut any = false;
        let mut nth = 0;
        while let Some(v) = headers.value("accept", nth) {
            match Accept::parse(v) {
                Ok(a) => any |= a.allows(t, s),
                Err(_) => return None,
            }
            nth += 1;
        }
        Some(any)
    };
    let ok = match kind {
        RequestKind::Post => {
            allows("application", "json") == Some(true) && allows("text", "event-stream") == Some(true)
        }
        // Legacy POSTs are answered 202 with no body; their Accept does not matter.
        RequestKind::LegacyPost | RequestKind::Delete => true,
        RequestKind::Get | RequestKind::LegacyGet => allows("text", "event-stream") == Some(true),
    };
    if ok { Ok(()) } else { Err(Refusal::NotAcceptable) }
}

fn check_content_type<H: Headers + ?Sized>(headers: &H) -> Result<(), Refusal<'static>> {
    let value = single(headers, "content-type").map_err(|()| Refusal::UnsupportedMediaType)?;
    let ok = value.and_then(|v| MediaType::parse(v).ok()).is_some_and(|mt| {
        mt.is("application", "json") && mt.charset().is_none_or(|c| c.eq_ignore_ascii_case(b"utf-8"))
    });
    if ok { Ok(()) } else { Err(Refusal::UnsupportedMediaType) }
}

fn check_length<H: Headers + ?Sized>(config: &ServerConfig<'_>, headers: &H) -> Result<Option<u64>, Refusal<'static>> {
    let Some(value) = field(headers, "content-length")? else { return Ok(None) };
    let digits = trim(value);
    let malformed = Refusal::BadRequest(BadRequest::MalformedContentLength);
    if digits.is_empty() || digits.len() > 19 || !digits.iter().all(u8::is_ascii_digit) {
        // Twenty digits or more is past any cap; a valid but huge length is 413.
        return if !digits.is_empty() && digits.iter().all(u8::is_ascii_digit) {
            Err(Refusal::BodyTooLarge)
        } else {
            Err(malformed)
        };
    }
    let n = digits.iter().fold(0u64, |n, d| n * 10 + u64::from(d - b'0'));
    if n > config.max_body as u64 { Err(Refusal::BodyTooLarge) } else { Ok(Some(n)) }
}

/// The `MCP-Protocol-Version` rule once the session is known: from 2025-06-18 the
/// client must send the negotiated version on every request after `initialize`, and a
/// value naming another version is refused; a 2025-03-26 (or legacy) session may omit
/// it, which is what "absent means 2025-03-26" comes to when the session is known.
/// Returns the version the request is served under.
pub fn check_session_version(
    header: Option<ProtocolVersion>,
    negotiated: ProtocolVersion,
) -> Result<ProtocolVersion, BadRequest> {
    match header {
        Some(v) if v != negotiated => Err(BadRequest::ProtocolVersionMismatch),
        Some(v) => Ok(v),
        None if negotiated >= ProtocolVersion::V2025_06_18 => Err(BadRequest::MissingProtocolVersion),
        None => Ok(negotiated),
    }
}
