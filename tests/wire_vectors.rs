//! Table-driven vectors for the wire layer and the stdio framer (issue 2, "Checks it ships
//! with"): at least one valid and one invalid frame per rule, with exact outcomes.
//!
//! Every vector states what must come out (error kind and byte offset, rule, id token,
//! method after unescaping, reply code, whether to reply), never just `is_ok`/`is_err`.

use mcp_sansio::framing::{LineError, LineFramer};
use mcp_sansio::wire::{
    EncodeError, ErrorCode, ErrorId, Frame, FrameWriter, IdKind, IdTooLong, JsonKind, MAX_ID_LEN, Member, Message,
    NO_PARAMS, ParseOptions, RawJson, RequestId, RequestIdRef, Rule, ScanConfig, ScanError, ScanErrorKind, Shape,
    UnescapeError, validate,
};

// ---------------------------------------------------------------------------------------
// The JSON scanner: one vector (at least) per ScanErrorKind, with the offset it reports.
// ---------------------------------------------------------------------------------------

use ScanErrorKind as K;

/// `(input, kind, offset)`: `validate` with the default configuration must fail exactly so.
const SCAN_REJECTS: &[(&[u8], ScanErrorKind, usize)] = &[
    (b"", K::Empty, 0),
    (b"  \r\n\t", K::Empty, 5),
    (b"[1", K::UnexpectedEnd, 2),
    (b"{\"a\":", K::UnexpectedEnd, 5),
    (b"{\"a\"", K::UnexpectedEnd, 4),
    (b"{", K::UnexpectedEnd, 1),
    (b"\"abc", K::UnexpectedEnd, 4),
    (b"tru", K::UnexpectedEnd, 3),
    (b"fals", K::UnexpectedEnd, 4),
    (b"\"\\", K::UnexpectedEnd, 2),
    (b"\"\\u12", K::UnexpectedEnd, 5),
    (b"-", K::UnexpectedEnd, 1),
    (b"1.", K::UnexpectedEnd, 2),
    (b"1e", K::UnexpectedEnd, 2),
    (b"1e+", K::UnexpectedEnd, 3),
    (b"x", K::UnexpectedByte, 0),
    (b"[1,x]", K::UnexpectedByte, 3),
    (b"[,1]", K::UnexpectedByte, 1),
    (b"{\"a\":}", K::UnexpectedByte, 5),
    (b"NaN", K::UnexpectedByte, 0),
    (b"+1", K::UnexpectedByte, 0),
    (b".5", K::UnexpectedByte, 0),
    (b"'a'", K::UnexpectedByte, 0),
    (b"\xEF\xBB\xBF{}", K::UnexpectedByte, 0),
    (b"\x0c{}", K::UnexpectedByte, 0),
    (b"{1:2}", K::ExpectedKey, 1),
    (b"{,}", K::ExpectedKey, 1),
    (b"{\"a\":1,2}", K::ExpectedKey, 7),
    (b"{'a':1}", K::ExpectedKey, 1),
    (b"{\"a\" 2}", K::ExpectedColon, 5),
    (b"{\"a\"}", K::ExpectedColon, 4),
    (b"{\"a\"=1}", K::ExpectedColon, 4),
    (b"[1 2]", K::ExpectedCommaOrEnd, 3),
    (b"[1}", K::ExpectedCommaOrEnd, 2),
    (b"{\"a\":1]", K::ExpectedCommaOrEnd, 6),
    (b"{\"a\":1 \"b\":2}", K::ExpectedCommaOrEnd, 7),
    (b"trux", K::InvalidLiteral, 3),
    (b"tRue", K::InvalidLiteral, 1),
    (b"nul1", K::InvalidLiteral, 3),
    (b"[falsy]", K::InvalidLiteral, 5),
    (b"\"a\x01b\"", K::ControlCharacter, 2),
    (b"\"\x00\"", K::ControlCharacter, 1),
    (b"\"\t\"", K::ControlCharacter, 1),
    (b"\"ab\ncd\"", K::ControlCharacter, 3),
    (b"\"0123456789\x1f\"", K::ControlCharacter, 11),
    (b"{\"k\x7f\x1f\":1}", K::ControlCharacter, 4),
    (b"\"\xC0\xAF\"", K::InvalidUtf8, 1),
    (b"\"ab\xFF\"", K::InvalidUtf8, 3),
    (b"\"\xED\xA0\x80\"", K::InvalidUtf8, 1),
    (b"\"\xF4\x90\x80\x80\"", K::InvalidUtf8, 1),
    (b"\"0123456789\x80\"", K::InvalidUtf8, 11),
    (b"\"\xE2\x82", K::InvalidUtf8, 1),
    (b"{\"\xE2\x82\":1}", K::InvalidUtf8, 2),
    (b"\"\\x\"", K::InvalidEscape, 1),
    (b"\"\\'\"", K::InvalidEscape, 1),
    (b"\"\\U0041\"", K::InvalidEscape, 1),
    (b"\"\\u12G4\"", K::InvalidEscape, 5),
    (b"\"\\ud83d\\u00\"", K::InvalidEscape, 11),
    (b"\"\\ud83d\"", K::LoneSurrogate, 1),
    (b"\"\\ude00\"", K::LoneSurrogate, 1),
    (b"\"x\\uDBFF\"", K::LoneSurrogate, 2),
    (b"\"\\ud83d\\u0041\"", K::LoneSurrogate, 1),
    (b"\"\\ud83d\\ud83d\"", K::LoneSurrogate, 1),
    (b"\"\\ud83dx\\ude00\"", K::LoneSurrogate, 1),
    (b"01", K::LeadingZero, 1),
    (b"-01", K::LeadingZero, 2),
    (b"[00]", K::LeadingZero, 2),
    (b"-a", K::InvalidNumber, 1),
    (b"1.e3", K::InvalidNumber, 2),
    (b"1ex", K::InvalidNumber, 2),
    (b"1e+-1", K::InvalidNumber, 3),
    (b"-Infinity", K::InvalidNumber, 1),
    (b"[1,]", K::TrailingComma, 3),
    (b"[1, ]", K::TrailingComma, 4),
    (b"{\"a\":1,}", K::TrailingComma, 7),
    (b"{\"a\":1,\n}", K::TrailingComma, 8),
    (b"{} x", K::TrailingCharacters, 3),
    (b"1 2", K::TrailingCharacters, 2),
    (b"{}{}", K::TrailingCharacters, 2),
    (b"\"a\"\"b\"", K::TrailingCharacters, 3),
    (b"{}\x00", K::TrailingCharacters, 2),
    (b"nulll", K::TrailingCharacters, 4),
    (b"1.5.3", K::TrailingCharacters, 3),
];

const ALL_SCAN_KINDS: [ScanErrorKind; 16] = [
    K::Empty,
    K::UnexpectedEnd,
    K::UnexpectedByte,
    K::ExpectedKey,
    K::ExpectedColon,
    K::ExpectedCommaOrEnd,
    K::InvalidLiteral,
    K::ControlCharacter,
    K::InvalidUtf8,
    K::InvalidEscape,
    K::LoneSurrogate,
    K::LeadingZero,
    K::InvalidNumber,
    K::TrailingComma,
    K::TooDeep,
    K::TrailingCharacters,
];

const SCAN_ACCEPTS: &[&[u8]] = &[
    b"0",
    b"-0",
    b"-0.0e-0",
    b"1.5e-3",
    b"1E+2",
    b"123456789012345678901234567890",
    b"1e400",
    b"-1e-400",
    b"true",
    b"false",
    b"null",
    b" \t\r\n null \t\r\n ",
    b"\"\"",
    b"\"\\ud83d\\ude00\"",
    b"\"\\uD83D\\uDE00\"",
    b"\"\\u0000\"",
    b"\"\x7f\"",
    b"\"\xEF\xBF\xBF\xF4\x8F\xBF\xBF\xE2\x82\xAC\"",
    b"\"\\/\\b\\f\\n\\r\\t\\\"\\\\\"",
    b"[]",
    b"{}",
    b"[ 1 , { } , [ ] ]",
    b"{\"a\":{\"b\":[{\"c\":\"}\\\"]\"}]}}",
    b"{\"a\":1,\"a\":2}",
];

