//! Fast navigation inside JSON that [`scan`](super::scan) has already validated.
//!
//! Looking up `params.arguments` or walking `result.tools` must not pay for validation a
//! second time, so these helpers only find token boundaries. They assume valid input, and
//! on invalid input they still never panic or loop: every step moves forward and every
//! index is checked, so the worst outcome is a wrong span or an early `None`.

use super::find;
use super::scan::StrSpan;

/// The offset of the first byte at or after `i` that is not whitespace. Inlined with the
/// wide searches; one shared copy with the compact ones (it is called from many places).
#[inline(always)]
pub(crate) fn skip_ws(buf: &[u8], i: usize) -> usize {
    if find::COMPACT { skip_ws_shared(buf, i) } else { skip_ws_here(buf, i) }
}

#[inline(never)]
fn skip_ws_shared(buf: &[u8], i: usize) -> usize {
    skip_ws_here(buf, i)
}

#[inline(always)]
fn skip_ws_here(buf: &[u8], mut i: usize) -> usize {
    while let Some(b' ' | b'\n' | b'\r' | b'\t') = buf.get(i) {
        i += 1;
    }
    i
}

/// `i` is at the first byte of a number; returns the offset just after it.
#[inline]
pub(crate) fn number_end(buf: &[u8], mut i: usize) -> usize {
    while let Some(b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E') = buf.get(i) {
        i += 1;
    }
    i
}

/// `i` is at an opening quote; returns the string's span and the offset after it.
#[cfg_attr(any(target_feature = "sse2", target_feature = "neon", target_feature = "simd128"), inline)]
#[cfg_attr(not(any(target_feature = "sse2", target_feature = "neon", target_feature = "simd128")), inline(never))]
pub(crate) fn string(buf: &[u8], i: usize) -> (StrSpan, usize) {
    string_inlined(buf, i)
}

/// [`string`], inlined into its caller: for the member loop of the direct decoders (see
/// [`fields`](super::fields)), which reads two strings per member.
#[inline(always)]
pub(crate) fn string_inlined(buf: &[u8], i: usize) -> (StrSpan, usize) {
    let start = i + 1;
    // A short string (member names, most values), with the wide searches.
    if let Some(end) = find::short_string(buf, start) {
        return (StrSpan { start, end, escaped: false }, end + 1);
    }
    // With SIMD, the closing quote is found at full speed (escaped quotes are passed by
    // counting the backslashes before them), then the body is searched for a backslash:
    // two quick passes cost less than one that tests every block for both.
    #[cfg(mcp_sansio_wide)]
    let found = match find::VECTOR {
        true => find::closing_quote::<false>(buf, start, start)
            .map(|(end, _)| (end, buf.get(start..end).is_some_and(find::has_backslash_blocks))),
        false => find::closing_quote::<true>(buf, start, start),
    };
    #[cfg(not(mcp_sansio_wide))]
    let found = find::closing_quote::<true>(buf, start, start);
    match found {
        Some((end, escaped)) => (StrSpan { start, end, escaped }, end + 1),
        None => {
            let end = buf.len();
            (StrSpan { start: start.min(end), end, escaped: false }, end)
        }
    }
}

/// `i` is at an opening quote; returns the offset after the closing one.
#[inline]
fn string_end(buf: &[u8], i: usize) -> usize {
    // A short string (member names, most values inside `arguments` and `_meta`), with the
    // wide searches: two words, where the block search costs more to set up.
    if let Some(end) = find::short_string(buf, i + 1) {
        return end + 1;
    }
    // Without SIMD, the same instance as `string` (noting backslashes costs a little time
    // and saves a second copy of the code; the compact search has one copy anyway).
    match find::closing_quote::<{ !find::VECTOR }>(buf, i + 1, i + 1) {
        Some((end, _)) => end + 1,
        None => buf.len(),
    }
}

