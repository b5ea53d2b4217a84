//! The HTTP requests the client asks the adapter to make, with every header the
//! transports require.

use super::exchange::{ExchangeId, ExchangeKind, HttpMethod};

/// The most headers a request carries.
pub const MAX_REQUEST_HEADERS: usize = 6;

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
    match kind {
        ExchangeKind::Post => {
            r.header("Accept", ACCEPT_BOTH);
            r.header("Content-Type", JSON);
        }
        ExchangeKind::LegacyPost => r.header("Content-Type", JSON),
        ExchangeKind::Stream | ExchangeKind::Resume | ExchangeKind::LegacyStream => r.header("Accept", ACCEPT_SSE),
        ExchangeKind::Delete => {}
    }
    if !matches!(kind, ExchangeKind::LegacyStream | ExchangeKind::LegacyPost)
        && let Some(id) = values.session_id
    {
        r.header("Mcp-Session-Id", id);
    }
    if let Some(v) = values.version {
        r.header("MCP-Protocol-Version", v);
    }
    if let Some(a) = values.authorization {
        r.header("Authorization", a);
    }
    if let Some(id) = values.last_event_id {
        r.header("Last-Event-ID", id);
    }
    r
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
}
