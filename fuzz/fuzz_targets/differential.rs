//! The scanner against serde_json as an oracle: the same inputs are accepted, the accepted
//! ones have the same structure, strings, numbers and member order, and `Message::parse`
//! classifies them as a plain JSON-RPC/MCP oracle over serde_json does.
//!
//! Legitimate differences, handled explicitly:
//! * serde_json refuses numbers beyond f64's range (`1e400`); RFC 8259 allows them and so
//!   does the scanner. Such a number (checked to overflow f64) is blanked out to `0` and
//!   both sides look again.
//! * serde_json's recursion limit accepts 127 nested arrays and objects and refuses 128;
//!   the scanner runs with `ScanConfig::with_max_depth(127)` here.
//!
//! serde_json (into `Value`) rejects lone surrogate escapes, control characters and
//! invalid UTF-8 in strings, as the scanner does: no exception is needed for them.
#![no_main]

use std::fmt;

use libfuzzer_sys::fuzz_target;
use mcp_sansio::wire::{Frame, Message, MessageKind, ParseOptions, RawJson, ScanConfig, ScanErrorKind, validate};
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

/// serde_json's recursion limit, as the deepest nesting it accepts.
const SERDE_JSON_DEPTH: u16 = 127;

fuzz_target!(|data: &[u8]| {
    let deep = ScanConfig::with_max_depth(SERDE_JSON_DEPTH);
    let mut input = data.to_vec();
    let ours = loop {
        let ours = validate(&input, deep);
        let theirs = serde_json::from_slice::<serde_json::Value>(&input);
        match (&ours, &theirs) {
            (Ok(()), Err(e)) if e.to_string().starts_with("number out of range") => blank_out_number(&mut input, e),
            _ => {
                assert_eq!(ours.is_ok(), theirs.is_ok(), "scanner says {ours:?}, serde_json says {theirs:?}");
                break ours;
            }
        }
    };
    // The default cap only ever refuses more, and only as TooDeep.
    match validate(&input, ScanConfig::default()) {
        Ok(()) => assert!(ours.is_ok()),
        Err(e) if ours.is_ok() => assert_eq!(e.kind, ScanErrorKind::TooDeep),
        Err(_) => {}
    }
    if ours.is_err() {
        return;
    }

    let tree: J = serde_json::from_slice(&input).expect("serde_json accepts Value but not J");
    let raw = RawJson::parse_with(&input, deep).unwrap();
    same_tree(raw, &tree);
    // The crate's span decoder, through the same Deserialize impl, builds the same tree.
    let mut scratch = vec![0u8; input.len()];
    let decoded: J = raw.decode_with(&mut scratch).expect("decode_with refuses what serde_json reads");
    same_j(&decoded, &tree);

    // Structs: the span decoder matches member names against the struct's own (its field
    // short cut); which members are found, and duplicates and unknown members refused, as
    // serde_json does. (Objects only: serde_json also reads a struct from an array.)
    if let J::Obj(_) = &tree {
        assert_eq!(raw.decode::<Members>().ok(), serde_json::from_slice::<Members>(&input).ok());
        assert_eq!(raw.decode::<Strict>().ok(), serde_json::from_slice::<Strict>(&input).ok());
    }

    let options = ParseOptions { max_depth: SERDE_JSON_DEPTH, allow_batch: false };
    let message = Message::parse_with(&input, &options);
    same_message(&message, oracle(&input), &input);

    if let J::Arr(items) = &tree {
        let batch = Frame::parse(&input, &ParseOptions { allow_batch: true, ..options });
        match batch {
            Ok(Frame::Batch(batch)) => {
                let texts: Vec<&RawValue> = serde_json::from_slice(&input).unwrap();
                assert_eq!(batch.len(), items.len());
                for (item, text) in batch.iter().zip(texts) {
                    same_message(&item, oracle(text.get().as_bytes()), text.get().as_bytes());
                }
            }
            other => assert!(items.is_empty() && other.is_err(), "batch of {} refused: {other:?}", items.len()),
        }
    }
});

/// Replaces the number serde_json found out of range by `0` and spaces (same length, so
/// every other offset stays put), after checking that it really overflows f64.
fn blank_out_number(input: &mut [u8], e: &serde_json::Error) {
    // serde_json's position: 1-based line, then bytes since that line's start.
    let line_start = if e.line() <= 1 {
        0
    } else {
        let mut newlines = input.iter().enumerate().filter(|(_, b)| **b == b'\n');
        newlines.nth(e.line() - 2).map_or(input.len(), |(i, _)| i + 1)
    };
    let at = (line_start + e.column()).min(input.len());
    let num = |b: &u8| matches!(b, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E');
    let last = input[..at].iter().rposition(num).expect("no number before serde_json's position");
    let start = input[..=last].iter().rposition(|b| !num(b)).map_or(0, |i| i + 1);
    let end = input[last..].iter().position(|b| !num(b)).map_or(input.len(), |i| last + i);
    let token = std::str::from_utf8(&input[start..end]).unwrap();
    let value: f64 = token.parse().unwrap_or_else(|_| panic!("{token:?} at serde_json's out-of-range error"));
    assert!(value.is_infinite(), "serde_json calls {token} out of range, but it is {value}");
    input[start] = b'0';
    input[start + 1..end].fill(b' ');
}

/// A JSON value as serde_json reads it, keeping member order and duplicate members.
/// Which of a few short member names an object has, as a derived impl reads them.
#[derive(Debug, PartialEq, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct Members {
    a: Option<serde::de::IgnoredAny>,
    text: Option<serde::de::IgnoredAny>,
    max_results: Option<serde::de::IgnoredAny>,
    t: Option<serde::de::IgnoredAny>,
}

