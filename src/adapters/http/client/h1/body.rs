//! Response bodies as HTTP/1.1 frames them (RFC 9112 §6.3 and §7.1): a declared length,
//! chunked, or everything until the connection closes. The decoder never copies: it
//! says where the body bytes are in what was read, and is told how many were taken, so
//! bytes the client core does not take yet stay in the read buffer (backpressure).

/// How the body of a response is delimited.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Framing {
    /// No body (1xx, 204, 304).
    Empty,
    /// `Content-Length`.
    Length(u64),
    /// `Transfer-Encoding: chunked`.
    Chunked,
    /// Neither: the body ends when the server closes the connection.
    UntilClose,
}

/// The longest chunk-size line or trailer line accepted (extensions included). A server
/// that sends more is broken or hostile; the connection is dropped.
pub(crate) const MAX_LINE: usize = 4096;

/// What [`BodyDecoder::next`] found in the bytes it was given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Piece {
    /// `skip` framing bytes, then `len` body bytes: `buf[skip..skip + len]`. Report how
    /// many of them were taken with [`BodyDecoder::taken`]; the caller drops `skip`
    /// bytes plus those.
    Data { skip: usize, len: usize },
    /// `skip` framing bytes were read; more input is needed.
    More { skip: usize },
    /// The body ended after `skip` more framing bytes.
    End { skip: usize },
}

/// A framing error: the connection cannot be trusted any more.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Malformed;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Length(u64),
    ChunkSize,
    ChunkData(u64),
    /// The CRLF after a chunk's data.
    ChunkEnd,
    /// Trailer fields after the last chunk, up to an empty line.
    Trailers,
    UntilClose,
    Done,
}

/// Decodes one response body.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BodyDecoder {
    state: State,
}

impl BodyDecoder {
    pub fn new(framing: Framing) -> Self {
        let state = match framing {
            Framing::Empty | Framing::Length(0) => State::Done,
            Framing::Length(n) => State::Length(n),
            Framing::Chunked => State::ChunkSize,
            Framing::UntilClose => State::UntilClose,
        };
        Self { state }
    }

    /// Reads framing in `buf` up to the next body bytes, the need for more, or the end.
    pub fn next(&mut self, buf: &[u8]) -> Result<Piece, Malformed> {
        let mut skip = 0;
        loop {
            let rest = &buf[skip..];
            match self.state {
                State::Done => return Ok(Piece::End { skip }),
                State::Length(n) | State::ChunkData(n) => {
                    let len = usize::try_from(n).unwrap_or(usize::MAX).min(rest.len());
                    return Ok(if len == 0 { Piece::More { skip } } else { Piece::Data { skip, len } });
                }
                State::UntilClose => {
                    return Ok(if rest.is_empty() {
                        Piece::More { skip }
                    } else {
                        Piece::Data { skip, len: rest.len() }
                    });
                }
                State::ChunkSize => match httparse::parse_chunk_size(rest) {
                    Ok(httparse::Status::Complete((used, size))) => {
                        skip += used;
                        self.state = if size == 0 { State::Trailers } else { State::ChunkData(size) };
                    }
                    Ok(httparse::Status::Partial) if rest.len() <= MAX_LINE => return Ok(Piece::More { skip }),
                    _ => return Err(Malformed),
                },
                State::ChunkEnd => match rest {
                    [b'\r', b'\n', ..] => {
                        skip += 2;
                        self.state = State::ChunkSize;
                    }
                    // A bare LF, as lenient parsers accept.
                    [b'\n', ..] => {
                        skip += 1;
                        self.state = State::ChunkSize;
                    }
                    [] | [b'\r'] => return Ok(Piece::More { skip }),
                    _ => return Err(Malformed),
                },
                State::Trailers => match rest.iter().position(|&b| b == b'\n') {
                    Some(end) => {
                        let line = &rest[..end];
                        skip += end + 1;
                        if line.is_empty() || line == b"\r" {
                            self.state = State::Done;
                        }
                    }
                    None if rest.len() <= MAX_LINE => return Ok(Piece::More { skip }),
                    None => return Err(Malformed),
                },
            }
        }
    }

