//! What processing one frame decided, as positions in the receive buffer.
//!
//! Processing a frame happens inside a loop over the receive buffer that may move on to
//! the next frame; an event that borrows the buffer can only be built once that loop is
//! left (the borrow checker cannot see that the loop stops when it returns). So the loop
//! produces a [`Plan`] of byte positions, and [`Plan::resolve`] turns it into the
//! borrowed [`Event`] without scanning anything again.

use super::event::{Event, IncomingNotification, IncomingRequest, Misbehavior, RefuseReason};
use super::inbound::{InEntry, Responder};
use crate::mcp::{Method, ProtocolVersion};
use crate::wire::{
    EnvelopeError, ErrorCode, ErrorObject, FrameView, JsonStr, Number, RawJson, RequestId, RequestIdRef, Rule, Shape,
};

/// A byte range in the receive buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    /// Where `part` (a sub-slice of `base`) lies in `base`.
    pub fn of(base: &[u8], part: &[u8]) -> Span {
        let start = (part.as_ptr() as usize).wrapping_sub(base.as_ptr() as usize).min(base.len());
        Span { start, end: (start + part.len()).min(base.len()) }
    }

    pub fn get(self, base: &[u8]) -> &[u8] {
        base.get(self.start..self.end).unwrap_or_default()
    }
}

/// A JSON string's position and whether it has escapes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct StrAt {
    span: Span,
    escaped: bool,
}

impl StrAt {
    pub fn of(base: &[u8], s: JsonStr<'_>) -> StrAt {
        StrAt { span: Span::of(base, s.raw()), escaped: s.is_escaped() }
    }

    pub fn get(self, base: &[u8]) -> JsonStr<'_> {
        JsonStr::from_span(
            base,
            crate::wire::StrSpan { start: self.span.start, end: self.span.end, escaped: self.escaped },
        )
    }
}

/// An error object's position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ErrorAt {
    code: ErrorCode,
    message: StrAt,
    data: Option<Span>,
}

impl ErrorAt {
    pub fn of(base: &[u8], e: &ErrorObject<'_>) -> ErrorAt {
        ErrorAt {
            code: e.code,
            message: StrAt::of(base, e.message),
            data: e.data.map(|d| Span::of(base, d.as_bytes())),
        }
    }

    fn get(self, base: &[u8]) -> ErrorObject<'_> {
        ErrorObject {
            code: self.code,
            message: self.message.get(base),
            data: self.data.map(|d| RawJson::from_validated(d.get(base))),
        }
    }
}

/// The outcome of processing one frame, when it produces an event.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Plan {
    Negotiated { version: ProtocolVersion, peer: Span },
    Ready { version: ProtocolVersion },
    Request { slot: usize, id: Span, method: StrAt, params: Option<Span> },
    Notification { method: StrAt, params: Option<Span> },
    Response { id: u64, method: Option<Method<'static>>, result: Span },
    Error { id: u64, method: Option<Method<'static>>, error: ErrorAt },
    Progress { id: u64, progress: Span, total: Option<Span>, message: Option<StrAt> },
    Cancelled { id: Span, reason: Option<StrAt> },
    InvalidMessage { rule: Rule, id: Option<Span>, shape: Shape, replied: bool },
    LineTooLong(usize),
    Unterminated(usize),
    UnknownResponse(Span),
    LateResponse(Span),
    UncorrelatedError(ErrorAt),
    Refused { id: Span, method: StrAt, code: ErrorCode, reason: RefuseReason },
    NotificationIgnored { method: StrAt, reason: RefuseReason },
    UnknownProgressToken(Span),
    NonIncreasingProgress { id: u64, progress: Span },
    InvalidNotificationParams { method: StrAt },
}

fn id_at(base: &[u8], span: Span) -> RequestIdRef<'_> {
    RequestIdRef::from_validated(span.get(base))
}