/// `i` is at the first byte of a value; returns the offset just after it.
///
/// Containers are skipped by counting brackets outside strings; strings are skipped by
/// [`find::closing_quote`], sixteen bytes at a time. Nothing is decoded or checked again.
pub(crate) fn value_end(buf: &[u8], i: usize) -> usize {
    match buf.get(i) {
        Some(b'"') => string_end(buf, i),
        Some(b'{' | b'[') => {
            let mut depth = 0usize;
            let mut j = i;
            while let Some(&b) = buf.get(j) {
                match b {
                    b'"' => {
                        j = string_end(buf, j);
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth = depth.saturating_sub(1);
                        if depth == 0 {
                            return j + 1;
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            buf.len()
        }
        Some(_) => {
            // Numbers and literals run until a delimiter.
            let mut j = i + 1;
            while let Some(&b) = buf.get(j) {
                if matches!(b, b',' | b'}' | b']' | b' ' | b'\n' | b'\r' | b'\t') {
                    break;
                }
                j += 1;
            }
            j
        }
        None => i,
    }
}

/// Iterates the members of a validated object: `(name span, value start, value end)`.
#[derive(Clone)]
pub(crate) struct Members<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> Members<'a> {
    /// `buf` is exactly one object (no surrounding whitespace); anything else yields nothing.
    pub(crate) fn new(buf: &'a [u8]) -> Self {
        let pos = if buf.first() == Some(&b'{') { 1 } else { buf.len() };
        Self { buf, pos }
    }

    /// The next member, as [`next`](Iterator::next) reads it, where `literal` may know
    /// its name from the bytes after the opening quote: `Some((key, len))` says that those
    /// bytes start with one of the caller's names, `len` bytes long and written without
    /// escapes, and the closing quote follows them (checked here), so that a long name
    /// the caller expects costs one comparison instead of a search for its closing quote.
    /// Any other name is read as `next` reads it and comes back as `Err(span)`; so does
    /// the same name written with escapes (it is the same name: the caller decides).
    #[inline]
    pub(crate) fn next_known<K>(
        &mut self,
        literal: impl FnOnce(&[u8]) -> Option<(K, usize)>,
    ) -> Option<(Result<K, StrSpan>, usize, usize)> {
        let (buf, i) = (self.buf, self.name_at()?);
        let (name, after) = known_name(buf, i, literal);
        let (start, end) = self.value_after_name(after)?;
        Some((name, start, end))
    }

    /// Where the next member's name opens (its quote), past the comma before it; `None`
    /// at the end (or on text that is not an object's members).
    #[inline(always)]
    fn name_at(&mut self) -> Option<usize> {
        let buf = self.buf;
        let mut i = skip_ws(buf, self.pos);
        if buf.get(i) == Some(&b',') {
            i = skip_ws(buf, i + 1);
        }
        if buf.get(i) != Some(&b'"') {
            self.pos = buf.len();
            return None;
        }
        Some(i)
    }

    /// After a member's name (`after` past its closing quote): the value's span, the walk moved
    /// past it; `None` at the end (or on text that is not an object's members).
    #[inline(always)]
    fn value_after_name(&mut self, after: usize) -> Option<(usize, usize)> {
        let buf = self.buf;
        let i = skip_ws(buf, after);
        if buf.get(i) != Some(&b':') {
            self.pos = buf.len();
            return None;
        }
        let start = skip_ws(buf, i + 1);
        let end = value_end(buf, start);
        if end <= start {
            self.pos = buf.len();
            return None;
        }
        self.pos = end;
        Some((start, end))
    }
}

impl Iterator for Members<'_> {
    type Item = (StrSpan, usize, usize);

    fn next(&mut self) -> Option<Self::Item> {
        let (buf, i) = (self.buf, self.name_at()?);
        let (name, after) = string(buf, i);
        let (start, end) = self.value_after_name(after)?;
        Some((name, start, end))
    }
}

/// In a validated object, the offset where the value of the first member named `name`
/// (compared after unescaping) starts. The values of the members before it are skipped,
/// not decoded, and the found value is not looked at at all.
pub(crate) fn find_member(buf: &[u8], name: &str) -> Option<usize> {
    if buf.first() != Some(&b'{') {
        return None;
    }
    let mut i = 1;
    loop {
        i = skip_ws(buf, i);
        if buf.get(i) == Some(&b',') {
            i = skip_ws(buf, i + 1);
        }
        if buf.get(i) != Some(&b'"') {
            return None;
        }
        let (key, after) = string(buf, i);
        i = skip_ws(buf, after);
        if buf.get(i) != Some(&b':') {
            return None;
        }
        let start = skip_ws(buf, i + 1);
        let matches = match key.escaped {
            false => buf.get(key.start..key.end) == Some(name.as_bytes()),
            true => super::string::JsonStr::from_span(buf, key).eq_str(name),
        };
        if matches {
            return Some(start);
        }
        let end = value_end(buf, start);
        if end <= start {
            return None;
        }
        i = end;
    }
}

/// The member name whose opening quote is at `i`, and the offset past its closing quote:
/// `Ok` with what `known` made of the bytes after the quote when it says they start with a
/// name of that many bytes, written without escapes, and the closing quote follows (one
/// comparison instead of a search for the quote); any other name as its span.
#[inline(always)]
fn known_name<K>(buf: &[u8], i: usize, known: impl FnOnce(&[u8]) -> Option<(K, usize)>) -> (Result<K, StrSpan>, usize) {
    let rest = buf.get(i + 1..).unwrap_or_default();
    match known(rest) {
        Some((key, len)) if rest.get(len) == Some(&b'"') => (Ok(key), i + len + 2),
        _ => {
            let (span, after) = string(buf, i);
            (Err(span), after)
        }
    }
}

/// Walks the members of the validated object `buf` starts with (`buf` may go on after
/// it), once: `member` is given each member's name (`Ok` with what `known` made of the
/// bytes after its opening quote, when it said they start with a name of that many bytes,
/// written without escapes, that the closing quote follows) and the offset its value starts at,
/// and returns where that value ends if it walked the value itself, or `None` to have
/// it skipped here. The offset just past the object's closing brace, or `None` if `buf`
/// does not start with an object.
pub(crate) fn walk_object<K>(
    buf: &[u8],
    mut known: impl FnMut(&[u8]) -> Option<(K, usize)>,
    mut member: impl FnMut(Result<K, StrSpan>, usize) -> Option<usize>,
) -> Option<usize> {
    if buf.first() != Some(&b'{') {
        return None;
    }
    let mut i = 1;
    loop {
        i = skip_ws(buf, i);
        match buf.get(i) {
            Some(b'}') => return Some(i + 1),
            Some(b',') => i = skip_ws(buf, i + 1),
            _ => {}
        }
        if buf.get(i) != Some(&b'"') {
            return None;
        }
        let (name, after) = known_name(buf, i, &mut known);
        i = skip_ws(buf, after);
        if buf.get(i) != Some(&b':') {
            return None;
        }
        let start = skip_ws(buf, i + 1);
        let end = match member(name, start) {
            Some(end) => end,
            None => value_end(buf, start),
        };
        if end <= start {
            return None;
        }
        i = end;
    }
}

/// Iterates the elements of a validated array: `(value start, value end)`.
#[derive(Clone)]
pub(crate) struct Elements<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> Elements<'a> {
    /// `buf` is exactly one array; anything else yields nothing.
    pub(crate) fn new(buf: &'a [u8]) -> Self {
        let pos = if buf.first() == Some(&b'[') { 1 } else { buf.len() };
        Self { buf, pos }
    }
}

impl Iterator for Elements<'_> {
    type Item = (usize, usize);

    fn next(&mut self) -> Option<Self::Item> {
        let buf = self.buf;
        let mut i = skip_ws(buf, self.pos);
        if buf.get(i) == Some(&b',') {
            i = skip_ws(buf, i + 1);
        }
        match buf.get(i) {
            None | Some(b']') => {
                self.pos = buf.len();
                None
            }
            Some(_) => {
                let end = value_end(buf, i);
                if end <= i {
                    self.pos = buf.len();
                    return None;
                }
                self.pos = end;
                Some((i, end))
            }
        }
    }
}

