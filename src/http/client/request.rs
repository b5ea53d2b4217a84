//! The HTTP requests the client asks the adapter to make, with every header the
//! transports require.

use super::exchange::{ExchangeId, ExchangeKind, HttpMethod};
use crate::wire::{JsonStr, Message, RawJson};

/// The most headers a request carries.
pub const MAX_REQUEST_HEADERS: usize = 8;

/// The `_meta` key that makes a message one of the stateless era.
const VERSION_KEY: &str = "io.modelcontextprotocol/protocolVersion";

/// `Accept` on a POST: both, as Streamable HTTP requires.
pub(crate) const ACCEPT_BOTH: &str = "application/json, text/event-stream";
/// `Accept` on a GET.
pub(crate) const ACCEPT_SSE: &str = "text/event-stream";
/// `Content-Type` of a POST.
pub(crate) const JSON: &str = "application/json";

/// An HTTP request to make. Header names are written as the specification spells them;
/// HTTP compares them ignoring case.
#[derive(Clone, Copy)]
pub struct HttpRequest<'c> {
    /// The exchange: pass it back with every part of the response.
    pub exchange: ExchangeId,
    /// What the exchange is for.
    pub kind: ExchangeKind,
    /// The method.
    pub method: HttpMethod,
    /// The absolute URL (no fragment, visible ASCII).
    pub url: &'c str,
    /// The body (empty for GET and DELETE).
    pub body: &'c [u8],
    headers: [(&'static str, &'c str); MAX_REQUEST_HEADERS],
    count: usize,
}

impl<'c> HttpRequest<'c> {
    pub(crate) fn new(
        exchange: ExchangeId,
        kind: ExchangeKind,
        method: HttpMethod,
        url: &'c str,
        body: &'c [u8],
    ) -> Self {
        Self { exchange, kind, method, url, body, headers: [("", ""); MAX_REQUEST_HEADERS], count: 0 }
    }

    pub(crate) fn header(&mut self, name: &'static str, value: &'c str) {
        if let Some(slot) = self.headers.get_mut(self.count) {
            *slot = (name, value);
            self.count += 1;
        }
    }

    /// The headers, in order.
    pub fn headers(&self) -> &[(&'static str, &'c str)] {
        &self.headers[..self.count]
    }

    /// The value of the header `name` (ignoring ASCII case), if the request has it.
    pub fn header_value(&self, name: &str) -> Option<&'c str> {
        self.headers().iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| *v)
    }
}

impl core::fmt::Debug for HttpRequest<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("HttpRequest")
            .field("exchange", &self.exchange)
            .field("kind", &self.kind)
            .field("method", &self.method)
            .field("url", &self.url)
            .field("headers", &self.headers())
            .field("body", &core::str::from_utf8(self.body).unwrap_or("<bytes>"))
            .finish()
    }
}

/// The values a request's headers are made of, gathered by the client.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct HeaderValues<'c> {
    pub session_id: Option<&'c str>,
    pub version: Option<&'static str>,
    pub authorization: Option<&'c str>,
    pub last_event_id: Option<&'c str>,
}

/// Builds the request for an exchange of `kind`.
pub(crate) fn build<'c>(
    exchange: ExchangeId,
    kind: ExchangeKind,
    url: &'c str,
    body: &'c [u8],
    values: HeaderValues<'c>,
) -> HttpRequest<'c> {
    let method = match kind {
        ExchangeKind::Post | ExchangeKind::LegacyPost => HttpMethod::Post,
        ExchangeKind::Stream | ExchangeKind::Resume | ExchangeKind::LegacyStream => HttpMethod::Get,
        ExchangeKind::Delete => HttpMethod::Delete,
    };
    let body = if method == HttpMethod::Post { body } else { &[] };
    let mut r = HttpRequest::new(exchange, kind, method, url, body);
    let modern = if kind == ExchangeKind::Post { ModernHeaders::of(body) } else { None };
    match kind {
        ExchangeKind::Post => {
            r.header("Accept", ACCEPT_BOTH);
            r.header("Content-Type", JSON);
        }
        ExchangeKind::LegacyPost => r.header("Content-Type", JSON),
        ExchangeKind::Stream | ExchangeKind::Resume | ExchangeKind::LegacyStream => r.header("Accept", ACCEPT_SSE),
        ExchangeKind::Delete => {}
    }
    if let Some(m) = modern {
        // 2026-07-28: no session; the standard headers repeat the body.
        r.header("MCP-Protocol-Version", m.version);
        r.header("Mcp-Method", m.method);
        if let Some(name) = m.name {
            r.header("Mcp-Name", name);
        }
    } else {
        if !matches!(kind, ExchangeKind::LegacyStream | ExchangeKind::LegacyPost)
            && let Some(id) = values.session_id
        {
            r.header("Mcp-Session-Id", id);
        }
        if let Some(v) = values.version {
            r.header("MCP-Protocol-Version", v);
        }
    }
    if let Some(a) = values.authorization {
        r.header("Authorization", a);
    }
    if let Some(id) = values.last_event_id {
        r.header("Last-Event-ID", id);
    }
    r
}

/// The standard headers of a 2026-07-28 POST (a request or notification whose
/// `params._meta` names a protocol version), borrowed from its body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ModernHeaders<'c> {
    pub version: &'c str,
    pub method: &'c str,
    /// `Mcp-Name` for `tools/call`, `prompts/get` (`params.name`), `resources/read`
    /// (`params.uri`) and the tasks extension's `tasks/get`, `tasks/update`,
    /// `tasks/cancel` (`params.taskId`). `None` as well when the value needs the base64 sentinel (not
    /// plain visible ASCII, or padded with spaces): this client core keeps no buffer to
    /// encode it, and the server refuses such a request with -32020.
    pub name: Option<&'c str>,
}

