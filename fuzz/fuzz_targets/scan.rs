//! Arbitrary bytes into the strict scanner; over everything it accepts, every navigation
//! helper of `RawJson` and `JsonStr`, checked for consistency with each other.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::cmp::Ordering;

use mcp_sansio::wire::{JsonKind, JsonStr, Number, RawJson, ScanConfig, ScanErrorKind, UnescapeError, validate};

fuzz_target!(|data: &[u8]| {
    let checked = validate(data, ScanConfig::default());
    let parsed = RawJson::parse(data);
    assert_eq!(checked, parsed.map(|_| ()), "validate and RawJson::parse disagree");
    if let Err(e) = checked {
        assert!(e.offset <= data.len(), "error offset {} past the end", e.offset);
        return;
    }
    let Ok(value) = parsed else { return };
    assert_eq!(value.as_bytes(), trim_ws(data), "the value is the input without surrounding whitespace");

    let depth = walk(value);
    // The depth cap is exact: the value's own nesting passes, one less fails as TooDeep.
    assert_eq!(validate(data, ScanConfig::with_max_depth(depth)), Ok(()));
    if depth > 0 {
        let e = validate(data, ScanConfig::with_max_depth(depth - 1)).unwrap_err();
        assert_eq!(e.kind, ScanErrorKind::TooDeep);
    }
});

fn trim_ws(b: &[u8]) -> &[u8] {
    let ws = |c: &u8| matches!(c, b' ' | b'\t' | b'\n' | b'\r');
    let start = b.iter().position(|c| !ws(c)).unwrap_or(b.len());
    let end = b.iter().rposition(|c| !ws(c)).map_or(start, |i| i + 1);
    &b[start..end]
}

/// Offset of `inner` inside `outer` (both borrowed from the same input).
fn offset_in(outer: &[u8], inner: &[u8]) -> usize {
    let off = (inner.as_ptr() as usize).wrapping_sub(outer.as_ptr() as usize);
    assert!(off <= outer.len() && off + inner.len() <= outer.len(), "span outside its parent");
    off
}