    /// `n` bytes of the last [`Piece::Data`] were taken.
    pub fn taken(&mut self, n: usize) {
        let n = n as u64;
        self.state = match self.state {
            State::Length(r) if r <= n => State::Done,
            State::Length(r) => State::Length(r - n),
            State::ChunkData(r) if r <= n => State::ChunkEnd,
            State::ChunkData(r) => State::ChunkData(r - n),
            other => other,
        };
    }

    /// The connection closed: whether the body was complete (a close-delimited body
    /// always is; a length or chunked one only at its end).
    pub fn complete_at_close(&self) -> bool {
        matches!(self.state, State::UntilClose | State::Done)
    }

    /// Whether the body has ended.
    #[cfg(test)]
    pub fn is_done(&self) -> bool {
        self.state == State::Done
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Decodes `wire` fed in pieces of `step` bytes, taking at most `take` body bytes at
    /// a time; returns the body, or `None` at a framing error, and whether it ended.
    fn decode(framing: Framing, wire: &[u8], step: usize, take: usize) -> (Option<Vec<u8>>, bool) {
        let mut d = BodyDecoder::new(framing);
        let mut buf: Vec<u8> = Vec::new();
        let mut fed = 0;
        let mut body = Vec::new();
        loop {
            match d.next(&buf) {
                Err(Malformed) => return (None, false),
                Ok(Piece::End { skip }) => {
                    buf.drain(..skip);
                    return (Some(body), true);
                }
                Ok(Piece::Data { skip, len }) => {
                    let n = len.min(take);
                    body.extend_from_slice(&buf[skip..skip + n]);
                    d.taken(n);
                    buf.drain(..skip + n);
                }
                Ok(Piece::More { skip }) => {
                    buf.drain(..skip);
                    if fed == wire.len() {
                        return (Some(body), d.complete_at_close() && framing == Framing::UntilClose);
                    }
                    let end = (fed + step).min(wire.len());
                    buf.extend_from_slice(&wire[fed..end]);
                    fed = end;
                }
            }
        }
    }

    #[test]
    fn chunked_in_any_pieces() {
        let wire = b"5\r\nhello\r\n1;ext=\"a b\"\r\n \r\n0\r\nX-Trailer: 1\r\n\r\n";
        for step in 1..wire.len() {
            for take in [1, 3, 100] {
                assert_eq!(
                    decode(Framing::Chunked, wire, step, take),
                    (Some(b"hello ".to_vec()), true),
                    "{step}/{take}"
                );
            }
        }
    }

    #[test]
    fn length_and_empty() {
        assert_eq!(decode(Framing::Length(3), b"abc", 1, 2), (Some(b"abc".to_vec()), true));
        assert_eq!(decode(Framing::Length(0), b"", 1, 2), (Some(Vec::new()), true));
        assert_eq!(decode(Framing::Empty, b"", 1, 2), (Some(Vec::new()), true));
        // Short: not ended.
        assert_eq!(decode(Framing::Length(5), b"abc", 2, 9), (Some(b"abc".to_vec()), false));
        let mut d = BodyDecoder::new(Framing::Length(5));
        assert!(!d.complete_at_close());
        d.taken(5);
        assert!(d.is_done());
    }

    #[test]
    fn until_close() {
        assert_eq!(decode(Framing::UntilClose, b"data: x\n\n", 4, 3), (Some(b"data: x\n\n".to_vec()), true));
    }

    #[test]
    fn bad_chunks_are_refused() {
        assert_eq!(decode(Framing::Chunked, b"zz\r\n", 9, 9).0, None);
        assert_eq!(decode(Framing::Chunked, b"3\r\nabcX", 9, 9).0, None);
        let long = vec![b'1'; MAX_LINE + 2];
        assert_eq!(decode(Framing::Chunked, &long, MAX_LINE + 2, 9).0, None);
        let mut trailer = b"0\r\n".to_vec();
        trailer.extend(vec![b'x'; MAX_LINE + 2]);
        assert_eq!(decode(Framing::Chunked, &trailer, trailer.len(), 9).0, None);
        // A chunked body cut short is not complete.
        assert_eq!(decode(Framing::Chunked, b"5\r\nhel", 2, 9), (Some(b"hel".to_vec()), false));
    }
}