#[test]
fn scanner_rejects_each_rule_at_the_right_offset() {
    for &(input, kind, offset) in SCAN_REJECTS {
        let err = validate(input, ScanConfig::default()).unwrap_err();
        assert_eq!(err, ScanError { kind, offset }, "input {:?}", String::from_utf8_lossy(input));
        // RawJson::parse runs the same scanner.
        assert_eq!(RawJson::parse(input).unwrap_err(), err, "RawJson::parse {:?}", String::from_utf8_lossy(input));
        // The envelope parser scans the top-level object itself: same error, same offset.
        let env = Message::parse_with(input, &ParseOptions { max_depth: 64, allow_batch: false }).unwrap_err();
        assert_eq!(env.rule, Rule::Json(err), "Message::parse {:?}", String::from_utf8_lossy(input));
        assert_eq!(
            (env.id, env.shape, env.code(), env.should_reply()),
            (None, Shape::Unknown, ErrorCode::PARSE_ERROR, true)
        );
    }
    for kind in ALL_SCAN_KINDS {
        let covered = SCAN_REJECTS.iter().any(|&(_, k, _)| k == kind) || kind == K::TooDeep;
        assert!(covered, "no vector for {kind:?}");
        assert!(!kind.describe().is_empty());
    }
}

#[test]
fn scanner_accepts_rfc_8259_texts() {
    for &input in SCAN_ACCEPTS {
        assert_eq!(validate(input, ScanConfig::default()), Ok(()), "{:?}", String::from_utf8_lossy(input));
    }
}

#[test]
fn depth_cap_is_exact_for_arrays_objects_and_envelopes() {
    let nest = |n: usize| {
        let mut v = b"[".repeat(n);
        v.extend(b"]".repeat(n));
        v
    };
    let nest_obj = |n: usize| {
        let mut v = b"{\"a\":".repeat(n);
        v.push(b'1');
        v.extend(b"}".repeat(n));
        v
    };
    for cap in [1u16, 2, 3, 64, 127, 128, 511, 512] {
        let c = cap as usize;
        assert_eq!(validate(&nest(c), ScanConfig::with_max_depth(cap)), Ok(()), "arrays at cap {cap}");
        assert_eq!(validate(&nest_obj(c), ScanConfig::with_max_depth(cap)), Ok(()), "objects at cap {cap}");
        let e = validate(&nest(c + 1), ScanConfig::with_max_depth(cap)).unwrap_err();
        assert_eq!(e, ScanError { kind: K::TooDeep, offset: c });
        let e = validate(&nest_obj(c + 1), ScanConfig::with_max_depth(cap)).unwrap_err();
        assert_eq!(e, ScanError { kind: K::TooDeep, offset: 5 * c });
    }
    // Depth 0 accepts scalars only.
    assert_eq!(validate(b"1", ScanConfig::with_max_depth(0)), Ok(()));
    assert_eq!(validate(b" []", ScanConfig::with_max_depth(0)), Err(ScanError { kind: K::TooDeep, offset: 1 }));
    // The default is 64; caps above 512 behave as 512.
    assert_eq!(validate(&nest(64), ScanConfig::default()), Ok(()));
    assert_eq!(validate(&nest(65), ScanConfig::default()).unwrap_err().kind, K::TooDeep);
    assert_eq!(validate(&nest(513), ScanConfig::with_max_depth(u16::MAX)).unwrap_err().offset, 512);

    // The envelope object counts as one level, params as the next.
    let frame = |n: usize| {
        let mut v = br#"{"jsonrpc":"2.0","method":"m","params":"#.to_vec();
        v.extend(b"{\"a\":".repeat(n));
        v.extend(b"{}");
        v.extend(b"}".repeat(n + 1));
        v
    };
    let opts = |max_depth| ParseOptions { max_depth, allow_batch: false };
    // 1 (envelope) + 1 (params) + n
    assert!(Message::parse_with(&frame(3), &opts(5)).is_ok());
    let four = frame(4);
    let e = Message::parse_with(&four, &opts(5)).unwrap_err();
    assert_eq!(e.rule, Rule::Json(ScanError { kind: K::TooDeep, offset: 39 + 5 * 4 }));
    assert_eq!(
        Message::parse_with(b"{}", &opts(0)).unwrap_err().rule,
        Rule::Json(ScanError { kind: K::TooDeep, offset: 0 })
    );
    // Batches: the array is a level too.
    let batch = br#"[{"jsonrpc":"2.0","method":"m","params":{}}]"#;
    let bopts = |max_depth| ParseOptions { max_depth, allow_batch: true };
    let Frame::Batch(b) = Frame::parse(batch, &bopts(3)).unwrap() else { panic!("not a batch") };
    assert_eq!(b.iter().next().unwrap().unwrap().kind(), mcp_sansio::wire::MessageKind::Notification);
    let e = Frame::parse(batch, &bopts(2)).unwrap_err();
    assert_eq!(e.rule, Rule::Json(ScanError { kind: K::TooDeep, offset: 40 }));
    // A million brackets fail at the cap, without recursion.
    let deep = vec![b'['; 1_000_000];
    assert_eq!(Message::parse(&deep).unwrap_err().rule, Rule::Json(ScanError { kind: K::TooDeep, offset: 64 }));
}

// ---------------------------------------------------------------------------------------
// The envelope: one vector (at least) per Rule, and the valid forms of every member.
// ---------------------------------------------------------------------------------------

/// A parse outcome with everything owned, for exact comparison.
#[derive(Debug, PartialEq)]
enum Got {
    Request { id: Vec<u8>, method: String, params: Option<Vec<u8>> },
    Notification { method: String, params: Option<Vec<u8>> },
    Response { id: Vec<u8>, result: Vec<u8> },
    Error { id: Option<Vec<u8>>, code: i32, message: String, data: Option<Vec<u8>> },
    Reject { rule: Rule, id: Option<Vec<u8>>, shape: Shape },
}

fn got(r: Result<Message<'_>, mcp_sansio::wire::EnvelopeError<'_>>) -> Got {
    let raw = |r: RawJson<'_>| r.as_bytes().to_vec();
    match r {
        Ok(Message::Request(r)) => {
            Got::Request { id: r.id.as_token().to_vec(), method: r.method.to_string(), params: r.params.map(raw) }
        }
        Ok(Message::Notification(n)) => Got::Notification { method: n.method.to_string(), params: n.params.map(raw) },
        Ok(Message::Response(r)) => Got::Response { id: r.id.as_token().to_vec(), result: raw(r.result) },
        Ok(Message::Error(e)) => Got::Error {
            id: e.id.map(|i| i.as_token().to_vec()),
            code: e.error.code.0,
            message: e.error.message.to_string(),
            data: e.error.data.map(raw),
        },
        Err(e) => Got::Reject { rule: e.rule, id: e.id.map(|i| i.as_token().to_vec()), shape: e.shape },
    }
}

fn req(id: &str, method: &str, params: Option<&str>) -> Got {
    Got::Request { id: id.into(), method: method.into(), params: params.map(Into::into) }
}
fn note(method: &str, params: Option<&str>) -> Got {
    Got::Notification { method: method.into(), params: params.map(Into::into) }
}
fn resp(id: &str, result: &str) -> Got {
    Got::Response { id: id.into(), result: result.into() }
}
fn err_resp(id: Option<&str>, code: i32, message: &str, data: Option<&str>) -> Got {
    Got::Error { id: id.map(Into::into), code, message: message.into(), data: data.map(Into::into) }
}
fn reject(rule: Rule, id: Option<&str>, shape: Shape) -> Got {
    Got::Reject { rule, id: id.map(Into::into), shape }
}

