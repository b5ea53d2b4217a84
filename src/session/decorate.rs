//! The application's answer to a stateless request, completed and checked on its way
//! out: `resultType`, `_meta["io.modelcontextprotocol/serverInfo"]`, caching hints, and
//! the rules on what kind of result a method may return.
//!
//! The application writes its result as it likes (a typed value, raw JSON); the endpoint
//! looks at it as written and adds what 2026-07-28 requires and it left out:
//!
//! * `resultType: "complete"` when it has none;
//! * `serverInfo` into `_meta` (merged into the application's `_meta`, never a second
//!   `_meta` member, never a second `serverInfo`);
//! * on `server/discover`, the four lists and `resources/read`, when the result is
//!   complete: `ttlMs` and `cacheScope` from [`Config::cache`](super::Config::cache)
//!   unless the application set them (an `input_required` result carries none);
//! * on the closing result of `subscriptions/listen`: `_meta.subscriptionId`.
//!
//! and refuses, with a typed error and nothing written, what the specification forbids:
//! `input_required` outside `tools/call`, `prompts/get` and `resources/read`, or with
//! neither `inputRequests` nor `requestState`, or asking for a capability the client did
//! not declare for this request; `task` outside `tools/call` or to a client that did not
//! declare the tasks extension; any other `resultType`.

use core::ops::Range;

use super::caller_errors::SendError;
use super::config::{CacheHints, Config, Info};
use super::modern::ModernCtx;
use crate::mcp::{Capability, Method, meta_keys};
use crate::wire::{
    Amend, EncodeError, FrameView, JsonKind, JsonOut, ObjectWriter, Plan, RawJson, RequestIdRef, may_have_member,
    write_ahead,
};

/// How the endpoint completes one stateless result.
pub(crate) struct Decoration<'d> {
    pub info: &'d Info<'d>,
    pub method: Option<Method<'static>>,
    pub ctx: &'d ModernCtx,
    pub cache: CacheHints,
    /// A listen stream's id, for its closing result.
    pub subscription: Option<RequestIdRef<'d>>,
    /// The result certainly has neither `resultType` nor `_meta` (the toolkit wrote it
    /// from a value that has none): nothing to look for in it.
    pub fresh: bool,
    // What `plan` found missing.
    result_type: bool,
    ttl: bool,
    scope: bool,
    server_info: bool,
    subscription_id: bool,
}

impl<'d> Decoration<'d> {
    pub fn new(
        info: &'d Info<'d>,
        method: Option<Method<'static>>,
        ctx: &'d ModernCtx,
        cache: CacheHints,
        subscription: Option<RequestIdRef<'d>>,
        fresh: bool,
    ) -> Self {
        Self {
            info,
            method,
            ctx,
            cache,
            subscription,
            fresh,
            result_type: false,
            ttl: false,
            scope: false,
            server_info: false,
            subscription_id: false,
        }
    }
}

/// Writes the answer to a stateless request, completed (see the module docs): what a
/// [`Responder`](super::responder::Responder) of an endpoint built for the stateless era
/// calls, through this type, so that other endpoints do not link it.
pub(crate) type Decorate = fn(
    &mut FrameView<'_>,
    RequestIdRef<'_>,
    Option<Method<'static>>,
    &ModernCtx,
    &Config<'_>,
    &mut ObjectWriter<'_>,
    bool,
) -> Result<Range<usize>, SendError>;

/// The [`Decorate`] of endpoints built for the stateless era. A listen stream's closing
/// result waits for its acknowledgement.
pub(crate) fn decorate(
    tx: &mut FrameView<'_>,
    id: RequestIdRef<'_>,
    method: Option<Method<'static>>,
    ctx: &ModernCtx,
    config: &Config<'_>,
    result: &mut ObjectWriter<'_>,
    fresh: bool,
) -> Result<Range<usize>, SendError> {
    let subscription = match ctx.listen {
        Some(listen) if !listen.acked => return Err(SendError::NotSubscribed),
        Some(_) => Some(id),
        None => None,
    };
    let mut decoration = Decoration::new(&config.info, method, ctx, config.cache, subscription, fresh);
    tx.result_amended(id, result, &mut decoration)
}

/// Whether `method`'s complete results carry caching hints.
pub(crate) fn is_cacheable(method: Option<Method<'_>>) -> bool {
    matches!(
        method,
        Some(
            Method::ServerDiscover
                | Method::ToolsList
                | Method::PromptsList
                | Method::ResourcesList
                | Method::ResourcesTemplatesList
                | Method::ResourcesRead
        )
    )
}

/// Whether `method` may answer with `input_required`.
pub(crate) fn takes_input(method: Option<Method<'_>>) -> bool {
    matches!(method, Some(Method::ToolsCall | Method::PromptsGet | Method::ResourcesRead))
}

