//! Property tests (issue 2): chunking invariance of the stdio framer against a reference
//! model, encode-then-decode round trips of arbitrary messages, and no panic (with
//! consistency checks) on arbitrary bytes for every entry point that takes peer input.

use mcp_sansio::framing::{LineError, LineFramer};
use mcp_sansio::wire::{
    ErrorCode, ErrorId, Frame, FrameWriter, JsonKind, Message, ParseOptions, RawJson, RequestIdRef, ScanConfig,
    UnescapeError, validate,
};
use proptest::prelude::*;
use serde_json::Value;

// ---------------------------------------------------------------------------------------
// LineFramer: any chunking, any drain schedule, either input API, equals the model.
// ---------------------------------------------------------------------------------------

const BOM: &[u8] = b"\xEF\xBB\xBF";

type Event = Result<Vec<u8>, LineError>;

/// The framer's contract, written over the whole stream at once.
///
/// * A UTF-8 BOM that starts the stream is dropped (only when the buffer can hold it:
///   capacity 3 or more; see the report for capacities 1 and 2).
/// * The stream is cut at each `\n`. A line needs its bytes plus the `\n` to fit in the
///   buffer; one that does not is `TooLong` with its length less a trailing CR.
/// * Otherwise one trailing CR is dropped, and lines of only spaces, tabs and CRs are
///   skipped.
/// * After `close`, bytes after the last `\n` are `TooLong` if they filled the buffer,
///   nothing if only whitespace, and `Unterminated` otherwise (lengths include any CR).
fn model(stream: &[u8], cap: usize, close: bool) -> Vec<Event> {
    let blank = |l: &[u8]| l.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r'));
    let mut rest = stream;
    if cap >= BOM.len() && rest.starts_with(BOM) {
        rest = &rest[BOM.len()..];
    }
    let mut out = Vec::new();
    while let Some(nl) = rest.iter().position(|&b| b == b'\n') {
        let raw = &rest[..nl];
        rest = &rest[nl + 1..];
        let line = raw.strip_suffix(b"\r").unwrap_or(raw);
        if raw.len() + 1 > cap {
            out.push(Err(LineError::TooLong { len: line.len() }));
        } else if !blank(line) {
            out.push(Ok(line.to_vec()));
        }
    }
    if close && !rest.is_empty() {
        if rest.len() >= cap {
            out.push(Err(LineError::TooLong { len: rest.len() }));
        } else if !blank(rest) {
            out.push(Err(LineError::Unterminated { len: rest.len() }));
        }
    }
    out
}

/// How a test feeds the framer.
#[derive(Clone, Debug)]
struct Schedule {
    /// Chunk sizes, cycled; 0 is an empty feed.
    sizes: Vec<usize>,
    /// Whether to drain `next_line` after each input call, cycled (it is always drained
    /// when the framer takes nothing).
    drain: Vec<bool>,
    /// `spare`/`commit` instead of `feed`.
    zero_copy: bool,
    /// Input calls after the last byte and before `close`, as a reader makes when it asks
    /// for more and learns of the end (an empty `feed`, or `spare` with nothing to commit).
    polls_after_end: usize,
    close: bool,
}

