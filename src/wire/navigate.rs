//! Fast navigation inside JSON that [`scan`](super::scan) has already validated.
//!
//! Looking up `params.arguments` or walking `result.tools` must not pay for validation a
//! second time, so these helpers only find token boundaries. They assume valid input, and
//! on invalid input they still never panic or loop: every step moves forward and every
//! index is checked, so the worst outcome is a wrong span or an early `None`.

use super::scan::StrSpan;

#[inline(always)]
pub(crate) fn skip_ws(buf: &[u8], mut i: usize) -> usize {
    while let Some(b' ' | b'\n' | b'\r' | b'\t') = buf.get(i) {
        i += 1;
    }
    i
}

/// `i` is at an opening quote; returns the string's span and the offset after it.
#[inline]
pub(crate) fn string(buf: &[u8], i: usize) -> (StrSpan, usize) {
    let start = i + 1;
    let mut j = start;
    let mut escaped = false;
    loop {
        // Validated text holds no control bytes, so the next stop is a quote or a backslash.
        j = super::scan::find_stop(buf, j);
        match buf.get(j) {
            Some(b'"') => return (StrSpan { start, end: j, escaped }, j + 1),
            Some(b'\\') => {
                escaped = true;
                j += 2;
            }
            Some(_) => j += 1,
            None => break,
        }
    }
    let end = buf.len();
    (StrSpan { start: start.min(end), end, escaped }, end)
}

/// `i` is at the first byte of a value; returns the offset just after it.
pub(crate) fn value_end(buf: &[u8], i: usize) -> usize {
    match buf.get(i) {
        Some(b'"') => string(buf, i).1,
        Some(b'{' | b'[') => {
            let mut depth = 0usize;
            let mut j = i;
            while let Some(&b) = buf.get(j) {
                match b {
                    b'"' => {
                        j = string(buf, j).1;
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
}

impl Iterator for Members<'_> {
    type Item = (StrSpan, usize, usize);

    fn next(&mut self) -> Option<Self::Item> {
        let buf = self.buf;
        let mut i = skip_ws(buf, self.pos);
        if buf.get(i) == Some(&b',') {
            i = skip_ws(buf, i + 1);
        }
        if buf.get(i) != Some(&b'"') {
            self.pos = buf.len();
            return None;
        }
        let (name, after) = string(buf, i);
        i = skip_ws(buf, after);
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
        Some((name, start, end))
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