/// The next element of an array whose elements start at or after `from` and which ends
/// (its `]`) before `end`: `(start, end)` of the element.
pub(crate) fn batch_element(buf: &[u8], from: usize, end: usize) -> Option<(usize, usize)> {
    let buf = buf.get(..end)?;
    let mut i = skip_ws(buf, from);
    if buf.get(i) == Some(&b',') {
        i = skip_ws(buf, i + 1);
    }
    match buf.get(i) {
        None | Some(b']') => None,
        Some(_) => {
            let e = value_end(buf, i);
            (e > i).then_some((i, e))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `string` finds the same closing quote and says the same about escapes as a byte by
    /// byte reading, for escapes, escaped quotes and backslash runs at every offset of
    /// bodies up to 100 bytes (across the short path's sixteen bytes and the two-block
    /// steps of the searches), and an unterminated string ends at the input's end.
    #[test]
    fn strings_end_where_a_byte_by_byte_reading_ends_them() {
        let slowly = |text: &[u8]| {
            let (mut i, mut escaped) = (1, false);
            while let Some(&b) = text.get(i) {
                match b {
                    b'"' => return (i, escaped),
                    b'\\' => {
                        escaped = true;
                        i += 2;
                    }
                    _ => i += 1,
                }
            }
            (text.len(), false)
        };
        let pieces: [&[u8]; 7] = [b"\\\"", b"\\\\", b"\\\\\\\"", b"\\n", b"\\u00e9", "é".as_bytes(), b"x"];
        for len in 0..100 {
            for piece in pieces {
                for at in 0..=len {
                    let mut text = vec![b'"'];
                    text.extend((0..len).map(|k| b'a' + (k % 26) as u8));
                    text.splice(1 + at..1 + at, piece.iter().copied());
                    let body_end = text.len();
                    text.extend_from_slice(b"\",\"\\\\\"]");
                    let (span, after) = string(&text, 0);
                    let (end, escaped) = slowly(&text);
                    assert_eq!((span.start, span.end, span.escaped, after), (1, end, escaped, end + 1), "{text:?}");
                    assert_eq!(end, body_end);
                    let (span, after) = string(&text[..body_end], 0);
                    assert_eq!((span.end, after), (body_end, body_end), "unterminated {text:?}");
                }
            }
        }
    }
}
