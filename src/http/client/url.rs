//! The URLs the client works with: the MCP endpoint the application names, and the
//! `endpoint` a 2024-11-05 server announces, resolved against it (RFC 3986 §5.2) and
//! held to the same origin.
//!
//! Only what HTTP requests need is modelled: an absolute `http` or `https` URL with a
//! host, an optional port, a path and an optional query. A fragment is dropped (it is
//! never sent); user information (`user@host`) is refused, since a client must not put
//! credentials in a URL (the bearer token goes in `Authorization`). Every byte must be
//! visible ASCII: an adapter hands the URL to an HTTP stack as it is, and a space or a
//! control byte in a request line is a request-smuggling hazard.

use core::fmt;

use crate::http::headers::{HostPort, Origin};

/// Why a URL was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum UrlError {
    /// Not of the form `scheme://host[:port][/path][?query]`, or a byte that is not
    /// visible ASCII; `at` is the offset where reading stopped.
    Syntax {
        /// Byte offset.
        at: usize,
    },
    /// The scheme is not `http` or `https`.
    Scheme,
    /// The authority holds user information (`user@host`).
    UserInfo,
    /// The resolved URL needs more than the `capacity` bytes set aside for it.
    TooLong {
        /// The room there was.
        capacity: usize,
    },
}

impl fmt::Display for UrlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Syntax { at } => write!(f, "malformed URL at byte {at}"),
            Self::Scheme => f.write_str("the URL's scheme is not http or https"),
            Self::UserInfo => f.write_str("the URL holds user information, which is refused"),
            Self::TooLong { capacity } => write!(f, "the resolved URL does not fit in {capacity} bytes"),
        }
    }
}

impl core::error::Error for UrlError {}

/// An absolute `http`/`https` URL, checked, borrowed from its text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Url<'a> {
    /// The URL without its fragment.
    text: &'a str,
    /// End of `scheme`.
    scheme_end: usize,
    /// End of the authority (start of the path or query).
    authority_end: usize,
    /// Start of the query (`?` included), or the end of the text.
    query_start: usize,
}

