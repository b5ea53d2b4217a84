//! What a POST body holds, decided before it reaches the session: whether it answers
//! 202 at once, starts a session, or waits for responses; and the 400 a broken one gets.
//!
//! A body that is not valid JSON gets -32700; valid JSON that is not a valid message
//! (or a batch where the session's version has none) gets -32600; both with HTTP 400
//! and no id, as the specification allows for a rejected body. The TypeScript SDK
//! answers the same way; a broken request is not handed to the session.

use super::refusal::BadRequest;
use crate::wire::{Frame, MemberSpans, Message, ParseOptions, RequestIdRef, Rule};

/// What a valid POST body holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum PostBody<'b> {
    /// One `initialize` request: it starts a session.
    Initialize {
        /// Its id.
        id: RequestIdRef<'b>,
    },
    /// At least one request (`count` of them, more than one only in a 2025-03-26 batch):
    /// the response is JSON or an SSE stream that carries their responses.
    Requests {
        /// How many requests, so the stream knows when it is complete.
        count: usize,
    },
    /// Only notifications and responses: 202 with no body once the session took them.
    NoRequests,
}

/// Classifies a POST body. `batches` says whether the session's version has them
/// (2025-03-26 only); `max_depth` caps JSON nesting.
pub fn classify_body(body: &[u8], batches: bool, max_depth: u16) -> Result<PostBody<'_>, BadRequest> {
    classify_message(body, batches, max_depth).map(|(kind, _)| kind)
}

/// [`classify_body`], and the body's message if it is one (not a batch): what
/// `Message::parse` finds in it at that depth, for the checks that follow without
/// parsing it again.
pub(crate) fn classify_message(
    body: &[u8],
    batches: bool,
    max_depth: u16,
) -> Result<(PostBody<'_>, Option<Message<'_>>), BadRequest> {
    let options = ParseOptions { max_depth, allow_batch: batches };
    let invalid = |rule: Rule| match rule {
        Rule::Json(_) => BadRequest::InvalidJson,
        rule => BadRequest::InvalidMessage(rule),
    };
    match Frame::parse(body, &options).map_err(|e| invalid(e.rule))? {
        Frame::Single(m) => Ok((
            match m {
                Message::Request(r) if r.method.eq_str("initialize") => PostBody::Initialize { id: r.id },
                Message::Request(_) => PostBody::Requests { count: 1 },
                _ => PostBody::NoRequests,
            },
            Some(m),
        )),
        Frame::Batch(batch) => {
            let mut count = 0;
            for element in batch.iter() {
                match element.map_err(|e| invalid(e.rule))? {
                    Message::Request(r) if r.method.eq_str("initialize") => return Err(BadRequest::InitializeInBatch),
                    Message::Request(_) => count += 1,
                    _ => {}
                }
            }
            Ok((if count == 0 { PostBody::NoRequests } else { PostBody::Requests { count } }, None))
        }
    }
}