fn drive(stream: &[u8], cap: usize, s: &Schedule) -> Vec<Event> {
    let mut buf = vec![0u8; cap];
    let mut f = LineFramer::new(&mut buf);
    let mut out = Vec::new();
    let mut pos = 0;
    let mut step = 0usize;
    let mut stalled = 0;
    loop {
        let size = s.sizes[step % s.sizes.len()];
        let drain = s.drain[step % s.drain.len()];
        step += 1;
        let chunk = &stream[pos..(pos + size).min(stream.len())];
        let taken = if s.zero_copy {
            let spare = f.spare();
            let n = spare.len().min(chunk.len());
            spare[..n].copy_from_slice(&chunk[..n]);
            f.commit(n);
            n
        } else {
            f.feed(chunk)
        };
        pos += taken;
        if drain || (taken == 0 && !chunk.is_empty()) {
            while let Some(l) = f.next_line() {
                out.push(l.map(<[u8]>::to_vec));
            }
        }
        if pos == stream.len() {
            break;
        }
        stalled = if taken == 0 { stalled + 1 } else { 0 };
        // A non-empty chunk is taken at once, or after the drain that follows a refusal,
        // so two passes over the sizes always make progress.
        assert!(stalled <= 2 * s.sizes.len(), "framer stopped taking input at {pos}");
    }
    while let Some(l) = f.next_line() {
        out.push(l.map(<[u8]>::to_vec));
    }
    for _ in 0..s.polls_after_end {
        if s.zero_copy {
            f.spare();
            f.commit(0);
        } else {
            assert_eq!(f.feed(&[]), 0);
        }
        while let Some(l) = f.next_line() {
            out.push(l.map(<[u8]>::to_vec));
        }
    }
    if s.close {
        f.close();
        while let Some(l) = f.next_line() {
            out.push(l.map(<[u8]>::to_vec));
        }
        assert_eq!(f.next_line(), None);
    }
    out
}

/// Streams built from the pieces that matter: BOMs, CRLF and lone CR, blank lines,
/// multi-byte UTF-8, and lines both shorter and longer than the buffer.
fn stream() -> impl Strategy<Value = Vec<u8>> {
    let atom = prop_oneof![
        4 => prop::sample::select(vec![&b"{"[..], b"}", b"\"a\"", b":", b"1", b"x", b"[]"]).prop_map(<[u8]>::to_vec),
        1 => prop::sample::select(vec!["é", "€", "😀", "\u{2028}"]).prop_map(|s| s.as_bytes().to_vec()),
        1 => prop::sample::select(vec![&b" "[..], b"\t", b"\r"]).prop_map(<[u8]>::to_vec),
        1 => Just(BOM.to_vec()),
        1 => prop::collection::vec(b'a'..=b'z', 5..40),
    ];
    let line = prop::collection::vec(atom, 0..6).prop_map(|atoms| atoms.concat());
    let end = prop::sample::select(vec![&b"\n"[..], b"\r\n", b"\n", b"\r\n", b"\r", b""]);
    let lines = prop::collection::vec((line, end), 0..8);
    (any::<bool>(), lines).prop_map(|(bom, lines)| {
        let mut s = if bom { BOM.to_vec() } else { Vec::new() };
        for (line, end) in lines {
            s.extend(line);
            s.extend(end);
        }
        s
    })
}

