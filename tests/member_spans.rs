//! The span path (`Message::parse_with_spans`, then `decode_*_with_spans`) gives exactly
//! what the plain path (`Message::parse`, then `decode_*`) gives: the same message or
//! envelope error, and the same typed value or the same error, for every message of the
//! fixtures (the SDK capture, the schema examples), for every method applied to every
//! params object and result found there, and for generated edge cases (escaped and
//! duplicate member names, more members than the table holds, nested objects, whitespace,
//! broken frames), with tables of several capacities, 0 included.
//!
//! Typed values are compared by their `Debug` form, which shows every field and the text
//! of every span: some decoded types' `PartialEq` says `false` for equal values (a
//! `Debug`-equal pair that `==` calls different is counted, and reported by
//! `partial_eq_is_not_faithful_everywhere`).

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::fmt::Debug;

use mcp_sansio::mcp::{
    Answering, all_methods, decode_notification, decode_notification_with_spans, decode_request,
    decode_request_with_spans, decode_result, decode_result_with_spans,
};
use mcp_sansio::wire::{MemberSpans, Message, RawJson};

thread_local! {
    /// Types whose `==` said `false` on `Debug`-equal values.
    static UNFAITHFUL: RefCell<BTreeSet<String>> = const { RefCell::new(BTreeSet::new()) };
}

fn same<T: Debug + PartialEq>(what: &str, frame: &[u8], spans: T, text: T) {
    let (a, b) = (format!("{spans:?}"), format!("{text:?}"));
    assert_eq!(a, b, "{what}: span path and text path differ on {}", String::from_utf8_lossy(frame));
    if spans != text {
        // The variant: `Ok(GetPrompt(GetPromptParams { ...` gives `GetPrompt`.
        let name = b.split(['(', ' ', '{']).find(|w| !w.is_empty() && *w != "Ok" && *w != "Err").unwrap_or("");
        let name = name.to_owned();
        UNFAITHFUL.with(|u| u.borrow_mut().insert(name));
    }
}

/// Both paths over one frame, with a table of `N` members.
fn check_with<const N: usize>(frame: &[u8]) {
    let mut spans = MemberSpans::<N>::new();
    let with = Message::parse_with_spans(frame, &mut spans);
    let plain = Message::parse(frame);
    assert_eq!(with, plain, "envelope differs on {}", String::from_utf8_lossy(frame));
    let Ok(message) = plain else {
        assert!(spans.object().is_none() && spans.is_empty(), "a table after an error");
        return;
    };
    let recorded = match message {
        Message::Request(r) => r.params,
        Message::Notification(n) => n.params,
        Message::Response(r) => Some(r.result),
        Message::Error(_) => None,
    };
    // The table describes the object itself (or nothing), member for member.
    let mine = spans.object().filter(|o| recorded.is_some_and(|r| std::ptr::eq(o.as_bytes(), r.as_bytes())));
    if let Some(object) = mine {
        let members: Vec<_> = object.members().map(|(n, v)| (n.raw().to_vec(), v.as_bytes().to_vec())).collect();
        let table: Vec<_> = spans.members().map(|(n, v)| (n.raw().to_vec(), v.as_bytes().to_vec())).collect();
        assert_eq!(spans.is_complete(), members.len() <= N);
        assert_eq!(&members[..table.len()], &table[..], "{}", String::from_utf8_lossy(frame));
        assert_eq!(table.len(), members.len().min(N));
    } else if spans.object().is_none() {
        assert!(!spans.is_complete());
        assert!(recorded.is_none(), "nothing recorded for {}", String::from_utf8_lossy(frame));
    }
    for (method, _) in all_methods() {
        match message {
            Message::Request(r) => same(
                "request",
                frame,
                decode_request_with_spans(method, r.params, &spans),
                decode_request(method, r.params),
            ),
            Message::Notification(n) => same(
                "notification",
                frame,
                decode_notification_with_spans(method, n.params, &spans),
                decode_notification(method, n.params),
            ),
            Message::Response(r) => {
                for answering in [Answering::from(method), Answering::task(method)] {
                    same(
                        "result",
                        frame,
                        decode_result_with_spans(answering, r.result, &spans),
                        decode_result(answering, r.result),
                    );
                }
            }
            Message::Error(_) => {}
        }
    }
    // The message's own method, whatever it is (an unknown one included).
    match message {
        Message::Request(r) => {
            let m = mcp_sansio::mcp::Method::parse(r.method);
            same("own", frame, decode_request_with_spans(m, r.params, &spans), decode_request(m, r.params));
        }
        Message::Notification(n) => {
            let m = mcp_sansio::mcp::Method::parse(n.method);
            same("own", frame, decode_notification_with_spans(m, n.params, &spans), decode_notification(m, n.params));
        }
        _ => {}
    }
}

