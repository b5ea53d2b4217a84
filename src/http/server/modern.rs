//! The 2026-07-28 (stateless) rules a POST must meet before its body reaches an
//! endpoint: the standard request headers repeat what the body says, so that proxies
//! and load balancers can route on them, and a server must refuse a request whose
//! headers are missing or say something else (`400` with -32020 `HeaderMismatch`;
//! `schema/2026-07-28/schema.ts`: `HEADER_MISMATCH = -32020`).
//!
//! | header | required for | must equal |
//! |---|---|---|
//! | `MCP-Protocol-Version` | every request and notification | `params._meta["io.modelcontextprotocol/protocolVersion"]` |
//! | `Mcp-Method` | every request and notification | `method` |
//! | `Mcp-Name` | `tools/call`, `prompts/get` | `params.name` |
//! | `Mcp-Name` | `resources/read` | `params.uri` |
//! | `Mcp-Name` | `tasks/get`, `tasks/update`, `tasks/cancel` (tasks extension) | `params.taskId` |
//!
//! Values are compared after removing the optional whitespace around a field value
//! (RFC 9110 §5.5), case-sensitively, and after decoding the `=?base64?…?=` sentinel
//! the client uses for values that are not plain visible ASCII. `Mcp-Param-*` headers
//! depend on the tool's `inputSchema` (`x-mcp-header`), which only the application
//! knows; they are not checked here.
//!
//! The rest of a modern request's validation (the required `_meta` fields, the
//! version, the era's methods, client capabilities) is the session endpoint's, as on
//! stdio.

use super::refusal::BadRequest;
use super::request::{Headers, single, trim};
use crate::ProtocolVersion;
use crate::http::headers::decode_param_value;
use crate::wire::{ErrorCode, JsonStr, MemberSpans, Message, RawJson};

/// The `_meta` key that makes a request one of the stateless era.
const VERSION_KEY: &str = "io.modelcontextprotocol/protocolVersion";

/// The longest header value compared after base64 decoding (a longer one is refused
/// as a mismatch rather than compared in part).
pub const MAX_DECODED_HEADER: usize = 1024;

/// Which standard header of a 2026-07-28 request is wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum HeaderMismatch {
    /// `MCP-Protocol-Version` is missing.
    MissingProtocolVersion,
    /// `MCP-Protocol-Version` differs from the version in `_meta`.
    ProtocolVersion,
    /// `Mcp-Method` is missing.
    MissingMethod,
    /// `Mcp-Method` differs from the body's `method`.
    Method,
    /// `Mcp-Name` is missing for a method that names a tool, prompt or resource.
    MissingName,
    /// `Mcp-Name` differs from `params.name` / `params.uri`, or cannot be decoded.
    Name,
    /// An `Mcp-Param-*` header is missing, cannot be decoded, or differs from the
    /// argument (see [`check_param_headers`]).
    Param,
}

impl HeaderMismatch {
    /// The error message (one sentence, naming the header).
    pub const fn message(self) -> &'static str {
        match self {
            Self::MissingProtocolVersion => "Header mismatch: MCP-Protocol-Version header is required",
            Self::ProtocolVersion => "Header mismatch: MCP-Protocol-Version does not match the body's protocol version",
            Self::MissingMethod => "Header mismatch: Mcp-Method header is required",
            Self::Method => "Header mismatch: Mcp-Method does not match the body's method",
            Self::MissingName => "Header mismatch: Mcp-Name header is required",
            Self::Name => "Header mismatch: Mcp-Name does not match the body",
            Self::Param => "Header mismatch: an Mcp-Param header does not match the tool's arguments",
        }
    }
}

/// Whether `body` is one message of the stateless era: a request or notification
/// whose `params._meta` names a protocol version (what decides the era of a POST that
/// carries no session id), or, failing that, whether the `MCP-Protocol-Version`
/// header names the stateless version.
pub fn is_modern_post(header_version: Option<ProtocolVersion>, body: &[u8]) -> bool {
    is_modern_message(header_version, || Message::parse(body).ok())
}