/// [`Members`], refusing any other member.
#[derive(Debug, PartialEq, serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Strict {
    a: Option<serde::de::IgnoredAny>,
    text: Option<serde::de::IgnoredAny>,
    max_results: Option<serde::de::IgnoredAny>,
    t: Option<serde::de::IgnoredAny>,
}

#[derive(Debug)]
enum J {
    Null,
    Bool(bool),
    U(u64),
    I(i64),
    F(f64),
    Str(String),
    Arr(Vec<J>),
    Obj(Vec<(String, J)>),
}

impl<'de> Deserialize<'de> for J {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = J;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_unit<E>(self) -> Result<J, E> {
                Ok(J::Null)
            }
            fn visit_bool<E>(self, v: bool) -> Result<J, E> {
                Ok(J::Bool(v))
            }
            fn visit_u64<E>(self, v: u64) -> Result<J, E> {
                Ok(J::U(v))
            }
            fn visit_i64<E>(self, v: i64) -> Result<J, E> {
                Ok(J::I(v))
            }
            fn visit_f64<E>(self, v: f64) -> Result<J, E> {
                Ok(J::F(v))
            }
            fn visit_str<E>(self, v: &str) -> Result<J, E> {
                Ok(J::Str(v.to_owned()))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<J, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(J::Arr(items))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<J, A::Error> {
                let mut members = Vec::new();
                while let Some(member) = map.next_entry()? {
                    members.push(member);
                }
                Ok(J::Obj(members))
            }
        }
        d.deserialize_any(V)
    }
}

/// Equal trees; the one difference allowed: `-0` is an integer to the span decoder, and
/// the float `-0.0` to serde_json.
fn same_j(ours: &J, theirs: &J) {
    match (ours, theirs) {
        (J::Null, J::Null) => {}
        (J::Bool(a), J::Bool(b)) => assert_eq!(a, b),
        (J::U(a), J::U(b)) => assert_eq!(a, b),
        (J::I(a), J::I(b)) => assert_eq!(a, b),
        (J::F(a), J::F(b)) => assert_eq!(a.to_bits(), b.to_bits(), "{a} vs {b}"),
        (J::U(0) | J::I(0), J::F(z)) if *z == 0.0 && z.is_sign_negative() => {}
        (J::Str(a), J::Str(b)) => assert_eq!(a, b),
        (J::Arr(a), J::Arr(b)) => {
            assert_eq!(a.len(), b.len());
            a.iter().zip(b).for_each(|(x, y)| same_j(x, y));
        }
        (J::Obj(a), J::Obj(b)) => {
            assert_eq!(a.len(), b.len());
            for ((ka, va), (kb, vb)) in a.iter().zip(b) {
                assert_eq!(ka, kb);
                same_j(va, vb);
            }
        }
        _ => panic!("decoded {ours:?}, serde_json read {theirs:?}"),
    }
}

/// The members of an object with each value's exact text.
struct RawMembers<'a>(Vec<(String, &'a RawValue)>);

impl<'de: 'a, 'a> Deserialize<'de> for RawMembers<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> Visitor<'de> for V<'a> {
            type Value = RawMembers<'a>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawMembers<'a>, A::Error> {
                let mut members = Vec::new();
                while let Some(member) = map.next_entry()? {
                    members.push(member);
                }
                Ok(RawMembers(members))
            }
        }
        d.deserialize_map(V(std::marker::PhantomData))
    }
}

fn same_tree(ours: RawJson<'_>, theirs: &J) {
    let token = ours.as_text();
    match theirs {
        J::Null => assert!(ours.is_null()),
        J::Bool(b) => assert_eq!(ours.as_bool(), Some(*b)),
        J::U(n) => {
            assert_eq!(ours.as_u64(), Some(*n), "{token}");
            assert_eq!(ours.as_i64(), i64::try_from(*n).ok(), "{token}");
        }
        J::I(n) => {
            assert_eq!(ours.as_i64(), Some(*n), "{token}");
            assert_eq!(ours.as_u64(), None);
        }
        J::F(x) => {
            // Fractions, exponents, integers beyond 64 bits, and `-0`.
            assert_eq!(ours.as_f64().map(f64::to_bits), Some(x.to_bits()), "{token}");
            assert_eq!(ours.as_u64(), None, "{token}");
            assert_eq!(ours.as_i64(), (token == "-0").then_some(0), "{token}");
        }
        J::Str(s) => {
            let ours = ours.as_str().expect("not a string");
            assert_eq!(ours.to_string(), *s);
            assert!(ours.eq_str(s));
        }
        J::Arr(items) => {
            assert_eq!(ours.elements().count(), items.len(), "{token}");
            for (a, b) in ours.elements().zip(items) {
                same_tree(a, b);
            }
        }
        J::Obj(members) => {
            assert_eq!(ours.members().count(), members.len(), "{token}");
            for ((name, value), (their_name, their_value)) in ours.members().zip(members) {
                assert_eq!(name.to_string(), *their_name);
                same_tree(value, their_value);
            }
            for (name, _) in members {
                let first = members.iter().find(|(n, _)| n == name).map(|(_, v)| v).unwrap();
                same_tree(ours.get(name).expect("get misses a member"), first);
            }
        }
    }
}