fn schedule() -> impl Strategy<Value = Schedule> {
    let size = prop_oneof![3 => 1usize..=3, 2 => 4usize..=16, 1 => 17usize..=200, 1 => Just(0usize)];
    let sizes = prop::collection::vec(size, 1..8);
    let drain = prop::collection::vec(any::<bool>(), 1..4);
    (sizes, drain, any::<bool>(), 0usize..3, any::<bool>()).prop_map(
        |(mut sizes, drain, zero_copy, polls_after_end, close)| {
            // At least one non-empty size, or nothing would ever be fed.
            if sizes.iter().all(|&n| n == 0) {
                sizes.push(1);
            }
            Schedule { sizes, drain, zero_copy, polls_after_end, close }
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn framer_matches_the_model_under_any_chunking(
        stream in stream(),
        cap in prop::sample::select(vec![1usize, 2, 3, 4, 5, 6, 8, 13, 16, 32, 64, 256]),
        s in schedule(),
    ) {
        let want = model(&stream, cap, s.close);
        prop_assert_eq!(drive(&stream, cap, &s), want);
    }

    #[test]
    fn framer_single_feed_and_bytewise_agree(stream in stream(), cap in 3usize..40, close in any::<bool>()) {
        let whole = Schedule { sizes: vec![stream.len().max(1)], drain: vec![true], zero_copy: false, polls_after_end: 0, close };
        let bytewise = Schedule { sizes: vec![1], drain: vec![true], zero_copy: false, polls_after_end: 0, close };
        let a = drive(&stream, cap, &whole);
        prop_assert_eq!(&a, &drive(&stream, cap, &bytewise));
        prop_assert_eq!(a, model(&stream, cap, close));
    }
}

// ---------------------------------------------------------------------------------------
// Generated JSON, ids and messages.
// ---------------------------------------------------------------------------------------

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(Value::from),
        any::<String>().prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 40, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(any::<String>(), inner, 0..6)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn json_object() -> impl Strategy<Value = Value> {
    prop::collection::btree_map(any::<String>(), json_value(), 0..6)
        .prop_map(|m| Value::Object(m.into_iter().collect()))
}

/// A JSON string token for `chars`, each written raw, as a `\u` escape (surrogate pairs
/// beyond the BMP, upper or lower case hex) or, for `/`, as `\/`.
fn string_token() -> impl Strategy<Value = String> {
    prop::collection::vec((any::<char>(), 0u8..4), 0..12).prop_map(|chars| {
        let mut t = String::from("\"");
        for (c, how) in chars {
            let must_escape = c == '"' || c == '\\' || (c as u32) < 0x20;
            match how {
                1 if c == '/' => t.push_str("\\/"),
                2 | 3 => {
                    let mut units = [0u16; 2];
                    for u in c.encode_utf16(&mut units) {
                        if how == 2 {
                            t.push_str(&format!("\\u{u:04x}"));
                        } else {
                            t.push_str(&format!("\\u{u:04X}"));
                        }
                    }
                }
                _ if must_escape => t.push_str(&serde_json::to_string(&c.to_string()).unwrap()[1..][..]),
                _ => t.push(c),
            }
            if must_escape && how != 2 && how != 3 {
                // serde_json's escape above included the closing quote: drop it.
                t.pop();
            }
        }
        t.push('"');
        t
    })
}

/// Id tokens as peers write them: i64, u64, integers far past 64 bits, `-0`, strings.
fn id_token() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<i64>().prop_map(|n| n.to_string()),
        any::<u64>().prop_map(|n| n.to_string()),
        "-?[1-9][0-9]{19,60}",
        Just("-0".to_string()),
        Just("0".to_string()),
        string_token(),
    ]
}

#[derive(Clone, Debug)]
enum ErrId {
    Token(String),
    Null,
    Omitted,
}

#[derive(Clone, Debug)]
enum Msg {
    Request { id: String, method: String, params: Option<Value> },
    Notification { method: String, params: Option<Value> },
    Result { id: String, result: Value },
    Error { id: ErrId, code: i32, message: String, data: Option<Value> },
}

fn msg() -> impl Strategy<Value = Msg> {
    let method = prop_oneof![any::<String>(), "[a-z/]{1,20}".prop_map(String::from)];
    prop_oneof![
        (id_token(), method.clone(), prop::option::of(json_object())).prop_map(|(id, method, params)| Msg::Request {
            id,
            method,
            params
        }),
        (method, prop::option::of(json_object())).prop_map(|(method, params)| Msg::Notification { method, params }),
        (id_token(), json_object()).prop_map(|(id, result)| Msg::Result { id, result }),
        (
            prop_oneof![id_token().prop_map(ErrId::Token), Just(ErrId::Null), Just(ErrId::Omitted)],
            any::<i32>(),
            any::<String>(),
            prop::option::of(json_value()),
        )
            .prop_map(|(id, code, message, data)| Msg::Error { id, code, message, data }),
    ]
}

/// A request id borrowed from a carrier frame: the only way to get a `RequestIdRef` for an
/// arbitrary token, and a check that the token parses as an id.
fn carrier(token: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{token},"method":"carrier"}}"#)
}

fn carried(frame: &str) -> RequestIdRef<'_> {
    Message::parse(frame.as_bytes()).expect("carrier frame").id().expect("carrier id")
}

