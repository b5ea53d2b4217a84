//! Direct decoders for the hottest shapes: the params of `notifications/progress`,
//! `notifications/cancelled`, `notifications/message`, `notifications/resources/updated`
//! and `tools/call`, and the results of `tools/call` and of the empty-result methods.
//!
//! Each reads the members of the validated object straight from its text (see
//! [`fields`](crate::wire::fields)) and builds the same value serde's derived impl would,
//! skipping the visitor machinery that costs more than the scan did for small messages.
//! Whatever it does not handle exactly as the derived impl does (an escaped member name,
//! a value of an unexpected type, a duplicate, a missing required member, a member it
//! leaves to serde) makes it return `None`, and the caller decodes with serde: the result,
//! or the error, is serde's. The compact build (small code first) skips these decoders.

use super::basic::cancellation::CancelledParams;
use super::basic::meta::Meta;
use super::basic::progress::{ProgressParams, ProgressToken};
use super::basic::{EmptyResult, ResultType, request_id};
use super::content::ContentList;
use super::seq::Items;
use super::server::logging::{LogData, LoggingLevel, LoggingMessageParams};
use super::server::resources::ResourceUriParams;
use super::server::tools::{CallToolParams, CallToolResult};
use crate::wire::fields::{Seen, Source, Value};
use crate::wire::{JsonKind, RawJson};

/// Whether the direct decoders are used in this build.
pub(crate) const ENABLED: bool = !crate::wire::COMPACT;

