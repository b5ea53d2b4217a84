//! What can be told about a message from its first bytes, when the rest never fits.
//!
//! A line longer than the receive buffer is skipped, but its sender still waits for an
//! answer. Before the framer drops the bytes it holds, it scans their top-level object
//! leniently (no validation, any key order, stopping where the bytes stop) for the three
//! things that decide what is owed: the `id` token, whether a `method` was seen (a
//! request), and whether a `result` or `error` was seen (a response).

/// The longest id token kept (the wire layer's limit for stored ids).
pub(crate) const PREFIX_ID_MAX: usize = crate::wire::MAX_ID_LEN;

/// The shape of an oversized message, as far as its first bytes tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Prefix {
    id: [u8; PREFIX_ID_MAX],
    id_len: u8,
    /// A top-level `method` member was seen.
    pub method: bool,
    /// A top-level `result` or `error` member was seen.
    pub answer: bool,
}

impl Prefix {
    const UNKNOWN: Prefix = Prefix { id: [0; PREFIX_ID_MAX], id_len: 0, method: false, answer: false };

    /// The raw `id` token (a JSON string or number, unvalidated), if one was seen whole.
    pub fn id(&self) -> Option<&[u8]> {
        (self.id_len > 0).then(|| &self.id[..usize::from(self.id_len)])
    }

    /// Scans `bytes`, the start of a message.
    pub fn scan(bytes: &[u8]) -> Prefix {
        let mut p = Prefix::UNKNOWN;
        let mut s = Cursor { b: bytes, i: 0 };
        if s.ws_then() != Some(b'{') {
            return p;
        }
        s.i += 1;
        loop {
            match s.ws_then() {
                Some(b'"') => {}
                _ => return p,
            }
            let Some(key) = s.string() else { return p };
            if s.ws_then() != Some(b':') {
                return p;
            }
            s.i += 1;
            s.ws_then();
            let start = s.i;
            let complete = s.skip_value();
            if is(key, b"id") && complete {
                let token = bytes.get(start..s.i).unwrap_or_default();
                if let Some(id) = p.id.get_mut(..token.len()).filter(|_| !token.is_empty()) {
                    id.copy_from_slice(token);
                    p.id_len = token.len() as u8;
                }
            }
            p.method |= is(key, b"method");
            p.answer |= is(key, b"result") || is(key, b"error");
            if !complete {
                return p;
            }
            match s.ws_then() {
                Some(b',') => s.i += 1,
                _ => return p,
            }
        }
    }
}

/// Whether `key` is `name`: one comparison out of line, where a `match` on the names
/// compared them byte by byte inline (an oversized line is rare; flash is not).
#[inline(never)]
fn is(key: &[u8], name: &[u8]) -> bool {
    key == name
}

struct Cursor<'b> {
    b: &'b [u8],
    i: usize,
}

impl<'b> Cursor<'b> {
    /// Skips whitespace; the byte there.
    fn ws_then(&mut self) -> Option<u8> {
        while let Some(&c) = self.b.get(self.i) {
            if !matches!(c, b' ' | b'\t' | b'\r' | b'\n') {
                return Some(c);
            }
            self.i += 1;
        }
        None
    }

    /// At a `"`: the raw contents of the string, the cursor after its closing quote.
    fn string(&mut self) -> Option<&'b [u8]> {
        let start = self.i + 1;
        let mut j = start;
        while let Some(&c) = self.b.get(j) {
            match c {
                b'\\' => j += 2,
                b'"' => {
                    self.i = j + 1;
                    return self.b.get(start..j);
                }
                _ => j += 1,
            }
        }
        self.i = self.b.len();
        None
    }

    /// Skips one value; `false` if the bytes end inside it.
    fn skip_value(&mut self) -> bool {
        let mut depth = 0usize;
        loop {
            let Some(c) = self.ws_then() else { return false };
            match c {
                b'"' => {
                    if self.string().is_none() {
                        return false;
                    }
                }
                b'{' | b'[' => {
                    depth += 1;
                    self.i += 1;
                    continue;
                }
                b'}' | b']' if depth > 0 => {
                    depth -= 1;
                    self.i += 1;
                }
                b',' | b':' if depth > 0 => {
                    self.i += 1;
                    continue;
                }
                _ => {
                    // A number or a literal: up to the next delimiter.
                    let start = self.i;
                    while self
                        .b
                        .get(self.i)
                        .is_some_and(|c| !matches!(c, b',' | b'}' | b']' | b':' | b' ' | b'\t' | b'\r' | b'\n'))
                    {
                        self.i += 1;
                    }
                    if self.i == start || self.i == self.b.len() {
                        return false;
                    }
                }
            }
            if depth == 0 {
                return true;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_what_the_first_bytes_show() {
        let p = Prefix::scan(br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x","argu"#);
        assert_eq!((p.id(), p.method, p.answer), (Some(&b"7"[..]), true, false));
        let p = Prefix::scan(br#" { "id" : "a\"b" , "result" : {"content":[{"type":"text","text":"xx"#);
        assert_eq!((p.id(), p.method, p.answer), (Some(&br#""a\"b""#[..]), false, true));
        // The id after a long member that does not end here cannot be seen.
        let p = Prefix::scan(br#"{"jsonrpc":"2.0","method":"tools/call","params":{"pad":"xxxxx"#);
        assert_eq!((p.id(), p.method), (None, true));
        // Nested ids and keys do not count; a number cut by the end is not whole.
        let p = Prefix::scan(br#"{"params":{"id":3,"method":"m","result":1},"error":{},"id":12"#);
        assert_eq!((p.id(), p.method, p.answer), (None, false, true));
        for junk in [&b""[..], b"[{\"id\":1}]", b"not json", b"{\"id\"", b"{\"id\":", b"{\"id\":\"unterminated"] {
            assert_eq!(Prefix::scan(junk).id(), None, "{junk:?}");
        }
        // Too long to keep.
        let long = format!(r#"{{"id":"{}","method":"ping""#, "x".repeat(100));
        assert_eq!(Prefix::scan(long.as_bytes()).id(), None);
    }
}