/// [`is_modern_post`] over the body's message (`None`: not one valid message), parsed
/// only if the header does not decide: the HTTP server parses a body once for every
/// check it makes before the endpoint.
pub(crate) fn is_modern_message<'b>(
    header_version: Option<ProtocolVersion>,
    message: impl FnOnce() -> Option<Message<'b>>,
) -> bool {
    if header_version.is_some_and(|v| !v.has_handshake()) {
        return true;
    }
    let params = match message() {
        Some(Message::Request(r)) => r.params,
        Some(Message::Notification(n)) => n.params,
        _ => None,
    };
    params.and_then(|p| p.get("_meta")).and_then(|m| m.get(VERSION_KEY)).is_some()
}

/// Checks the standard headers of a 2026-07-28 POST against its body: 400 with
/// -32020 ([`BadRequest::HeaderMismatch`]) when one is missing or says something else.
///
/// | header | required for | must equal |
/// |---|---|---|
/// | `MCP-Protocol-Version` | every request and notification | `params._meta["io.modelcontextprotocol/protocolVersion"]` |
/// | `Mcp-Method` | every request and notification | `method` |
/// | `Mcp-Name` | `tools/call`, `prompts/get` | `params.name` |
/// | `Mcp-Name` | `resources/read` | `params.uri` |
/// | `Mcp-Name` | `tasks/get`, `tasks/update`, `tasks/cancel` (tasks extension) | `params.taskId` |
///
/// Values are compared after removing optional whitespace (RFC 9110 §5.5),
/// case-sensitively, after decoding the `=?base64?…?=` sentinel. The rest of a modern
/// request's validation (required `_meta` fields, the version, the era's methods,
/// client capabilities) is the session endpoint's. A body that is not a request or
/// notification passes: the body classifier and the endpoint answer it.
pub fn check_modern_headers<H: Headers + ?Sized>(headers: &H, body: &[u8]) -> Result<(), BadRequest> {
    check_modern_message::<_, 0>(headers, Message::parse(body).ok().as_ref(), None)
}

/// [`check_modern_headers`] over the body's message (`None`: not one valid message).
pub(crate) fn check_modern_message<'b, H: Headers + ?Sized, const N: usize>(
    headers: &H,
    message: Option<&Message<'b>>,
    spans: Option<&MemberSpans<'b, N>>,
) -> Result<(), BadRequest> {
    let (method, params) = match message {
        Some(Message::Request(r)) => (r.method, r.params),
        Some(Message::Notification(n)) => (n.method, n.params),
        _ => return Ok(()),
    };
    let mismatch = |m| Err(BadRequest::HeaderMismatch(m));
    let one = |name| single(headers, name).map_err(|()| BadRequest::DuplicateField(name));

    let named = if method.eq_str("tools/call") || method.eq_str("prompts/get") {
        Some("name")
    } else if method.eq_str("resources/read") {
        Some("uri")
    } else if method.eq_str("tasks/get") || method.eq_str("tasks/update") || method.eq_str("tasks/cancel") {
        // The tasks extension's routing header: a load balancer sends a task's requests
        // to the instance that holds it.
        Some("taskId")
    } else {
        None
    };
    // `_meta` and the named member in one walk of the params (looking each up walked
    // them again for each), the first of each name as `get` would find it; from the
    // members the parse recorded, when it recorded all of these params'.
    let (meta, member) = match spans.zip(params).and_then(|(s, p)| s.members_of(p)) {
        Some(recorded) => meta_and_member(recorded, named),
        None => meta_and_member(params.iter().flat_map(|p| p.members()), named),
    };
    let value = member.and_then(|v| v.as_str());
    let version = meta.and_then(|m| m.get(VERSION_KEY)).and_then(|v| v.as_str());
    match (one("mcp-protocol-version")?, version) {
        (None, _) => return mismatch(HeaderMismatch::MissingProtocolVersion),
        (Some(h), Some(v)) if !equals(h, v) => return mismatch(HeaderMismatch::ProtocolVersion),
        // Without a version in `_meta` the endpoint refuses the request (-32602).
        _ => {}
    }
    match one("mcp-method")? {
        None => return mismatch(HeaderMismatch::MissingMethod),
        Some(h) if !equals(h, method) => return mismatch(HeaderMismatch::Method),
        Some(_) => {}
    }
    if named.is_some() {
        match (one("mcp-name")?, value) {
            (None, Some(_)) => return mismatch(HeaderMismatch::MissingName),
            (Some(h), Some(v)) if !equals_decoded(h, v) => return mismatch(HeaderMismatch::Name),
            (Some(_), None) => return mismatch(HeaderMismatch::Name),
            // Neither: the endpoint refuses the params.
            _ => {}
        }
    }
    Ok(())
}

