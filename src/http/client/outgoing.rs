//! What an outgoing message is, as far as HTTP cares: whether its POST will be answered
//! with the response (and which id that response carries), or with 202; and the three
//! messages the transport acts on itself (`initialize`, `notifications/initialized`,
//! `notifications/cancelled`).

use crate::wire::{Frame, JsonKind, Message, ParseOptions, RequestId, RequestIdRef};

/// The kind of a POSTed message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OutKind {
    /// `initialize`: its answer carries the session id; its refusal may mean HTTP+SSE.
    Initialize,
    /// Any other request.
    Request,
    /// `notifications/initialized`: once accepted, the standalone stream may open.
    Initialized,
    /// `notifications/cancelled`: the request it names needs its stream no more.
    Cancelled,
    /// Any other notification.
    Notification,
    /// A response (result or error) to a server's request.
    Response,
    /// A batch (2025-03-26); `requests` when it holds at least one request.
    Batch { requests: bool },
}

impl OutKind {
    /// Whether the POST's answer is a response (JSON or a stream) rather than 202.
    pub fn expects_response(self) -> bool {
        matches!(self, OutKind::Initialize | OutKind::Request | OutKind::Batch { requests: true })
    }
}

/// A classified outgoing message.
#[derive(Clone, Debug)]
pub(crate) struct Outgoing {
    pub kind: OutKind,
    /// The request's id (requests only).
    pub id: Option<RequestId>,
    /// For `notifications/cancelled`: the request it cancels.
    pub cancels: Option<RequestId>,
}

/// Reads an outgoing message. `None` when it is not one JSON-RPC message or batch (the
/// session never writes such a thing; it is the caller's mistake), or when its id is
/// longer than this build stores.
pub(crate) fn classify(message: &[u8]) -> Option<Outgoing> {
    let frame = Frame::parse(message, &ParseOptions { allow_batch: true, ..ParseOptions::default() }).ok()?;
    let message = match frame {
        Frame::Single(m) => m,
        Frame::Batch(batch) => {
            let requests = batch.iter().any(|m| matches!(m, Ok(Message::Request(_))));
            return Some(Outgoing { kind: OutKind::Batch { requests }, id: None, cancels: None });
        }
    };
    Some(match message {
        Message::Request(r) => {
            let kind = if r.method.eq_str("initialize") { OutKind::Initialize } else { OutKind::Request };
            Outgoing { kind, id: Some(r.id.to_owned().ok()?), cancels: None }
        }
        Message::Notification(n) if n.method.eq_str("notifications/initialized") => {
            Outgoing { kind: OutKind::Initialized, id: None, cancels: None }
        }
        Message::Notification(n) if n.method.eq_str("notifications/cancelled") => {
            let cancels = n
                .params
                .and_then(|p| p.get("requestId"))
                .filter(|id| id.kind() == JsonKind::String || id.as_i64().is_some() || id.as_u64().is_some())
                .and_then(|id| RequestIdRef::from_validated(id.as_bytes()).to_owned().ok());
            Outgoing { kind: OutKind::Cancelled, id: None, cancels }
        }
        Message::Notification(_) => Outgoing { kind: OutKind::Notification, id: None, cancels: None },
        Message::Response(_) | Message::Error(_) => Outgoing { kind: OutKind::Response, id: None, cancels: None },
    })
}

/// What an incoming message tells the transport: the id it answers, and for an answer
/// to `initialize`, the version it chose.
#[derive(Clone, Debug, Default)]
pub(crate) struct Incoming {
    /// A response or error to this id.
    pub answers: Option<RequestId>,
    /// A successful response (not an error).
    pub success: bool,
    /// `result.protocolVersion`, when present and known.
    pub version: Option<crate::mcp::ProtocolVersion>,
}

/// Reads an incoming message as far as [`Incoming`] goes; anything unreadable is left to
/// the session, which reports it.
pub(crate) fn inspect(message: &[u8]) -> Incoming {
    match Message::parse(message) {
        Ok(Message::Response(r)) => Incoming {
            answers: r.id.to_owned().ok(),
            success: true,
            version: r
                .result
                .get("protocolVersion")
                .and_then(|v| v.as_str())
                .and_then(crate::mcp::ProtocolVersion::from_json),
        },
        Ok(Message::Error(e)) => {
            Incoming { answers: e.id.and_then(|id| id.to_owned().ok()), success: false, version: None }
        }
        _ => Incoming::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcp::ProtocolVersion;

    fn kind(m: &str) -> Option<OutKind> {
        classify(m.as_bytes()).map(|o| o.kind)
    }

    #[test]
    fn kinds() {
        assert_eq!(kind(r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#), Some(OutKind::Initialize));
        assert_eq!(kind(r#"{"jsonrpc":"2.0","id":"a","method":"init\u0069alize"}"#), Some(OutKind::Initialize));
        assert_eq!(kind(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call"}"#), Some(OutKind::Request));
        assert_eq!(kind(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#), Some(OutKind::Initialized));
        assert_eq!(kind(r#"{"jsonrpc":"2.0","method":"notifications/progress"}"#), Some(OutKind::Notification));
        assert_eq!(kind(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#), Some(OutKind::Response));
        assert_eq!(kind(r#"{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":""}}"#), Some(OutKind::Response));
        assert_eq!(
            kind(r#"[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","id":2,"method":"b"}]"#),
            Some(OutKind::Batch { requests: true })
        );
        assert_eq!(kind(r#"[{"jsonrpc":"2.0","method":"a"}]"#), Some(OutKind::Batch { requests: false }));
        assert_eq!(kind("{}"), None);
        assert_eq!(kind("not json"), None);
    }

    #[test]
    fn ids_and_cancellations() {
        let o = classify(br#"{"jsonrpc":"2.0","id":"x7","method":"ping"}"#).unwrap();
        assert_eq!(o.id.unwrap().as_ref().as_token(), br#""x7""#);
        let c = classify(br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":4}}"#).unwrap();
        assert_eq!((c.kind, c.cancels.unwrap().as_ref().as_i64()), (OutKind::Cancelled, Some(4)));
        let c = classify(br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{}}"#).unwrap();
        assert!(c.cancels.is_none());
    }

    #[test]
    fn incoming() {
        let i = inspect(br#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{}}}"#);
        assert_eq!((i.answers.unwrap().as_ref().as_i64(), i.success), (Some(0), true));
        assert_eq!(i.version, Some(ProtocolVersion::V2025_06_18));
        let i = inspect(br#"{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"no"}}"#);
        assert_eq!((i.answers.unwrap().as_ref().as_i64(), i.success, i.version), (Some(3), false, None));
        let i = inspect(br#"{"jsonrpc":"2.0","method":"notifications/message","params":{}}"#);
        assert!(i.answers.is_none());
        assert!(inspect(b"garbage").answers.is_none());
    }
}