/// [`classify_message`], the members of the message's `params` recorded in `spans` when
/// they can be (a body that is one object, at the default depth: what
/// `Message::parse_with_spans` reads, which `Frame::parse` reads the same), so that the
/// checks of a 2026-07-28 request that follow find `_meta` and `name` without walking
/// the params again.
#[cfg_attr(not(feature = "http"), allow(dead_code))]
pub(crate) fn classify_recording<'b, const N: usize>(
    body: &'b [u8],
    batches: bool,
    max_depth: u16,
    spans: &mut MemberSpans<'b, N>,
) -> Result<(PostBody<'b>, Option<Message<'b>>), BadRequest> {
    let object = body.iter().find(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r')) == Some(&b'{');
    if !object || max_depth != crate::wire::DEFAULT_MAX_DEPTH {
        return classify_message(body, batches, max_depth);
    }
    match Message::parse_with_spans(body, spans) {
        Ok(m) => Ok((single_kind(&m), Some(m))),
        Err(e) => Err(match e.rule {
            Rule::Json(_) => BadRequest::InvalidJson,
            rule => BadRequest::InvalidMessage(rule),
        }),
    }
}

#[cfg_attr(not(feature = "http"), allow(dead_code))]
fn single_kind<'b>(m: &Message<'b>) -> PostBody<'b> {
    match m {
        Message::Request(r) if r.method.eq_str("initialize") => PostBody::Initialize { id: r.id },
        Message::Request(_) => PostBody::Requests { count: 1 },
        _ => PostBody::NoRequests,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::DEFAULT_MAX_DEPTH;

    fn c(body: &str, batches: bool) -> Result<PostBody<'_>, BadRequest> {
        classify_body(body.as_bytes(), batches, DEFAULT_MAX_DEPTH)
    }

    /// Recording the params' members changes nothing of what a body is found to be.
    #[test]
    fn recording_classifies_as_the_plain_parse() {
        let bodies = [
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#,
            r#" 	{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","_meta":{}}}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            r#"{"jsonrpc":"2.0","id":3,"result":{}}"#,
            r#"[{"jsonrpc":"2.0","id":4,"method":"ping"}]"#,
            "\x0c{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\"}",
            r#"{"jsonrpc":"2.0","id":6,"method":"ping""#,
            r#"{"jsonrpc":"1.0","id":7,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":8,"method":"ping","params":[1]}"#,
            "",
        ];
        for body in bodies {
            for (batches, depth) in [(false, DEFAULT_MAX_DEPTH), (true, DEFAULT_MAX_DEPTH), (false, 2)] {
                let mut spans = MemberSpans::<16>::new();
                let plain = classify_message(body.as_bytes(), batches, depth);
                let recorded = classify_recording(body.as_bytes(), batches, depth, &mut spans);
                assert_eq!(plain.map(|(k, m)| (k, m.is_some())), recorded.map(|(k, m)| (k, m.is_some())), "{body}");
            }
        }
        let mut spans = MemberSpans::<16>::new();
        let call = br#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","_meta":{}}}"#;
        assert!(classify_recording(call, false, DEFAULT_MAX_DEPTH, &mut spans).is_ok());
        assert_eq!((spans.len(), spans.is_complete()), (2, true));
    }

    #[test]
    fn kinds() {
        let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#;
        assert!(matches!(c(init, false), Ok(PostBody::Initialize { id }) if id.as_i64() == Some(1)));
        assert_eq!(
            c(r#"{"jsonrpc":"2.0","id":"a","method":"tools/list"}"#, false),
            Ok(PostBody::Requests { count: 1 })
        );
        assert_eq!(c(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#, false), Ok(PostBody::NoRequests));
        assert_eq!(c(r#"{"jsonrpc":"2.0","id":5,"result":{}}"#, false), Ok(PostBody::NoRequests));
        assert_eq!(c(r#"{"jsonrpc":"2.0","id":5,"error":{"code":1,"message":"x"}}"#, false), Ok(PostBody::NoRequests));
        // An escaped method name is still initialize.
        let escaped = r#"{"jsonrpc":"2.0","id":1,"method":"initi\u0061lize"}"#;
        assert!(matches!(c(escaped, false), Ok(PostBody::Initialize { .. })));
    }

    #[test]
    fn batches_only_where_allowed() {
        let batch = r#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"n"},{"jsonrpc":"2.0","id":2,"method":"ping"}]"#;
        assert_eq!(c(batch, true), Ok(PostBody::Requests { count: 2 }));
        assert_eq!(c(batch, false), Err(BadRequest::InvalidMessage(Rule::BatchNotAllowed)));
        assert_eq!(c(r#"[{"jsonrpc":"2.0","method":"n"}]"#, true), Ok(PostBody::NoRequests));
        assert_eq!(c("[]", true), Err(BadRequest::InvalidMessage(Rule::EmptyBatch)));
        assert_eq!(c(r#"[{"jsonrpc":"2.0","id":1,"method":"initialize"}]"#, true), Err(BadRequest::InitializeInBatch));
        assert_eq!(
            c(r#"[{"jsonrpc":"2.0","id":1,"method":"ping"},3]"#, true),
            Err(BadRequest::InvalidMessage(Rule::NotAnObject))
        );
    }

    #[test]
    fn broken_bodies() {
        for bad in ["", "{", "nul", "{\"jsonrpc\":\"2.0\",}", "\u{1}"] {
            assert_eq!(c(bad, false), Err(BadRequest::InvalidJson), "{bad:?}");
        }
        assert_eq!(c("3", false), Err(BadRequest::InvalidMessage(Rule::NotAnObject)));
        assert_eq!(c(r#"{"id":1,"method":"x"}"#, false), Err(BadRequest::InvalidMessage(Rule::MissingJsonrpc)));
        assert_eq!(
            c(r#"{"jsonrpc":"2.0","id":1,"method":"x","params":[]}"#, false),
            Err(BadRequest::InvalidMessage(Rule::ParamsNotObject))
        );
        let deep = "[".repeat(200) + &"]".repeat(200);
        assert_eq!(classify_body(deep.as_bytes(), true, 16), Err(BadRequest::InvalidJson));
    }
}
