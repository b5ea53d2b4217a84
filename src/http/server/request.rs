//! What the adapter hands in for one HTTP request: its method, target and headers.
//!
//! The core reads headers through the small [`Headers`] trait, so an adapter passes
//! whatever it already has (`httparse`'s header array, hyper's `HeaderMap`) without
//! copying: implement `value` and the core does the rest. Slices of `(name, value)` pairs
//! implement it already.

/// Read access to a request's header fields.
///
/// Names are compared ignoring ASCII case. A field that appears on several lines has
/// several values, `nth` = 0, 1, …; the core refuses duplicates of the fields that must
/// appear once (`Host`, `Mcp-Session-Id`, `MCP-Protocol-Version`, `Content-Length`,
/// `Content-Type`, `Origin`, `Authorization`, `Last-Event-ID`).
///
/// ```
/// use mcp_sansio::http::server::Headers;
/// let headers: &[(&str, &[u8])] = &[("Accept", b"text/event-stream"), ("accept", b"application/json")];
/// assert_eq!(headers.value("ACCEPT", 1), Some(&b"application/json"[..]));
/// assert_eq!(headers.value("Host", 0), None);
/// ```
pub trait Headers {
    /// The `nth` value (0-based) of the field `name`, in the order received.
    fn value(&self, name: &str, nth: usize) -> Option<&[u8]>;

    /// The first value of the field `name`, and whether it appears again: for a field
    /// that must appear at most once. A store that can see both in one walk of its
    /// fields overrides this (the provided one looks twice).
    fn first_and_repeated(&self, name: &str) -> (Option<&[u8]>, bool) {
        (self.value(name, 0), self.value(name, 1).is_some())
    }
}

impl Headers for [(&str, &[u8])] {
    fn value(&self, name: &str, nth: usize) -> Option<&[u8]> {
        self.iter().filter(|(n, _)| n.eq_ignore_ascii_case(name)).nth(nth).map(|(_, v)| *v)
    }
}

impl Headers for [(&str, &str)] {
    fn value(&self, name: &str, nth: usize) -> Option<&[u8]> {
        self.iter().filter(|(n, _)| n.eq_ignore_ascii_case(name)).nth(nth).map(|(_, v)| v.as_bytes())
    }
}

impl<const N: usize> Headers for [(&str, &[u8]); N] {
    fn value(&self, name: &str, nth: usize) -> Option<&[u8]> {
        Headers::value(&self[..], name, nth)
    }
}

impl<const N: usize> Headers for [(&str, &str); N] {
    fn value(&self, name: &str, nth: usize) -> Option<&[u8]> {
        Headers::value(&self[..], name, nth)
    }
}

impl<H: Headers + ?Sized> Headers for &H {
    fn value(&self, name: &str, nth: usize) -> Option<&[u8]> {
        (**self).value(name, nth)
    }

    fn first_and_repeated(&self, name: &str) -> (Option<&[u8]>, bool) {
        (**self).first_and_repeated(name)
    }
}

/// The one value of a field that must appear at most once: `Ok(None)` when absent,
/// `Err(())` when it appears twice.
pub(crate) fn single<'h, H: Headers + ?Sized>(headers: &'h H, name: &str) -> Result<Option<&'h [u8]>, ()> {
    match headers.first_and_repeated(name) {
        (v, false) => Ok(v),
        (_, true) => Err(()),
    }
}

/// The head of one HTTP request, as the adapter's HTTP parser produced it.
///
/// `target` is the request target in origin form (`/mcp`, `/messages?sessionId=…`); an
/// adapter that receives the absolute form (proxies) passes its path and query.
#[derive(Clone, Copy, Debug)]
pub struct RequestHead<'r, H: ?Sized> {
    /// `GET`, `POST`, … (methods are case-sensitive).
    pub method: &'r str,
    /// Path and query.
    pub target: &'r str,
    /// The header fields.
    pub headers: &'r H,
}

impl<'r, H: Headers + ?Sized> RequestHead<'r, H> {
    /// A request head.
    pub fn new(method: &'r str, target: &'r str, headers: &'r H) -> Self {
        Self { method, target, headers }
    }

    /// The path: the target up to `?`.
    pub fn path(&self) -> &'r str {
        self.target.split_once('?').map_or(self.target, |(p, _)| p)
    }

    /// The query: the target after `?`, if any.
    pub fn query(&self) -> Option<&'r str> {
        self.target.split_once('?').map(|(_, q)| q)
    }

    /// The bearer token of the `Authorization` header (`Bearer <token>`, the scheme
    /// compared ignoring case), for the application's token check. `None` when the
    /// header is absent, appears twice, or holds another scheme.
    pub fn bearer_token(&self) -> Option<&'r [u8]> {
        let value = single(self.headers, "authorization").ok()??;
        let value = trim(value);
        let (scheme, rest) = value.split_at_checked(6)?;
        if !scheme.eq_ignore_ascii_case(b"bearer") || rest.first() != Some(&b' ') {
            return None;
        }
        let token = trim(rest);
        (!token.is_empty()).then_some(token)
    }
}

/// `value` without spaces and tabs at either end.
pub(crate) fn trim(value: &[u8]) -> &[u8] {
    let start = value.iter().position(|b| !matches!(b, b' ' | b'\t')).unwrap_or(value.len());
    let end = value.iter().rposition(|b| !matches!(b, b' ' | b'\t')).map_or(start, |i| i + 1);
    &value[start..end]
}

/// The value of `name` in a query string (`a=1&b=2`), as written (no percent-decoding:
/// the values this layer reads, session ids, are visible ASCII without `&` or `=`).
pub(crate) fn query_param<'q>(query: &'q str, name: &str) -> Option<&'q str> {
    query.split('&').find_map(|pair| pair.split_once('=').filter(|(n, _)| *n == name).map(|(_, v)| v))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookups_and_tokens() {
        let h: &[(&str, &[u8])] = &[("Authorization", b"  bearer   abc.def  "), ("X", b"1")];
        let head = RequestHead::new("POST", "/mcp?x=1&sessionId=abc", h);
        assert_eq!(head.path(), "/mcp");
        assert_eq!(head.query(), Some("x=1&sessionId=abc"));
        assert_eq!(head.bearer_token(), Some(&b"abc.def"[..]));
        assert_eq!(query_param("x=1&sessionId=abc", "sessionId"), Some("abc"));
        assert_eq!(query_param("x=1", "sessionId"), None);
        for bad in [&b"Basic abc"[..], b"Bearer", b"Bearer ", b"Bearerabc"] {
            let h: &[(&str, &[u8])] = &[("authorization", bad)];
            assert_eq!(RequestHead::new("GET", "/", h).bearer_token(), None, "{bad:?}");
        }
        let twice: &[(&str, &[u8])] = &[("authorization", b"Bearer a"), ("Authorization", b"Bearer b")];
        assert_eq!(RequestHead::new("GET", "/", twice).bearer_token(), None);
        assert_eq!(single(twice, "AUTHORIZATION"), Err(()));
        assert_eq!(single(twice, "host"), Ok(None));
    }
}