impl<'a> Url<'a> {
    /// Parses an absolute URL. A fragment is cut off.
    ///
    /// ```
    /// use mcp_sansio::http::client::Url;
    /// let url = Url::parse("http://127.0.0.1:3000/mcp?x=1#frag").unwrap();
    /// assert_eq!(url.as_str(), "http://127.0.0.1:3000/mcp?x=1");
    /// assert_eq!(url.path(), "/mcp");
    /// assert!(Url::parse("ftp://example.com/").is_err());
    /// ```
    pub fn parse(text: &'a str) -> Result<Self, UrlError> {
        let bytes = text.as_bytes();
        if let Some(at) = bytes.iter().position(|&b| !(0x21..=0x7E).contains(&b)) {
            return Err(UrlError::Syntax { at });
        }
        let text = &text[..bytes.iter().position(|&b| b == b'#').unwrap_or(bytes.len())];
        let bytes = text.as_bytes();
        let scheme_end = scheme_len(bytes).ok_or(UrlError::Syntax { at: 0 })?;
        if bytes.get(scheme_end..scheme_end + 3) != Some(b"://") {
            return Err(UrlError::Syntax { at: scheme_end });
        }
        let scheme = &text[..scheme_end];
        if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") {
            return Err(UrlError::Scheme);
        }
        let auth_start = scheme_end + 3;
        let authority_end =
            bytes[auth_start..].iter().position(|&b| b == b'/' || b == b'?').map_or(bytes.len(), |i| auth_start + i);
        let authority = &bytes[auth_start..authority_end];
        if authority.contains(&b'@') {
            return Err(UrlError::UserInfo);
        }
        if authority.is_empty() || HostPort::parse(authority).is_err() {
            return Err(UrlError::Syntax { at: auth_start });
        }
        let query_start =
            bytes[authority_end..].iter().position(|&b| b == b'?').map_or(bytes.len(), |i| authority_end + i);
        Ok(Self { text, scheme_end, authority_end, query_start })
    }

    /// The URL as sent (no fragment).
    pub fn as_str(&self) -> &'a str {
        self.text
    }

    /// The path, possibly empty (`http://host` has none; HTTP then asks for `/`).
    pub fn path(&self) -> &'a str {
        &self.text[self.authority_end..self.query_start]
    }

    /// The query with its `?`, or empty.
    pub fn query(&self) -> &'a str {
        &self.text[self.query_start..]
    }

    /// `scheme://authority`.
    fn origin_text(&self) -> &'a str {
        &self.text[..self.authority_end]
    }

    /// The URL's origin (scheme, host, port).
    pub fn origin(&self) -> Origin<'a> {
        // Parse cannot fail: the scheme and authority were checked by `Url::parse`.
        Origin::parse(self.origin_text().as_bytes()).unwrap_or(Origin::Null)
    }

    /// Whether both URLs have the same origin: scheme and host ignoring case, ports
    /// after defaults (`http://a` and `http://a:80` are the same).
    pub fn same_origin(&self, other: &Url<'_>) -> bool {
        self.origin().same_origin(&other.origin())
    }

    /// Resolves `reference` (absolute, `//host/...`, `/path`, `path`, `?query`) against
    /// this URL as RFC 3986 §5.2 says, dot segments removed, writing the result into
    /// `out`; returns its length. The result is checked like [`Url::parse`] (so a
    /// reference to another scheme is refused). Leading and trailing whitespace of the
    /// reference is ignored, as browsers' URL parsers do.
    ///
    /// ```
    /// use mcp_sansio::http::client::Url;
    /// let base = Url::parse("http://localhost:8000/sse").unwrap();
    /// let mut out = [0u8; 96];
    /// let n = base.resolve("/messages/?session_id=abc", &mut out).unwrap();
    /// assert_eq!(&out[..n], b"http://localhost:8000/messages/?session_id=abc");
    /// let n = base.resolve("message?sessionId=1", &mut out).unwrap();
    /// assert_eq!(&out[..n], b"http://localhost:8000/message?sessionId=1");
    /// ```
    pub fn resolve(&self, reference: &str, out: &mut [u8]) -> Result<usize, UrlError> {
        let reference = reference.trim_matches(|c: char| c.is_ascii_whitespace());
        let r = reference.as_bytes();
        if let Some(at) = r.iter().position(|&b| !(0x21..=0x7E).contains(&b)) {
            return Err(UrlError::Syntax { at });
        }
        let r = &r[..r.iter().position(|&b| b == b'#').unwrap_or(r.len())];
        let mut w = Writer { buf: out, len: 0 };
        // Split the reference: [scheme ":"] ["//" authority] path ["?" query].
        let (scheme, rest) = match scheme_len(r) {
            Some(n) if r.get(n) == Some(&b':') => (Some(&r[..n]), &r[n + 1..]),
            _ => (None, r),
        };
        let (authority, rest) = match rest.strip_prefix(b"//") {
            Some(after) => {
                let end = after.iter().position(|&b| b == b'/' || b == b'?').unwrap_or(after.len());
                (Some(&after[..end]), &after[end..])
            }
            None => (None, rest),
        };
        let q = rest.iter().position(|&b| b == b'?').unwrap_or(rest.len());
        let (path, query) = (&rest[..q], &rest[q..]);
        let base = self.text.as_bytes();
        match (scheme, authority) {
            (Some(scheme), authority) => {
                w.push(scheme)?;
                w.push(b":")?;
                if let Some(a) = authority {
                    w.push(b"//")?;
                    w.push(a)?;
                }
                w.remove_dots(path)?;
                w.push(query)?;
            }
            (None, Some(a)) => {
                w.push(&base[..self.scheme_end])?;
                w.push(b"://")?;
                w.push(a)?;
                w.remove_dots(path)?;
                w.push(query)?;
            }
            (None, None) if path.is_empty() => {
                w.push(&base[..self.query_start])?;
                w.push(if query.is_empty() { self.query().as_bytes() } else { query })?;
            }
            (None, None) => {
                w.push(&base[..self.authority_end])?;
                if path[0] == b'/' {
                    w.remove_dots(path)?;
                } else {
                    // merge: the base path up to its last `/`, then the reference.
                    let base_path = self.path().as_bytes();
                    let dir = match base_path.iter().rposition(|&b| b == b'/') {
                        Some(i) => &base_path[..=i],
                        None => &b"/"[..],
                    };
                    w.remove_dots_joined(dir, path)?;
                }
                w.push(query)?;
            }
        }
        let len = w.len;
        let text = core::str::from_utf8(&out[..len]).map_err(|_| UrlError::Syntax { at: 0 })?;
        Url::parse(text)?;
        Ok(len)
    }
}

impl fmt::Display for Url<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text)
    }
}

/// The length of a leading `scheme` (`ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`).
fn scheme_len(b: &[u8]) -> Option<usize> {
    if !b.first()?.is_ascii_alphabetic() {
        return None;
    }
    Some(b.iter().position(|&c| !(c.is_ascii_alphanumeric() || b"+-.".contains(&c))).unwrap_or(b.len()))
}