/// Writes `m` as one stdio frame, checking on the way that a buffer one byte short is
/// refused with the exact size, and that the exact size is enough.
fn encode(m: &Msg, raw_values: bool) -> Vec<u8> {
    let pretty = |v: &Value| serde_json::to_string_pretty(v).unwrap();
    let write = |w: &mut FrameWriter<'_>| {
        // Values go in either as serde_json::Value (through this crate's serializer) or as
        // RawJson parsed from pretty-printed text (passed through verbatim).
        macro_rules! with_value {
            ($v:expr, |$x:ident| $body:expr) => {{
                if raw_values {
                    let text = pretty($v);
                    let $x = &RawJson::parse(text.as_bytes()).unwrap();
                    $body
                } else {
                    let $x = $v;
                    $body
                }
            }};
        }
        match m {
            Msg::Request { id, method, params } => {
                let c = carrier(id);
                match params {
                    Some(v) => with_value!(v, |p| w.request(carried(&c), method, Some(p))),
                    None => w.request(carried(&c), method, mcp_sansio::wire::NO_PARAMS),
                }
            }
            Msg::Notification { method, params } => match params {
                Some(v) => with_value!(v, |p| w.notification(method, Some(p))),
                None => w.notification(method, mcp_sansio::wire::NO_PARAMS),
            },
            Msg::Result { id, result } => {
                let c = carrier(id);
                with_value!(result, |r| w.result(carried(&c), r))
            }
            Msg::Error { id, code, message, data } => {
                let c = match id {
                    ErrId::Token(t) => carrier(t),
                    _ => String::new(),
                };
                let eid = match id {
                    ErrId::Token(_) => ErrorId::Id(carried(&c)),
                    ErrId::Null => ErrorId::Null,
                    ErrId::Omitted => ErrorId::Omitted,
                };
                match data {
                    Some(v) => with_value!(v, |d| w.error_with_data(eid, ErrorCode(*code), message, d)),
                    None => w.error(eid, ErrorCode(*code), message),
                }
            }
        }
    };
    let mut empty = [0u8; 0];
    let needed = match write(&mut FrameWriter::new(&mut empty)) {
        Err(mcp_sansio::wire::EncodeError::BufferTooSmall { needed, available: 0 }) => needed,
        other => panic!("expected BufferTooSmall, got {other:?}"),
    };
    let mut short = vec![0u8; needed - 1];
    let mut w = FrameWriter::new(&mut short);
    assert_eq!(write(&mut w), Err(mcp_sansio::wire::EncodeError::BufferTooSmall { needed, available: needed - 1 }));
    assert!(w.is_empty());
    let mut exact = vec![0u8; needed];
    let mut w = FrameWriter::new(&mut exact);
    assert_eq!(write(&mut w), Ok(0..needed));
    w.as_bytes().to_vec()
}

/// What a value looks like on the wire after encoding.
fn wire_text(v: &Value, raw_values: bool) -> Vec<u8> {
    // Raw values are pretty-printed, over several lines: they are written compact (issue
    // 8), which is what serde_json writes compactly. Otherwise this crate's serializer
    // writes what serde_json writes.
    let _ = raw_values;
    serde_json::to_vec(v).unwrap()
}

/// `v` as serde_json reads it back from its own text: without its `float_roundtrip`
/// feature, serde_json may read a float it wrote one ULP off.
fn reread(v: &Value) -> Value {
    serde_json::from_slice(&serde_json::to_vec(v).unwrap()).unwrap()
}