fn check(frame: &[u8]) {
    check_with::<16>(frame);
    check_with::<2>(frame);
    check_with::<0>(frame);
}

/// The messages of the fixtures, as sent.
fn fixtures() -> Vec<Vec<u8>> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut out = Vec::new();
    let capture = std::fs::read(root.join("sdk-capture.jsonl")).unwrap();
    for line in capture.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        let message = RawJson::parse(line).unwrap().get("message").expect("a captured message");
        out.push(message.as_bytes().to_vec());
    }
    for dir in std::fs::read_dir(root.join("spec-examples")).unwrap() {
        let dir = dir.unwrap().path();
        if dir.is_dir() {
            for file in std::fs::read_dir(&dir).unwrap() {
                out.push(std::fs::read(file.unwrap().path()).unwrap());
            }
        }
    }
    assert!(out.len() > 250, "only {} fixtures", out.len());
    out
}

/// Every params or result object (and every object nested one level in one) of the
/// fixtures: bodies to put under every method.
fn objects(frames: &[Vec<u8>]) -> BTreeSet<Vec<u8>> {
    let mut out = BTreeSet::new();
    for frame in frames {
        let Ok(raw) = RawJson::parse(frame) else { continue };
        for (_, value) in raw.members() {
            if value.is_object() {
                out.insert(value.as_bytes().to_vec());
                for (_, inner) in value.members() {
                    if inner.is_object() {
                        out.insert(inner.as_bytes().to_vec());
                    }
                }
            }
        }
    }
    out
}