fn number_at(base: &[u8], span: Span) -> Number<'_> {
    // The span was checked to be a number when the plan was made.
    Number::from_json(raw_at(base, span)).unwrap_or(Number::ZERO)
}

fn raw_at(base: &[u8], span: Span) -> RawJson<'_> {
    RawJson::from_validated(span.get(base))
}

impl Plan {
    /// Builds the event, borrowing the receive buffer `base` and, for a request, the
    /// transmit buffer and the request's slot.
    pub fn resolve<'e>(
        self,
        base: &'e [u8],
        tx: FrameView<'e>,
        inbound: &'e mut [Option<InEntry>],
        closed: bool,
        progress_message: bool,
    ) -> Event<'e> {
        let mis = Event::Misbehavior;
        match self {
            Plan::Negotiated { version, peer } => Event::Negotiated { version, peer: raw_at(base, peer) },
            Plan::Ready { version } => Event::Ready { version },
            Plan::Request { slot, id, method, params } => {
                let slot = match inbound.get_mut(slot) {
                    Some(s) => s,
                    // Not reachable: the slot was filled when the plan was made.
                    None => return Event::ReplyDropped { needed: 0 },
                };
                Event::Request(IncomingRequest {
                    id: id_at(base, id),
                    method: Method::parse(method.get(base)),
                    params: params.map(|p| raw_at(base, p)),
                    responder: Responder { tx, slot, closed, progress_message },
                })
            }
            Plan::Notification { method, params } => Event::Notification(IncomingNotification {
                method: Method::parse(method.get(base)),
                params: params.map(|p| raw_at(base, p)),
            }),
            Plan::Response { id, method, result } => {
                Event::Response { id: RequestId::from_u64(id), method, result: raw_at(base, result) }
            }
            Plan::Error { id, method, error } => {
                Event::Error { id: RequestId::from_u64(id), method, error: error.get(base) }
            }
            Plan::Progress { id, progress, total, message } => Event::Progress {
                id: RequestId::from_u64(id),
                progress: number_at(base, progress),
                total: total.map(|t| number_at(base, t)),
                message: message.map(|m| m.get(base)),
            },
            Plan::Cancelled { id, reason } => {
                Event::Cancelled { id: id_at(base, id), reason: reason.map(|r| r.get(base)) }
            }
            Plan::InvalidMessage { rule, id, shape, replied } => mis(Misbehavior::InvalidMessage {
                error: EnvelopeError { rule, id: id.map(|i| id_at(base, i)), shape },
                replied,
            }),
            Plan::LineTooLong(len) => mis(Misbehavior::LineTooLong { len }),
            Plan::Unterminated(len) => mis(Misbehavior::UnterminatedLine { len }),
            Plan::UnknownResponse(id) => mis(Misbehavior::UnknownResponse { id: id_at(base, id) }),
            Plan::LateResponse(id) => mis(Misbehavior::LateResponse { id: id_at(base, id) }),
            Plan::UncorrelatedError(error) => mis(Misbehavior::UncorrelatedError { error: error.get(base) }),
            Plan::Refused { id, method, code, reason } => mis(Misbehavior::RequestRefused {
                id: id_at(base, id),
                method: Method::parse(method.get(base)),
                code,
                reason,
            }),
            Plan::NotificationIgnored { method, reason } => {
                mis(Misbehavior::NotificationIgnored { method: Method::parse(method.get(base)), reason })
            }
            Plan::UnknownProgressToken(token) => mis(Misbehavior::UnknownProgressToken { token: raw_at(base, token) }),
            Plan::NonIncreasingProgress { id, progress } => mis(Misbehavior::NonIncreasingProgress {
                id: RequestId::from_u64(id),
                progress: number_at(base, progress),
            }),
            Plan::InvalidNotificationParams { method } => {
                mis(Misbehavior::InvalidNotificationParams { method: Method::parse(method.get(base)) })
            }
        }
    }
}