/// The capability an input request needs the client to have declared, or why it is not
/// an input request at all.
pub(crate) fn input_request_needs(request: RawJson<'_>) -> Result<Capability, SendError> {
    let method = request.get("method").and_then(|m| m.as_str()).ok_or(SendError::InvalidInputRequest)?;
    let params = request.get("params");
    if method.eq_str("elicitation/create") {
        let url = params.and_then(|p| p.get("mode")).and_then(|m| m.as_str()).is_some_and(|m| m.eq_str("url"));
        Ok(if url { Capability::ElicitationUrl } else { Capability::ElicitationForm })
    } else if method.eq_str("sampling/createMessage") {
        let tools = params.is_some_and(|p| p.contains_key("tools"));
        Ok(if tools { Capability::SamplingTools } else { Capability::Sampling })
    } else if method.eq_str("roots/list") {
        Ok(Capability::Roots)
    } else {
        Err(SendError::InvalidInputRequest)
    }
}

impl Decoration<'_> {
    /// The plan, from what `plan` (or `blind`) found missing.
    fn made(&self, meta_at: Option<usize>) -> Plan {
        let top = self.result_type || self.ttl || self.scope;
        Plan { top, meta: self.server_info || self.subscription_id, meta_at }
    }
}

impl Amend for Decoration<'_> {
    type Error = SendError;

    fn plan(&mut self, object: RawJson<'_>) -> Result<Plan, SendError> {
        let (mut result_type, mut meta, mut ttl, mut scope) = (None, None, false, false);
        let (mut input_requests, mut state) = (None, false);
        // Most results name none of these: a quick pass over the bytes says so, and the
        // walk through the members is skipped.
        let members = (!self.untouched(object)).then(|| object.members()).into_iter().flatten();
        for (key, value) in members {
            match key.raw() {
                b"resultType" => result_type = Some(value),
                b"_meta" => meta = Some(value),
                b"ttlMs" => ttl = true,
                b"cacheScope" => scope = true,
                b"inputRequests" => input_requests = Some(value),
                b"requestState" => state = true,
                _ => {}
            }
        }
        let kind = match result_type {
            None => None,
            Some(v) => Some(v.as_str().ok_or(SendError::ResultTypeNotAllowed)?),
        };
        let complete = match kind {
            None => true,
            Some(k) if k.eq_str("complete") => true,
            Some(k) if k.eq_str("input_required") => {
                if !takes_input(self.method) || (input_requests.is_none() && !state) {
                    return Err(SendError::ResultTypeNotAllowed);
                }
                if let Some(requests) = input_requests {
                    if requests.kind() != JsonKind::Object {
                        return Err(SendError::InvalidInputRequest);
                    }
                    for (_, request) in requests.members() {
                        let needs = input_request_needs(request)?;
                        if !self.ctx.caps.contains(needs) {
                            return Err(SendError::CapabilityNotDeclared(needs));
                        }
                    }
                }
                false
            }
            Some(k) if k.eq_str("task") => {
                if self.method != Some(Method::ToolsCall) || !self.ctx.tasks {
                    return Err(SendError::ResultTypeNotAllowed);
                }
                false
            }
            Some(_) => return Err(SendError::ResultTypeNotAllowed),
        };
        let meta_at = match meta {
            None => None,
            Some(m) if m.is_object() => m.offset_in(object.as_bytes()),
            Some(_) => return Err(SendError::Encode(EncodeError::NotAnObject)),
        };
        let cacheable = complete && is_cacheable(self.method);
        self.result_type = result_type.is_none();
        // Hints the application gave only half of are completed.
        self.ttl = cacheable && !ttl;
        self.scope = cacheable && !scope;
        self.server_info = meta.is_none_or(|m| !m.contains_key(meta_keys::SERVER_INFO));
        self.subscription_id =
            self.subscription.is_some() && meta.is_none_or(|m| !m.contains_key(meta_keys::SUBSCRIPTION_ID));
        Ok(self.made(meta_at))
    }

    /// What `plan` makes of a result that names none of the members it looks at: a
    /// complete one, with everything added.
    fn blind(&mut self) -> Option<Plan> {
        self.result_type = true;
        self.ttl = is_cacheable(self.method);
        self.scope = self.ttl;
        self.server_info = true;
        self.subscription_id = self.subscription.is_some();
        Some(self.made(None))
    }

    fn untouched(&self, object: RawJson<'_>) -> bool {
        // (`inputRequests` and `requestState` matter only with a `resultType`; the
        // caching hints only on a cacheable method.)
        if self.fresh {
            return true;
        }
        let bytes = object.as_bytes();
        !match is_cacheable(self.method) {
            true => may_have_member(bytes, &[b"resultType", b"_meta", b"ttlMs", b"cacheScope"]),
            false => may_have_member(bytes, &[b"resultType", b"_meta"]),
        }
    }

    fn top(&self, _plan: &Plan, out: &mut JsonOut<'_, '_>) -> Result<(), EncodeError> {
        let mut first = true;
        let mut sep = |out: &mut JsonOut<'_, '_>| {
            if !core::mem::take(&mut first) {
                out.put(b",");
            }
        };
        if self.result_type {
            sep(out);
            out.put(b"\"resultType\":\"complete\"");
        }
        if self.ttl {
            sep(out);
            out.put(b"\"ttlMs\":");
            out.u64(self.cache.ttl_ms);
        }
        if self.scope {
            sep(out);
            out.put(b"\"cacheScope\":");
            out.string(self.cache.scope_str());
        }
        Ok(())
    }

    fn meta(&self, _plan: &Plan, out: &mut JsonOut<'_, '_>) -> Result<(), EncodeError> {
        if self.server_info {
            out.put(b"\"io.modelcontextprotocol/serverInfo\":");
            self.info.write(out)?;
        }
        if let (true, Some(id)) = (self.subscription_id, self.subscription) {
            if self.server_info {
                out.put(b",");
            }
            out.put(b"\"io.modelcontextprotocol/subscriptionId\":");
            out.raw(id.as_token());
        }
        Ok(())
    }

    fn ahead(&self, plan: &Plan, out: &mut JsonOut<'_, '_>) -> Result<(), EncodeError> {
        // A tools/call, prompts/get or the like (no hints, no listen stream): the members
        // and the `_meta` key in one piece, then the info.
        if self.result_type && self.server_info && !(self.ttl || self.scope || self.subscription_id) {
            out.put(b"{\"resultType\":\"complete\",\"_meta\":{\"io.modelcontextprotocol/serverInfo\":");
            self.info.write(out)?;
            out.put(b"}");
            return Ok(());
        }
        write_ahead(self, plan, out)
    }

    fn bound(&self) -> usize {
        // `"resultType":"complete",` `"ttlMs":<20 digits>,` `"cacheScope":"private",`
        // `"_meta":{` `"…/serverInfo":` info `,"…/subscriptionId":` id `},`
        let id = self.subscription.map_or(0, |id| id.as_token().len() + 45);
        // Only a frame that did not fit asks: measured then, not kept.
        let info = crate::wire::measure_with(|out| self.info.write(out));
        24 + 29 + 24 + 9 + 38 + info + id + 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcp::{Implementation, ProtocolVersion};
    use crate::session::modern::Listen;
    use crate::wire::{Framing, RequestId, object_writer};

    /// A [`Decoration`] that never plans ahead: the general way (written after the object,
    /// rotated in), which every build had before results were completed ahead of it.
    struct General<'d>(Decoration<'d>);

    impl Amend for General<'_> {
        type Error = SendError;
        fn plan(&mut self, object: RawJson<'_>) -> Result<Plan, SendError> {
            self.0.plan(object)
        }
        fn top(&self, plan: &Plan, out: &mut JsonOut<'_, '_>) -> Result<(), EncodeError> {
            self.0.top(plan, out)
        }
        fn meta(&self, plan: &Plan, out: &mut JsonOut<'_, '_>) -> Result<(), EncodeError> {
            self.0.meta(plan, out)
        }
        fn bound(&self) -> usize {
            self.0.bound()
        }
    }

    /// The stateless completion itself, ahead of the object where it may be (wide builds)
    /// or not at all: the same frame or the same error, for results with and without what
    /// it adds (a `_meta` with other entries, a `resultType` of each kind, the caching
    /// hints, empty objects, whitespace after `{`, the names only deeper), on a cacheable
    /// method, `tools/call` and a listen stream's close, at every buffer size; and a result
    /// the toolkit calls fresh (`tools/call`, neither member at its top) as if it were not.
    #[test]
    fn completion_ahead_gives_the_general_frame() {
        let objects = [
            "{}",
            "{ }",
            "{\n\"a\":1}",
            r#"{"content":[{"type":"text","text":"hi","_meta":{"x":1}}],"structuredContent":{"_meta":{}}}"#,
            r#"{"_meta":{"x":"y"},"a":1}"#,
            r#"{"a":1,"_meta":{ }}"#,
            r#"{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"n","version":"1"}}}"#,
            r#"{"resultType":"complete"}"#,
            r#"{"resultType":"input_required","requestState":"s"}"#,
            r#"{"resultType":"task"}"#,
            r#"{"resultType":"other"}"#,
            r#"{"ttlMs":5,"tools":[]}"#,
            r#"{"cacheScope":"public"}"#,
            r#"{"tools":[{"name":"resultType","_meta":{}}]}"#,
            r#"{"_meta":7}"#,
        ];
        // Typed, and given as JSON on one line or over several (the line breaks are looked
        // for once, when the `Info` is made).
        let infos = [
            Info::from(Implementation::new("srv", "1.0")),
            Info::from(RawJson::parse(br#"{"name":"srv","version":"1.0"}"#).unwrap()),
            Info::from(RawJson::parse(b"{\"name\":\"srv\",\r\n \"version\":\"1.0\"\n}").unwrap()),
        ];
        let plain = ModernCtx {
            version: ProtocolVersion::V2026_07_28,
            caps: Default::default(),
            tasks: true,
            log: None,
            listen: None,
            meta: (0, 0),
        };
        let listen = ModernCtx { listen: Some(Listen::default()), ..plain };
        let sub = RequestId::from_u64(9);
        let cases = [
            (Some(Method::ToolsCall), &plain, None),
            (Some(Method::ToolsList), &plain, None),
            (Some(Method::ResourcesRead), &plain, None),
            (None, &listen, Some(sub.as_ref())),
        ];
        let id = RequestId::from_u64(7);
        let mut runs = 0;
        for (text, info) in objects.iter().flat_map(|t| infos.iter().map(move |i| (t, i))) {
            let object = RawJson::parse(text.as_bytes()).unwrap();
            for &(method, ctx, subscription) in &cases {
                for framing in [Framing::Newline, Framing::Tagged] {
                    for capacity in 0..text.len() + 200 {
                        let run = |general: bool, fresh: bool| {
                            let mut buf = std::vec![0u8; capacity];
                            let mut len = capacity.min(3);
                            let mut view = FrameView::new(&mut buf, &mut len, framing, Some(1));
                            let cache = CacheHints { ttl_ms: 1000, ..Default::default() };
                            let d = Decoration::new(info, method, ctx, cache, subscription, fresh);
                            let got = match general {
                                true => view.result_amended(id.as_ref(), &mut object_writer(&object), &mut General(d)),
                                false => view.result_amended(id.as_ref(), &mut object_writer(&object), &mut { d }),
                            };
                            (got.map(|r| buf[r].to_vec()), len)
                        };
                        let general = run(true, false);
                        assert_eq!(run(false, false), general, "{text} in {capacity} bytes, {method:?} {framing:?}");
                        // What the toolkit claims `fresh` for (no `resultType`, no `_meta`
                        // at the top: tools/call has no caching hints) is completed so, too.
                        if method == Some(Method::ToolsCall)
                            && !object.contains_key("resultType")
                            && !object.contains_key("_meta")
                        {
                            assert_eq!(run(false, true), general, "fresh {text} in {capacity} bytes, {framing:?}");
                            assert_eq!(run(true, true), general, "fresh {text} in {capacity} bytes, {framing:?}");
                        }
                        runs += 1;
                    }
                }
            }
        }
        assert!(runs > 60_000, "{runs}");
    }

    /// An `Info` given as JSON is written as raw JSON is (compact when it holds line
    /// breaks, verbatim otherwise), whether it was looked at when made or not: every
    /// whitespace character at every place of a small object, and breaks inside it.
    #[test]
    fn info_json_is_written_as_raw_json() {
        let base = br#"{"name":"srv","version":"1.0","title":"a b"}"#;
        let mut texts = std::vec![base.to_vec()];
        for at in 0..=base.len() {
            for ws in [&b" "[..], b"\n", b"\r\n", b"\t", b"\n\n "] {
                let mut t = base[..at].to_vec();
                t.extend_from_slice(ws);
                t.extend_from_slice(&base[at..]);
                texts.push(t);
            }
        }
        let id = RequestId::from_u64(1);
        let mut checked = 0;
        for text in &texts {
            // Only whitespace between tokens is valid there.
            let Ok(json) = RawJson::parse(text) else { continue };
            let frame = |write: &dyn Fn(&mut JsonOut<'_, '_>) -> Result<(), EncodeError>| {
                let mut buf = std::vec![0u8; 256];
                let mut len = 0;
                let mut view = FrameView::new(&mut buf, &mut len, Framing::Newline, None);
                let range = view.result_with(id.as_ref(), |out| write(out)).unwrap();
                buf[range].to_vec()
            };
            let info = Info::from(json);
            let got = frame(&|out| info.write(out));
            let want = frame(&|out| {
                out.raw(json.as_bytes());
                Ok(())
            });
            assert_eq!(got, want, "{}", String::from_utf8_lossy(text));
            assert_eq!(got.iter().filter(|&&b| b == b'\n').count(), 1, "{}", String::from_utf8_lossy(text));
            checked += 1;
        }
        assert!(checked > 100, "{checked}");
    }
}