/// `_meta`: an object, or `null` for none.
fn meta(v: Value<'_>) -> Option<Option<Meta<'_>>> {
    v.nullable(|v| (v.raw().kind() == JsonKind::Object).then(|| Meta::from_raw(v.raw())))
}

/// An optional string member.
fn text(v: Value<'_>) -> Option<Option<crate::wire::JsonStr<'_>>> {
    v.nullable(Value::str)
}

/// `resultType`: a string, or `null` for none.
fn result_type(v: Value<'_>) -> Option<Option<ResultType<'_>>> {
    v.nullable(|v| v.str().map(ResultType::from_json))
}

/// `notifications/progress` params.
pub(crate) fn progress<'a, S: Source<'a>>(object: RawJson<'a>, members: S) -> Option<ProgressParams<'a>> {
    let (mut token, mut progress, mut total, mut message, mut meta_) = (None, None, None, None, None);
    let mut seen = Seen::default();
    members.each(object, |name, v| {
        match name {
            b"progressToken" => token = Some(seen.take(0, ProgressToken::from_raw(v.raw()))?),
            b"progress" => progress = Some(seen.take(1, v.f64())?),
            b"total" => total = seen.take(2, v.nullable(Value::f64))?,
            b"message" => message = seen.take(3, text(v))?,
            b"_meta" => meta_ = seen.take(4, meta(v))?,
            _ => {}
        }
        Some(())
    })?;
    Some(ProgressParams { progress_token: token?, progress: progress?, total, message, meta: meta_ })
}

/// `notifications/cancelled` params.
pub(crate) fn cancelled<'a, S: Source<'a>>(object: RawJson<'a>, members: S) -> Option<CancelledParams<'a>> {
    let (mut request_id_, mut reason, mut meta_) = (None, None, None);
    let mut seen = Seen::default();
    members.each(object, |name, v| {
        match name {
            b"requestId" => request_id_ = Some(seen.take(0, request_id::from_raw(v.raw()))?),
            b"reason" => reason = seen.take(1, text(v))?,
            b"_meta" => meta_ = seen.take(2, meta(v))?,
            _ => {}
        }
        Some(())
    })?;
    Some(CancelledParams { request_id: request_id_, reason, meta: meta_ })
}

/// `notifications/message` params.
pub(crate) fn log_message<'a, S: Source<'a>>(object: RawJson<'a>, members: S) -> Option<LoggingMessageParams<'a>> {
    let (mut level, mut logger, mut data, mut meta_) = (None, None, None, None);
    let mut seen = Seen::default();
    members.each(object, |name, v| {
        match name {
            b"level" => {
                let wire = seen.take(0, v.str().filter(|s| !s.is_escaped()))?.raw();
                level = Some(LoggingLevel::ALL.into_iter().find(|l| l.as_str().as_bytes() == wire)?);
            }
            b"logger" => logger = seen.take(1, text(v))?,
            b"data" => data = Some(seen.take(2, Some(LogData::Raw(v.raw())))?),
            b"_meta" => meta_ = seen.take(3, meta(v))?,
            _ => {}
        }
        Some(())
    })?;
    Some(LoggingMessageParams { level: level?, logger, data: data?, meta: meta_ })
}

/// `resources/subscribe`, `resources/unsubscribe`, `notifications/resources/updated`
/// params.
pub(crate) fn resource_uri<'a, S: Source<'a>>(object: RawJson<'a>, members: S) -> Option<ResourceUriParams<'a>> {
    let (mut uri, mut meta_) = (None, None);
    let mut seen = Seen::default();
    members.each(object, |name, v| {
        match name {
            b"uri" => uri = Some(seen.take(0, v.str())?),
            b"_meta" => meta_ = seen.take(1, meta(v))?,
            _ => {}
        }
        Some(())
    })?;
    Some(ResourceUriParams { uri: uri?, meta: meta_ })
}

/// `tools/call` params. A task or input responses are left to serde.
#[inline(always)]
pub(crate) fn call_tool<'a, S: Source<'a>>(object: RawJson<'a>, members: S) -> Option<CallToolParams<'a>> {
    let (mut tool, mut arguments, mut request_state, mut meta_) = (None, None, None, None);
    let mut seen = Seen::default();
    members.each(object, |name, v| {
        match name {
            b"name" => tool = Some(seen.take(0, v.str())?),
            b"arguments" => arguments = seen.take(1, v.nullable(|v| Some(v.raw())))?,
            b"requestState" => request_state = seen.take(2, text(v))?,
            b"_meta" => meta_ = seen.take(3, meta(v))?,
            b"task" | b"inputResponses" => return None,
            _ => {}
        }
        Some(())
    })?;
    Some(CallToolParams { name: tool?, arguments, task: None, input_responses: None, request_state, meta: meta_ })
}

/// `tools/call` result.
#[inline(always)]
pub(crate) fn call_tool_result<'a, S: Source<'a>>(object: RawJson<'a>, members: S) -> Option<CallToolResult<'a>> {
    let (mut content, mut structured, mut is_error, mut result_type_, mut meta_) = (None, None, None, None, None);
    let mut seen = Seen::default();
    members.each(object, |name, v| {
        match name {
            b"content" => {
                let array = seen.take(0, (v.raw().kind() == JsonKind::Array).then(|| v.raw()))?;
                content = Some(ContentList::from(Items::from_raw(array)));
            }
            // Any value, `null` included, is kept (see `seq::some_raw`).
            b"structuredContent" => structured = Some(seen.take(1, Some(v.raw()))?),
            b"isError" => is_error = seen.take(2, v.nullable(|v| v.raw().as_bool()))?,
            b"resultType" => result_type_ = seen.take(3, result_type(v))?,
            b"_meta" => meta_ = seen.take(4, meta(v))?,
            _ => {}
        }
        Some(())
    })?;
    Some(CallToolResult {
        content: content?,
        structured_content: structured,
        is_error,
        result_type: result_type_,
        meta: meta_,
    })
}

/// The empty result (`ping`, `logging/setLevel`, subscriptions).
pub(crate) fn empty_result<'a, S: Source<'a>>(object: RawJson<'a>, members: S) -> Option<EmptyResult<'a>> {
    let (mut result_type_, mut meta_) = (None, None);
    let mut seen = Seen::default();
    members.each(object, |name, v| {
        match name {
            b"resultType" => result_type_ = seen.take(0, result_type(v))?,
            b"_meta" => meta_ = seen.take(1, meta(v))?,
            _ => {}
        }
        Some(())
    })?;
    Some(EmptyResult { result_type: result_type_, meta: meta_ })
}

#[cfg(test)]
mod tests {
    use core::fmt::Debug;

    use serde::Deserialize;

    use super::*;
    use crate::wire::fields::Text;

    /// Where the direct decoder answers, it answers as serde does; where serde refuses,
    /// the direct decoder gives up (so the caller reports serde's error).
    fn agrees<'a, T: Deserialize<'a> + PartialEq + Debug>(
        direct: fn(RawJson<'a>, Text) -> Option<T>,
        text: &'a str,
    ) -> bool {
        let raw = RawJson::parse(text.as_bytes()).unwrap();
        let serde = raw.decode::<T>();
        match (direct(raw, Text), serde) {
            (Some(d), Ok(s)) => assert_eq!(d, s, "{text}"),
            (Some(d), Err(e)) => panic!("{text}: direct decoded {d:?}, serde refused: {e}"),
            (None, _) => return false,
        }
        true
    }

    #[test]
    fn direct_decoders_agree_with_serde() {
        let accepted = [
            r#"{"progressToken":"abc","progress":50,"total":100,"message":"m"}"#,
            r#"{ "progressToken" : 7 , "progress" : 0.5 , "total" : null , "message" : null , "x" : [1,{"y":2}] }"#,
            r#"{"progressToken":"a\"b","progress":-1e3,"message":"caf\u00e9","_meta":{"k":1}}"#,
            r#"{"progress":1,"progressToken":-3}"#,
        ];
        for text in accepted {
            assert!(agrees(progress, text), "{text}");
        }
        let refused = [
            r#"{"progressToken":1.5,"progress":1}"#,
            r#"{"progressToken":null,"progress":1}"#,
            r#"{"progressToken":1}"#,
            r#"{"progressToken":1,"progress":"1"}"#,
            r#"{"progressToken":1,"progress":1,"progress":2}"#,
            r#"{"progressToken":1,"progress":1,"total":null,"total":null}"#,
            r#"{"progressToken":1,"progress":1,"_meta":[]}"#,
            r#"{"progressToken":1,"progress":1,"message":3}"#,
            // Left to serde, which reads the escaped name.
            r#"{"progress\u0054oken":1,"progress":1}"#,
        ];
        for text in refused {
            assert!(!agrees(progress, text), "{text}");
        }

        let calls = [
            r#"{"name":"add","arguments":{"a":2,"b":3},"_meta":{"progressToken":4}}"#,
            r#"{"name":"x","arguments":null,"requestState":"s","other":{}}"#,
            r#"{"name":"e\\cho"}"#,
        ];
        for text in calls {
            assert!(agrees(call_tool, text), "{text}");
        }
        for text in [
            r#"{"name":"x","task":{"ttl":1}}"#,
            r#"{"name":"x","inputResponses":{}}"#,
            r#"{"name":1}"#,
            r#"{"arguments":{}}"#,
            r#"{"name":"x","name":"y"}"#,
            r#"{"name":"x","requestState":false}"#,
        ] {
            assert!(!agrees(call_tool, text), "{text}");
        }

        for text in [
            r#"{"content":[{"type":"text","text":"hi"}],"isError":false}"#,
            r#"{"content":[],"isError":null,"structuredContent":null,"resultType":"complete","_meta":{}}"#,
            r#"{"content":[],"resultType":"input_required","structuredContent":{"a":1}}"#,
        ] {
            assert!(agrees(call_tool_result, text), "{text}");
        }
        for text in [
            r#"{"content":{}}"#,
            r#"{"isError":true}"#,
            r#"{"content":[],"isError":1}"#,
            r#"{"content":[],"resultType":2}"#,
        ] {
            assert!(!agrees(call_tool_result, text), "{text}");
        }

        for text in [r#"{}"#, r#"{"resultType":"complete","_meta":{"a":1}}"#, r#"{"resultType":null,"x":1}"#] {
            assert!(agrees(empty_result, text), "{text}");
        }
        assert!(!agrees(empty_result, r#"{"_meta":null,"_meta":null}"#));

        for text in [r#"{"requestId":3,"reason":"r"}"#, r#"{"requestId":"a","reason":null}"#, r#"{"reason":"x"}"#] {
            assert!(agrees(cancelled, text), "{text}");
        }
        for text in [r#"{"requestId":null}"#, r#"{"requestId":1.5}"#, r#"{"requestId":true}"#] {
            assert!(!agrees(cancelled, text), "{text}");
        }

        for text in [
            r#"{"level":"info","logger":"server","data":{"msg":"m","seq":1}}"#,
            r#"{"level":"emergency","data":null}"#,
            r#"{"level":"debug","data":"text","logger":null}"#,
        ] {
            assert!(agrees(log_message, text), "{text}");
        }
        for text in [
            r#"{"level":"trace","data":1}"#,
            r#"{"level":"info"}"#,
            r#"{"data":1}"#,
            r#"{"level":"in\u0066o","data":1}"#,
        ] {
            assert!(!agrees(log_message, text), "{text}");
        }

        assert!(agrees(resource_uri, r#"{"uri":"file:///a.txt","_meta":null}"#));
        assert!(!agrees(resource_uri, r#"{"uri":null}"#));
    }
}
