//! Response heads (RFC 9112 §4, §6.3): httparse reads the status line and the fields;
//! this decides what follows them and whether the connection can carry another request.

use super::body::Framing;

/// The most header fields a response head may have; more is treated as a broken
/// response (a server has no reason to send that many to an MCP client).
pub(crate) const MAX_HEADERS: usize = 64;

/// A complete response head.
#[derive(Debug)]
pub(crate) struct Head<'b> {
    /// Bytes of the head, its final empty line included.
    pub len: usize,
    pub status: u16,
    pub headers: &'b [httparse::Header<'b>],
    pub framing: Framing,
    /// The connection may carry another request once the body has ended.
    pub reusable: bool,
}

/// What the bytes read so far hold.
#[derive(Debug)]
pub(crate) enum Parsed<'b> {
    /// Not a whole head yet.
    Partial,
    /// A 1xx interim response of `len` bytes (`100 Continue`, `103 Early Hints`): drop
    /// it and read the next head.
    Interim { len: usize },
    /// The final head.
    Final(Head<'b>),
}

/// Why a head could not be used: the response is broken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum HeadError {
    /// Not HTTP/1.x, a malformed line or field, or more than [`MAX_HEADERS`] fields.
    Syntax,
    /// `Content-Length` not a number, or two that differ (RFC 9112 §6.3: unrecoverable).
    ContentLength,
    /// `101 Switching Protocols`: never asked for.
    Upgrade,
}

/// Parses the head at the start of `buf`.
pub(crate) fn parse<'b>(
    buf: &'b [u8],
    fields: &'b mut [httparse::Header<'b>; MAX_HEADERS],
) -> Result<Parsed<'b>, HeadError> {
    let mut response = httparse::Response::new(fields);
    let len = match response.parse(buf) {
        Ok(httparse::Status::Complete(len)) => len,
        Ok(httparse::Status::Partial) => return Ok(Parsed::Partial),
        Err(_) => return Err(HeadError::Syntax),
    };
    let status = response.code.ok_or(HeadError::Syntax)?;
    let version = response.version.ok_or(HeadError::Syntax)?;
    let headers: &'b [httparse::Header<'b>] = response.headers;
    if status == 101 {
        return Err(HeadError::Upgrade);
    }
    if (100..200).contains(&status) {
        return Ok(Parsed::Interim { len });
    }
    let mut chunked = None;
    let mut length: Option<u64> = None;
    let mut close = version == 0;
    for h in headers {
        if h.name.eq_ignore_ascii_case("transfer-encoding") {
            // The last coding decides (a later field continues the list).
            if let Some(last) = h.value.rsplit(|&b| b == b',').next() {
                chunked = Some(trim(last).eq_ignore_ascii_case(b"chunked"));
            }
        } else if h.name.eq_ignore_ascii_case("content-length") {
            for v in h.value.split(|&b| b == b',') {
                let n = digits(trim(v)).ok_or(HeadError::ContentLength)?;
                if length.is_some_and(|l| l != n) {
                    return Err(HeadError::ContentLength);
                }
                length = Some(n);
            }
        } else if h.name.eq_ignore_ascii_case("connection") {
            for token in h.value.split(|&b| b == b',') {
                let token = trim(token);
                if token.eq_ignore_ascii_case(b"close") {
                    close = true;
                } else if version == 0 && token.eq_ignore_ascii_case(b"keep-alive") {
                    close = false;
                }
            }
        }
    }
    let framing = if status == 204 || status == 304 {
        Framing::Empty
    } else {
        match (chunked, length) {
            (Some(true), _) => Framing::Chunked,
            // A coding that is not chunked last: only the connection's end delimits it.
            (Some(false), _) => Framing::UntilClose,
            (None, Some(n)) => Framing::Length(n),
            (None, None) => Framing::UntilClose,
        }
    };
    // Both fields at once is how requests get smuggled: never reuse such a connection.
    let reusable = !close && framing != Framing::UntilClose && !(chunked.is_some() && length.is_some());
    Ok(Parsed::Final(Head { len, status, headers, framing, reusable }))
}

fn trim(v: &[u8]) -> &[u8] {
    let start = v.iter().position(|b| !b" \t".contains(b)).unwrap_or(v.len());
    let end = v.iter().rposition(|b| !b" \t".contains(b)).map_or(start, |e| e + 1);
    &v[start..end]
}

fn digits(v: &[u8]) -> Option<u64> {
    if v.is_empty() || v.len() > 19 || !v.iter().all(u8::is_ascii_digit) {
        return None;
    }
    v.iter().try_fold(0u64, |n, &d| n.checked_mul(10)?.checked_add(u64::from(d - b'0')))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(text: &str) -> Result<(u16, Framing, bool, usize), HeadError> {
        let mut fields = [httparse::EMPTY_HEADER; MAX_HEADERS];
        match parse(text.as_bytes(), &mut fields)? {
            Parsed::Final(h) => Ok((h.status, h.framing, h.reusable, h.len)),
            Parsed::Interim { len } => Ok((100, Framing::Empty, false, len)),
            Parsed::Partial => Ok((0, Framing::Empty, false, 0)),
        }
    }

    #[test]
    fn framing_by_fields() {
        let json = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 12\r\n\r\n{}";
        assert_eq!(head(json), Ok((200, Framing::Length(12), true, json.len() - 2)));
        let sse = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n";
        assert_eq!(head(sse).unwrap().1, Framing::Chunked);
        let plain = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n";
        assert_eq!(head(plain).unwrap(), (200, Framing::UntilClose, false, plain.len()));
        assert_eq!(head("HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n").unwrap().1, Framing::Length(0));
        assert_eq!(head("HTTP/1.1 204 No Content\r\n\r\n").unwrap().1, Framing::Empty);
        assert_eq!(head("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n").unwrap().1, Framing::UntilClose);
        // Both: chunked wins, the connection is not reused.
        let both = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n";
        assert_eq!(head(both).unwrap().1, Framing::Chunked);
        assert!(!head(both).unwrap().2);
        // HTTP/1.0 closes unless asked not to.
        assert!(!head("HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n").unwrap().2);
        assert!(head("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n").unwrap().2);
    }

    #[test]
    fn interim_partial_and_broken() {
        assert_eq!(head("HTTP/1.1 100 Continue\r\n\r\n").unwrap(), (100, Framing::Empty, false, 25));
        assert_eq!(head("HTTP/1.1 200 OK\r\nContent-Le").unwrap().0, 0);
        assert_eq!(head("HTTP/1.1 101 Switching Protocols\r\n\r\n"), Err(HeadError::Upgrade));
        assert_eq!(head("HTTP/1.1 200 OK\r\nContent-Length: 1, 2\r\n\r\n"), Err(HeadError::ContentLength));
        assert_eq!(head("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n"), Err(HeadError::ContentLength));
        assert_eq!(head("HTTP/1.1 200 OK\r\nContent-Length: 3, 3\r\n\r\n").unwrap().1, Framing::Length(3));
        assert_eq!(head("SSH-2.0-OpenSSH\r\n\r\n"), Err(HeadError::Syntax));
        let many: String = (0..MAX_HEADERS + 1).map(|i| format!("X-{i}: 1\r\n")).collect();
        assert_eq!(head(&format!("HTTP/1.1 200 OK\r\n{many}\r\n")), Err(HeadError::Syntax));
    }
}
