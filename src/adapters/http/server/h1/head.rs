//! Request heads: where one ends, and what it says about the connection and the body.
//!
//! `httparse` does the parsing (strict: no space before a colon, no control bytes in
//! values, HTTP/1.0 and 1.1 only); this file adds what it leaves to the caller: the
//! size and count limits (431), and the framing rules of RFC 9112 §6 that stop request
//! smuggling: `Transfer-Encoding` with `Content-Length` is refused, only `chunked` is
//! understood (501 otherwise), and two `Content-Length` fields are refused by the core.

/// Why a head cannot be served. Every one ends the connection after its response.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum HeadError {
    /// Not HTTP/1.x syntax: 400.
    Malformed,
    /// The head is longer than allowed, or has too many fields: 431.
    TooLarge,
    /// `Transfer-Encoding` together with `Content-Length`, or not ending in chunked: 400.
    BadFraming,
    /// A transfer coding other than chunked: 501.
    UnknownCoding,
}

impl HeadError {
    pub fn status(self) -> u16 {
        match self {
            HeadError::Malformed | HeadError::BadFraming => 400,
            HeadError::TooLarge => 431,
            HeadError::UnknownCoding => 501,
        }
    }

    pub fn message(self) -> &'static str {
        match self {
            HeadError::Malformed => "Bad Request: malformed HTTP request",
            HeadError::TooLarge => "Request Header Fields Too Large",
            HeadError::BadFraming => {
                "Bad Request: Transfer-Encoding and Content-Length together, or a coding that is not chunked last"
            }
            HeadError::UnknownCoding => "Not Implemented: only the chunked transfer coding is understood",
        }
    }
}

/// How the request's body is delimited.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Framing {
    /// `Content-Length` (0 when absent).
    Length(u64),
    /// `Transfer-Encoding: chunked`.
    Chunked,
}

/// What the connection needs from a head, beyond what the core classifies.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ParsedHead {
    /// HTTP/1.0.
    pub http10: bool,
    /// The connection stays open after the response.
    pub keep_alive: bool,
    /// `Expect: 100-continue`.
    pub expect_continue: bool,
    pub framing: Framing,
}

/// Where the head in `buf` ends (after its blank line), searching from `from` (the
/// part searched before, less three bytes).
pub(crate) fn find_head_end(buf: &[u8], from: usize) -> Option<usize> {
    let start = from.saturating_sub(3);
    buf.get(start..)?.windows(4).position(|w| w == b"\r\n\r\n").map(|i| start + i + 4)
}

fn has_token(value: &[u8], token: &str) -> bool {
    value.split(|&b| b == b',').any(|t| t.trim_ascii().eq_ignore_ascii_case(token.as_bytes()))
}

/// Parses the complete head `buf[..len]` into `headers`; calls `serve` with the parsed
/// request when it is one this server can frame.
pub(crate) fn parse_head<'b, R>(
    buf: &'b [u8],
    headers: &mut [httparse::Header<'b>],
    serve: impl FnOnce(&httparse::Request<'_, 'b>, ParsedHead) -> R,
) -> Result<R, HeadError> {
    let mut req = httparse::Request::new(headers);
    match req.parse(buf) {
        Ok(httparse::Status::Complete(_)) => {}
        Ok(httparse::Status::Partial) => return Err(HeadError::Malformed),
        Err(httparse::Error::TooManyHeaders) => return Err(HeadError::TooLarge),
        Err(_) => return Err(HeadError::Malformed),
    };
    let http10 = req.version == Some(0);
    let mut keep_alive = !http10;
    let mut expect_continue = false;
    let mut chunked = false;
    let mut coded = false;
    let mut length = false;
    for h in req.headers.iter() {
        if h.name.eq_ignore_ascii_case("connection") {
            if has_token(h.value, "close") {
                keep_alive = false;
            } else if has_token(h.value, "keep-alive") {
                keep_alive = true;
            }
        } else if h.name.eq_ignore_ascii_case("transfer-encoding") {
            coded = true;
            // The last coding must be chunked, and the only one understood is chunked.
            let last = h.value.rsplit(|&b| b == b',').next().unwrap_or(b"").trim_ascii();
            chunked = last.eq_ignore_ascii_case(b"chunked");
            if !chunked {
                return Err(if last.is_empty() { HeadError::BadFraming } else { HeadError::UnknownCoding });
            }
            if h.value.split(|&b| b == b',').count() > 1 {
                return Err(HeadError::UnknownCoding);
            }
        } else if h.name.eq_ignore_ascii_case("content-length") {
            length = true;
        } else if h.name.eq_ignore_ascii_case("expect") {
            expect_continue = h.value.trim_ascii().eq_ignore_ascii_case(b"100-continue");
        }
    }
    if coded && (length || http10) {
        return Err(HeadError::BadFraming);
    }
    let framing = if chunked {
        Framing::Chunked
    } else {
        // The core checks the value (one field, digits, under the cap); 0 until then.
        Framing::Length(0)
    };
    Ok(serve(&req, ParsedHead { http10, keep_alive, expect_continue, framing }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<ParsedHead, HeadError> {
        let mut headers = [httparse::EMPTY_HEADER; 16];
        parse_head(text.as_bytes(), &mut headers, |_, p| p)
    }

    #[test]
    fn heads_and_framing() {
        assert_eq!(find_head_end(b"GET / HTTP/1.1\r\nHost: a\r\n\r\nrest", 0), Some(27));
        assert_eq!(find_head_end(b"GET / HTTP/1.1\r\nHost: a\r\n\r", 0), None);
        let p = parse("POST /mcp HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n").unwrap();
        assert_eq!((p.framing, p.keep_alive), (Framing::Chunked, true));
        let p = parse("GET / HTTP/1.0\r\nHost: a\r\n\r\n").unwrap();
        assert!(p.http10 && !p.keep_alive);
        let p = parse("GET / HTTP/1.1\r\nConnection: close\r\nExpect: 100-continue\r\n\r\n").unwrap();
        assert!(!p.keep_alive && p.expect_continue);
        for (bad, e) in [
            ("GARBAGE\r\n\r\n", HeadError::Malformed),
            ("POST / HTTP/9.9\r\n\r\n", HeadError::Malformed),
            ("POST / HTTP/1.1\r\nHost : a\r\n\r\n", HeadError::Malformed),
            ("POST / HTTP/1.1\r\nX-A: a\0b\r\n\r\n", HeadError::Malformed),
            ("POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n", HeadError::BadFraming),
            ("POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n", HeadError::UnknownCoding),
            ("POST / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", HeadError::UnknownCoding),
        ] {
            assert_eq!(parse(bad).unwrap_err(), e, "{bad:?}");
        }
        let many: String = (0..20).map(|i| format!("X-{i}: v\r\n")).collect();
        assert_eq!(parse(&format!("GET / HTTP/1.1\r\n{many}\r\n")).unwrap_err(), HeadError::TooLarge);
    }
}
