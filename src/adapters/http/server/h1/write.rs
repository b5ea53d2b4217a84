//! Responses on the wire: the status line and fields the core wrote, the framing
//! fields only this layer knows, and chunked framing for streams.

use std::io::Write as _;

use crate::http::server::reason;

/// How a response body is delimited.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BodyFraming {
    /// `Content-Length`.
    Length(usize),
    /// `Transfer-Encoding: chunked` (HTTP/1.1 streams).
    Chunked,
    /// Until the connection closes (streams to HTTP/1.0 clients).
    UntilClose,
}

/// Appends a status line, `fields` (CRLF-terminated lines), the framing and, when the
/// connection ends after this response, `Connection: close`; then the blank line.
pub(crate) fn response_head(out: &mut Vec<u8>, status: u16, fields: &[u8], framing: BodyFraming, close: bool) {
    let phrase = match reason(status) {
        "" => other_reason(status),
        r => r,
    };
    let _ = write!(out, "HTTP/1.1 {status} {phrase}\r\n");
    out.extend_from_slice(fields);
    match framing {
        // The core's JSON head has its Content-Length already; a second one (even the
        // same) is refused by strict parsers (Node's llhttp: "Duplicate Content-Length").
        BodyFraming::Length(_) if has_content_length(fields) => {}
        BodyFraming::Length(n) => {
            let _ = write!(out, "Content-Length: {n}\r\n");
        }
        BodyFraming::Chunked => out.extend_from_slice(b"Transfer-Encoding: chunked\r\n"),
        BodyFraming::UntilClose => {}
    }
    if close {
        out.extend_from_slice(b"Connection: close\r\n");
    }
    out.extend_from_slice(b"\r\n");
}

fn has_content_length(fields: &[u8]) -> bool {
    fields.split(|&b| b == b'\n').any(|line| line.len() >= 15 && line[..15].eq_ignore_ascii_case(b"content-length:"))
}

fn other_reason(status: u16) -> &'static str {
    match status {
        100 => "Continue",
        408 => "Request Timeout",
        429 => "Too Many Requests",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        501 => "Not Implemented",
        _ => "",
    }
}

/// Appends a complete error response for a request the core never saw (broken HTTP, a
/// timeout): an id-less JSON-RPC error, as the core's refusals carry.
pub(crate) fn error_response(out: &mut Vec<u8>, status: u16, message: &str, close: bool) {
    let body = format!(r#"{{"jsonrpc":"2.0","id":null,"error":{{"code":-32000,"message":"{message}"}}}}"#);
    response_head(out, status, b"Content-Type: application/json\r\n", BodyFraming::Length(body.len()), close);
    out.extend_from_slice(body.as_bytes());
}

/// Chunk data per chunk, at most.
pub(crate) const MAX_CHUNK: usize = 0xFFFF;

/// The last chunk of a chunked body.
pub(crate) const LAST_CHUNK: &[u8] = b"0\r\n\r\n";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heads_and_chunks() {
        let mut out = Vec::new();
        response_head(&mut out, 202, b"", BodyFraming::Length(0), false);
        assert_eq!(out, b"HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n");
        out.clear();
        response_head(&mut out, 431, b"X: y\r\n", BodyFraming::Chunked, true);
        assert_eq!(
            out,
            b"HTTP/1.1 431 Request Header Fields Too Large\r\nX: y\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
        );
        // A JSON head from the core carries its length: it is not written twice.
        out.clear();
        response_head(
            &mut out,
            200,
            b"Content-Type: application/json\r\ncontent-length: 2\r\n",
            BodyFraming::Length(2),
            false,
        );
        assert_eq!(out, b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\ncontent-length: 2\r\n\r\n");
    }
}
