//! Request bodies, read into one buffer no longer than the cap: a declared length is
//! checked by the core before a byte is read (413 then), a chunked body as it arrives.

/// Why a body cannot be read. The connection ends after the response.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BodyError {
    /// Chunked framing that does not parse: 400.
    Malformed,
    /// More than the cap: 413.
    TooLarge,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Chunk {
    /// Reading a chunk-size line (hex digits, then extensions up to CRLF).
    Size {
        digits: usize,
        value: u64,
        ext: bool,
    },
    /// Reading `left` bytes of chunk data.
    Data {
        left: u64,
    },
    /// The CRLF after chunk data.
    DataEnd {
        cr: bool,
    },
    /// Trailer lines after the last chunk, up to an empty line; `len` of the current one.
    Trailer {
        len: usize,
        cr: bool,
    },
    Done,
}

/// Moves body bytes from the connection's input into the body buffer.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BodyReader {
    kind: Kind,
    cap: usize,
}

#[derive(Clone, Copy, Debug)]
enum Kind {
    Length { left: u64 },
    Chunked(Chunk),
}

impl BodyReader {
    pub fn length(n: u64, cap: usize) -> Self {
        BodyReader { kind: Kind::Length { left: n }, cap }
    }

    pub fn chunked(cap: usize) -> Self {
        BodyReader { kind: Kind::Chunked(Chunk::Size { digits: 0, value: 0, ext: false }), cap }
    }

    /// Whether the body is complete.
    pub fn done(&self) -> bool {
        matches!(self.kind, Kind::Length { left: 0 } | Kind::Chunked(Chunk::Done))
    }

    /// Takes body bytes from `input` into `body`; returns how many bytes of `input` were
    /// used (the rest belongs to the next request).
    pub fn feed(&mut self, input: &[u8], body: &mut Vec<u8>) -> Result<usize, BodyError> {
        let mut at = 0;
        while at < input.len() && !self.done() {
            match &mut self.kind {
                Kind::Length { left } => {
                    let take = (*left).min((input.len() - at) as u64) as usize;
                    body.extend_from_slice(&input[at..at + take]);
                    *left -= take as u64;
                    at += take;
                }
                Kind::Chunked(state) => {
                    let b = input[at];
                    match state {
                        Chunk::Size { digits, value, ext } => {
                            at += 1;
                            match b {
                                b'\n' => {
                                    return Err(BodyError::Malformed);
                                }
                                b'\r' if *digits > 0 => {
                                    // The LF is checked as DataEnd-like: expect it next.
                                    if input.get(at) == Some(&b'\n') {
                                        at += 1;
                                    } else if at == input.len() {
                                        // CR at the end of this read: take the LF next time.
                                        at -= 1;
                                        return Ok(at);
                                    } else {
                                        return Err(BodyError::Malformed);
                                    }
                                    let v = *value;
                                    *state = if v == 0 {
                                        Chunk::Trailer { len: 0, cr: false }
                                    } else {
                                        if body.len() as u64 + v > self.cap as u64 {
                                            return Err(BodyError::TooLarge);
                                        }
                                        Chunk::Data { left: v }
                                    };
                                }
                                _ if *ext => {}
                                b';' | b' ' | b'\t' if *digits > 0 => *ext = true,
                                _ => {
                                    let d = (b as char).to_digit(16).ok_or(BodyError::Malformed)?;
                                    *digits += 1;
                                    if *digits > 15 {
                                        return Err(BodyError::TooLarge);
                                    }
                                    *value = *value << 4 | u64::from(d);
                                }
                            }
                        }
                        Chunk::Data { left } => {
                            let take = (*left).min((input.len() - at) as u64) as usize;
                            body.extend_from_slice(&input[at..at + take]);
                            *left -= take as u64;
                            at += take;
                            if *left == 0 {
                                *state = Chunk::DataEnd { cr: false };
                            }
                        }
                        Chunk::DataEnd { cr } => {
                            at += 1;
                            match (b, *cr) {
                                (b'\r', false) => *cr = true,
                                (b'\n', true) => *state = Chunk::Size { digits: 0, value: 0, ext: false },
                                _ => return Err(BodyError::Malformed),
                            }
                        }
                        Chunk::Trailer { len, cr } => {
                            at += 1;
                            match (b, *cr) {
                                (b'\r', false) => *cr = true,
                                (b'\n', true) if *len == 0 => *state = Chunk::Done,
                                (b'\n', true) => *state = Chunk::Trailer { len: 0, cr: false },
                                (b'\r' | b'\n', _) => return Err(BodyError::Malformed),
                                _ => {
                                    *len += 1;
                                    *cr = false;
                                    if *len > 8192 {
                                        return Err(BodyError::TooLarge);
                                    }
                                }
                            }
                        }
                        Chunk::Done => {}
                    }
                }
            }
        }
        Ok(at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunked(input: &[u8], cap: usize, step: usize) -> Result<(Vec<u8>, usize), BodyError> {
        let mut r = BodyReader::chunked(cap);
        let mut body = Vec::new();
        let mut at = 0;
        let mut end = 0;
        while !r.done() && end < input.len() {
            end = (end + step).min(input.len());
            at += r.feed(&input[at..end], &mut body)?;
        }
        assert!(r.done(), "incomplete");
        Ok((body, at))
    }

    #[test]
    fn chunked_bodies_in_any_pieces() {
        let input = b"4\r\nWiki\r\n5;ext=1\r\npedia\r\n0\r\nX-T: 1\r\n\r\nNEXT";
        for step in 1..input.len() {
            let (body, used) = chunked(input, 100, step).unwrap();
            assert_eq!(body, b"Wikipedia", "step {step}");
            assert_eq!(&input[used..], b"NEXT");
        }
        assert_eq!(chunked(b"zz\r\nab\r\n0\r\n\r\n", 100, 3), Err(BodyError::Malformed));
        assert_eq!(chunked(b"4\r\nWikiXX0\r\n\r\n", 100, 3), Err(BodyError::Malformed));
        assert_eq!(chunked(b"10\r\n0123456789abcdef\r\n0\r\n\r\n", 8, 64), Err(BodyError::TooLarge));
        let mut r = BodyReader::length(3, 10);
        let mut body = Vec::new();
        assert_eq!(r.feed(b"abcdef", &mut body), Ok(3));
        assert!(r.done());
        assert_eq!(body, b"abc");
    }
}