impl<'c> ModernHeaders<'c> {
    pub(crate) fn of(body: &'c [u8]) -> Option<Self> {
        let (method, params) = match Message::parse(body).ok()? {
            Message::Request(r) => (r.method, r.params),
            Message::Notification(n) => (n.method, n.params),
            _ => return None,
        };
        let version = plain(params?.get("_meta")?.get(VERSION_KEY)?.as_str()?)?;
        let method_text = plain(method)?;
        let member = match method_text {
            "tools/call" | "prompts/get" => Some("name"),
            "resources/read" => Some("uri"),
            // The tasks extension's routing header.
            "tasks/get" | "tasks/update" | "tasks/cancel" => Some("taskId"),
            _ => None,
        };
        let name = member
            .and_then(|m| params.and_then(|p| p.get(m)))
            .and_then(|v: RawJson<'c>| v.as_str())
            .and_then(plain)
            .filter(|n| {
                !n.starts_with(' ')
                    && !n.ends_with(' ')
                    && !n.starts_with("=?base64?")
                    && n.bytes().all(|b| (0x20..=0x7E).contains(&b))
            });
        Some(ModernHeaders { version, method: method_text, name })
    }
}

/// A JSON string's text when it has no escapes (then it is the body's bytes).
fn plain<'a>(s: JsonStr<'a>) -> Option<&'a str> {
    s.as_plain()
}

/// Whether `body` is a message of the stateless era (see [`ModernHeaders`]).
pub(crate) fn is_modern(body: &[u8]) -> bool {
    ModernHeaders::of(body).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_by_kind() {
        let all = HeaderValues {
            session_id: Some("s-1"),
            version: Some("2025-06-18"),
            authorization: Some("Bearer t"),
            last_event_id: Some("e-9"),
        };
        let x = ExchangeId::new(0, 0);
        let post = build(x, ExchangeKind::Post, "http://h/mcp", b"{}", HeaderValues { last_event_id: None, ..all });
        assert_eq!(post.method, HttpMethod::Post);
        assert_eq!(
            post.headers(),
            [
                ("Accept", "application/json, text/event-stream"),
                ("Content-Type", "application/json"),
                ("Mcp-Session-Id", "s-1"),
                ("MCP-Protocol-Version", "2025-06-18"),
                ("Authorization", "Bearer t"),
            ]
        );
        let get = build(x, ExchangeKind::Resume, "http://h/mcp", b"{}", all);
        assert_eq!((get.method, get.body), (HttpMethod::Get, &b""[..]));
        assert_eq!(get.header_value("last-event-id"), Some("e-9"));
        assert_eq!(get.header_value("accept"), Some("text/event-stream"));
        assert_eq!(get.headers().len(), 5);
        let del = build(x, ExchangeKind::Delete, "http://h/mcp", b"", HeaderValues { last_event_id: None, ..all });
        assert_eq!(del.headers().len(), 3);
        assert_eq!(del.header_value("Content-Type"), None);
        let legacy = build(x, ExchangeKind::LegacyPost, "http://h/m?s=1", b"{}", HeaderValues::default());
        assert_eq!(legacy.headers(), [("Content-Type", "application/json")]);
        let legacy = build(x, ExchangeKind::LegacyStream, "http://h/sse", b"", all);
        assert_eq!(legacy.header_value("Mcp-Session-Id"), None);
        let none = build(x, ExchangeKind::Stream, "http://h/mcp", b"", HeaderValues::default());
        assert_eq!(none.headers(), [("Accept", "text/event-stream")]);
    }

    #[test]
    fn stateless_posts_carry_the_standard_headers_and_no_session() {
        let all = HeaderValues {
            session_id: Some("s-1"),
            version: Some("2025-06-18"),
            authorization: Some("Bearer t"),
            last_event_id: None,
        };
        let x = ExchangeId::new(0, 0);
        let call = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_weather","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
        let post = build(x, ExchangeKind::Post, "http://h/mcp", call, all);
        assert_eq!(
            post.headers(),
            [
                ("Accept", "application/json, text/event-stream"),
                ("Content-Type", "application/json"),
                ("MCP-Protocol-Version", "2026-07-28"),
                ("Mcp-Method", "tools/call"),
                ("Mcp-Name", "get_weather"),
                ("Authorization", "Bearer t"),
            ]
        );
        let read = br#"{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"file:///a","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#;
        assert_eq!(build(x, ExchangeKind::Post, "http://h/mcp", read, all).header_value("mcp-name"), Some("file:///a"));
        let get = br#"{"jsonrpc":"2.0","id":5,"method":"tasks/get","params":{"taskId":"t-9","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#;
        assert_eq!(build(x, ExchangeKind::Post, "http://h/mcp", get, all).header_value("mcp-name"), Some("t-9"));
        let list = br#"{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#;
        let post = build(x, ExchangeKind::Post, "http://h/mcp", list, all);
        assert_eq!((post.header_value("mcp-method"), post.header_value("mcp-name")), (Some("tools/list"), None));
        // A name that would need the base64 sentinel is left out rather than sent raw.
        let odd = br#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"h\u00e9","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#;
        assert_eq!(build(x, ExchangeKind::Post, "http://h/mcp", odd, all).header_value("mcp-name"), None);
        assert!(is_modern(list) && !is_modern(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#));
    }
}
