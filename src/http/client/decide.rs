//! The decisions the client takes from a response head, and the reconnection delays:
//! pure functions of what they are given, so every status path is tested as a table.

use core::time::Duration;

use super::config::Reconnect;
use super::exchange::ExchangeKind;
use super::outgoing::OutKind;
use crate::http::headers::MediaType;

/// What a response's `Content-Type` says the body is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Body {
    Json,
    EventStream,
    /// No `Content-Type`.
    Absent,
    Other,
}

impl Body {
    pub fn of(content_type: Option<&[u8]>) -> Body {
        match content_type.map(MediaType::parse) {
            None => Body::Absent,
            Some(Ok(m)) if m.is("application", "json") => Body::Json,
            Some(Ok(m)) if m.is("text", "event-stream") => Body::EventStream,
            Some(_) => Body::Other,
        }
    }
}

/// What to do with a response head.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Head {
    /// Read the body as one JSON message.
    ReadJson,
    /// Read the body as an event stream.
    ReadSse,
    /// Done: the message was accepted (202, or a 2xx with no body to read).
    Accepted,
    /// 202 to a request: accepted, but its answer will have to come some other way.
    AcceptedRequest,
    /// A 2xx with a body the client cannot read.
    BadContentType,
    /// 401, or 403 with a challenge: credentials.
    Auth,
    /// 404 to a request that carried the session id.
    SessionExpired,
    /// The `initialize` POST got 400, 404 or 405: try HTTP+SSE.
    FallBack,
    /// A stream the server will not give (405 and other refusals).
    NoStream,
    /// A stream failed in a way worth another attempt (5xx, 408, 429).
    Retry,
    /// The exchange failed with this status.
    Refused,
}

/// The facts a head decision depends on beyond the status.
#[derive(Clone, Copy, Debug)]
pub(crate) struct HeadFacts {
    pub kind: ExchangeKind,
    pub out: OutKind,
    pub body: Body,
    /// The request carried `Mcp-Session-Id`.
    pub carried_session: bool,
    /// The response has a `WWW-Authenticate` challenge.
    pub challenged: bool,
    /// This is an `initialize` POST that may still fall back to HTTP+SSE.
    pub may_fall_back: bool,
    /// The POST carried a 2026-07-28 request: a refusal's JSON body (-32022 with the
    /// supported versions, -32021, -32020, -32601 with 404) is its answer, read like
    /// any other, so that the session can retry or tell the era by it.
    pub modern: bool,
}

/// Decides what a response head means.
pub(crate) fn head(status: u16, f: HeadFacts) -> Head {
    let ok = (200..300).contains(&status);
    // Closing: whatever the server says (405: it does not let clients end sessions),
    // the session is over on this side.
    if f.kind == ExchangeKind::Delete {
        return Head::Accepted;
    }
    if status == 401 || (status == 403 && f.challenged) {
        return Head::Auth;
    }
    match f.kind {
        ExchangeKind::Delete => Head::Accepted,
        ExchangeKind::Post => match (ok, f.body) {
            (true, Body::Json) => Head::ReadJson,
            (true, Body::EventStream) => Head::ReadSse,
            (true, Body::Absent) if f.out.expects_response() => Head::AcceptedRequest,
            (true, Body::Absent) => Head::Accepted,
            // A notification or response accepted with some other body: nothing to read.
            (true, Body::Other) if !f.out.expects_response() => Head::Accepted,
            (true, Body::Other) => Head::BadContentType,
            (false, _) if f.may_fall_back && matches!(status, 400 | 404 | 405) => Head::FallBack,
            (false, Body::Json) if f.modern && f.out.expects_response() && (400..500).contains(&status) => {
                Head::ReadJson
            }
            (false, _) if status == 404 && f.carried_session => Head::SessionExpired,
            (false, _) => Head::Refused,
        },
        ExchangeKind::Stream | ExchangeKind::Resume => match (ok, f.body) {
            (true, Body::EventStream) => Head::ReadSse,
            (true, _) => Head::BadContentType,
            (false, _) if status == 404 && f.carried_session => Head::SessionExpired,
            (false, _) if status >= 500 || status == 408 || status == 429 => Head::Retry,
            (false, _) => Head::NoStream,
        },
        ExchangeKind::LegacyStream => match (ok, f.body) {
            (true, Body::EventStream) => Head::ReadSse,
            (true, _) => Head::BadContentType,
            (false, _) => Head::Refused,
        },
        ExchangeKind::LegacyPost => match ok {
            true => Head::Accepted,
            // The SDKs' HTTP+SSE servers answer 404 for a session they no longer know.
            false if status == 404 => Head::SessionExpired,
            false => Head::Refused,
        },
    }
}