/// The first `_meta` member and the first member named `named`, reading no further
/// than both.
fn meta_and_member<'b>(
    members: impl Iterator<Item = (JsonStr<'b>, RawJson<'b>)>,
    named: Option<&str>,
) -> (Option<RawJson<'b>>, Option<RawJson<'b>>) {
    let (mut meta, mut member) = (None, None);
    for (name, v) in members {
        if meta.is_none() && name.eq_str("_meta") {
            meta = Some(v);
        } else if member.is_none() && named.is_some_and(|m| name.eq_str(m)) {
            member = Some(v);
        }
        if meta.is_some() && (member.is_some() || named.is_none()) {
            break;
        }
    }
    (meta, member)
}

/// A tool argument that also travels in a header: the `inputSchema` property marked
/// `x-mcp-header: "<header>"`, sent as `Mcp-Param-<header>`. Only the application knows
/// its tools' schemas, so it hands these to the transport.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamHeader<'a> {
    /// The tool.
    pub tool: &'a str,
    /// The argument (a property of the tool's `inputSchema`).
    pub property: &'a str,
    /// The header's name after `Mcp-Param-`.
    pub header: &'a str,
}

/// The longest `Mcp-Param-` header name checked.
const MAX_PARAM_HEADER_NAME: usize = 128;

/// Checks the `Mcp-Param-*` headers of a 2026-07-28 `tools/call` against its arguments,
/// for the tool's entries in `params`: an argument that is present and not `null` must
/// be in its header (the base64 sentinel decoded; a string as is, an integer or number
/// compared numerically, a boolean as `true`/`false`), and a header must not carry an
/// argument the body does not have. Any other request passes. A refusal is -32020
/// ([`HeaderMismatch::Param`]).
pub fn check_param_headers<H: Headers + ?Sized>(
    headers: &H,
    body: &[u8],
    params: &[ParamHeader<'_>],
) -> Result<(), BadRequest> {
    check_param_message(headers, Message::parse(body).ok().as_ref(), params)
}

/// [`check_param_headers`] over the body's message (`None`: not one valid message).
pub(crate) fn check_param_message<H: Headers + ?Sized>(
    headers: &H,
    message: Option<&Message<'_>>,
    params: &[ParamHeader<'_>],
) -> Result<(), BadRequest> {
    let Some(Message::Request(r)) = message else { return Ok(()) };
    if params.is_empty() || !r.method.eq_str("tools/call") {
        return Ok(());
    }
    let Some(tool) = r.params.and_then(|p| p.get("name")).and_then(|n| n.as_str()) else { return Ok(()) };
    // The arguments are looked for only for a tool with such headers (most have none).
    let mut arguments = None;
    for p in params.iter().filter(|p| tool.eq_str(p.tool)) {
        let arguments = *arguments.get_or_insert_with(|| r.params.and_then(|p| p.get("arguments")));
        let mut name = [0u8; MAX_PARAM_HEADER_NAME];
        let name = param_header_name(p.header, &mut name).ok_or(BadRequest::HeaderMismatch(HeaderMismatch::Param))?;
        let header = single(headers, name).map_err(|()| BadRequest::HeaderMismatch(HeaderMismatch::Param))?;
        let value = arguments.and_then(|a| a.get(p.property)).filter(|v| !v.is_null());
        let ok = match (header, value) {
            (None, None) => true,
            (Some(h), Some(v)) => param_matches(h, v),
            _ => false,
        };
        if !ok {
            return Err(BadRequest::HeaderMismatch(HeaderMismatch::Param));
        }
    }
    Ok(())
}

/// `mcp-param-<header>` in `buf`.
fn param_header_name<'b>(header: &str, buf: &'b mut [u8; MAX_PARAM_HEADER_NAME]) -> Option<&'b str> {
    const PREFIX: &[u8] = b"mcp-param-";
    let len = PREFIX.len() + header.len();
    let out = buf.get_mut(..len)?;
    out[..PREFIX.len()].copy_from_slice(PREFIX);
    out[PREFIX.len()..].copy_from_slice(header.as_bytes());
    core::str::from_utf8(out).ok()
}