/// Checks one value and everything inside it; returns its nesting depth.
fn walk(v: RawJson<'_>) -> u16 {
    let bytes = v.as_bytes();
    // Every span handed out re-validates on its own, as exactly itself.
    assert_eq!(RawJson::parse(bytes), Ok(v), "sub-value does not re-validate: {v}");
    assert_eq!(v.as_text().as_bytes(), bytes);
    let kind = v.kind();
    assert_eq!(v.is_object(), kind == JsonKind::Object);
    assert_eq!(v.is_null(), kind == JsonKind::Null);
    assert_eq!(v.as_str().is_some(), kind == JsonKind::String);
    assert_eq!(v.as_bool().is_some(), kind == JsonKind::Bool);
    assert_eq!(Number::from_json(v).is_some(), kind == JsonKind::Number);
    if kind != JsonKind::Object {
        assert_eq!(v.members().count(), 0);
    }
    if kind != JsonKind::Array {
        assert_eq!(v.elements().count(), 0);
    }
    let _ = v.decode::<serde::de::IgnoredAny>();
    // A `RawJson` lent by the span decoder is the value itself.
    assert_eq!(v.decode::<RawJson<'_>>().map(|r| r.as_bytes()), Ok(bytes), "decode lends another span");
    match kind {
        JsonKind::Object => {
            assert_eq!((bytes.first(), bytes.last()), (Some(&b'{'), Some(&b'}')));
            let mut depth = 0;
            let mut next = 1;
            let mut names: Vec<String> = Vec::new();
            for (name, value) in v.members() {
                let name_at = offset_in(bytes, name.raw());
                let value_at = offset_in(bytes, value.as_bytes());
                assert!(name_at > next && value_at > name_at + name.raw().len(), "members out of order");
                next = value_at + value.as_bytes().len();
                let text = check_str(name);
                // `get` finds the first member with this (unescaped) name.
                if !names.contains(&text) {
                    let got = v.get(&text).expect("get misses a member");
                    assert_eq!(got.as_bytes(), value.as_bytes(), "get found another member");
                    assert_eq!(got.as_bytes().as_ptr(), value.as_bytes().as_ptr(), "get found another member");
                    assert!(v.contains_key(&text));
                    names.push(text);
                }
                depth = depth.max(walk(value));
            }
            assert!(next < bytes.len());
            if names.is_empty() {
                assert_eq!(trim_ws(&bytes[1..bytes.len() - 1]), b"", "members missed in {v}");
            }
            depth + 1
        }
        JsonKind::Array => {
            assert_eq!((bytes.first(), bytes.last()), (Some(&b'['), Some(&b']')));
            let mut depth = 0;
            let mut next = 1;
            let mut count = 0;
            let mut numbers = Vec::new();
            for element in v.elements() {
                let at = offset_in(bytes, element.as_bytes());
                assert!(at >= next, "elements out of order");
                next = at + element.as_bytes().len();
                count += 1;
                depth = depth.max(walk(element));
                numbers.extend(Number::from_json(element));
            }
            // Decoding each element where it stands lends the same spans.
            let lent: Vec<&[u8]> = v.decode_elements::<RawJson<'_>>().map(|e| e.unwrap().as_bytes()).collect();
            let walked: Vec<&[u8]> = v.elements().map(|e| e.as_bytes()).collect();
            assert_eq!(lent, walked, "decode_elements and elements disagree");
            for pair in numbers.windows(2) {
                check_order(pair[0], pair[1]);
            }
            assert!(next < bytes.len());
            if count == 0 {
                assert_eq!(trim_ws(&bytes[1..bytes.len() - 1]), b"", "elements missed in {v}");
            }
            depth + 1
        }
        JsonKind::String => {
            let s = v.as_str().unwrap();
            assert_eq!(s.raw(), &bytes[1..bytes.len() - 1]);
            let text = check_str(s);
            // The span decoder lends the same raw text, and unescapes the same way.
            let lent: JsonStr<'_> = v.decode().expect("decode refuses a valid string");
            assert_eq!(lent.raw(), s.raw());
            assert!(lent.eq_str(&text));
            let mut scratch = vec![0u8; text.len()];
            assert_eq!(v.decode_with::<String>(&mut scratch).as_deref(), Ok(text.as_str()));
            if !s.is_escaped() {
                assert_eq!(v.decode::<&str>(), Ok(text.as_str()));
            }
            0
        }
        JsonKind::Number => {
            let token = v.as_text();
            let integer = !token.contains(['.', 'e', 'E']);
            let wide: Option<i128> = if integer && token.len() <= 30 { token.parse().ok() } else { None };
            assert_eq!(v.as_i64(), wide.and_then(|w| i64::try_from(w).ok()), "as_i64 of {token}");
            assert_eq!(v.as_u64(), wide.and_then(|w| u64::try_from(w).ok()).filter(|_| !token.starts_with('-')));
            // Rounded to the nearest f64; beyond f64's range, None rather than infinity.
            let f = token.parse::<f64>().unwrap();
            assert_eq!(v.as_f64().map(f64::to_bits), Some(f.to_bits()).filter(|_| f.is_finite()), "{token}");
            if let Some(i) = v.as_i64() {
                assert_eq!(v.decode::<i64>(), Ok(i), "decode reads {token} differently");
            }
            if let Some(u) = v.as_u64() {
                assert_eq!(v.decode::<u64>(), Ok(u), "decode reads {token} differently");
            }
            let n = Number::from_json(v).unwrap();
            assert_eq!((n.as_text(), n.as_i64(), n.as_u64()), (token, v.as_i64(), v.as_u64()));
            assert_eq!(n.as_f64().map(f64::to_bits), v.as_f64().map(f64::to_bits));
            check_order(n, n);
            0
        }
        JsonKind::Bool => {
            assert_eq!(v.as_bool(), Some(bytes == b"true"));
            assert_eq!(v.decode::<bool>().ok(), v.as_bool());
            0
        }
        JsonKind::Null => {
            assert_eq!(bytes, b"null");
            0
        }
    }
}

/// `Number`'s exact ordering agrees with itself, with `f64` where that is exact enough,
/// and with `is_positive`.
fn check_order(a: Number<'_>, b: Number<'_>) {
    let ab = a.cmp_value(&b);
    assert_eq!(b.cmp_value(&a), ab.reverse(), "{a} vs {b}");
    assert_eq!(a == b, ab == Ordering::Equal);
    assert_eq!(a.cmp(&b), ab);
    // Rounding to f64 keeps order, so a strict f64 order is the exact order, and equal
    // values round to the same f64.
    if let (Some(x), Some(y)) = (a.as_f64(), b.as_f64()) {
        if x != y {
            assert_eq!(Some(ab), x.partial_cmp(&y), "{a} vs {b}");
        }
        if ab == Ordering::Equal {
            assert_eq!(x, y, "{a} == {b}");
        }
    }
    if let (Some(x), Some(y)) = (a.as_i64(), b.as_i64()) {
        assert_eq!(ab, x.cmp(&y), "{a} vs {b}");
    }
    for n in [a, b] {
        // Zero whatever its sign and exponent when the digits before the exponent are.
        let mantissa = n.as_text().trim_start_matches('-').split(['e', 'E']).next().unwrap();
        let zero = mantissa.bytes().all(|c| c == b'0' || c == b'.');
        assert_eq!(n.is_positive(), !zero && !n.as_text().starts_with('-'), "{n}");
    }
}

/// Every way of reading a string gives the same text; returns it.
fn check_str(s: JsonStr<'_>) -> String {
    let len = s.unescaped_len();
    let mut scratch = vec![0u8; len];
    let text = s.unescape_into(&mut scratch).expect("unescaped_len is not enough").to_owned();
    assert_eq!(text.len(), len, "unescaped_len disagrees with unescape_into");
    if len > 0 {
        let mut short = vec![0u8; len - 1];
        assert_eq!(s.unescape_into(&mut short), Err(UnescapeError::BufferTooSmall { needed: len, capacity: len - 1 }));
    }
    assert_eq!(s.chars().collect::<String>(), text);
    assert_eq!(s.to_string(), text);
    assert!(s.eq_str(&text));
    assert_eq!(s.is_escaped(), s.raw().contains(&b'\\'));
    let mut plain_scratch = [0u8; 0];
    if s.is_escaped() {
        assert_eq!(s.as_plain(), None);
    } else {
        assert_eq!(s.as_plain(), Some(text.as_str()));
        assert_eq!(s.to_str(&mut plain_scratch), Ok(text.as_str()));
    }
    if let Some(plain) = JsonStr::from_plain(&text) {
        // Equality is symmetric whichever side has escapes.
        assert_eq!(plain, s);
        assert_eq!(s, plain);
    }
    // Validated text never decodes to U+FFFD unless it was sent, literally or escaped.
    let replacements = text.matches('\u{FFFD}').count();
    if replacements > 0 {
        let raw = s.raw();
        let literal = raw.windows(3).filter(|w| w == b"\xEF\xBF\xBD").count();
        let escaped = raw.windows(6).filter(|w| w.eq_ignore_ascii_case(b"\\ufffd")).count();
        assert!(replacements <= literal + escaped, "U+FFFD invented while unescaping {s:?}");
    }
    text
}
