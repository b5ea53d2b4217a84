//! JSON from a literal, checked when the program is built.
//!
//! A microcontroller keeps its tool list, schemas and server info in flash: `static`
//! items built at compile time. [`RawJson::from_static`] is a `const fn` that validates
//! its text with the same rules as [`RawJson::parse`] (RFC 8259, strict, nesting up to
//! [`DEFAULT_MAX_DEPTH`](super::DEFAULT_MAX_DEPTH)), so in a `const` or `static` item
//! invalid JSON fails the build instead of shipping.

use super::raw::RawJson;
use super::scan::{DEFAULT_MAX_DEPTH, ScanErrorKind};

impl RawJson<'static> {
    /// JSON from a literal, validated at compile time when used in a `const` or `static`
    /// item:
    ///
    /// ```
    /// use mcp_sansio::wire::RawJson;
    /// static TOOLS: RawJson<'static> = RawJson::from_static(r#"{"tools":[
    ///     {"name":"weather","inputSchema":{"type":"object","properties":{"city":{"type":"string"}}}}
    /// ]}"#);
    /// assert_eq!(TOOLS.get("tools").unwrap().elements().count(), 1);
    /// ```
    ///
    /// ```compile_fail
    /// use mcp_sansio::wire::RawJson;
    /// static BROKEN: RawJson<'static> = RawJson::from_static(r#"{"tools":[,]}"#);
    /// ```
    ///
    /// # Panics
    ///
    /// If `text` is not valid JSON: in a `const` or `static` item that is a compile
    /// error, which is the point. Outside one, use [`try_from_static`](Self::try_from_static).
    pub const fn from_static(text: &'static str) -> RawJson<'static> {
        match check(text.as_bytes()) {
            Ok(()) => RawJson::from_validated(text.as_bytes()),
            Err(_) => panic!("RawJson::from_static: the text is not valid JSON"),
        }
    }

    /// JSON from a literal, or why it is not valid.
    pub const fn try_from_static(text: &'static str) -> Result<RawJson<'static>, ScanErrorKind> {
        match check(text.as_bytes()) {
            Ok(()) => Ok(RawJson::from_validated(text.as_bytes())),
            Err(kind) => Err(kind),
        }
    }
}

const fn is_ws(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r')
}

const fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && is_ws(b[i]) {
        i += 1;
    }
    i
}

const fn hex(c: u8) -> Option<u16> {
    match c {
        b'0'..=b'9' => Some((c - b'0') as u16),
        b'a'..=b'f' => Some((c - b'a' + 10) as u16),
        b'A'..=b'F' => Some((c - b'A' + 10) as u16),
        _ => None,
    }
}

/// The four hex digits of a `\u` escape whose `u` is at `i`.
const fn unit(b: &[u8], i: usize) -> Result<u16, ScanErrorKind> {
    if i + 4 >= b.len() {
        return Err(ScanErrorKind::UnexpectedEnd);
    }
    let mut v = 0u16;
    let mut k = 1;
    while k <= 4 {
        match hex(b[i + k]) {
            Some(d) => v = v << 4 | d,
            None => return Err(ScanErrorKind::InvalidEscape),
        }
        k += 1;
    }
    Ok(v)
}

/// A string whose opening quote is at `i`; returns the index after its closing quote.
/// (The text is a `str`, so its UTF-8 is already well formed.)
const fn string(b: &[u8], mut i: usize) -> Result<usize, ScanErrorKind> {
    i += 1;
    while i < b.len() {
        match b[i] {
            b'"' => return Ok(i + 1),
            b'\\' => {
                if i + 1 >= b.len() {
                    return Err(ScanErrorKind::UnexpectedEnd);
                }
                match b[i + 1] {
                    b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => i += 2,
                    b'u' => {
                        let u = match unit(b, i + 1) {
                            Ok(u) => u,
                            Err(e) => return Err(e),
                        };
                        i += 6;
                        if u >= 0xDC00 && u <= 0xDFFF {
                            return Err(ScanErrorKind::LoneSurrogate);
                        }
                        if u >= 0xD800 && u <= 0xDBFF {
                            // A high surrogate must be followed by an escaped low one.
                            if i + 1 >= b.len() || b[i] != b'\\' || b[i + 1] != b'u' {
                                return Err(ScanErrorKind::LoneSurrogate);
                            }
                            match unit(b, i + 1) {
                                Ok(low) if low >= 0xDC00 && low <= 0xDFFF => i += 6,
                                Ok(_) => return Err(ScanErrorKind::LoneSurrogate),
                                Err(e) => return Err(e),
                            }
                        }
                    }
                    _ => return Err(ScanErrorKind::InvalidEscape),
                }
            }
            c if c < 0x20 => return Err(ScanErrorKind::ControlCharacter),
            _ => i += 1,
        }
    }
    Err(ScanErrorKind::UnexpectedEnd)
}

