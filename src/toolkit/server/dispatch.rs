//! Answering each kind of request, one [`Kind`] per kind of handler.
//!
//! A table names the kinds it has through function pointers its builder methods set
//! (`Table::tools` sets the tools' [`Kind`], and so on). What is reached only through a
//! pointer nobody set is never linked: a tools-only firmware carries no code for
//! resources, templates, prompts or completions (the same trick as the endpoint's typed
//! capabilities, see `session/config.rs`).

use serde::Deserialize;

use super::complete::Complete;
use super::list::{List, Page, Paging};
use super::prompt::Get;
use super::resource::{Read, short_text};
use super::table::Items;
use super::tool::Call;
use super::uri_template::match_template;
use super::work::{Runtime, answer};
use crate::mcp::{CompleteParams, Method};
use crate::session::{Cursor, IncomingRequest};
use crate::wire::{EncodeError, ErrorCode, FrameWriter, JsonStr, RawJson};

/// What answering a request needs of the server.
pub(crate) struct Parts<'x, 't, S, J> {
    pub items: &'x Items<'t, S, J>,
    pub paging: &'x Paging,
    pub runtime: &'x mut dyn Runtime<J>,
}

/// Answers the requests of one kind of handler (`false`: not one of its methods).
type Serve<'t, S, J> = for<'x, 'e> fn(&mut Parts<'x, 't, S, J>, &mut S, &mut IncomingRequest<'e>) -> bool;

/// The size of the largest page of this kind's lists.
type LargestPage<'t, S, J> = fn(&Items<'t, S, J>, &Paging) -> usize;

/// One kind of handler: how its requests are answered and how large its pages get.
pub(crate) struct Kind<'t, S, J> {
    pub serve: Serve<'t, S, J>,
    pub largest_page: LargestPage<'t, S, J>,
}

impl<S, J> Clone for Kind<'_, S, J> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S, J> Copy for Kind<'_, S, J> {}

impl<'t, S, J> Kind<'t, S, J> {
    pub const TOOLS: Self = Kind { serve: serve_tools, largest_page: |i, p| largest(i, p, List::Tools) };
    pub const RESOURCES: Self = Kind {
        serve: serve_resources,
        largest_page: |i, p| largest(i, p, List::Resources).max(largest(i, p, List::Templates)),
    };
    pub const PROMPTS: Self = Kind { serve: serve_prompts, largest_page: |i, p| largest(i, p, List::Prompts) };
    pub const COMPLETIONS: Self = Kind { serve: serve_completions, largest_page: |_, _| 0 };
}

/// The kinds a table (or a builder) has.
pub(crate) struct Kinds<'t, S, J> {
    pub tools: Option<Kind<'t, S, J>>,
    pub resources: Option<Kind<'t, S, J>>,
    pub prompts: Option<Kind<'t, S, J>>,
    pub completions: Option<Kind<'t, S, J>>,
}

impl<S, J> Clone for Kinds<'_, S, J> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S, J> Copy for Kinds<'_, S, J> {}

impl<'t, S, J> Kinds<'t, S, J> {
    pub const NONE: Self = Kinds { tools: None, resources: None, prompts: None, completions: None };

    /// Each kind either has.
    #[cfg(feature = "alloc")]
    pub fn or(self, other: Self) -> Self {
        Kinds {
            tools: self.tools.or(other.tools),
            resources: self.resources.or(other.resources),
            prompts: self.prompts.or(other.prompts),
            completions: self.completions.or(other.completions),
        }
    }

    pub fn all(self) -> [Option<Kind<'t, S, J>>; 4] {
        [self.tools, self.resources, self.prompts, self.completions]
    }
}

/// `tools/call` and `prompts/get` params: the name, and the arguments kept raw.
#[derive(Deserialize)]
#[cfg_attr(test, derive(Debug, PartialEq))]
struct Named<'a> {
    #[serde(borrow)]
    name: JsonStr<'a>,
    #[serde(borrow, default)]
    arguments: Option<RawJson<'a>>,
}

impl<'a> Named<'a> {
    /// The params of `tools/call` or `prompts/get`, or `None` if they are not such.
    ///
    /// Read straight from the text where nothing is unusual (see `wire::fields`): serde's
    /// visitors cost more than the walk, above all for the members they skip (the
    /// `_meta` every 2026-07-28 request carries). Anything else (an escaped name, a
    /// duplicate, a name that is not a string) is left to serde, which decodes the same
    /// bytes: both give the same answer.
    /// `meta`: where the request's `_meta` stands as the endpoint walked it (a stateless
    /// request's), stepped over without a second walk.
    fn of(params: RawJson<'a>, meta: Option<(usize, usize)>) -> Option<Self> {
        if !crate::wire::COMPACT
            && let Some(named) = Self::direct(params, meta)
        {
            return Some(named);
        }
        params.decode::<Named<'_>>().ok()
    }