/// The wait before reconnection attempt `attempt` (1 for the first in a row): the
/// server's `retry` or `initial`, x1.5 per attempt after the first, capped at the
/// policy's `max` (or the base, if that is longer: the server's `retry` is a floor, itself
/// cut to the policy's `longest_server_retry`).
pub(crate) fn reconnect_delay(policy: &Reconnect, server_retry: Option<u32>, attempt: u8) -> Duration {
    let longest = policy.longest_server_retry.as_millis() as u64;
    let base = server_retry.map_or(policy.initial.as_millis() as u64, |r| u64::from(r).min(longest));
    let cap = base.max(policy.max.as_millis() as u64);
    let mut ms = base;
    for _ in 1..attempt {
        ms = ms.saturating_mul(3) / 2;
        if ms >= cap {
            break;
        }
    }
    Duration::from_millis(ms.min(cap))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ExchangeKind::*;

    fn facts(kind: ExchangeKind, out: OutKind, body: Body) -> HeadFacts {
        HeadFacts { kind, out, body, carried_session: false, challenged: false, may_fall_back: false, modern: false }
    }

    #[test]
    fn content_types() {
        assert_eq!(Body::of(Some(b"application/json; charset=utf-8")), Body::Json);
        assert_eq!(Body::of(Some(b"Text/Event-Stream")), Body::EventStream);
        assert_eq!(Body::of(Some(b"text/plain")), Body::Other);
        assert_eq!(Body::of(Some(b"garbage;;")), Body::Other);
        assert_eq!(Body::of(None), Body::Absent);
    }

    #[test]
    fn post_heads() {
        let req = |body| facts(Post, OutKind::Request, body);
        let note = |body| facts(Post, OutKind::Notification, body);
        assert_eq!(head(200, req(Body::Json)), Head::ReadJson);
        assert_eq!(head(200, req(Body::EventStream)), Head::ReadSse);
        assert_eq!(head(202, req(Body::Absent)), Head::AcceptedRequest);
        assert_eq!(head(200, req(Body::Other)), Head::BadContentType);
        assert_eq!(head(202, note(Body::Absent)), Head::Accepted);
        assert_eq!(head(200, note(Body::Other)), Head::Accepted);
        assert_eq!(head(200, note(Body::Json)), Head::ReadJson);
        assert_eq!(head(204, facts(Post, OutKind::Response, Body::Absent)), Head::Accepted);
        for s in [400, 404, 405, 409, 413, 500, 503] {
            assert_eq!(head(s, req(Body::Json)), Head::Refused, "{s}");
        }
        assert_eq!(head(401, req(Body::Json)), Head::Auth);
        assert_eq!(head(403, req(Body::Json)), Head::Refused);
        assert_eq!(head(403, HeadFacts { challenged: true, ..req(Body::Json) }), Head::Auth);
        // A 2026-07-28 request's refusal is read: its JSON-RPC error is the answer.
        let modern = HeadFacts { modern: true, ..req(Body::Json) };
        for s in [400, 404] {
            assert_eq!(head(s, modern), Head::ReadJson, "{s}");
        }
        assert_eq!(head(400, HeadFacts { body: Body::Other, ..modern }), Head::Refused);
        assert_eq!(head(500, modern), Head::Refused);
        assert_eq!(head(401, modern), Head::Auth);
    }

    #[test]
    fn session_expiry_needs_the_session_header() {
        let f = HeadFacts { carried_session: true, ..facts(Post, OutKind::Request, Body::Json) };
        assert_eq!(head(404, f), Head::SessionExpired);
        assert_eq!(head(404, HeadFacts { carried_session: false, ..f }), Head::Refused);
        assert_eq!(head(400, f), Head::Refused);
        let g = HeadFacts { carried_session: true, ..facts(Stream, OutKind::Request, Body::Absent) };
        assert_eq!(head(404, g), Head::SessionExpired);
        assert_eq!(head(404, HeadFacts { kind: Resume, ..g }), Head::SessionExpired);
        assert_eq!(head(404, HeadFacts { kind: LegacyPost, ..g }), Head::SessionExpired);
    }

    #[test]
    fn fallback_statuses() {
        let f = HeadFacts { may_fall_back: true, ..facts(Post, OutKind::Initialize, Body::Absent) };
        for s in [400, 404, 405] {
            assert_eq!(head(s, f), Head::FallBack, "{s}");
        }
        for s in [401, 403, 406, 415, 500] {
            assert_ne!(head(s, f), Head::FallBack, "{s}");
        }
        assert_eq!(head(200, HeadFacts { body: Body::Json, ..f }), Head::ReadJson);
    }

    #[test]
    fn stream_heads() {
        let g = |body| facts(Stream, OutKind::Notification, body);
        assert_eq!(head(200, g(Body::EventStream)), Head::ReadSse);
        assert_eq!(head(200, g(Body::Json)), Head::BadContentType);
        for s in [400, 404, 405, 406, 409] {
            assert_eq!(head(s, g(Body::Absent)), Head::NoStream, "{s}");
        }
        for s in [408, 429, 500, 502, 503] {
            assert_eq!(head(s, g(Body::Absent)), Head::Retry, "{s}");
        }
        assert_eq!(head(401, g(Body::Absent)), Head::Auth);
        assert_eq!(head(200, facts(LegacyStream, OutKind::Notification, Body::EventStream)), Head::ReadSse);
        assert_eq!(head(404, facts(LegacyStream, OutKind::Notification, Body::Absent)), Head::Refused);
        assert_eq!(head(202, facts(LegacyPost, OutKind::Request, Body::Other)), Head::Accepted);
        assert_eq!(head(500, facts(LegacyPost, OutKind::Request, Body::Other)), Head::Refused);
        assert_eq!(head(405, facts(Delete, OutKind::Notification, Body::Absent)), Head::Accepted);
        assert_eq!(head(401, facts(Delete, OutKind::Notification, Body::Absent)), Head::Accepted);
    }

    #[test]
    fn delays() {
        let p = Reconnect::DEFAULT;
        let ms = |retry, n| reconnect_delay(&p, retry, n).as_millis();
        assert_eq!([ms(None, 1), ms(None, 2), ms(None, 3), ms(None, 4)], [1000, 1500, 2250, 3375]);
        assert_eq!(ms(None, 20), 30_000);
        assert_eq!(ms(None, 255), 30_000);
        assert_eq!([ms(Some(500), 1), ms(Some(500), 2)], [500, 750]);
        // A server's retry longer than the cap is still honoured.
        assert_eq!([ms(Some(60_000), 1), ms(Some(60_000), 9)], [60_000, 60_000]);
        // Up to a point: a retry of 49 days is cut to the policy's longest.
        assert_eq!([ms(Some(u32::MAX), 1), ms(Some(u32::MAX), 9)], [600_000, 600_000]);
        assert_eq!(ms(Some(0), 3), 0);
    }
}