/// Appends into a fixed buffer, all or nothing per call.
struct Writer<'o> {
    buf: &'o mut [u8],
    len: usize,
}

impl Writer<'_> {
    fn push(&mut self, bytes: &[u8]) -> Result<(), UrlError> {
        let end = self.len + bytes.len();
        let Some(dst) = self.buf.get_mut(self.len..end) else {
            return Err(UrlError::TooLong { capacity: self.buf.len() });
        };
        dst.copy_from_slice(bytes);
        self.len = end;
        Ok(())
    }

    /// `remove_dot_segments` (RFC 3986 §5.2.4) of `a` followed by `b`, appended.
    fn remove_dots_joined(&mut self, a: &[u8], b: &[u8]) -> Result<(), UrlError> {
        let start = self.len;
        self.push(a)?;
        self.push(b)?;
        // Move the joined input to the end of the buffer's used part: dot removal only
        // ever shortens, so it can run in place, reading ahead of where it writes.
        let input_len = self.len - start;
        self.len = start;
        let mut read = start;
        let end = start + input_len;
        self.dots_in_place(start, &mut read, end);
        Ok(())
    }

    fn remove_dots(&mut self, path: &[u8]) -> Result<(), UrlError> {
        self.remove_dots_joined(path, &[])
    }

    /// The RFC's loop over `buf[read..end]`, output at `buf[path_start..self.len]`
    /// (never ahead of `read`).
    fn dots_in_place(&mut self, path_start: usize, read: &mut usize, end: usize) {
        // A pending "/" replaces a removed "/." or "/.." at the end of the input.
        let mut slash_only = false;
        loop {
            let input: &[u8] = if slash_only { b"/" } else { &self.buf[*read..end] };
            if input.is_empty() {
                break;
            }
            if input.starts_with(b"../") {
                *read += 3;
            } else if input.starts_with(b"./") || input.starts_with(b"/./") {
                // "./x" -> "x"; "/./x" -> "/x".
                *read += 2;
            } else if input == b"/." {
                *read += 2;
                slash_only = true;
            } else if input.starts_with(b"/../") {
                *read += 3;
                self.pop_segment(path_start);
            } else if input == b"/.." {
                *read += 3;
                self.pop_segment(path_start);
                slash_only = true;
            } else if input == b"." || input == b".." {
                *read = end;
            } else {
                // Move the first segment (with its leading "/") to the output.
                let first = usize::from(input[0] == b'/');
                let seg = first + input[first..].iter().position(|&b| b == b'/').unwrap_or(input.len() - first);
                if slash_only {
                    self.buf[self.len] = b'/';
                    self.len += 1;
                    break;
                }
                self.buf.copy_within(*read..*read + seg, self.len);
                self.len += seg;
                *read += seg;
            }
        }
    }

    /// Drops the output's last segment and its preceding `/`.
    fn pop_segment(&mut self, path_start: usize) {
        let out = &self.buf[path_start..self.len];
        self.len = path_start + out.iter().rposition(|&b| b == b'/').unwrap_or(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolve(base: &str, r: &str) -> Result<std::string::String, UrlError> {
        let mut out = [0u8; 128];
        let n = Url::parse(base).unwrap().resolve(r, &mut out)?;
        Ok(std::string::String::from_utf8(out[..n].to_vec()).unwrap())
    }

    #[test]
    fn parses() {
        let u = Url::parse("HTTPS://Example.com:8443/a/b?c=d").unwrap();
        assert_eq!((u.path(), u.query()), ("/a/b", "?c=d"));
        assert_eq!(Url::parse("http://h").unwrap().path(), "");
        assert_eq!(Url::parse("http://h?x").unwrap().query(), "?x");
        assert_eq!(Url::parse("http://[::1]:3000/mcp").unwrap().path(), "/mcp");
        assert_eq!(Url::parse("http://u:p@h/"), Err(UrlError::UserInfo));
        assert_eq!(Url::parse("mailto:x"), Err(UrlError::Syntax { at: 6 }));
        assert_eq!(Url::parse("ws://h/"), Err(UrlError::Scheme));
        assert_eq!(Url::parse("http:///x"), Err(UrlError::Syntax { at: 7 }));
        assert_eq!(Url::parse("http://h/a b"), Err(UrlError::Syntax { at: 10 }));
        assert_eq!(Url::parse("http://h/\u{e9}"), Err(UrlError::Syntax { at: 9 }));
        assert_eq!(Url::parse("http://h:99999/"), Err(UrlError::Syntax { at: 7 }));
        assert_eq!(Url::parse("1http://h/"), Err(UrlError::Syntax { at: 0 }));
    }

    #[test]
    fn same_origin() {
        let a = Url::parse("http://localhost:3000/mcp").unwrap();
        assert!(a.same_origin(&Url::parse("HTTP://LOCALHOST:3000/messages?x").unwrap()));
        assert!(!a.same_origin(&Url::parse("http://localhost:3001/mcp").unwrap()));
        assert!(!a.same_origin(&Url::parse("https://localhost:3000/mcp").unwrap()));
        assert!(!a.same_origin(&Url::parse("http://127.0.0.1:3000/mcp").unwrap()));
        assert!(Url::parse("http://h/").unwrap().same_origin(&Url::parse("http://h:80/x").unwrap()));
    }

    /// RFC 3986 §5.4.1 and §5.4.2, for the references an HTTP URL can take.
    #[test]
    fn rfc3986_examples() {
        let base = "http://a/b/c/d;p?q";
        for (r, want) in [
            ("g", "http://a/b/c/g"),
            ("./g", "http://a/b/c/g"),
            ("g/", "http://a/b/c/g/"),
            ("/g", "http://a/g"),
            ("//g", "http://g"),
            ("?y", "http://a/b/c/d;p?y"),
            ("g?y", "http://a/b/c/g?y"),
            ("#s", "http://a/b/c/d;p?q"),
            ("g#s", "http://a/b/c/g"),
            (";x", "http://a/b/c/;x"),
            ("g;x?y#s", "http://a/b/c/g;x?y"),
            ("", "http://a/b/c/d;p?q"),
            (".", "http://a/b/c/"),
            ("./", "http://a/b/c/"),
            ("..", "http://a/b/"),
            ("../", "http://a/b/"),
            ("../g", "http://a/b/g"),
            ("../..", "http://a/"),
            ("../../", "http://a/"),
            ("../../g", "http://a/g"),
            ("../../../g", "http://a/g"),
            ("../../../../g", "http://a/g"),
            ("/./g", "http://a/g"),
            ("/../g", "http://a/g"),
            ("g.", "http://a/b/c/g."),
            (".g", "http://a/b/c/.g"),
            ("g..", "http://a/b/c/g.."),
            ("..g", "http://a/b/c/..g"),
            ("./../g", "http://a/b/g"),
            ("./g/.", "http://a/b/c/g/"),
            ("g/./h", "http://a/b/c/g/h"),
            ("g/../h", "http://a/b/c/h"),
            ("g;x=1/./y", "http://a/b/c/g;x=1/y"),
            ("g;x=1/../y", "http://a/b/c/y"),
            ("g?y/./x", "http://a/b/c/g?y/./x"),
            ("http://other/x/../y", "http://other/y"),
            ("  /g \n", "http://a/g"),
        ] {
            assert_eq!(resolve(base, r).as_deref(), Ok(want), "{r:?}");
        }
    }

    #[test]
    fn sdk_endpoints() {
        assert_eq!(
            resolve("http://127.0.0.1:3001/sse", "/messages?sessionId=5b1f").as_deref(),
            Ok("http://127.0.0.1:3001/messages?sessionId=5b1f")
        );
        assert_eq!(
            resolve("http://localhost:8000/sse", "/messages/?session_id=ab12").as_deref(),
            Ok("http://localhost:8000/messages/?session_id=ab12")
        );
        assert_eq!(resolve("http://h", "m?x").as_deref(), Ok("http://h/m?x"));
        assert_eq!(resolve("http://h/sse", "http://evil.example/m").as_deref(), Ok("http://evil.example/m"));
        assert_eq!(resolve("http://h/sse", "javascript:alert(1)"), Err(UrlError::Syntax { at: 10 }));
        assert_eq!(resolve("http://h/sse", "/a b"), Err(UrlError::Syntax { at: 2 }));
        assert_eq!(resolve("http://h/sse", "//u@evil/"), Err(UrlError::UserInfo));
    }

    #[test]
    fn too_long_is_typed() {
        let base = Url::parse("http://localhost:3000/sse").unwrap();
        let mut out = [0u8; 30];
        assert_eq!(base.resolve("/messages?x=1", &mut out), Err(UrlError::TooLong { capacity: 30 }));
        assert_eq!(base.resolve("/m", &mut out), Ok(23));
    }
}