/// The id as serde_json reads the token (as the frame carries it, so big integers take
/// the same path).
fn token_value(token: &str) -> Value {
    serde_json::from_str(token).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn encode_then_decode_round_trips(m in msg(), raw_values in any::<bool>()) {
        let frame = encode(&m, raw_values);
        // One line: the terminator is the only newline, and there is no CR.
        prop_assert_eq!(frame.last(), Some(&b'\n'));
        let body = &frame[..frame.len() - 1];
        prop_assert!(!body.contains(&b'\n') && !body.contains(&b'\r'));

        // serde_json reads the same message.
        let mut want = serde_json::json!({"jsonrpc": "2.0"});
        match &m {
            Msg::Request { id, method, params } => {
                want["id"] = token_value(id);
                want["method"] = Value::from(method.as_str());
                if let Some(p) = params { want["params"] = reread(p); }
            }
            Msg::Notification { method, params } => {
                want["method"] = Value::from(method.as_str());
                if let Some(p) = params { want["params"] = reread(p); }
            }
            Msg::Result { id, result } => {
                want["id"] = token_value(id);
                want["result"] = reread(result);
            }
            Msg::Error { id, code, message, data } => {
                match id {
                    ErrId::Token(t) => want["id"] = token_value(t),
                    ErrId::Null => want["id"] = Value::Null,
                    ErrId::Omitted => {}
                }
                want["error"] = serde_json::json!({"code": code, "message": message});
                if let Some(d) = data { want["error"]["data"] = reread(d); }
            }
        }
        prop_assert_eq!(serde_json::from_slice::<Value>(body).unwrap(), want);

        // And so does this crate, with ids echoed byte for byte and values verbatim.
        let parsed = Message::parse(&frame).unwrap();
        match (&m, parsed) {
            (Msg::Request { id, method, params }, Message::Request(r)) => {
                prop_assert_eq!(r.id.as_token(), id.as_bytes());
                prop_assert!(r.method.eq_str(method));
                prop_assert_eq!(&r.method.to_string(), method);
                prop_assert_eq!(r.params.map(|p| p.as_bytes().to_vec()), params.as_ref().map(|p| wire_text(p, raw_values)));
            }
            (Msg::Notification { method, params }, Message::Notification(n)) => {
                prop_assert_eq!(&n.method.to_string(), method);
                prop_assert_eq!(n.params.map(|p| p.as_bytes().to_vec()), params.as_ref().map(|p| wire_text(p, raw_values)));
            }
            (Msg::Result { id, result }, Message::Response(r)) => {
                prop_assert_eq!(r.id.as_token(), id.as_bytes());
                prop_assert_eq!(r.result.as_bytes(), &wire_text(result, raw_values)[..]);
            }
            (Msg::Error { id, code, message, data }, Message::Error(e)) => {
                let want_id = match id { ErrId::Token(t) => Some(t.as_bytes()), _ => None };
                prop_assert_eq!(e.id.map(|i| i.as_token()), want_id);
                prop_assert_eq!(e.error.code.0, *code);
                prop_assert_eq!(&e.error.message.to_string(), message);
                prop_assert_eq!(e.error.data.map(|d| d.as_bytes().to_vec()), data.as_ref().map(|d| wire_text(d, raw_values)));
            }
            (m, parsed) => prop_assert!(false, "{m:?} came back as {parsed:?}"),
        }
    }

    #[test]
    fn ids_keep_their_token_and_meaning(token in id_token()) {
        let c = carrier(&token);
        let id = carried(&c);
        prop_assert_eq!(id.as_token(), token.as_bytes());
        match token_value(&token) {
            Value::String(s) => {
                prop_assert_eq!(id.kind(), mcp_sansio::wire::IdKind::String);
                prop_assert_eq!(id.as_str().unwrap().to_string(), s.clone());
                // Equal by meaning to the plainest spelling of the same string.
                let plain = carrier(&serde_json::to_string(&s).unwrap());
                prop_assert_eq!(id, carried(&plain));
            }
            Value::Number(_) => {
                prop_assert_eq!(id.kind(), mcp_sansio::wire::IdKind::Integer);
                prop_assert_eq!(id.as_i64(), token.parse::<i64>().ok());
                prop_assert_eq!(id.as_u64(), token.parse::<u64>().ok());
                prop_assert_eq!(id.as_str(), None);
            }
            other => prop_assert!(false, "{other:?}"),
        }
        match id.to_owned() {
            Ok(owned) => {
                prop_assert_eq!(owned.as_token(), token.as_bytes());
                prop_assert_eq!(owned, id);
            }
            Err(e) => prop_assert!(e.len == token.len() && token.len() > mcp_sansio::wire::MAX_ID_LEN),
        }
    }
}

// ---------------------------------------------------------------------------------------
// No panic on arbitrary bytes, and the answers that come back are consistent.
// ---------------------------------------------------------------------------------------