    fn direct(params: RawJson<'a>, meta: Option<(usize, usize)>) -> Option<Self> {
        use crate::wire::fields::{Seen, Value, each_member, each_member_knowing};
        let (mut name, mut arguments) = (None, None);
        let mut seen = Seen::default();
        let each = |key: &'a [u8], v: Value<'a>| {
            match key {
                b"name" => name = Some(seen.take(0, v.str())?),
                b"arguments" => arguments = seen.take(1, v.nullable(|v: Value<'a>| Some(v.raw())))?,
                _ => {}
            }
            Some(())
        };
        // (A handshake-era request has no walked `_meta`: the plain walk, with nothing to
        // look out for.)
        match meta {
            None => each_member(params, each)?,
            Some(_) => each_member_knowing(params, meta, each)?,
        }
        Some(Named { name: name?, arguments })
    }
}

/// `resources/read` params.
#[derive(Deserialize)]
struct Uri<'a> {
    #[serde(borrow)]
    uri: JsonStr<'a>,
}

/// The longest URI matched against templates when it came escaped.
const URI_SCRATCH: usize = 512;

fn len<S, J>(items: &Items<'_, S, J>, list: List) -> usize {
    match list {
        List::Tools => items.tool_count(),
        List::Resources => items.resource_count(),
        List::Templates => items.template_count(),
        List::Prompts => items.prompt_count(),
    }
}

/// Writes (or measures, into an empty writer) the page of `list` at `range`.
fn write_page<S, J>(
    w: &mut FrameWriter<'_>,
    items: &Items<'_, S, J>,
    list: List,
    range: core::ops::Range<usize>,
    next: Option<Cursor>,
) -> Result<core::ops::Range<usize>, EncodeError> {
    let field = list.field();
    match list {
        List::Tools => w.value(&Page { field, items: range.filter_map(|i| items.tool(i)).map(|t| t.tool()), next }),
        List::Resources => w.value(&Page { field, items: range.filter_map(|i| items.resource(i)), next }),
        List::Templates => {
            w.value(&Page { field, items: range.filter_map(|i| items.template(i)).map(|t| t.template()), next })
        }
        List::Prompts => {
            w.value(&Page { field, items: range.filter_map(|i| items.prompt(i)).map(|p| p.prompt()), next })
        }
    }
}

/// The size of the largest page of `list`.
fn largest<S, J>(items: &Items<'_, S, J>, paging: &Paging, list: List) -> usize {
    let len = len(items, list);
    let mut largest = 0;
    let mut start = 0;
    loop {
        let (range, next) = paging.page_at(list, start, len);
        let mut none = [0u8; 0];
        let size = match write_page(&mut FrameWriter::unterminated(&mut none), items, list, range, next) {
            Ok(r) => r.len(),
            Err(EncodeError::BufferTooSmall { needed, .. }) => needed,
            Err(_) => 0,
        };
        largest = largest.max(size);
        start += paging.page_size;
        if start >= len {
            return largest;
        }
    }
}

/// How many items of `list` are offered to a request (`modern`: its 2026-07-28 view).
fn offered_len<S, J>(items: &Items<'_, S, J>, list: List, modern: Option<crate::session::ModernRequest>) -> usize {
    match list {
        List::Tools => items.tools().filter(|t| t.offered(modern)).count(),
        List::Prompts => items.prompts().filter(|p| p.offered(modern)).count(),
        other => len(items, other),
    }
}

/// Answers a list request with the page it asks for. Tools and prompts are paged over
/// those offered to the request (see `ToolHandler::offered`): one that comes or goes
/// moves the positions after it, which is a change of the list, whose cursors the
/// application makes stale by announcing it.
fn list<S, J>(parts: &mut Parts<'_, '_, S, J>, request: &mut IncomingRequest<'_>, list: List) {
    let modern = request.modern();
    let (range, next) = match parts.paging.page(list, request.params, offered_len(parts.items, list, modern)) {
        Ok(page) => page,
        Err(e) => {
            let _ = request.respond_error(e.code(), e.message());
            return;
        }
    };
    let items = parts.items;
    let later: &mut dyn Runtime<J> = &mut *parts.runtime;
    let (skip, take) = (range.start, range.len());
    let field = list.field();
    match list {
        List::Tools => {
            let tools = items.tools().filter(move |t| t.offered(modern)).skip(skip).take(take).map(|t| t.tool());
            answer(request, later, &Page { field, items: tools, next })
        }
        List::Resources => {
            answer(request, later, &Page { field, items: range.filter_map(|i| items.resource(i)), next })
        }
        List::Templates => {
            let page = Page { field, items: range.filter_map(|i| items.template(i)).map(|t| t.template()), next };
            answer(request, later, &page)
        }
        List::Prompts => {
            let prompts = items.prompts().filter(move |p| p.offered(modern)).skip(skip).take(take).map(|p| p.prompt());
            answer(request, later, &Page { field, items: prompts, next })
        }
    }
}

fn serve_tools<S, J>(parts: &mut Parts<'_, '_, S, J>, state: &mut S, request: &mut IncomingRequest<'_>) -> bool {
    match request.method {
        Method::ToolsList => list(parts, request, List::Tools),
        Method::ToolsCall => {
            let ctx = request.modern_ctx();
            let (modern, meta) = (ctx.as_ref().map(|c| c.view()), IncomingRequest::walked_meta(ctx));
            let Some(params) = request.params.and_then(|p| Named::of(p, meta)) else {
                let _ =
                    request.respond_error(ErrorCode::INVALID_PARAMS, "Invalid params: tools/call needs a tool name");
                return true;
            };
            let arguments = params.arguments.filter(|a| !a.is_null()).unwrap_or(RawJson::EMPTY_OBJECT);
            match parts.items.tools().find(|t| t.name() == params.name && t.offered(modern)) {
                Some(tool) => tool.call(state, Call { request, arguments, runtime: &mut *parts.runtime }),
                None => {
                    let message = short_text(&format_args!("Unknown tool: {}", params.name));
                    let _ = request.respond_error(ErrorCode::INVALID_PARAMS, &message);
                }
            }
        }
        _ => return false,
    }
    true
}

fn serve_resources<S, J>(parts: &mut Parts<'_, '_, S, J>, state: &mut S, request: &mut IncomingRequest<'_>) -> bool {
    match request.method {
        Method::ResourcesList => list(parts, request, List::Resources),
        Method::ResourcesTemplatesList => list(parts, request, List::Templates),
        Method::ResourcesRead => read(parts, state, request),
        _ => return false,
    }
    true
}

fn read<S, J>(parts: &mut Parts<'_, '_, S, J>, state: &mut S, request: &mut IncomingRequest<'_>) {
    let Some(Uri { uri }) = request.params.and_then(|p| p.decode::<Uri<'_>>().ok()) else {
        let _ = request.respond_error(ErrorCode::INVALID_PARAMS, "Invalid params: resources/read needs a uri");
        return;
    };
    let later = &mut *parts.runtime;
    if let Some((set, index)) = parts.items.find_resource(uri) {
        return set.read(state, index, Read { request, uri, later });
    }
    let mut scratch = [0u8; URI_SCRATCH];
    let text = uri.as_plain().or_else(|| uri.unescape_into(&mut scratch).ok());
    if let Some(text) = text {
        for template in parts.items.templates() {
            let pattern = template.template().uri_template;
            let mut pattern_scratch = [0u8; URI_SCRATCH];
            let Some(pattern) = pattern.as_plain().or_else(|| pattern.unescape_into(&mut pattern_scratch).ok()) else {
                continue;
            };
            if let Some(vars) = match_template(pattern, text) {
                return template.read(state, &vars, Read { request, uri, later });
            }
        }
    }
    Read { request, uri, later }.not_found();
}

fn serve_prompts<S, J>(parts: &mut Parts<'_, '_, S, J>, state: &mut S, request: &mut IncomingRequest<'_>) -> bool {
    match request.method {
        Method::PromptsList => list(parts, request, List::Prompts),
        Method::PromptsGet => {
            let ctx = request.modern_ctx();
            let (modern, meta) = (ctx.as_ref().map(|c| c.view()), IncomingRequest::walked_meta(ctx));
            let Some(params) = request.params.and_then(|p| Named::of(p, meta)) else {
                let _ =
                    request.respond_error(ErrorCode::INVALID_PARAMS, "Invalid params: prompts/get needs a prompt name");
                return true;
            };
            let arguments = params.arguments.filter(|a| !a.is_null()).unwrap_or(RawJson::EMPTY_OBJECT);
            match parts.items.prompts().find(|p| params.name == p.prompt().name && p.offered(modern)) {
                Some(prompt) => prompt.get(state, Get { request, arguments, later: &mut *parts.runtime }),
                None => {
                    let message = short_text(&format_args!("Unknown prompt: {}", params.name));
                    let _ = request.respond_error(ErrorCode::INVALID_PARAMS, &message);
                }
            }
        }
        _ => return false,
    }
    true
}

fn serve_completions<S, J>(parts: &mut Parts<'_, '_, S, J>, state: &mut S, request: &mut IncomingRequest<'_>) -> bool {
    if request.method != Method::CompletionComplete {
        return false;
    }
    let Some(params) = request.params.and_then(|p| p.decode::<CompleteParams<'_>>().ok()) else {
        let _ = request.respond_error(
            ErrorCode::INVALID_PARAMS,
            "Invalid params: completion/complete needs a ref and an argument",
        );
        return true;
    };
    let argument = params.argument;
    let completer = parts.items.completers().find(|c| {
        let (target, name) = c.target();
        target.matches(&params.reference) && argument.name == name
    });
    let reply = Complete { request };
    match completer {
        Some(c) => c.complete(state, argument.value, params.context, reply),
        None => reply.none(),
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The direct reading of `tools/call` / `prompts/get` params answers as serde does
    /// where it answers, and gives up (serde then decodes) where serde refuses.
    #[test]
    fn named_params_read_directly_agree_with_serde() {
        let decoded = |text: &'static str| {
            let raw = RawJson::parse(text.as_bytes()).unwrap();
            (Named::direct(raw, None), raw.decode::<Named<'_>>().ok(), Named::of(raw, None))
        };
        let accepted = [
            r#"{"name":"echo","arguments":{"message":"hello"}}"#,
            r#"{"name":"echo","arguments":{"message":"hello"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}"#,
            r#"{"_meta":{"progressToken":1},"name":"a\"b\u00e9"}"#,
            r#" { "arguments" : null , "name" : "x" , "other" : [1,{"name":2}] } "#.trim(),
            r#"{"name":"x","arguments":[1,2]}"#,
            r#"{"name":"x","arguments":"text"}"#,
        ];
        for text in accepted {
            let (direct, serde, of) = decoded(text);
            assert!(direct.is_some(), "{text}: the direct reading gave up");
            assert_eq!(direct, serde, "{text}");
            assert_eq!(of, serde, "{text}");
        }
        let refused = [
            r#"{"arguments":{}}"#,
            r#"{"name":3}"#,
            r#"{"name":null}"#,
            r#"{"name":"a","name":"b"}"#,
            r#"{"name":"a","arguments":{},"arguments":{}}"#,
            r#"[]"#,
            r#""name""#,
        ];
        for text in refused {
            let (direct, serde, of) = decoded(text);
            assert_eq!((direct, &serde), (None, &None), "{text}");
            assert_eq!(of, None, "{text}");
        }
        // The `_meta` the endpoint walked is stepped over: the same answer. A value that
        // is not one of the params' own (another buffer's, a part of one) changes nothing.
        let at = |v: RawJson<'_>| Some((v.as_bytes().as_ptr() as usize, v.as_bytes().len()));
        for text in [
            r#"{"name":"echo","arguments":{"a":[1,{"b":"}"}]},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","x":{"name":"no"}}}"#,
            r#"{"_meta":{"name":"no"},"name":"echo"}"#,
            r#"{"_meta" : { } ,"name":"echo","arguments":null}"#,
        ] {
            let raw = RawJson::parse(text.as_bytes()).unwrap();
            let meta = raw.get("_meta").unwrap();
            let serde = raw.decode::<Named<'_>>().ok();
            assert!(serde.is_some(), "{text}");
            assert_eq!(Named::direct(raw, at(meta)), serde, "{text}");
            assert_eq!(Named::of(raw, at(meta)), serde, "{text}");
            let elsewhere = RawJson::parse(br#"{"name":"no"}"#).unwrap();
            assert_eq!(Named::direct(raw, at(elsewhere)), serde, "{text}");
            // Stepped over, not walked: told it is two bytes long, the reading goes wrong.
            let short = at(meta).map(|(a, _)| (a, 2));
            assert_ne!(Named::direct(raw, short), serde, "{text}");
            if let Some((_, inner)) = meta.members().find(|(_, v)| v.is_object()) {
                assert_eq!(Named::direct(raw, at(inner)), serde, "{text}");
            }
        }
        // An escaped member name is serde's to read: the direct reading gives up, the
        // answer is serde's.
        let (direct, serde, of) = decoded(r#"{"n\u0061me":"x"}"#);
        assert_eq!(direct, None);
        assert_eq!(of, serde);
    }
}