/// What a message is, as far as the differential compares it.
#[derive(Debug, PartialEq)]
struct Seen {
    kind: MessageKind,
    id: Option<String>,
    method: Option<String>,
}

fn same_message(ours: &Result<Message<'_>, mcp_sansio::wire::EnvelopeError<'_>>, theirs: Option<Seen>, text: &[u8]) {
    let ours = ours.as_ref().ok().map(|m| Seen {
        kind: m.kind(),
        id: m.id().map(|id| String::from_utf8(id.as_token().to_vec()).unwrap()),
        method: m.method().map(|s| s.to_string()),
    });
    assert_eq!(
        ours,
        theirs,
        "classification differs for {:?} (ours: {:?})",
        String::from_utf8_lossy(text),
        Message::parse_with(text, &ParseOptions { max_depth: SERDE_JSON_DEPTH, allow_batch: false }).err()
    );
}

fn is_integer_token(t: &str) -> bool {
    let digits = t.strip_prefix('-').unwrap_or(t);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// A plain reading of MCP's JSON-RPC rules over serde_json, independent of the crate.
fn oracle(text: &[u8]) -> Option<Seen> {
    const ENVELOPE: [&str; 6] = ["jsonrpc", "id", "method", "params", "result", "error"];
    let J::Obj(members) = serde_json::from_slice::<J>(text).ok()? else { return None };
    let raw: RawMembers<'_> = serde_json::from_slice(text).ok()?;
    assert_eq!(raw.0.len(), members.len());
    let find = |name: &str| {
        let mut found = members.iter().zip(&raw.0).filter(|((n, _), _)| n == name);
        let first = found.next();
        (first.map(|((_, v), r)| (v, r.1.get())), found.next().is_some())
    };
    let [jsonrpc, id, method, params, result, error] = ENVELOPE.map(find);
    if [jsonrpc, id, method, params, result, error].iter().any(|(_, duplicate)| *duplicate) {
        return None;
    }
    let (jsonrpc, id, method, params, result, error) = (jsonrpc.0, id.0, method.0, params.0, result.0, error.0);
    if !matches!(jsonrpc, Some((J::Str(v), _)) if v == "2.0") {
        return None;
    }
    // Some(Some(token)) for a usable id, Some(None) for null, None for anything else.
    let id_token = |id: Option<(&J, &str)>| match id {
        None => Some(None),
        Some((J::Null, _)) => Some(None),
        Some((J::Str(_), t)) => Some(Some(t.to_owned())),
        Some((_, t)) if is_integer_token(t) => Some(Some(t.to_owned())),
        Some(_) => None,
    };
    if result.is_some() && error.is_some() {
        return None;
    }
    if let Some((method, _)) = method {
        if result.is_some() || error.is_some() {
            return None;
        }
        let J::Str(method) = method else { return None };
        if params.is_some_and(|(p, _)| !matches!(p, J::Obj(_))) {
            return None;
        }
        let (kind, id) = match (id, id_token(id)?) {
            (None, _) => (MessageKind::Notification, None),
            (Some(_), None) => return None, // null
            (Some(_), Some(token)) => (MessageKind::Request, Some(token)),
        };
        return Some(Seen { kind, id, method: Some(method.clone()) });
    }
    if let Some((result, _)) = result {
        let id = id_token(id)??;
        if !matches!(result, J::Obj(_)) {
            return None;
        }
        return Some(Seen { kind: MessageKind::Response, id: Some(id), method: None });
    }
    if let Some((J::Obj(fields), error_text)) = error {
        let id = id_token(id)?;
        let raw_fields: RawMembers<'_> = serde_json::from_str(error_text).unwrap();
        let field = |name: &str| {
            let mut found = fields.iter().zip(&raw_fields.0).filter(|((n, _), _)| n == name);
            let first = found.next().map(|((_, v), r)| (v, r.1.get()));
            (first, found.next().is_some())
        };
        let [code, message, data] = ["code", "message", "data"].map(field);
        if code.1 || message.1 || data.1 {
            return None;
        }
        let (_, code) = code.0?;
        if !is_integer_token(code) || code.parse::<i128>().ok().and_then(|c| i32::try_from(c).ok()).is_none() {
            return None;
        }
        let (J::Str(_), _) = message.0? else { return None };
        return Some(Seen { kind: MessageKind::Error, id, method: None });
    }
    None
}