/// A string's unescaped text, checked every way it can be read.
fn unescaped(s: mcp_sansio::wire::JsonStr<'_>) -> String {
    let n = s.unescaped_len();
    let mut scratch = vec![0u8; n];
    let text = s.unescape_into(&mut scratch).unwrap().to_owned();
    assert_eq!(text.len(), n);
    if n > 0 {
        let mut short = vec![0u8; n - 1];
        assert_eq!(s.unescape_into(&mut short), Err(UnescapeError::BufferTooSmall { needed: n, capacity: n - 1 }));
    }
    assert_eq!(s.chars().collect::<String>(), text);
    assert_eq!(s.to_string(), text);
    assert!(s.eq_str(&text));
    assert_eq!(s.to_str(&mut scratch).unwrap(), text);
    if !s.is_escaped() {
        assert_eq!(s.as_plain(), Some(text.as_str()));
        assert_eq!(s.raw(), text.as_bytes());
    }
    text
}

/// Rebuilds a validated value as a serde_json `Value` through the navigation API only.
/// `None` when a number is outside f64's range (serde_json's `Value` cannot hold it).
fn rebuild(r: RawJson<'_>) -> Option<Value> {
    let text = r.as_text();
    assert_eq!(text.as_bytes(), r.as_bytes());
    Some(match r.kind() {
        JsonKind::Object => {
            assert!(r.is_object());
            let mut map = serde_json::Map::new();
            let mut first = std::collections::HashSet::new();
            for (k, v) in r.members() {
                let k = unescaped(k);
                if first.insert(k.clone()) {
                    assert_eq!(r.get(&k), Some(v), "get finds the first member named {k:?}");
                }
                map.insert(k, rebuild(v)?);
            }
            assert_eq!(r.elements().count(), 0);
            Value::Object(map)
        }
        JsonKind::Array => {
            assert_eq!(r.members().count(), 0);
            assert_eq!(r.get(""), None);
            Value::Array(r.elements().map(rebuild).collect::<Option<_>>()?)
        }
        JsonKind::String => Value::String(unescaped(r.as_str().unwrap())),
        JsonKind::Number => {
            assert_eq!(r.as_i64(), text.parse::<i64>().ok());
            assert_eq!(r.as_u64(), text.parse::<u64>().ok());
            assert_eq!(r.as_f64(), text.parse::<f64>().ok().filter(|f| f.is_finite()));
            serde_json::from_str(text).ok()?
        }
        JsonKind::Bool => Value::Bool(r.as_bool().unwrap()),
        JsonKind::Null => {
            assert!(r.is_null());
            Value::Null
        }
    })
}

fn touch(m: Message<'_>) {
    let _ = (m.kind(), format!("{m:?}"));
    if let Some(id) = m.id() {
        let _ = (id.as_i64(), id.as_u64(), id.kind(), id.to_string(), id.to_owned());
        if let Some(s) = id.as_str() {
            unescaped(s);
        }
    }
    if let Some(method) = m.method() {
        unescaped(method);
    }
    let values = match m {
        Message::Request(r) => [r.params, None],
        Message::Notification(n) => [n.params, None],
        Message::Response(r) => [Some(r.result), None],
        Message::Error(e) => [e.error.data, Some(RawJson::parse(b"0").unwrap())],
    };
    for v in values.into_iter().flatten() {
        rebuild(v);
    }
    if let Message::Error(e) = m {
        unescaped(e.error.message);
    }
}