#[rustfmt::skip]
fn envelope_vectors() -> Vec<(&'static str, Got)> {
    use Shape::{Notification as N, Request as Rq, Response as Rs, Unknown as U};
    vec![
        // Valid messages of every kind.
        (r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#, req("1", "ping", None)),
        (r#" {"jsonrpc" : "2.0" , "id" : 1 , "method" : "ping" } "#, req("1", "ping", None)),
        ("\r\n\t{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n", req("1", "ping", None)),
        (r#"{"method":"tools/call","params":{"name":"x"},"id":"abc","jsonrpc":"2.0"}"#, req(r#""abc""#, "tools/call", Some(r#"{"name":"x"}"#))),
        (r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#, note("notifications/initialized", None)),
        (r#"{"jsonrpc":"2.0","method":"n","params":{}}"#, note("n", Some("{}"))),
        (r#"{"jsonrpc":"2.0","method":"n","params": { "a" : [1, 2] } }"#, note("n", Some(r#"{ "a" : [1, 2] }"#))),
        (r#"{"jsonrpc":"2.0","id":1,"result":{}}"#, resp("1", "{}")),
        (r#"{"jsonrpc":"2.0","id":"r","result":{"tools":[]}}"#, resp(r#""r""#, r#"{"tools":[]}"#)),
        (r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}"#, err_resp(Some("1"), -32601, "Method not found", None)),
        (r#"{"jsonrpc":"2.0","id":1,"error":{"message":"m","data":{"x":[null]},"code":7}}"#, err_resp(Some("1"), 7, "m", Some(r#"{"x":[null]}"#))),
        (r#"{"jsonrpc":"2.0","id":1,"error":{"code":-2147483648,"message":""}}"#, err_resp(Some("1"), i32::MIN, "", None)),
        (r#"{"jsonrpc":"2.0","id":1,"error":{"code":2147483647,"message":"\u00e9\n"}}"#, err_resp(Some("1"), i32::MAX, "é\n", None)),
        (r#"{"jsonrpc":"2.0","id":1,"error":{"code":-0,"message":"z","extra":1}}"#, err_resp(Some("1"), 0, "z", None)),
        (r#"{"jsonrpc":"2.0","id":1,"error":{"c\u006fde":1,"message":"z","data":null}}"#, err_resp(Some("1"), 1, "z", Some("null"))),
        // Uncorrelated errors: null or absent id.
        (r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#, err_resp(None, -32700, "Parse error", None)),
        (r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}"#, err_resp(None, -32700, "Parse error", None)),
        // Id forms: string, integer, negative, huge (raw token), -0, escaped strings.
        (r#"{"jsonrpc":"2.0","id":-7,"method":"m"}"#, req("-7", "m", None)),
        (r#"{"jsonrpc":"2.0","id":0,"method":"m"}"#, req("0", "m", None)),
        (r#"{"jsonrpc":"2.0","id":-0,"method":"m"}"#, req("-0", "m", None)),
        (r#"{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"m"}"#, req("123456789012345678901234567890", "m", None)),
        (r#"{"jsonrpc":"2.0","id":-123456789012345678901234567890,"result":{}}"#, resp("-123456789012345678901234567890", "{}")),
        (r#"{"jsonrpc":"2.0","id":"","method":"m"}"#, req(r#""""#, "m", None)),
        (r#"{"jsonrpc":"2.0","id":"a\/b\u00e9\ud83d\ude00","method":"m"}"#, req(r#""a\/b\u00e9\ud83d\ude00""#, "m", None)),
        (r#"{"jsonrpc":"2.0","id":"1","method":"m"}"#, req(r#""1""#, "m", None)),
        // Method names are compared after unescaping; jsonrpc too.
        (r#"{"jsonrpc":"2.0","id":1,"method":"tools\/call"}"#, req("1", "tools/call", None)),
        (r#"{"jsonrpc":"2.0","id":1,"method":"\u0074ools/call"}"#, req("1", "tools/call", None)),
        (r#"{"jsonrpc":"2\u002e0","id":1,"method":"m"}"#, req("1", "m", None)),
        (r#"{"jsonrpc":"2.0","id":1,"method":"caf\u00e9 \ud83d\ude00"}"#, req("1", "café 😀", None)),
        (r#"{"jsonrpc":"2.0","id":1,"method":""}"#, req("1", "", None)),
        // Escaped envelope member names are the members.
        (r#"{"jsonrpc":"2.0","i\u0064":5,"m\u0065thod":"m","\u0070arams":{}}"#, req("5", "m", Some("{}"))),
        (r#"{"\u006asonrpc":"2.0","id":5,"\u0072esult":{}}"#, resp("5", "{}")),
        // Unknown members are ignored, whatever they hold; nested envelope names do not count.
        (r#"{"jsonrpc":"2.0","x":[1,{"id":null}],"id":1,"method":"m","_meta":{"method":7}}"#, req("1", "m", None)),
        (r#"{"jsonrpc":"2.0","method":"m","params":{"id":null,"method":1,"jsonrpc":"1.0"}}"#, note("m", Some(r#"{"id":null,"method":1,"jsonrpc":"1.0"}"#))),
        (r#"{"jsonrpc":"2.0","ID":null,"Method":1,"method":"m"}"#, note("m", None)),
        (r#"{"jsonrpc":"2.0","id ":null,"method":"m"}"#, note("m", None)),

        // ---- Rejections: one or more per rule. ----
        // Not an object (valid JSON).
        ("1", reject(Rule::NotAnObject, None, U)),
        ("null", reject(Rule::NotAnObject, None, U)),
        (r#""{\"jsonrpc\":\"2.0\"}""#, reject(Rule::NotAnObject, None, U)),
        // Batches where they are not allowed (see also batch_rules).
        (r#"[{"jsonrpc":"2.0","id":1,"method":"m"}]"#, reject(Rule::BatchNotAllowed, None, U)),
        ("[]", reject(Rule::BatchNotAllowed, None, U)),
        // jsonrpc member.
        (r#"{"id":1,"method":"m"}"#, reject(Rule::MissingJsonrpc, Some("1"), Rq)),
        ("{}", reject(Rule::MissingJsonrpc, None, U)),
        (r#"{"jsonrpc":"1.0","id":1,"method":"m"}"#, reject(Rule::WrongJsonrpcVersion, Some("1"), Rq)),
        (r#"{"jsonrpc":2.0,"id":1,"method":"m"}"#, reject(Rule::WrongJsonrpcVersion, Some("1"), Rq)),
        (r#"{"jsonrpc":"2.0 ","method":"m"}"#, reject(Rule::WrongJsonrpcVersion, None, N)),
        (r#"{"jsonrpc":null,"id":1,"result":{}}"#, reject(Rule::WrongJsonrpcVersion, Some("1"), Rs)),
        // Duplicate envelope members, every one of them, also under an escaped spelling.
        (r#"{"jsonrpc":"2.0","jsonrpc":"2.0","id":1,"method":"m"}"#, reject(Rule::DuplicateMember(Member::Jsonrpc), Some("1"), Rq)),
        (r#"{"jsonrpc":"2.0","id":1,"id":1,"method":"m"}"#, reject(Rule::DuplicateMember(Member::Id), None, Rq)),
        (r#"{"jsonrpc":"2.0","id":1,"i\u0064":2,"method":"m"}"#, reject(Rule::DuplicateMember(Member::Id), None, Rq)),
        (r#"{"jsonrpc":"2.0","id":1,"method":"m","method":"m"}"#, reject(Rule::DuplicateMember(Member::Method), Some("1"), Rq)),
        (r#"{"jsonrpc":"2.0","id":1,"method":"m","params":{},"p\u0061rams":{}}"#, reject(Rule::DuplicateMember(Member::Params), Some("1"), Rq)),
        (r#"{"jsonrpc":"2.0","id":1,"result":{},"result":{}}"#, reject(Rule::DuplicateMember(Member::Result), Some("1"), Rs)),
        (r#"{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m"},"error":{}}"#, reject(Rule::DuplicateMember(Member::Error), Some("1"), Rs)),
        // The first duplicate in frame order is named; duplicates beat every other rule.
        (r#"{"method":"m","jsonrpc":"1","method":1,"jsonrpc":"2.0"}"#, reject(Rule::DuplicateMember(Member::Method), None, N)),
        (r#"{"id":null,"id":null,"result":1,"error":2}"#, reject(Rule::DuplicateMember(Member::Id), None, Rs)),
        // Request ids: null and fractions and other kinds are refused.
        (r#"{"jsonrpc":"2.0","id":null,"method":"m"}"#, reject(Rule::NullRequestId, None, Rq)),
        (r#"{"jsonrpc":"2.0","id":1.5,"method":"m"}"#, reject(Rule::InvalidId, None, Rq)),
        (r#"{"jsonrpc":"2.0","id":1.0,"method":"m"}"#, reject(Rule::InvalidId, None, Rq)),
        (r#"{"jsonrpc":"2.0","id":1e2,"method":"m"}"#, reject(Rule::InvalidId, None, Rq)),
        (r#"{"jsonrpc":"2.0","id":-0.0,"method":"m"}"#, reject(Rule::InvalidId, None, Rq)),
        (r#"{"jsonrpc":"2.0","id":true,"method":"m"}"#, reject(Rule::InvalidId, None, Rq)),
        (r#"{"jsonrpc":"2.0","id":[1],"method":"m"}"#, reject(Rule::InvalidId, None, Rq)),
        (r#"{"jsonrpc":"2.0","id":{},"method":"m"}"#, reject(Rule::InvalidId, None, Rq)),
        (r#"{"jsonrpc":"2.0","id":1.5,"result":{}}"#, reject(Rule::InvalidId, None, Rs)),
        (r#"{"jsonrpc":"2.0","id":false,"error":{"code":1,"message":"m"}}"#, reject(Rule::InvalidId, None, Rs)),
        // method.
        (r#"{"jsonrpc":"2.0","id":1,"method":7}"#, reject(Rule::MethodNotString, Some("1"), Rq)),
        (r#"{"jsonrpc":"2.0","method":null}"#, reject(Rule::MethodNotString, None, N)),
        (r#"{"jsonrpc":"2.0","id":"x","method":["m"]}"#, reject(Rule::MethodNotString, Some(r#""x""#), Rq)),
        // params must be an object.
        (r#"{"jsonrpc":"2.0","id":"x","method":"m","params":[1]}"#, reject(Rule::ParamsNotObject, Some(r#""x""#), Rq)),
        (r#"{"jsonrpc":"2.0","id":2,"method":"m","params":null}"#, reject(Rule::ParamsNotObject, Some("2"), Rq)),
        (r#"{"jsonrpc":"2.0","method":"m","params":"{}"}"#, reject(Rule::ParamsNotObject, None, N)),
        (r#"{"jsonrpc":"2.0","method":"m","params":0}"#, reject(Rule::ParamsNotObject, None, N)),
        // Responses.
        (r#"{"jsonrpc":"2.0","id":1,"result":[]}"#, reject(Rule::ResultNotObject, Some("1"), Rs)),
        (r#"{"jsonrpc":"2.0","id":1,"result":null}"#, reject(Rule::ResultNotObject, Some("1"), Rs)),
        (r#"{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"m"}}"#, reject(Rule::ResultAndError, Some("1"), Rs)),
        (r#"{"jsonrpc":"2.0","id":1,"method":"m","result":{}}"#, reject(Rule::MethodInResponse, Some("1"), Rs)),
        (r#"{"jsonrpc":"2.0","method":"m","error":{"code":1,"message":"m"}}"#, reject(Rule::MethodInResponse, None, Rs)),
        (r#"{"jsonrpc":"2.0","result":{}}"#, reject(Rule::ResultWithoutId, None, Rs)),
        (r#"{"jsonrpc":"2.0","id":null,"result":{}}"#, reject(Rule::ResultWithoutId, None, Rs)),
        // None of method, result, error.
        (r#"{"jsonrpc":"2.0","id":1}"#, reject(Rule::NotAMessage, Some("1"), U)),
        (r#"{"jsonrpc":"2.0","params":{}}"#, reject(Rule::NotAMessage, None, U)),
        // Error objects.
        (r#"{"jsonrpc":"2.0","id":1,"error":"boom"}"#, reject(Rule::ErrorNotObject, Some("1"), Rs)),
        (r#"{"jsonrpc":"2.0","id":1,"error":null}"#, reject(Rule::ErrorNotObject, Some("1"), Rs)),
        (r#"{"jsonrpc":"2.0","id":1,"error":{"message":"m"}}"#, reject(Rule::MissingErrorCode, Some("1"), Rs)),
        (r#"{"jsonrpc":"2.0","error":{}}"#, reject(Rule::MissingErrorCode, None, Rs)),
        (r#"{"jsonrpc":"2.0","id":1,"error":{"code":1.0,"message":"m"}}"#, reject(Rule::InvalidErrorCode, Some("1"), Rs)),
        (r#"{"jsonrpc":"2.0","id":1,"error":{"code":"1","message":"m"}}"#, reject(Rule::InvalidErrorCode, Some("1"), Rs)),
        (r#"{"jsonrpc":"2.0","id":1,"error":{"code":2147483648,"message":"m"}}"#, reject(Rule::InvalidErrorCode, Some("1"), Rs)),
        (r#"{"jsonrpc":"2.0","id":1,"error":{"code":-2147483649,"message":"m"}}"#, reject(Rule::InvalidErrorCode, Some("1"), Rs)),
        (r#"{"jsonrpc":"2.0","id":1,"error":{"code":null,"message":"m"}}"#, reject(Rule::InvalidErrorCode, Some("1"), Rs)),
        (r#"{"jsonrpc":"2.0","id":1,"error":{"code":1}}"#, reject(Rule::MissingErrorMessage, Some("1"), Rs)),
        (r#"{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":null}}"#, reject(Rule::ErrorMessageNotString, Some("1"), Rs)),
        (r#"{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":["m"]}}"#, reject(Rule::ErrorMessageNotString, Some("1"), Rs)),
        (r#"{"jsonrpc":"2.0","id":1,"error":{"code":1,"code":1,"message":"m"}}"#, reject(Rule::DuplicateErrorMember, Some("1"), Rs)),
        (r#"{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m","mess\u0061ge":"n"}}"#, reject(Rule::DuplicateErrorMember, Some("1"), Rs)),
        (r#"{"jsonrpc":"2.0","id":1,"error":{"data":1,"data":2}}"#, reject(Rule::DuplicateErrorMember, Some("1"), Rs)),
        // Rule order: jsonrpc before the kind rules.
        (r#"{"id":1,"result":{},"error":{}}"#, reject(Rule::MissingJsonrpc, Some("1"), Rs)),
        (r#"{"jsonrpc":"2.0","id":null,"method":"m","params":[]}"#, reject(Rule::ParamsNotObject, None, Rq)),
    ]
}

#[test]
fn envelope_vectors_classify_exactly() {
    for (input, want) in envelope_vectors() {
        let parsed = Message::parse(input.as_bytes());
        assert_eq!(got(parsed), want, "{input}");
        // Frame::parse with batches on agrees for everything that is not an array.
        if !input.trim_start().starts_with('[') {
            let opts = ParseOptions { allow_batch: true, ..ParseOptions::default() };
            let frame = Frame::parse(input.as_bytes(), &opts).map(|f| match f {
                Frame::Single(m) => m,
                Frame::Batch(_) => panic!("{input}: batch"),
            });
            assert_eq!(got(frame), want, "Frame::parse {input}");
        }
        // A message's accessors agree with its variant.
        if let Ok(m) = Message::parse(input.as_bytes()) {
            let kind = match want {
                Got::Request { .. } => mcp_sansio::wire::MessageKind::Request,
                Got::Notification { .. } => mcp_sansio::wire::MessageKind::Notification,
                Got::Response { .. } => mcp_sansio::wire::MessageKind::Response,
                Got::Error { .. } => mcp_sansio::wire::MessageKind::Error,
                Got::Reject { .. } => unreachable!(),
            };
            assert_eq!(m.kind(), kind, "{input}");
            assert_eq!(m.method().is_some(), matches!(want, Got::Request { .. } | Got::Notification { .. }));
        }
    }
}

#[test]
fn every_rule_has_a_vector() {
    let vectors = envelope_vectors();
    let rules: Vec<Rule> = vectors
        .iter()
        .filter_map(|(_, g)| match g {
            Got::Reject { rule, .. } => Some(*rule),
            _ => None,
        })
        .collect();
    let all = [
        Rule::NotAnObject,
        Rule::BatchNotAllowed,
        Rule::MissingJsonrpc,
        Rule::WrongJsonrpcVersion,
        Rule::DuplicateMember(Member::Jsonrpc),
        Rule::DuplicateMember(Member::Id),
        Rule::DuplicateMember(Member::Method),
        Rule::DuplicateMember(Member::Params),
        Rule::DuplicateMember(Member::Result),
        Rule::DuplicateMember(Member::Error),
        Rule::NullRequestId,
        Rule::InvalidId,
        Rule::MethodNotString,
        Rule::ParamsNotObject,
        Rule::ResultNotObject,
        Rule::ResultAndError,
        Rule::MethodInResponse,
        Rule::ResultWithoutId,
        Rule::NotAMessage,
        Rule::ErrorNotObject,
        Rule::MissingErrorCode,
        Rule::InvalidErrorCode,
        Rule::MissingErrorMessage,
        Rule::ErrorMessageNotString,
        Rule::DuplicateErrorMember,
    ];
    for rule in all {
        assert!(rules.contains(&rule), "no vector for {rule:?}");
        assert_eq!(rule.code(), ErrorCode::INVALID_REQUEST, "{rule:?}");
        assert!(!rule.describe().is_empty());
    }
    // Rule::Json and Rule::EmptyBatch are covered by the scanner and batch tests.
    let json = Rule::Json(ScanError { kind: K::TrailingComma, offset: 3 });
    assert_eq!(json.code(), ErrorCode::PARSE_ERROR);
    assert_eq!(json.describe(), "trailing comma");
    assert_eq!(Rule::EmptyBatch.code(), ErrorCode::INVALID_REQUEST);
    assert_eq!(Member::Params.name(), "params");
}

/// The reply a server owes each broken frame: code, id, and whether to answer at all.
#[test]
fn reply_code_id_and_should_reply() {
    #[rustfmt::skip]
    let cases: &[(&str, i32, Option<&str>, bool)] = &[
        // Unreadable: -32700 with a null id, always answered.
        ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"m\"", -32700, None, true),
        ("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"m\",}", -32700, None, true),
        ("", -32700, None, true),
        ("\u{feff}{}", -32700, None, true),
        // Broken requests: -32600 carrying the id when it could be read.
        (r#"{"jsonrpc":"2.0","id":7,"method":"m","params":[]}"#, -32600, Some("7"), true),
        (r#"{"jsonrpc":"1.0","id":"abc","method":"m"}"#, -32600, Some(r#""abc""#), true),
        (r#"{"jsonrpc":"2.0","id":99999999999999999999999,"method":4}"#, -32600, Some("99999999999999999999999"), true),
        (r#"{"jsonrpc":"2.0","id":null,"method":"m"}"#, -32600, None, true),
        (r#"{"jsonrpc":"2.0","id":1.5,"method":"m"}"#, -32600, None, true),
        (r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"m"}"#, -32600, None, true),
        // Not classifiable: -32600 with null id, answered.
        (r#"{"jsonrpc":"2.0"}"#, -32600, None, true),
        (r#"{"jsonrpc":"2.0","id":3}"#, -32600, Some("3"), true),
        ("[1]", -32600, None, true),
        ("42", -32600, None, true),
        // Broken notifications are never answered.
        (r#"{"jsonrpc":"2.0","method":"m","params":1}"#, -32600, None, false),
        (r#"{"method":"m"}"#, -32600, None, false),
        // Broken responses are never answered (no error ping-pong).
        (r#"{"jsonrpc":"2.0","id":4,"result":1}"#, -32600, Some("4"), false),
        (r#"{"jsonrpc":"2.0","id":4,"error":{"code":"x","message":"m"}}"#, -32600, Some("4"), false),
        (r#"{"jsonrpc":"2.0","result":{}}"#, -32600, None, false),
    ];
    for &(input, code, id, reply) in cases {
        let e = Message::parse(input.as_bytes()).unwrap_err();
        assert_eq!(e.code().0, code, "{input}");
        assert_eq!(e.id.map(|i| String::from_utf8(i.as_token().to_vec()).unwrap()).as_deref(), id, "{input}");
        assert_eq!(e.should_reply(), reply, "{input}");
        // The reply can be written straight from the error.
        let mut buf = [0u8; 256];
        let mut w = FrameWriter::new(&mut buf);
        w.error(ErrorId::from(e.id), e.code(), e.rule.describe()).unwrap();
        let Message::Error(back) = Message::parse(w.as_bytes()).unwrap() else { panic!("not an error") };
        assert_eq!(back.error.code.0, code);
        assert_eq!(back.id.map(|i| i.as_token()), e.id.map(|i| i.as_token()));
    }
}

#[test]
fn envelope_error_display() {
    let show = |s: &str| Message::parse(s.as_bytes()).unwrap_err().to_string();
    assert_eq!(show("[1,]"), "invalid JSON at byte 3: trailing comma");
    assert_eq!(
        show(r#"{"jsonrpc":"2.0","id":"q","method":"m","method":"n"}"#),
        r#"invalid JSON-RPC message: duplicate "method" member (id "q")"#
    );
    assert_eq!(
        show(r#"{"jsonrpc":"2.0","id":12,"method":"m","params":[]}"#),
        r#"invalid JSON-RPC message: "params" must be an object (id 12)"#
    );
    assert_eq!(
        show(r#"{"jsonrpc":"2.0","id":null,"method":"m"}"#),
        "invalid JSON-RPC message: request id must not be null"
    );
}

#[test]
fn batch_rules() {
    let on = ParseOptions { allow_batch: true, ..ParseOptions::default() };
    let off = ParseOptions::default();
    let batch = br#" [ {"jsonrpc":"2.0","id":1,"method":"a"}, {"jsonrpc":"2.0","method":"b","params":{}},
        {"jsonrpc":"2.0","id":2,"result":{}}, {"jsonrpc":"2.0","error":{"code":1,"message":"e"}},
        1, "x", null, [], {}, {"jsonrpc":"2.0","id":null,"method":"c"},
        {"jsonrpc":"2.0","id":"k","method":"d","params":[]}, {"jsonrpc":"2.0","id":3,"id":4,"method":"e"} ] "#;
    let Frame::Batch(b) = Frame::parse(batch, &on).unwrap() else { panic!("not a batch") };
    assert_eq!(b.len(), 12);
    assert!(!b.is_empty());
    assert_eq!(b.as_bytes().first(), Some(&b'['));
    assert_eq!(b.as_bytes().last(), Some(&b']'));
    let got: Vec<Got> = b.iter().map(got).collect();
    use Shape::{Request as Rq, Unknown as U};
    assert_eq!(
        got,
        [
            req("1", "a", None),
            note("b", Some("{}")),
            resp("2", "{}"),
            err_resp(None, 1, "e", None),
            reject(Rule::NotAnObject, None, U),
            reject(Rule::NotAnObject, None, U),
            reject(Rule::NotAnObject, None, U),
            reject(Rule::NotAnObject, None, U),
            reject(Rule::MissingJsonrpc, None, U),
            reject(Rule::NullRequestId, None, Rq),
            reject(Rule::ParamsNotObject, Some(r#""k""#), Rq),
            reject(Rule::DuplicateMember(Member::Id), None, Rq),
        ]
    );
    // IntoIterator gives the same.
    assert_eq!(b.into_iter().count(), 12);

    // Not allowed: an invalid request, even when it holds valid messages.
    let e = Frame::parse(batch, &off).unwrap_err();
    assert_eq!(
        (e.rule, e.id, e.shape, e.code().0, e.should_reply()),
        (Rule::BatchNotAllowed, None, Shape::Unknown, -32600, true)
    );
    // Message::parse_with never returns batches, whatever allow_batch says.
    assert_eq!(Message::parse_with(batch, &on).unwrap_err().rule, Rule::BatchNotAllowed);

    // Empty batches are invalid requests, with or without whitespace.
    for empty in [&b"[]"[..], b" [ \n ] "] {
        let e = Frame::parse(empty, &on).unwrap_err();
        assert_eq!(
            (e.rule, e.id, e.shape, e.code().0, e.should_reply()),
            (Rule::EmptyBatch, None, Shape::Unknown, -32600, true)
        );
        assert_eq!(Frame::parse(empty, &off).unwrap_err().rule, Rule::BatchNotAllowed);
    }
    // Invalid JSON inside a batch is a parse error for the whole frame, batches on or off.
    for bad in [&br#"[{"jsonrpc":"2.0","method":"a"},]"#[..], br#"[{"jsonrpc":"2.0","method":"a"}"#, b"[01]"] {
        for opts in [&on, &off] {
            let e = Frame::parse(bad, opts).unwrap_err();
            assert!(matches!(e.rule, Rule::Json(_)), "{:?}", String::from_utf8_lossy(bad));
            assert_eq!((e.code().0, e.id), (-32700, None));
        }
    }
    assert_eq!(
        Frame::parse(b"[1,]", &on).unwrap_err().rule,
        Rule::Json(ScanError { kind: K::TrailingComma, offset: 3 })
    );
    // A single message through Frame::parse is Single.
    assert!(matches!(
        Frame::parse(br#"{"jsonrpc":"2.0","method":"m"}"#, &on),
        Ok(Frame::Single(Message::Notification(_)))
    ));
}

// ---------------------------------------------------------------------------------------
// Ids.
// ---------------------------------------------------------------------------------------

fn id_of(frame: &[u8]) -> RequestIdRef<'_> {
    Message::parse(frame).unwrap().id().unwrap()
}

#[test]
fn id_semantics() {
    // (token, kind, as_i64, as_u64, unescaped string)
    #[rustfmt::skip]
    type IdCase = (&'static str, IdKind, Option<i64>, Option<u64>, Option<&'static str>);
    let cases: &[IdCase] = &[
        ("0", IdKind::Integer, Some(0), Some(0), None),
        ("-0", IdKind::Integer, Some(0), None, None),
        ("42", IdKind::Integer, Some(42), Some(42), None),
        ("-42", IdKind::Integer, Some(-42), None, None),
        ("9223372036854775807", IdKind::Integer, Some(i64::MAX), Some(i64::MAX as u64), None),
        ("9223372036854775808", IdKind::Integer, None, Some(1 << 63), None),
        ("-9223372036854775808", IdKind::Integer, Some(i64::MIN), None, None),
        ("-9223372036854775809", IdKind::Integer, None, None, None),
        ("18446744073709551615", IdKind::Integer, None, Some(u64::MAX), None),
        ("18446744073709551616", IdKind::Integer, None, None, None),
        ("123456789012345678901234567890", IdKind::Integer, None, None, None),
        (r#""abc""#, IdKind::String, None, None, Some("abc")),
        (r#""1""#, IdKind::String, None, None, Some("1")),
        (r#""a\/b""#, IdKind::String, None, None, Some("a/b")),
        (r#""\ud83d\ude00\u0000\"""#, IdKind::String, None, None, Some("😀\0\"")),
    ];
    for &(token, kind, i, u, s) in cases {
        let frame = format!(r#"{{"jsonrpc":"2.0","id":{token},"method":"m"}}"#);
        let id = id_of(frame.as_bytes());
        assert_eq!(id.as_token(), token.as_bytes());
        assert_eq!((id.kind(), id.as_i64(), id.as_u64()), (kind, i, u), "{token}");
        assert_eq!(id.as_str().map(|j| j.to_string()).as_deref(), s, "{token}");
        assert_eq!(id.to_string(), token);
        // Owned copies keep the token.
        let owned = id.to_owned().unwrap();
        assert_eq!(owned.as_token(), token.as_bytes());
        assert_eq!(owned, id);
    }
    // Equality is by meaning.
    let a = r#"{"jsonrpc":"2.0","id":"a\/b","method":"m"}"#;
    let b = r#"{"jsonrpc":"2.0","id":"a/b","method":"m"}"#;
    let c = r#"{"jsonrpc":"2.0","id":"a\u002fb","method":"m"}"#;
    assert_eq!(id_of(a.as_bytes()), id_of(b.as_bytes()));
    assert_eq!(id_of(c.as_bytes()), id_of(b.as_bytes()));
    let zero = id_of(br#"{"jsonrpc":"2.0","id":0,"method":"m"}"#);
    let neg_zero = id_of(br#"{"jsonrpc":"2.0","id":-0,"method":"m"}"#);
    let one = id_of(br#"{"jsonrpc":"2.0","id":1,"method":"m"}"#);
    let one_str = id_of(br#"{"jsonrpc":"2.0","id":"1","method":"m"}"#);
    assert_eq!(zero, neg_zero);
    assert_ne!(one, one_str);
    assert_ne!(one, zero);
    assert_eq!(RequestId::from_u64(1), one);
    assert_eq!(RequestId::from_i64(-5).as_token(), b"-5");
    assert_eq!(RequestId::string("a/b").unwrap(), id_of(a.as_bytes()));
    assert_eq!(RequestId::string("q\"\n").unwrap().as_token(), br#""q\"\n""#);
    // Tokens longer than MAX_ID_LEN cannot be owned, and say how long they were.
    let long = format!(r#"{{"jsonrpc":"2.0","id":"{}","method":"m"}}"#, "x".repeat(MAX_ID_LEN - 1));
    assert_eq!(id_of(long.as_bytes()).to_owned(), Err(IdTooLong { len: MAX_ID_LEN + 1 }));
    let fits = format!(r#"{{"jsonrpc":"2.0","id":"{}","method":"m"}}"#, "x".repeat(MAX_ID_LEN - 2));
    assert_eq!(id_of(fits.as_bytes()).to_owned().unwrap().as_token().len(), MAX_ID_LEN);
}

// ---------------------------------------------------------------------------------------
// RawJson and JsonStr.
// ---------------------------------------------------------------------------------------

#[test]
fn raw_json_navigation() {
    let v = RawJson::parse(br#" {"a":1,"b\u0063":[true,null,-2.5e1,"s\n"],"a":{"x":"}"}} "#).unwrap();
    assert_eq!(v.kind(), JsonKind::Object);
    assert_eq!(v.as_bytes(), br#"{"a":1,"b\u0063":[true,null,-2.5e1,"s\n"],"a":{"x":"}"}}"#);
    assert_eq!(v.get("a").unwrap().as_i64(), Some(1), "get finds the first of duplicates");
    let bc = v.get("bc").unwrap();
    assert_eq!(bc.kind(), JsonKind::Array);
    let els: Vec<_> = bc.elements().map(|e| (e.kind(), e.as_bytes().to_vec())).collect();
    assert_eq!(
        els,
        [
            (JsonKind::Bool, b"true".to_vec()),
            (JsonKind::Null, b"null".to_vec()),
            (JsonKind::Number, b"-2.5e1".to_vec()),
            (JsonKind::String, br#""s\n""#.to_vec()),
        ]
    );
    assert_eq!(bc.elements().nth(2).unwrap().as_f64(), Some(-25.0));
    assert_eq!(bc.elements().nth(2).unwrap().as_i64(), None);
    assert_eq!(bc.elements().next().unwrap().as_bool(), Some(true));
    assert_eq!(bc.elements().nth(3).unwrap().as_str().unwrap(), "s\n");
    let names: Vec<String> = v.members().map(|(k, _)| k.to_string()).collect();
    assert_eq!(names, ["a", "bc", "a"]);
    assert!(v.get("missing").is_none());
    assert_eq!(v.elements().count(), 0);
    assert_eq!(bc.members().count(), 0);
    assert_eq!(v.as_str(), None);
    assert_eq!(v.as_f64(), None);
}

#[test]
fn json_str_unescaping() {
    let v = RawJson::parse(br#""a\"b\\c\/d\b\f\n\r\t\u00e9\ud83d\ude00\u0000z""#).unwrap();
    let s = v.as_str().unwrap();
    let want = "a\"b\\c/d\u{8}\u{c}\n\r\té😀\0z";
    assert!(s.is_escaped());
    assert_eq!(s.unescaped_len(), want.len());
    assert_eq!(s.as_plain(), None);
    let mut scratch = [0u8; 64];
    assert_eq!(s.unescape_into(&mut scratch).unwrap(), want);
    assert_eq!(s.chars().collect::<String>(), want);
    assert_eq!(s.to_string(), want);
    assert_eq!(want.len(), 20);
    let mut small = [0u8; 19];
    assert_eq!(s.unescape_into(&mut small), Err(UnescapeError::BufferTooSmall { needed: 20, capacity: 19 }));
    assert_eq!(s.unescape_into(&mut scratch[..20]).unwrap(), want);
    // Plain strings borrow without scratch space.
    let plain = RawJson::parse("\"tools/call é\"".as_bytes()).unwrap().as_str().unwrap();
    assert_eq!(plain.as_plain(), Some("tools/call é"));
    assert_eq!(plain.to_str(&mut []).unwrap(), "tools/call é");
    assert_eq!(plain.raw(), "tools/call é".as_bytes());
}

// ---------------------------------------------------------------------------------------
// The encoder.
// ---------------------------------------------------------------------------------------

/// Frames of every kind, written by index so that the same frame can be tried on buffers
/// of every size.
fn write_frame(w: &mut FrameWriter<'_>, which: usize) -> Result<core::ops::Range<usize>, EncodeError> {
    let big = br#"{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"m"}"#;
    let esc = br#"{"jsonrpc":"2.0","id":"a\/b\u00e9","method":"m"}"#;
    let params = RawJson::parse(b"{\"text\" :\r\n \"caf\\u00e9\\n\",\n\"n\":[1,\n2]}").unwrap();
    match which {
        0 => w.request(RequestId::from_u64(1).as_ref(), "ping", NO_PARAMS),
        1 => w.request(id_of(big), "tools/call", Some(&params)),
        2 => w.request(id_of(esc), "a\nb\"c\u{1}\u{2028}é", Some(&RawJson::EMPTY_OBJECT)),
        3 => w.notification("notifications/progress", Some(&serde_json::json!({"progress": 1, "total": 2.5}))),
        4 => w.result(RequestId::string("x").unwrap().as_ref(), &params),
        5 => w.error(ErrorId::Id(RequestId::from_i64(-3).as_ref()), ErrorCode::METHOD_NOT_FOUND, "no\r\nsuch"),
        6 => w.error(ErrorId::Null, ErrorCode::PARSE_ERROR, "Parse error"),
        7 => w.error_with_data(ErrorId::Omitted, ErrorCode(i32::MIN), "", &serde_json::json!(["\n", null])),
        8 => w.value(&RawJson::parse(b"[1,\n2]").unwrap()),
        _ => unreachable!(),
    }
}

const FRAMES: [&str; 9] = [
    r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
    // Raw JSON with line breaks is written compact (issue 8).
    r#"{"jsonrpc":"2.0","id":123456789012345678901234567890,"method":"tools/call","params":{"text":"caf\u00e9\n","n":[1,2]}}"#,
    // serde_json escapes only what JSON requires: U+2028 stays raw, as serde_json writes it.
    "{\"jsonrpc\":\"2.0\",\"id\":\"a\\/b\\u00e9\",\"method\":\"a\\nb\\\"c\\u0001\u{2028}é\",\"params\":{}}",
    r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1,"total":2.5}}"#,
    r#"{"jsonrpc":"2.0","id":"x","result":{"text":"caf\u00e9\n","n":[1,2]}}"#,
    r#"{"jsonrpc":"2.0","id":-3,"error":{"code":-32601,"message":"no\r\nsuch"}}"#,
    r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#,
    r#"{"jsonrpc":"2.0","error":{"code":-2147483648,"message":"","data":["\n",null]}}"#,
    "[1,2]",
];

#[test]
fn encoder_writes_exact_bytes() {
    for (which, want) in FRAMES.iter().enumerate() {
        let mut buf = [0u8; 512];
        let mut w = FrameWriter::new(&mut buf);
        let range = write_frame(&mut w, which).unwrap();
        let mut line = want.as_bytes().to_vec();
        line.push(b'\n');
        assert_eq!(String::from_utf8_lossy(w.as_bytes()), String::from_utf8_lossy(&line), "frame {which}");
        assert_eq!(range, 0..line.len());
        // No raw newline or CR anywhere but the terminator.
        assert_eq!(w.as_bytes().iter().filter(|&&b| b == b'\n' || b == b'\r').count(), 1);
        // Unterminated writers write the same frame without the newline.
        let mut buf = [0u8; 512];
        let mut w = FrameWriter::unterminated(&mut buf);
        write_frame(&mut w, which).unwrap();
        assert_eq!(w.as_bytes(), want.as_bytes(), "unterminated frame {which}");
        assert!(!w.as_bytes().contains(&b'\n'));
    }
    // Two frames in a row, then consume the first as after a partial socket write.
    let mut buf = [0u8; 512];
    let mut w = FrameWriter::new(&mut buf);
    let a = write_frame(&mut w, 0).unwrap();
    let b = write_frame(&mut w, 6).unwrap();
    assert_eq!(b.start, a.end);
    assert_eq!(w.len(), b.end);
    assert_eq!(w.available(), 512 - b.end);
    assert_eq!(w.capacity(), 512);
    w.consume(a.end);
    assert_eq!(w.as_bytes(), format!("{}\n", FRAMES[6]).as_bytes());
    w.consume(usize::MAX);
    assert!(w.is_empty());
    write_frame(&mut w, 0).unwrap();
    w.clear();
    assert_eq!(w.len(), 0);
}

#[test]
fn encoded_frames_parse_back() {
    let mut buf = [0u8; 512];
    for (which, want) in [
        (0, req("1", "ping", None)),
        (1, req("123456789012345678901234567890", "tools/call", Some(r#"{"text":"caf\u00e9\n","n":[1,2]}"#))),
        (2, req(r#""a\/b\u00e9""#, "a\nb\"c\u{1}\u{2028}é", Some("{}"))),
        (3, note("notifications/progress", Some(r#"{"progress":1,"total":2.5}"#))),
        (5, err_resp(Some("-3"), -32601, "no\r\nsuch", None)),
        (6, err_resp(None, -32700, "Parse error", None)),
        (7, err_resp(None, i32::MIN, "", Some(r#"["\n",null]"#))),
    ] {
        let mut w = FrameWriter::unterminated(&mut buf);
        write_frame(&mut w, which).unwrap();
        assert_eq!(got(Message::parse(w.as_bytes())), want, "frame {which}");
    }
}

#[test]
fn too_small_buffer_changes_nothing_and_reports_the_exact_need() {
    for (which, frame) in FRAMES.iter().enumerate() {
        for newline in [true, false] {
            let need = frame.len() + usize::from(newline);
            for prefix in [0usize, 7] {
                for cap in prefix..prefix + need + 2 {
                    let mut buf = vec![0xA5u8; cap];
                    let mut w = if newline { FrameWriter::new(&mut buf) } else { FrameWriter::unterminated(&mut buf) };
                    if prefix > 0 {
                        w.value(&RawJson::parse(&b"12345678"[..prefix - usize::from(newline)]).unwrap()).unwrap();
                    }
                    assert_eq!(w.len(), prefix);
                    let before = w.as_bytes().to_vec();
                    let available = w.available();
                    let r = write_frame(&mut w, which);
                    if available >= need {
                        assert_eq!(r, Ok(prefix..prefix + need), "frame {which} cap {cap}");
                    } else {
                        assert_eq!(
                            r,
                            Err(EncodeError::BufferTooSmall { needed: need, available }),
                            "frame {which} cap {cap}"
                        );
                        assert_eq!(w.as_bytes(), &before[..]);
                        assert_eq!(w.len(), prefix);
                        assert_eq!(w.available(), available);
                    }
                }
            }
        }
    }
}

#[test]
fn params_and_results_must_be_objects() {
    let mut buf = [0u8; 256];
    let mut w = FrameWriter::new(&mut buf);
    let id = RequestId::from_u64(1);
    assert_eq!(w.request(id.as_ref(), "m", Some(&[1, 2])), Err(EncodeError::NotAnObject));
    assert_eq!(w.notification("m", Some(&RawJson::NULL)), Err(EncodeError::NotAnObject));
    assert_eq!(w.notification("m", Some(&RawJson::parse(b" [ ] ").unwrap())), Err(EncodeError::NotAnObject));
    assert_eq!(w.result(id.as_ref(), &"{}"), Err(EncodeError::NotAnObject));
    assert!(w.is_empty());
    assert!(w.result(id.as_ref(), &serde_json::json!({})).is_ok());
}

#[test]
fn batch_writer() {
    let mut buf = [0u8; 256];
    let mut w = FrameWriter::new(&mut buf);
    w.notification("n", NO_PARAMS).unwrap();
    let start = w.len();
    let mut b = w.batch();
    assert!(b.is_empty());
    b.result(RequestId::from_u64(1).as_ref(), &RawJson::EMPTY_OBJECT).unwrap();
    b.error(ErrorId::Null, ErrorCode::INVALID_REQUEST, "bad\n").unwrap();
    b.error_with_data(ErrorId::Omitted, ErrorCode(5), "d", &[1]).unwrap();
    assert!(!b.is_empty());
    let range = b.finish().unwrap();
    let want = concat!(
        r#"[{"jsonrpc":"2.0","id":1,"result":{}},"#,
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"bad\n"}},"#,
        r#"{"jsonrpc":"2.0","error":{"code":5,"message":"d","data":[1]}}]"#,
        "\n"
    );
    assert_eq!(&w.as_bytes()[range.clone()], want.as_bytes());
    assert_eq!(range.start, start);
    // The batch parses back as a batch of three.
    let opts = ParseOptions { allow_batch: true, ..ParseOptions::default() };
    let Frame::Batch(b) = Frame::parse(&w.as_bytes()[range], &opts).unwrap() else { panic!() };
    assert_eq!(b.iter().filter(Result::is_ok).count(), 3);
    // Nothing to send: no frame at all.
    let len = w.len();
    assert_eq!(w.batch().finish(), None);
    assert_eq!(w.len(), len);
    // Dropped unfinished: discarded.
    {
        let mut b = w.batch();
        b.result(RequestId::from_u64(2).as_ref(), &RawJson::EMPTY_OBJECT).unwrap();
    }
    assert_eq!(w.len(), len);

    // An element that does not fit (with room for "]\n") is refused exactly, and the batch
    // so far can still be finished.
    let one = r#"[{"jsonrpc":"2.0","id":1,"result":{}}"#.len();
    for cap in 0..one + 2 + 1 {
        let mut buf = vec![0u8; cap];
        let mut w = FrameWriter::new(&mut buf);
        let mut b = w.batch();
        let r = b.result(RequestId::from_u64(1).as_ref(), &RawJson::EMPTY_OBJECT);
        if cap >= one + 2 {
            assert_eq!(r, Ok(()));
            assert_eq!(b.finish(), Some(0..one + 2));
        } else {
            assert_eq!(r, Err(EncodeError::BufferTooSmall { needed: one + 2, available: cap }), "cap {cap}");
            assert!(b.is_empty());
            assert_eq!(b.finish(), None);
            assert!(w.is_empty());
        }
    }
}

// ---------------------------------------------------------------------------------------
// The stdio line framer.
// ---------------------------------------------------------------------------------------

type Event = Result<Vec<u8>, LineError>;

fn frame_lines(cap: usize, chunks: &[&[u8]], close: bool) -> Vec<Event> {
    let mut buf = vec![0u8; cap];
    let mut f = LineFramer::new(&mut buf);
    let mut out = Vec::new();
    for chunk in chunks {
        let mut chunk = *chunk;
        while !chunk.is_empty() {
            let n = f.feed(chunk);
            chunk = &chunk[n..];
            while let Some(l) = f.next_line() {
                out.push(l.map(<[u8]>::to_vec));
            }
        }
    }
    if close {
        f.close();
        assert!(f.is_closed());
        assert_eq!(f.feed(b"{}\n"), 0, "nothing is taken after close");
        while let Some(l) = f.next_line() {
            out.push(l.map(<[u8]>::to_vec));
        }
        assert_eq!(f.next_line(), None, "end of input is reported once");
    }
    out
}

fn ok(s: &str) -> Event {
    Ok(s.as_bytes().to_vec())
}

#[test]
fn line_framer_vectors() {
    use LineError::{TooLong, Unterminated};
    #[rustfmt::skip]
    let cases: Vec<(usize, &[u8], bool, Vec<Event>)> = vec![
        (16, b"{}\n[1]\n", true, vec![ok("{}"), ok("[1]")]),
        // CR stripping: one trailing CR only; CRs elsewhere are data.
        (16, b"{}\r\n[1]\r\n", true, vec![ok("{}"), ok("[1]")]),
        (16, b"a\rb\n", true, vec![ok("a\rb")]),
        (16, b"ab\r\r\n", true, vec![ok("ab\r")]),
        (16, b"\rab\n", true, vec![ok("\rab")]),
        // Blank and whitespace-only lines are skipped.
        (16, b"\n\n\r\n \t\r\n{}\n  \n", true, vec![ok("{}")]),
        (16, b" {} \n", true, vec![ok(" {} ")]),
        // A BOM at the very start is stripped, once; elsewhere it is data.
        (16, b"\xEF\xBB\xBF{}\n", true, vec![ok("{}")]),
        (16, b"\xEF\xBB\xBF\xEF\xBB\xBF{}\n", true, vec![Ok(b"\xEF\xBB\xBF{}".to_vec())]),
        (16, b"{}\n\xEF\xBB\xBF{}\n", true, vec![ok("{}"), Ok(b"\xEF\xBB\xBF{}".to_vec())]),
        (16, b"\xEF\xBB\xBF\n{}\n", true, vec![ok("{}")]),
        (16, b"\xEF\xBBx\n", true, vec![Ok(b"\xEF\xBBx".to_vec())]),
        (16, b"\xEF\xBB\xBF", true, vec![]),
        (16, b"\xEF\xBB", true, vec![Err(Unterminated { len: 2 })]),
        // Multi-byte UTF-8 passes through untouched.
        (16, "é😀\n".as_bytes(), true, vec![ok("é😀")]),
        // Capacity 4: a 3-byte line plus newline fits, a 4-byte one does not; the CR counts
        // against the buffer but not in the reported length.
        (4, b"abc\nabcd\nxy\n", true, vec![ok("abc"), Err(TooLong { len: 4 }), ok("xy")]),
        (4, b"ab\r\nabc\r\nz\n", true, vec![ok("ab"), Err(TooLong { len: 3 }), ok("z")]),
        (4, b"0123456789\r\nok\n", true, vec![Err(TooLong { len: 10 }), ok("ok")]),
        // An oversized line is reported once, then the next lines are intact.
        (8, b"{}\n0123456789abcdefghij0123456789\n{\"a\":1}\n[]\n", true, vec![ok("{}"), Err(TooLong { len: 30 }), ok("{\"a\":1}"), ok("[]")]),
        (8, b"0123456789\n0123456789\n1\n", true, vec![Err(TooLong { len: 10 }), Err(TooLong { len: 10 }), ok("1")]),
        // A BOM-prefixed line is measured without its BOM.
        (5, b"\xEF\xBB\xBFabcd\n", true, vec![ok("abcd")]),
        // End of input inside a line.
        (8, b"{}\n{\"a\"", true, vec![ok("{}"), Err(Unterminated { len: 4 })]),
        (8, b"{}\n{\"a\"", false, vec![ok("{}")]),
        (8, b"{}\n  \t", true, vec![ok("{}")]),
        (8, b"{}\r", true, vec![Err(Unterminated { len: 3 })]),
        (4, b"abcdefg", true, vec![Err(TooLong { len: 7 })]),
        (4, b"abcdefg", false, vec![]),
        (4, b"ok\nabcdefg\r", true, vec![ok("ok"), Err(TooLong { len: 8 })]),
        (16, b"", true, vec![]),
    ];
    for (cap, stream, close, want) in cases {
        let label = format!("cap {cap} stream {:?} close {close}", String::from_utf8_lossy(stream));
        assert_eq!(frame_lines(cap, &[stream], close), want, "{label}");
        // Every split into two and three chunks, and one byte at a time, gives the same.
        for i in 0..=stream.len() {
            assert_eq!(frame_lines(cap, &[&stream[..i], &stream[i..]], close), want, "{label} split {i}");
            for j in i..=stream.len() {
                let chunks = [&stream[..i], &stream[i..j], &stream[j..]];
                assert_eq!(frame_lines(cap, &chunks, close), want, "{label} split {i} {j}");
            }
        }
        let bytes: Vec<&[u8]> = stream.chunks(1).collect();
        assert_eq!(frame_lines(cap, &bytes, close), want, "{label} bytewise");
    }
}

#[test]
fn line_framer_zero_copy_and_errors() {
    let mut buf = [0u8; 8];
    let mut f = LineFramer::new(&mut buf);
    assert_eq!(f.capacity(), 8);
    let spare = f.spare();
    assert_eq!(spare.len(), 8);
    spare[..6].copy_from_slice(b"{}\n[]\n");
    f.commit(6);
    assert_eq!(f.buffered(), 6);
    assert_eq!(f.next_line(), Some(Ok(&b"{}"[..])));
    assert_eq!(f.buffered(), 3);
    assert_eq!(f.next_line(), Some(Ok(&b"[]"[..])));
    assert_eq!(f.next_line(), None);
    assert_eq!(f.spare().len(), 8);
    // feed refuses nothing while there is room, and takes no more than fits.
    assert_eq!(f.feed(b"0123456789"), 8);
    assert_eq!(f.next_line(), None);
    // The full buffer holds no newline: the line is skipped from here on.
    assert_eq!(f.feed(b"\nok\n"), 4);
    assert_eq!(f.next_line(), Some(Err(LineError::TooLong { len: 8 })));
    assert_eq!(f.next_line(), Some(Ok(&b"ok"[..])));
    // Complete lines waiting and a full buffer: feed takes nothing until they are drained.
    assert_eq!(f.feed(b"1\n2\n3\n4\n5\n"), 8);
    assert_eq!(f.feed(b"5\n"), 0);
    assert_eq!(f.next_line(), Some(Ok(&b"1"[..])));
    assert_eq!(LineError::TooLong { len: 9 }.to_string(), "line of 9 bytes exceeds the receive buffer and was skipped");
    assert_eq!(LineError::Unterminated { len: 2 }.to_string(), "input ended inside a line (2 bytes without a newline)");
}