const fn digits(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    i
}

/// A number starting at `i`; returns the index after it.
const fn number(b: &[u8], mut i: usize) -> Result<usize, ScanErrorKind> {
    if b[i] == b'-' {
        i += 1;
    }
    if i >= b.len() {
        return Err(ScanErrorKind::InvalidNumber);
    }
    if b[i] == b'0' {
        i += 1;
        if i < b.len() && b[i].is_ascii_digit() {
            return Err(ScanErrorKind::LeadingZero);
        }
    } else if b[i].is_ascii_digit() {
        i = digits(b, i);
    } else {
        return Err(ScanErrorKind::InvalidNumber);
    }
    if i < b.len() && b[i] == b'.' {
        let start = i + 1;
        i = digits(b, start);
        if i == start {
            return Err(ScanErrorKind::InvalidNumber);
        }
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        let start = i;
        i = digits(b, start);
        if i == start {
            return Err(ScanErrorKind::InvalidNumber);
        }
    }
    Ok(i)
}

/// `word` at `i`; returns the index after it.
const fn literal(b: &[u8], i: usize, word: &[u8]) -> Result<usize, ScanErrorKind> {
    let mut k = 0;
    while k < word.len() {
        if i + k >= b.len() {
            return Err(ScanErrorKind::UnexpectedEnd);
        }
        if b[i + k] != word[k] {
            return Err(ScanErrorKind::InvalidLiteral);
        }
        k += 1;
    }
    Ok(i + word.len())
}

/// A member name and its colon at `i` (whitespace skipped); returns where the value
/// starts.
const fn key(b: &[u8], i: usize) -> Result<usize, ScanErrorKind> {
    if i >= b.len() {
        return Err(ScanErrorKind::UnexpectedEnd);
    }
    if b[i] != b'"' {
        return Err(ScanErrorKind::ExpectedKey);
    }
    let i = match string(b, i) {
        Ok(i) => skip_ws(b, i),
        Err(e) => return Err(e),
    };
    if i >= b.len() {
        return Err(ScanErrorKind::UnexpectedEnd);
    }
    if b[i] != b':' {
        return Err(ScanErrorKind::ExpectedColon);
    }
    Ok(skip_ws(b, i + 1))
}