fn exercise(input: &[u8]) {
    let verdict = validate(input, ScanConfig::default());
    for depth in [0, 1, 2, 5, 127, 600] {
        let deeper = validate(input, ScanConfig::with_max_depth(depth));
        if depth >= 64 && verdict.is_ok() {
            assert_eq!(deeper, Ok(()));
        }
    }
    let raw = RawJson::parse(input);
    assert_eq!(raw.map(|_| ()), verdict, "RawJson::parse and validate disagree");

    // The envelope parser reports exactly the scanner's verdict on the JSON.
    match Message::parse(input) {
        Ok(m) => {
            assert_eq!(verdict, Ok(()));
            touch(m);
        }
        Err(e) => {
            let _ = (e.to_string(), e.code(), e.should_reply());
            match e.rule {
                mcp_sansio::wire::Rule::Json(scan) => assert_eq!(verdict, Err(scan)),
                _ => assert_eq!(verdict, Ok(())),
            }
        }
    }
    let batches = ParseOptions { allow_batch: true, ..ParseOptions::default() };
    if let Ok(Frame::Batch(b)) = Frame::parse(input, &batches) {
        // (`is_empty` is always false by construction; count the elements instead.)
        assert_ne!(b.iter().count(), 0);
        assert_eq!(b.iter().count(), b.len());
        for element in b {
            match element {
                Ok(m) => touch(m),
                Err(e) => {
                    let _ = e.to_string();
                }
            }
        }
    }

    // Navigation rebuilds exactly what serde_json reads.
    if let Ok(raw) = raw {
        let ours = rebuild(raw);
        match serde_json::from_slice::<Value>(input) {
            Ok(v) => assert_eq!(ours, Some(v)),
            Err(e) => {
                assert_eq!(ours, None);
                assert!(e.to_string().starts_with("number out of range"), "{e}");
            }
        }
    }
}

/// Bytes that look like JSON often enough to get past the first few tokens.
fn token_soup() -> impl Strategy<Value = Vec<u8>> {
    let tokens: Vec<&[u8]> = vec![
        b"{",
        b"}",
        b"[",
        b"]",
        b":",
        b",",
        b"\"",
        b"\\",
        b"\\u",
        b"\\ud83d",
        b"\\ude00",
        b"00e9",
        b"\"a\"",
        b"\"id\"",
        b"\"method\"",
        b"\"jsonrpc\"",
        b"\"2.0\"",
        b"\"params\"",
        b"\"result\"",
        b"\"error\"",
        b"\"code\"",
        b"\"message\"",
        b"\"data\"",
        b"1",
        b"-",
        b"0",
        b"01",
        b"1.",
        b".5",
        b"e",
        b"E+",
        b"1e400",
        b"true",
        b"nul",
        b"null",
        b" ",
        b"\n",
        b"\t",
        b"\r",
        b"\x00",
        b"\x1f",
        b"\xC3\xA9",
        b"\xF0\x9F\x98\x80",
        b"\xFF",
        b"\xC0\xAF",
        b"\xED\xA0\x80",
        b"\xE2\x82",
        b"\xEF\xBB\xBF",
        b"\\/",
        b"\\n",
    ];
    prop::collection::vec(prop::sample::select(tokens), 0..48).prop_map(|t| t.concat())
}

/// A valid frame with a few bytes changed.
fn mutated_frame() -> impl Strategy<Value = Vec<u8>> {
    let edit = (any::<prop::sample::Index>(), 0u8..3, any::<u8>());
    (msg(), any::<bool>(), prop::collection::vec(edit, 0..4)).prop_map(|(m, raw, edits)| {
        let mut bytes = encode(&m, raw);
        for (at, op, byte) in edits {
            let i = at.index(bytes.len() + 1);
            match op {
                0 if i < bytes.len() => bytes[i] = byte,
                1 => bytes.insert(i, byte),
                _ if i < bytes.len() => {
                    bytes.remove(i);
                }
                _ => {}
            }
        }
        bytes
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn no_panic_on_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        exercise(&bytes);
    }

    #[test]
    fn no_panic_on_token_soup(bytes in token_soup()) {
        exercise(&bytes);
    }

    #[test]
    fn no_panic_on_mutated_frames(bytes in mutated_frame()) {
        exercise(&bytes);
    }

    #[test]
    fn generated_json_navigates_like_serde_json(v in json_value(), pretty in any::<bool>()) {
        let text = if pretty { serde_json::to_vec_pretty(&v).unwrap() } else { serde_json::to_vec(&v).unwrap() };
        prop_assert_eq!(validate(&text, ScanConfig::default()), Ok(()));
        // Compared with serde_json's reading of the text, not with `v`: serde_json may read
        // a float it wrote one ULP off (no `float_roundtrip` feature).
        let read: Value = serde_json::from_slice(&text).unwrap();
        prop_assert_eq!(rebuild(RawJson::parse(&text).unwrap()), Some(read));
        exercise(&text);
    }
}
