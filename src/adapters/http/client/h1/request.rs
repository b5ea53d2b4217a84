//! Request heads: the core's [`HttpRequest`] written as HTTP/1.1 (RFC 9112 §3), with the
//! `Host` and `Content-Length` fields the transport layer owns.

use crate::http::client::{HttpMethod, HttpRequest};

/// Why a request could not be written; the exchange fails as a broken connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RequestError {
    /// The URL is not `http://authority[/path][?query]`.
    Url,
    /// A header value holds a byte a field value must not (CR, LF, NUL or another
    /// control byte): writing it would let one request smuggle another.
    HeaderValue,
    /// A header name is not an RFC 9110 token (an application's extra header).
    HeaderName,
}

/// RFC 9110 §5.6.2 `tchar`.
fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// Where a request goes, read from its absolute URL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Target<'u> {
    /// `http` or `https`, lower case as written.
    pub scheme: &'u str,
    /// `host[:port]` as written: the `Host` field's value.
    pub authority: &'u str,
    /// The path and query (`/` when the URL has neither).
    pub path: &'u str,
}

impl<'u> Target<'u> {
    /// Splits an absolute URL (the core has checked it: visible ASCII, no user
    /// information, no fragment).
    pub fn of(url: &'u str) -> Result<Self, RequestError> {
        let (scheme, rest) = url.split_once("://").ok_or(RequestError::Url)?;
        let end = rest.find(['/', '?']).unwrap_or(rest.len());
        let (authority, path) = rest.split_at(end);
        if authority.is_empty() {
            return Err(RequestError::Url);
        }
        Ok(Self { scheme, authority, path })
    }
}

/// The product and version sent as `User-Agent`.
pub(crate) const USER_AGENT: &str = concat!("mcp-sansio/", env!("CARGO_PKG_VERSION"));

/// Writes `req` (head and body) into `out`, replacing what it held, with the
/// application's `extra` headers after the core's (names must be tokens).
pub(crate) fn write(out: &mut Vec<u8>, req: &HttpRequest<'_>, extra: &[(String, String)]) -> Result<(), RequestError> {
    let target = Target::of(req.url)?;
    out.clear();
    out.extend_from_slice(req.method.as_str().as_bytes());
    out.push(b' ');
    if !target.path.starts_with('/') {
        out.push(b'/');
    }
    out.extend_from_slice(target.path.as_bytes());
    out.extend_from_slice(b" HTTP/1.1\r\nHost: ");
    out.extend_from_slice(target.authority.as_bytes());
    out.extend_from_slice(b"\r\nUser-Agent: ");
    out.extend_from_slice(USER_AGENT.as_bytes());
    out.extend_from_slice(b"\r\n");
    let extra = extra.iter().map(|(n, v)| (n.as_str(), v.as_str()));
    for (name, value) in req.headers().iter().copied().chain(extra) {
        if !value.bytes().all(|b| b == b'\t' || (0x20..0x7F).contains(&b)) {
            return Err(RequestError::HeaderValue);
        }
        if name.is_empty() || !name.bytes().all(is_tchar) {
            return Err(RequestError::HeaderName);
        }
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(b": ");
        out.extend_from_slice(value.as_bytes());
        out.extend_from_slice(b"\r\n");
    }
    if req.method == HttpMethod::Post {
        out.extend_from_slice(b"Content-Length: ");
        out.extend_from_slice(req.body.len().to_string().as_bytes());
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(b"\r\n");
    out.extend_from_slice(req.body);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets() {
        let t = Target::of("http://127.0.0.1:3000/mcp?x=1").unwrap();
        assert_eq!((t.scheme, t.authority, t.path), ("http", "127.0.0.1:3000", "/mcp?x=1"));
        let t = Target::of("http://localhost").unwrap();
        assert_eq!((t.authority, t.path), ("localhost", ""));
        let t = Target::of("https://[::1]:8443?q").unwrap();
        assert_eq!((t.authority, t.path), ("[::1]:8443", "?q"));
        assert_eq!(Target::of("localhost:3000/mcp"), Err(RequestError::Url));
        assert_eq!(Target::of("http:///mcp"), Err(RequestError::Url));
    }

    #[test]
    fn the_applications_headers_follow_the_cores_and_are_checked() {
        use crate::http::client::{ExchangeId, ExchangeKind};
        let mut req =
            HttpRequest::new(ExchangeId::new(0, 0), ExchangeKind::Post, HttpMethod::Post, "http://h/mcp", b"{}");
        req.header("Mcp-Method", "tools/call");
        let mut out = Vec::new();
        let extra = |n: &str, v: &str| vec![(n.to_string(), v.to_string())];
        write(&mut out, &req, &extra("Mcp-Param-Region", "=?base64?IGV1?=")).unwrap();
        let text = String::from_utf8(out.clone()).unwrap();
        assert!(text.contains("Mcp-Method: tools/call\r\nMcp-Param-Region: =?base64?IGV1?=\r\nContent-Length: 2\r\n"));
        assert_eq!(write(&mut out, &req, &extra("Mcp-Param-My Region", "eu")), Err(RequestError::HeaderName));
        assert_eq!(write(&mut out, &req, &extra("", "eu")), Err(RequestError::HeaderName));
        assert_eq!(write(&mut out, &req, &extra("X", "a\r\nHost: evil")), Err(RequestError::HeaderValue));
    }
}