/// A header's value (decoded) says what the argument says.
fn param_matches(header: &[u8], value: RawJson<'_>) -> bool {
    let mut scratch = [0u8; MAX_DECODED_HEADER];
    let Ok(h) = decode_param_value(header, &mut scratch) else { return false };
    if let Some(s) = value.as_str() {
        return s.eq_str(h);
    }
    if let Some(b) = value.as_bool() {
        return h == if b { "true" } else { "false" };
    }
    if let Some(i) = value.as_i64() {
        return h.parse::<i64>().is_ok_and(|x| x == i);
    }
    match (value.as_f64(), h.parse::<f64>()) {
        (Some(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// A header value (optional whitespace removed) equals a JSON string's content.
fn equals(header: &[u8], value: JsonStr<'_>) -> bool {
    core::str::from_utf8(trim(header)).is_ok_and(|h| value.eq_str(h))
}

/// As [`equals`], with the base64 sentinel decoded first.
fn equals_decoded(header: &[u8], value: JsonStr<'_>) -> bool {
    let mut scratch = [0u8; MAX_DECODED_HEADER];
    decode_param_value(header, &mut scratch).is_ok_and(|h| value.eq_str(h))
}

/// The HTTP status of a 2026-07-28 response whose JSON-RPC error says the request was
/// refused before it was served: `404` for -32601 (an unknown method, or one of the
/// handshake era), `400` for -32020, -32021, -32022 and for the session endpoint's
/// -32602 about a missing `_meta` field. `None`: an ordinary `200` (results, and errors
/// of the application's such as an unknown tool).
pub fn modern_error_status(message: &[u8]) -> Option<u16> {
    let Ok(Message::Error(e)) = Message::parse(message) else { return None };
    match e.error.code {
        ErrorCode::METHOD_NOT_FOUND => Some(404),
        ErrorCode::HEADER_MISMATCH
        | ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY
        | ErrorCode::UNSUPPORTED_PROTOCOL_VERSION => Some(400),
        ErrorCode::INVALID_PARAMS if e.error.message.raw().starts_with(MISSING_META) => Some(400),
        _ => None,
    }
}

/// How the session endpoint's -32602 for a missing `_meta` field begins.
const MISSING_META: &[u8] = b"Missing required _meta field";

/// `params._meta` of a body, if it is a request that has one (for adapters that route
/// on it).
pub fn request_meta(body: &[u8]) -> Option<RawJson<'_>> {
    match Message::parse(body) {
        Ok(Message::Request(r)) => r.params.and_then(|p| p.get("_meta")),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CALL: &[u8] = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get weather","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;

    fn check(headers: &[(&str, &str)], body: &[u8]) -> Result<(), BadRequest> {
        check_modern_headers(headers, body)
    }

    #[test]
    fn matching_headers_pass_with_whitespace_and_base64() {
        let ok = [("MCP-Protocol-Version", "2026-07-28"), ("Mcp-Method", "tools/call"), ("Mcp-Name", " get weather ")];
        assert_eq!(check(&ok, CALL), Ok(()));
        let b64 = [
            ("mcp-protocol-version", "2026-07-28"),
            ("mcp-method", "tools/call"),
            ("mcp-name", "=?base64?Z2V0IHdlYXRoZXI=?="),
        ];
        assert_eq!(check(&b64, CALL), Ok(()));
    }

    #[test]
    fn each_missing_or_different_header_is_named() {
        let e = |m| Err(BadRequest::HeaderMismatch(m));
        let (v, m, n) =
            (("MCP-Protocol-Version", "2026-07-28"), ("Mcp-Method", "tools/call"), ("Mcp-Name", "get weather"));
        assert_eq!(check(&[m, n], CALL), e(HeaderMismatch::MissingProtocolVersion));
        assert_eq!(check(&[("MCP-Protocol-Version", "2025-11-25"), m, n], CALL), e(HeaderMismatch::ProtocolVersion));
        assert_eq!(check(&[v, n], CALL), e(HeaderMismatch::MissingMethod));
        assert_eq!(check(&[v, ("Mcp-Method", "tools/list"), n], CALL), e(HeaderMismatch::Method));
        assert_eq!(check(&[v, ("Mcp-Method", "Tools/Call"), n], CALL), e(HeaderMismatch::Method));
        assert_eq!(check(&[v, m], CALL), e(HeaderMismatch::MissingName));
        assert_eq!(check(&[v, m, ("Mcp-Name", "other")], CALL), e(HeaderMismatch::Name));
        assert_eq!(check(&[v, m, ("Mcp-Name", "=?base64?%%%?=")], CALL), e(HeaderMismatch::Name));
        assert_eq!(
            check(&[v, m, n, ("Mcp-Method", "tools/call")], CALL),
            Err(BadRequest::DuplicateField("mcp-method"))
        );
    }

    #[test]
    fn the_first_of_a_repeated_member_is_the_one_checked() {
        // What the one walk of the params finds is what `get` would: the first `name`
        // and the first `_meta`, even when a later one would match the headers.
        let h = [("MCP-Protocol-Version", "2026-07-28"), ("Mcp-Method", "tools/call"), ("Mcp-Name", "echo")];
        let name_twice = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":1,"name":"echo","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#;
        assert_eq!(check(&h, name_twice), Err(BadRequest::HeaderMismatch(HeaderMismatch::Name)));
        let meta_twice = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25"},"name":"echo","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#;
        assert_eq!(check(&h, meta_twice), Err(BadRequest::HeaderMismatch(HeaderMismatch::ProtocolVersion)));
        let after = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"arguments":{},"name":"echo"}}"#;
        assert_eq!(check(&h, after), Ok(()));
    }

    /// The members the parse recorded give the answer walking the params gives; spans
    /// recorded for another body, or incomplete ones, are not used.
    #[test]
    fn recorded_members_check_as_the_walked_ones() {
        let h = [("MCP-Protocol-Version", "2026-07-28"), ("Mcp-Method", "tools/call"), ("Mcp-Name", "echo")];
        let good = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#;
        let bad = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"other","_meta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25"}}}"#;
        let name_twice = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":1,"name":"echo","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#;
        let many = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"a":1,"b":2,"c":3,"name":"other","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#;
        for body in [&good[..], bad, name_twice, many, CALL] {
            let walked = check(&h, body);
            let mut spans = MemberSpans::<4>::new();
            let m = Message::parse_with_spans(body, &mut spans).ok();
            assert_eq!(check_modern_message(&h[..], m.as_ref(), Some(&spans)), walked);
            // Spans of another body: the message's own params are walked.
            let mut other = MemberSpans::<4>::new();
            let _ = Message::parse_with_spans(if body == good { bad } else { good }, &mut other);
            assert_eq!(check_modern_message(&h[..], m.as_ref(), Some(&other)), walked);
        }
        assert_eq!(check(&h, good), Ok(()));
        assert_eq!(check(&h, many), Err(BadRequest::HeaderMismatch(HeaderMismatch::Name)));
    }

    #[test]
    fn the_tasks_methods_name_the_task() {
        let get = br#"{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"taskId":"t-1","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
        let h = [("MCP-Protocol-Version", "2026-07-28"), ("Mcp-Method", "tasks/get")];
        assert_eq!(check(&h, get), Err(BadRequest::HeaderMismatch(HeaderMismatch::MissingName)));
        assert_eq!(
            check(&[h[0], h[1], ("Mcp-Name", "t-2")], get),
            Err(BadRequest::HeaderMismatch(HeaderMismatch::Name))
        );
        assert_eq!(check(&[h[0], h[1], ("Mcp-Name", "t-1")], get), Ok(()));
    }

    #[test]
    fn resources_read_names_the_uri_and_lists_need_no_name() {
        let read = br#"{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"test://a","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#;
        let h = [("MCP-Protocol-Version", "2026-07-28"), ("Mcp-Method", "resources/read")];
        assert_eq!(check(&h, read), Err(BadRequest::HeaderMismatch(HeaderMismatch::MissingName)));
        let with = [h[0], h[1], ("Mcp-Name", "test://a")];
        assert_eq!(check(&with, read), Ok(()));
        let list = br#"{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#;
        assert_eq!(check(&[h[0], ("Mcp-Method", "tools/list")], list), Ok(()));
    }

    #[test]
    fn param_headers_match_the_arguments() {
        let params = [
            ParamHeader { tool: "t", property: "region", header: "Region" },
            ParamHeader { tool: "t", property: "n", header: "N" },
            ParamHeader { tool: "other", property: "x", header: "X" },
        ];
        let body = |args: &str| {
            std::format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"t","arguments":{args}}}}}"#
            )
        };
        let check = |h: &[(&str, &str)], args: &str| check_param_headers(h, body(args).as_bytes(), &params);
        let bad = Err(BadRequest::HeaderMismatch(HeaderMismatch::Param));
        assert_eq!(check(&[("Mcp-Param-Region", "eu"), ("mcp-param-n", "3")], r#"{"region":"eu","n":3}"#), Ok(()));
        assert_eq!(
            check(
                &[("Mcp-Param-Region", "=?base64?SGVsbG8=?="), ("Mcp-Param-N", "3.0")],
                r#"{"region":"Hello","n":3}"#
            ),
            bad
        );
        assert_eq!(check(&[("Mcp-Param-Region", "=?base64?SGVsbG8=?=")], r#"{"region":"Hello"}"#), Ok(()));
        // Without the sentinel's markers a value is literal.
        assert_eq!(check(&[("Mcp-Param-Region", "SGVsbG8=")], r#"{"region":"SGVsbG8="}"#), Ok(()));
        assert_eq!(check(&[("Mcp-Param-Region", "=?base64?SGVsbG8")], r#"{"region":"=?base64?SGVsbG8"}"#), Ok(()));
        // Bad padding, bad characters, a missing header, a header without an argument.
        assert_eq!(check(&[("Mcp-Param-Region", "=?base64?SGVsbG8?=")], r#"{"region":"Hello"}"#), bad);
        assert_eq!(check(&[("Mcp-Param-Region", "=?base64?SGVs!!!bG8=?=")], r#"{"region":"Hello"}"#), bad);
        assert_eq!(check(&[], r#"{"region":"eu"}"#), bad);
        assert_eq!(check(&[("Mcp-Param-Region", "eu")], r#"{}"#), bad);
        assert_eq!(check(&[], r#"{"region":null}"#), Ok(()));
        assert_eq!(check(&[("Mcp-Param-N", "true")], r#"{"n":true}"#), Ok(()));
        // Other tools and methods are not checked.
        let list = br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}"#;
        assert_eq!(check_param_headers(&[][..] as &[(&str, &str)], list, &params), Ok(()));
    }

    #[test]
    fn refusals_get_their_status() {
        let err = |code: i32, msg: &str| {
            std::format!(r#"{{"jsonrpc":"2.0","id":1,"error":{{"code":{code},"message":"{msg}"}}}}"#)
        };
        assert_eq!(modern_error_status(err(-32601, "Method not found").as_bytes()), Some(404));
        for code in [-32020, -32021, -32022] {
            assert_eq!(modern_error_status(err(code, "x").as_bytes()), Some(400), "{code}");
        }
        let meta = err(-32602, "Missing required _meta field io.modelcontextprotocol/clientCapabilities");
        assert_eq!(modern_error_status(meta.as_bytes()), Some(400));
        assert_eq!(modern_error_status(err(-32602, "Unknown tool: x").as_bytes()), None);
        assert_eq!(modern_error_status(err(-32603, "x").as_bytes()), None);
        assert_eq!(modern_error_status(br#"{"jsonrpc":"2.0","id":1,"result":{}}"#), None);
    }

    #[test]
    fn the_era_of_a_post() {
        assert!(is_modern_post(None, CALL));
        assert!(is_modern_post(Some(ProtocolVersion::V2026_07_28), b"{}"));
        let init = br#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}"#;
        assert!(!is_modern_post(None, init));
        assert!(!is_modern_post(Some(ProtocolVersion::V2025_11_25), init));
        assert!(!is_modern_post(None, b"not json"));
        assert!(request_meta(CALL).is_some_and(|m| m.get(VERSION_KEY).is_some()));
    }
}