/// Objects that exercise the table's edge cases.
fn edge_objects() -> Vec<String> {
    let mut out: Vec<String> = [
        r#"{}"#,
        r#"{ }"#,
        r#"{"name":"add","arguments":{"a":2,"b":{"c":[1,2,{"d":"e"}]}}}"#,
        r#"{"n\u0061me":"add","arguments":{}}"#,
        r#"{"name":"add","name":"sub"}"#,
        r#"{"name":"add","arguments":{},"arguments":{}}"#,
        r#"{"progressToken":"t","progress":1,"progress":2}"#,
        r#"{"progressToken":"t","progress\u0020":1,"progress":2}"#,
        r#"{"progressToken":7,"progress":0.5,"total":10,"message":"caf\u00e9 \"x\""}"#,
        r#"{ "progressToken" : "a\\b" , "progress" : 1e3 , "message" : null }"#,
        r#"{"uri":"file:///a","_meta":{"progressToken":1,"x":[{}]}}"#,
        r#"{"uri":"file:\/\/\/a"}"#,
        r#"{"requestId":3,"reason":"gone"}"#,
        r#"{"level":"info","logger":"l","data":{"k":[1,"2",null,true]}}"#,
        r#"{"level":"in\u0066o","data":1}"#,
        r#"{"content":[{"type":"text","text":"hi"}],"isError":false,"structuredContent":{"a":1}}"#,
        r#"{"content":[],"resultType":"input_required","inputRequests":{},"requestState":"s"}"#,
        r#"{"content":[],"resultType":"other"}"#,
        r#"{"content":[],"resultType":7}"#,
        r#"{"resultType":null}"#,
        r#"{"tools":[{"name":"t","inputSchema":{"type":"object"}}],"nextCursor":"c"}"#,
        r#"{"tools":[],"tools":[]}"#,
        r#"{"contents":[{"uri":"u","text":"t"}]}"#,
        r#"{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}"#,
        r#"{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"},"instructions":"i"}"#,
        r#"{"name":"p","arguments":{"a":"b","c":"d"}}"#,
        r#"{"mode":"url","message":"m","url":"https://x","elicitationId":"e"}"#,
        r#"{"message":"m","requestedSchema":{"type":"object","properties":{}}}"#,
        r#"{"task":{"taskId":"t","status":"working","createdAt":"a","lastUpdatedAt":"b","ttl":null}}"#,
        r#"{"taskId":"t"}"#,
        r#"{"cursor":"c","_meta":null}"#,
        r#"{"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"a","value":"v"}}"#,
        r#"{"completion":{"values":["a","b"],"total":2,"hasMore":false}}"#,
        r#"{"messages":[{"role":"user","content":{"type":"text","text":"x"}}],"maxTokens":10}"#,
        r#"{"role":"assistant","content":{"type":"text","text":"x"},"model":"m","stopReason":"endTurn"}"#,
        r#"{"roots":[{"uri":"file:///r","name":"r"}]}"#,
        r#"{"action":"accept","content":{"a":1}}"#,
        r#"{"a":1,"b":"2","c":[3],"d":{"e":4},"f":true,"g":null,"h":-5.5e-1}"#,
        "{\n\t\"name\" :\r\n \"add\" ,\n \"arguments\" : { }\n}",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    // More members than the tables hold, with the interesting ones before and after N.
    for n in [1, 2, 3, 15, 16, 17, 40] {
        let filler: Vec<String> = (0..n).map(|i| format!("\"x{i}\":{{\"y\":[{i}]}}")).collect();
        out.push(format!(r#"{{{},"name":"add","progressToken":1,"progress":2,"uri":"u"}}"#, filler.join(",")));
        out.push(format!(r#"{{"name":"add","progressToken":1,"progress":2,"uri":"u",{}}}"#, filler.join(",")));
        out.push(format!(r#"{{"content":[],"tools":[],{},"resultType":"complete"}}"#, filler.join(",")));
    }
    out
}

fn request(method: &str, params: &[u8]) -> Vec<u8> {
    let mut f = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"{method}","params":"#).into_bytes();
    f.extend_from_slice(params);
    f.push(b'}');
    f
}

fn notification(method: &str, params: &[u8]) -> Vec<u8> {
    let mut f = format!(r#"{{"jsonrpc":"2.0","method":"{method}","params":"#).into_bytes();
    f.extend_from_slice(params);
    f.push(b'}');
    f
}

fn response(result: &[u8]) -> Vec<u8> {
    let mut f = br#"{"jsonrpc":"2.0","id":"r","result":"#.to_vec();
    f.extend_from_slice(result);
    f.push(b'}');
    f
}

#[test]
fn every_fixture_decodes_alike_both_ways() {
    for frame in fixtures() {
        check(&frame);
    }
}

/// Every params object and result of the fixtures, and every edge object, under every
/// method, as a request, a notification and a response.
#[test]
fn every_method_over_every_object_decodes_alike_both_ways() {
    let frames = fixtures();
    let mut bodies: Vec<Vec<u8>> = objects(&frames).into_iter().collect();
    bodies.extend(edge_objects().into_iter().map(String::into_bytes));
    let mut checked = 0;
    for body in &bodies {
        check(&response(body));
        for (_, spec) in all_methods() {
            check(&request(spec.name, body));
            check(&notification(spec.name, body));
            checked += 2;
        }
        check(&request("x/unknown", body));
        check(&notification("x/unknown", body));
    }
    assert!(checked > 10_000, "{checked}");
}

/// Frames the table must not describe, or that the envelope pass refuses: the answer is
/// `Message::parse`'s, and the table is empty or describes the right object.
#[test]
fn unusual_frames_decode_alike_both_ways() {
    let frames = [
        // `result` and `params` in one response: the table describes `result` or nothing.
        &br#"{"jsonrpc":"2.0","id":1,"result":{"content":[]},"params":{"name":"x"}}"#[..],
        br#"{"jsonrpc":"2.0","id":1,"params":{"name":"x"},"result":{"content":[]}}"#,
        br#"{"jsonrpc":"2.0","method":"tools/call","id":1,"params":{"name":"x"},"params":{"name":"y"}}"#,
        br#"{"jsonrpc":"2.0","method":"tools/call","id":1,"params":[1,2]}"#,
        br#"{"jsonrpc":"2.0","method":"tools/call","id":1,"params":"s"}"#,
        br#"{"jsonrpc":"2.0","method":"tools/call","id":1}"#,
        br#"{"jsonrpc":"2.0","method":"tools/call","id":1,"params":{"name":"x",}}"#,
        br#"{"jsonrpc":"2.0","method":"tools/call","id":1,"params":{"name" "x"}}"#,
        br#"{"jsonrpc":"2.0","method":"tools/call","id":1,"params":{name:"x"}}"#,
        br#"{"jsonrpc":"2.0","method":"tools/call","id":1,"params":{"name":"x" "y":1}}"#,
        br#"{"jsonrpc":"2.0","method":"tools/call","id":1,"params":{"name":"\x01"}}"#,
        br#"{"jsonrpc":"2.0","method":"tools/call","id":1,"params":{"name":"x","arguments":{"a":[}}}"#,
        br#"{"jsonrpc":"2.0","method":"tools/call","id":1,"params":{"name":"x"}} x"#,
        br#"{"jsonrpc":"2.0","error":{"code":1,"message":"m","data":{"a":1}},"id":null}"#,
        br#"[{"jsonrpc":"2.0","method":"ping","id":1,"params":{}}]"#,
        br#"  {"jsonrpc":"2.0","method":"ping","id":1,"params":{ } }  "#,
        b"",
        b"{",
        b"{}",
    ];
    for frame in frames {
        check(frame);
    }
    // Nesting at and past the depth cap, inside params.
    for depth in [60, 61, 62, 63, 64, 65] {
        let inner = format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
        check(&request("tools/call", format!(r#"{{"name":"x","arguments":{inner}}}"#).as_bytes()));
        check(&request("tools/call", format!(r#"{{"arguments":{inner},"name":"x"}}"#).as_bytes()));
    }
    // Every prefix, and every single-byte change, of a few frames.
    for frame in [
        &br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a\"b","arguments":{"x":[1,{}]},"_meta":{"progressToken":2}}}"#[..],
        br#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":1.5,"total":3,"message":"m"}}"#,
        br#"{"jsonrpc":"2.0","id":"r","result":{"content":[{"type":"text","text":"caf\u00e9"}],"isError":false}}"#,
    ] {
        for cut in 0..frame.len() {
            check(&frame[..cut]);
        }
        for at in 0..frame.len() {
            for byte in [b'"', b',', b'}', b'{', b':', b' ', b'\\', b'1', b'x', 0x80] {
                let mut f = frame.to_vec();
                f[at] = byte;
                check(&f);
            }
        }
    }
}

/// A table that was recorded for another frame's params is not used.
#[test]
fn a_table_for_other_params_is_not_used() {
    let a = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}}"#;
    let b = br#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"b"}}"#;
    let mut spans = MemberSpans::<8>::new();
    Message::parse_with_spans(a, &mut spans).unwrap();
    let Ok(Message::Request(rb)) = Message::parse(b) else { panic!() };
    let method = mcp_sansio::mcp::Method::ToolsCall;
    same("other", b, decode_request_with_spans(method, rb.params, &spans), decode_request(method, rb.params));
    // The same bytes at another address are other params too.
    let copy = a.to_vec();
    let Ok(Message::Request(rc)) = Message::parse(&copy) else { panic!() };
    same("copy", &copy, decode_request_with_spans(method, rc.params, &spans), decode_request(method, rc.params));
}

/// What `==` gets wrong on equal values, found while comparing the two paths (reported,
/// not hidden: the comparisons above go by `Debug`).
#[test]
fn partial_eq_is_not_faithful_everywhere() {
    for frame in fixtures() {
        check(&frame);
    }
    let found = UNFAITHFUL.with(|u| u.borrow().clone());
    println!("variants whose == is false on Debug-equal values: {found:?}");
    // `GetPromptParams` whose `arguments` hold a value that is not a string: `Map`'s `==`
    // compares values decoded, and an entry that does not decode is unequal even to
    // itself. When that is fixed, this list shrinks, and this test says so.
    assert_eq!(found.into_iter().collect::<Vec<_>>(), ["GetPrompt"]);
}