/// Validates a JSON text in a `const` context: iterative, with the open containers in a
/// bit stack (1 for an object), up to [`DEFAULT_MAX_DEPTH`] deep.
pub(crate) const fn check(b: &[u8]) -> Result<(), ScanErrorKind> {
    const _: () = assert!(DEFAULT_MAX_DEPTH <= 64);
    let mut i = skip_ws(b, 0);
    if i == b.len() {
        return Err(ScanErrorKind::Empty);
    }
    let mut objects: u64 = 0;
    let mut depth: u16 = 0;
    // Either a value starts at `i`, or one just ended before it.
    let mut want_value = true;
    loop {
        if want_value {
            if i >= b.len() {
                return Err(ScanErrorKind::UnexpectedEnd);
            }
            let next = match b[i] {
                b'{' | b'[' => {
                    if depth == DEFAULT_MAX_DEPTH {
                        return Err(ScanErrorKind::TooDeep);
                    }
                    let object = b[i] == b'{';
                    objects = objects << 1 | object as u64;
                    depth += 1;
                    i = skip_ws(b, i + 1);
                    if i < b.len() && b[i] == if object { b'}' } else { b']' } {
                        // Empty: it ends here.
                        objects >>= 1;
                        depth -= 1;
                        want_value = false;
                        Ok(i + 1)
                    } else if object {
                        key(b, i)
                    } else {
                        Ok(i)
                    }
                }
                b'"' => {
                    want_value = false;
                    string(b, i)
                }
                b't' => {
                    want_value = false;
                    literal(b, i, b"true")
                }
                b'f' => {
                    want_value = false;
                    literal(b, i, b"false")
                }
                b'n' => {
                    want_value = false;
                    literal(b, i, b"null")
                }
                b'-' | b'0'..=b'9' => {
                    want_value = false;
                    number(b, i)
                }
                _ => return Err(ScanErrorKind::UnexpectedByte),
            };
            i = match next {
                Ok(i) => i,
                Err(e) => return Err(e),
            };
            continue;
        }
        i = skip_ws(b, i);
        if depth == 0 {
            return if i == b.len() { Ok(()) } else { Err(ScanErrorKind::TrailingCharacters) };
        }
        if i >= b.len() {
            return Err(ScanErrorKind::UnexpectedEnd);
        }
        let in_object = objects & 1 == 1;
        match b[i] {
            b',' => {
                i = skip_ws(b, i + 1);
                if i < b.len() && (b[i] == b'}' || b[i] == b']') {
                    return Err(ScanErrorKind::TrailingComma);
                }
                if in_object {
                    i = match key(b, i) {
                        Ok(i) => i,
                        Err(e) => return Err(e),
                    };
                }
                want_value = true;
            }
            b'}' if in_object => {
                objects >>= 1;
                depth -= 1;
                i += 1;
            }
            b']' if !in_object => {
                objects >>= 1;
                depth -= 1;
                i += 1;
            }
            _ => return Err(ScanErrorKind::ExpectedCommaOrEnd),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::String;
    use std::vec::Vec;

    const TOOLS: RawJson<'static> = RawJson::from_static(r#"{"tools":[{"name":"a","n":-1.5e+3}],"x":null}"#);

    #[test]
    fn a_const_is_the_text_it_was_given() {
        assert_eq!(TOOLS.as_bytes(), br#"{"tools":[{"name":"a","n":-1.5e+3}],"x":null}"#);
        assert_eq!(RawJson::try_from_static("[1,]").err(), Some(ScanErrorKind::TrailingComma));
    }

    /// The same verdict as the runtime scanner, on valid texts and on every one-byte
    /// deletion, duplication and substitution of them.
    #[test]
    fn agrees_with_the_scanner() {
        let seeds: &[&str] = &[
            r#"{"a":[1,2,{"b":null}],"c":"\u00e9\ud83d\ude00\n\"","d":true,"e":false,"f":-0.5E-7}"#,
            r#"[[[]],{},"",0,-0,1e5,1E+5,12.25]"#,
            "  \t\r\n{\"k\" : [ ] }  ",
            r#""\/\\\b\f\r\t""#,
            "[01]",
            r#"{"a":1,}"#,
            r#""\ud800x""#,
            r#""\udc00""#,
            "tru",
            "[1 2]",
        ];
        let mut cases: Vec<String> = Vec::new();
        for seed in seeds {
            cases.push((*seed).into());
            let b = seed.as_bytes();
            for k in 0..b.len() {
                for variant in [
                    [&b[..k], &b[k + 1..]].concat(),
                    [&b[..k], &b[k..k + 1], &b[k..]].concat(),
                    [&b[..k], b"]", &b[k + 1..]].concat(),
                    [&b[..k], b"\"", &b[k + 1..]].concat(),
                    [&b[..k], b"\\", &b[k + 1..]].concat(),
                ] {
                    if let Ok(s) = String::from_utf8(variant) {
                        cases.push(s);
                    }
                }
            }
        }
        let deep_ok = "[".repeat(64) + &"]".repeat(64);
        let deep_bad = "[".repeat(65) + &"]".repeat(65);
        cases.push(deep_ok);
        cases.push(deep_bad);
        cases.push(String::new());
        cases.push("   ".into());
        for case in &cases {
            let runtime = RawJson::parse(case.as_bytes()).map(|_| ()).map_err(|e| e.kind);
            let compile = check(case.as_bytes());
            assert_eq!(compile.is_ok(), runtime.is_ok(), "{case:?}: {compile:?} vs {runtime:?}");
        }
    }
}
