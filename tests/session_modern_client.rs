//! The dual-era client (2026-07-28): the `server/discover` probe and every way it falls
//! back, requests with their `_meta`, results read by `resultType`, listen streams told
//! apart by subscription id. On the virtual clock, exact bytes.

mod common;

use std::time::Duration;

use common::*;
use mcp_sansio::Instant;
use mcp_sansio::mcp::{LoggingLevel, ProtocolVersion, Role};
use mcp_sansio::session::{Config, Era, RequestOptions, SendError, State};
use mcp_sansio::wire::{NO_PARAMS, RawJson, RequestId};

/// A client of both eras (the default).
fn auto_client() -> Config<'static> {
    Config::new(Role::Client, raw(CLIENT_INFO)).capabilities(raw(CLIENT_CAPS))
}

const PROBE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{"listChanged":true},"sampling":{}},"io.modelcontextprotocol/clientInfo":{"name":"test-client","version":"1.0.0"}}}}"#;

/// The `_meta` the client puts on its requests.
const ENVELOPE: &str = r#""io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{"listChanged":true},"sampling":{}},"io.modelcontextprotocol/clientInfo":{"name":"test-client","version":"1.0.0"}"#;

/// A lone auto client that has sent its probe.
fn probing() -> Side {
    let mut c = Side::lone(auto_client());
    assert_eq!(c.new_lines(), vec![PROBE]);
    assert_eq!(c.ep.state(), State::Discovering);
    c
}

/// The client's `initialize`, as its fallback sends it (id 2: the probe used 1).
fn fallback_initialize() -> String {
    r#"{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{"listChanged":true},"sampling":{}},"clientInfo":{"name":"test-client","version":"1.0.0"}}}"#.to_string()
}

fn reply(line: &str) -> Vec<u8> {
    format!("{line}\n").into_bytes()
}

#[test]
fn a_dual_era_pair_settles_on_the_stateless_era() {
    let mut p = Pair::with(auto_client(), server_config());
    p.drive();
    assert_eq!(p.client.ep.state(), State::Stateless);
    assert_eq!(p.client.ep.protocol_version(), Some(ProtocolVersion::V2026_07_28));
    let events = p.client.take();
    assert!(
        matches!(&events[..], [Ev::Negotiated { version: ProtocolVersion::V2026_07_28, peer }, Ev::Ready { version: ProtocolVersion::V2026_07_28 }] if peer.contains("supportedVersions")),
        "{events:?}"
    );
    assert_eq!(p.client.new_lines(), vec![PROBE]);
    assert!(p.server.take().is_empty());
    // The server's capabilities came with the discover result and gate what is sent.
    assert_eq!(
        p.client.ep.send_request(p.now, "ping", NO_PARAMS, RequestOptions::default()),
        Err(SendError::MethodNotAllowed),
        "no ping in this era"
    );
    let call = raw(br#"{"name":"echo","arguments":{"text":"hi"},"_meta":{"com.example/trace":"t1"}}"#);
    let id = p.client.ep.send_request(p.now, "tools/call", Some(&call), RequestOptions::default()).unwrap();
    p.drive();
    assert_eq!(
        p.client.new_lines(),
        vec![format!(
            r#"{{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{{"name":"echo","arguments":{{"text":"hi"}},"_meta":{{{ENVELOPE},"com.example/trace":"t1"}}}}}}"#
        )]
    );
    assert!(matches!(&p.server.take()[..], [Ev::Request { method, .. }] if method == "tools/call"));
    p.server.respond(&id, &raw(br#"{"content":[{"type":"text","text":"hi"}]}"#)).unwrap();
    p.drive();
    let events = p.client.take();
    assert!(
        matches!(&events[..], [Ev::Response { id, result, .. }] if id == "2" && result.contains("serverInfo")),
        "{events:?}"
    );
}

#[test]
fn progress_log_level_and_the_applications_own_keys() {
    let mut p = Pair::with(auto_client(), server_config());
    p.drive();
    p.client.take();
    p.client.new_lines();
    let options = RequestOptions::with_progress().with_log_level(LoggingLevel::Info);
    p.client.ep.send_request(p.now, "tools/list", NO_PARAMS, options).unwrap();
    // Capabilities the request declares itself win: the endpoint does not write its own.
    let own = raw(br#"{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}}"#);
    p.client.ep.send_request(p.now, "tools/list", Some(&own), RequestOptions::default()).unwrap();
    let clash = raw(br#"{"_meta":{"progressToken":5}}"#);
    assert!(matches!(
        p.client.ep.send_request(p.now, "tools/list", Some(&clash), RequestOptions::with_progress()),
        Err(SendError::Encode(_))
    ));
    p.drive();
    assert_eq!(
        p.client.new_lines(),
        vec![
            format!(r#"{{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{{"_meta":{{{ENVELOPE},"progressToken":2,"io.modelcontextprotocol/logLevel":"info"}}}}}}"#),
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"test-client","version":"1.0.0"},"io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}}}"#.to_string(),
        ]
    );
    let events = p.server.take();
    assert_eq!(events.len(), 2, "{events:?}");
}

#[test]
fn a_handshake_only_server_makes_the_probe_fall_back_to_initialize() {
    let mut p = Pair::with(auto_client(), server_config().era(Era::Legacy));
    p.drive();
    assert_eq!(p.client.ep.state(), State::Ready);
    assert_eq!(p.client.ep.protocol_version(), Some(ProtocolVersion::V2025_11_25));
    let lines = p.client.new_lines();
    assert_eq!(lines[..2], [PROBE.to_string(), fallback_initialize()]);
    let events = p.client.take();
    assert!(
        matches!(&events[..], [Ev::Negotiated { version: ProtocolVersion::V2025_11_25, .. }, Ev::Ready { .. }]),
        "{events:?}"
    );
}

#[test]
fn every_other_error_falls_back_whatever_its_code() {
    for code in [-32601, -32602, -32600, -32603, -32000, -32001, -32002, -32042, -1, 0, 42, 32022] {
        let mut c = probing();
        c.feed(
            Instant::ZERO,
            &reply(&format!(r#"{{"jsonrpc":"2.0","id":1,"error":{{"code":{code},"message":"no"}}}}"#)),
        );
        assert_eq!(c.new_lines(), vec![fallback_initialize()], "code {code}");
        assert_eq!(c.ep.state(), State::AwaitingInitializeResult, "code {code}");
        assert!(c.take().is_empty(), "code {code}");
    }
}

/// The HTTP link cancels a request its transport lost (a refusal naming no request, as
/// a handshake-era server gives a sessionless POST): for the probe that is an answer
/// too, and the client falls back at once rather than at the probe's deadline.
#[test]
fn a_probe_the_transport_lost_falls_back_at_once() {
    let mut c = probing();
    assert_eq!(
        c.ep.cancel(Instant::ZERO, &RequestId::from_u64(1), Some("the HTTP exchange carrying it failed")),
        Ok(())
    );
    c.drain();
    assert_eq!(c.new_lines(), vec![fallback_initialize()], "no notifications/cancelled for the probe either");
    assert_eq!(c.ep.state(), State::AwaitingInitializeResult);
}

#[test]
fn silence_and_garbage_fall_back_once_the_probe_times_out() {
    for noise in [&b""[..], b"garbage that is not JSON\n", b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"booting\"}}\n", b"Starting server...\n[1,2,3]\n"] {
        let mut c = probing();
        c.feed(Instant::ZERO, noise);
        assert!(c.new_lines().is_empty(), "nothing answered to {noise:?}");
        assert_eq!(c.ep.poll_timeout(), Some(Instant::ZERO + mcp_sansio::session::DEFAULT_DISCOVER_TIMEOUT));
        c.ep.handle_timeout(Instant::from_millis(4_999));
        c.drain();
        assert!(c.new_lines().is_empty());
        c.ep.handle_timeout(Instant::from_secs(5));
        c.drain();
        assert_eq!(c.new_lines(), vec![fallback_initialize()]);
        // A late answer to the probe is dropped.
        c.feed(Instant::from_secs(5), &reply(r#"{"jsonrpc":"2.0","id":1,"result":{"supportedVersions":["2026-07-28"],"capabilities":{}}}"#));
        assert_eq!(c.ep.state(), State::AwaitingInitializeResult);
    }
}

#[test]
fn a_result_that_is_no_usable_discover_result_falls_back() {
    for result in [
        r#"{}"#,
        r#"{"supportedVersions":["2025-11-25"],"capabilities":{}}"#,
        r#"{"supportedVersions":"2026-07-28","capabilities":{}}"#,
        r#"{"supportedVersions":["2026-07-28"]}"#,
        r#"{"supportedVersions":["2026-07-28"],"capabilities":[]}"#,
    ] {
        let mut c = probing();
        c.feed(Instant::ZERO, &reply(&format!(r#"{{"jsonrpc":"2.0","id":1,"result":{result}}}"#)));
        assert_eq!(c.new_lines(), vec![fallback_initialize()], "{result}");
    }
}

#[test]
fn a_version_error_naming_no_mutual_version_falls_back_and_other_modern_errors_stay_modern() {
    // Offered something the client should not have: a new probe at the mutual version.
    let mut c = Side::lone(auto_client().discover_timeout(Duration::from_secs(1)));
    c.new_lines();
    c.feed(
        Instant::ZERO,
        &reply(r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2027-01-01"],"requested":"2026-07-28"}}}"#),
    );
    assert_eq!(c.new_lines(), vec![fallback_initialize()]);
    // A client of the stateless era only has nothing to fall back to.
    let mut modern = Side::lone(auto_client().era(Era::Modern));
    assert_eq!(modern.new_lines(), vec![PROBE]);
    modern.feed(
        Instant::ZERO,
        &reply(r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}"#),
    );
    assert!(matches!(modern.take().last(), Some(Ev::Closed { reason }) if reason == "HandshakeOnlyServer"));
    // Another modern error: modern, at the version offered.
    let mut c = probing();
    c.feed(Instant::ZERO, &reply(r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32020,"message":"Header mismatch"}}"#));
    assert_eq!(c.ep.state(), State::Stateless);
}

#[test]
fn a_version_error_naming_the_version_offered_is_probed_once_more() {
    // A server may refuse the version it lists (a rejection it simulates, or one it
    // changed its mind on): -32022 names a mutual version, so probe once more with it
    // (a new id); a second refusal falls back.
    let refused = r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28"],"requested":"2026-07-28"}}}"#;
    let mut c = probing();
    c.feed(Instant::ZERO, &reply(refused));
    assert_eq!(c.new_lines(), vec![PROBE.replace(r#""id":1"#, r#""id":2"#)]);
    assert_eq!(c.ep.state(), State::Discovering);
    c.feed(Instant::ZERO, &reply(&refused.replace(r#""id":1"#, r#""id":2"#)));
    assert_eq!(c.new_lines(), vec![fallback_initialize().replace(r#""id":2"#, r#""id":3"#)]);
}

#[test]
fn results_are_read_by_their_result_type() {
    let mut c = probing();
    c.feed(Instant::ZERO, &reply(r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{},"resources":{}},"ttlMs":0,"cacheScope":"public"}}"#));
    c.take();
    let cases: [(&str, &'static [u8], &str); 6] = [
        ("tools/list", b"{}", r#"{"resultType":"input_required","requestState":"s"}"#),
        (
            "tools/call",
            br#"{"name":"a"}"#,
            r#"{"resultType":"input_required","inputRequests":{"e":{"method":"elicitation/create","params":{"message":"?","requestedSchema":{"type":"object"}}}}}"#,
        ),
        ("tools/call", br#"{"name":"b"}"#, r#"{"resultType":"later","content":[]}"#),
        (
            "tools/call",
            br#"{"name":"c"}"#,
            r#"{"resultType":"task","taskId":"t","status":"working","createdAt":"a","lastUpdatedAt":"a","ttlMs":null}"#,
        ),
        (
            "tools/call",
            br#"{"name":"d"}"#,
            r#"{"resultType":"input_required","inputRequests":{"r":{"method":"roots/list"}},"requestState":"s2"}"#,
        ),
        ("resources/read", br#"{"uri":"x"}"#, r#"{"contents":[]}"#),
    ];
    for (method, params, result) in cases {
        let id = c.ep.send_request(Instant::ZERO, method, Some(&raw(params)), RequestOptions::default()).unwrap();
        c.drain();
        c.feed(Instant::ZERO, &reply(&format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{result}}}"#)));
    }
    let events = c.take();
    assert_eq!(
        events,
        vec![
            Ev::ResultRejected { id: "2".into(), problem: "InputRequiredNotAllowed".into() },
            Ev::ResultRejected { id: "3".into(), problem: "UndeclaredCapability(ElicitationForm)".into() },
            Ev::ResultRejected { id: "4".into(), problem: "UnknownResultType".into() },
            Ev::ResultRejected { id: "5".into(), problem: "TaskNotAllowed".into() },
            Ev::InputRequired {
                id: "6".into(),
                result: r#"{"resultType":"input_required","inputRequests":{"r":{"method":"roots/list"}},"requestState":"s2"}"#.into()
            },
            Ev::Response { id: "7".into(), method: Some("resources/read".into()), result: r#"{"contents":[]}"#.into() },
        ]
    );
}

#[test]
fn a_version_error_on_a_request_is_delivered_as_it_is() {
    let mut p = Pair::with(auto_client(), server_config());
    p.drive();
    p.client.take();
    p.client.ep.send_request(p.now, "tools/list", NO_PARAMS, RequestOptions::default()).unwrap();
    p.client.drain();
    p.client.pipe.clear();
    p.play_server(br#"{"jsonrpc":"2.0","id":2,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28"],"requested":"2026-07-28"}}}
"#);
    assert!(matches!(&p.client.take()[..], [Ev::Error { code: -32022, .. }]));
    assert_eq!(p.client.ep.protocol_version(), Some(ProtocolVersion::V2026_07_28));
}

#[test]
fn listen_streams_are_told_apart_by_their_subscription_id() {
    let mut c = probing();
    c.feed(Instant::ZERO, &reply(r#"{"jsonrpc":"2.0","id":1,"result":{"supportedVersions":["2026-07-28"],"capabilities":{"tools":{"listChanged":true}}}}"#));
    c.take();
    let filter = raw(br#"{"notifications":{"toolsListChanged":true}}"#);
    let a = c.ep.send_request(Instant::ZERO, "subscriptions/listen", Some(&filter), RequestOptions::default()).unwrap();
    let b = c.ep.send_request(Instant::ZERO, "subscriptions/listen", Some(&filter), RequestOptions::default()).unwrap();
    assert_eq!((a.to_string(), b.to_string()), ("2".into(), "3".into()));
    c.drain();
    // No timeout on a listen stream: the default 60 s idle timeout does not apply.
    assert_eq!(c.ep.poll_timeout(), None);
    let n = |body: &str| reply(&format!(r#"{{"jsonrpc":"2.0",{body}}}"#));
    c.feed(Instant::ZERO, &n(r#""method":"notifications/tools/list_changed","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":2}}"#));
    c.feed(Instant::ZERO, &n(r#""method":"notifications/subscriptions/acknowledged","params":{"notifications":{"toolsListChanged":true},"_meta":{"io.modelcontextprotocol/subscriptionId":2}}"#));
    c.feed(Instant::ZERO, &n(r#""method":"notifications/tools/list_changed","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":2}}"#));
    c.feed(Instant::ZERO, &n(r#""method":"notifications/tools/list_changed","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":99}}"#));
    c.feed(Instant::ZERO, &n(r#""method":"notifications/tools/list_changed""#));
    c.feed(Instant::ZERO, &n(r#""method":"notifications/subscriptions/acknowledged","params":{"notifications":{},"_meta":{"io.modelcontextprotocol/subscriptionId":3}}"#));
    c.feed(
        Instant::ZERO,
        &n(r#""id":2,"result":{"resultType":"complete","_meta":{"io.modelcontextprotocol/subscriptionId":2}}"#),
    );
    c.feed(Instant::ZERO, &n(r#""method":"notifications/cancelled","params":{"requestId":3}"#));
    c.feed(Instant::ZERO, &n(r#""method":"notifications/tools/list_changed","params":{"_meta":{"io.modelcontextprotocol/subscriptionId":3}}"#));
    assert_eq!(
        c.take(),
        vec![
            Ev::Misbehavior("UnknownSubscription { method: ToolsListChanged }".into()),
            Ev::Subscribed { id: "2".into(), granted: r#"{"toolsListChanged":true}"#.into() },
            Ev::Notification {
                method: "notifications/tools/list_changed".into(),
                params: Some(r#"{"_meta":{"io.modelcontextprotocol/subscriptionId":2}}"#.into())
            },
            Ev::Misbehavior("UnknownSubscription { method: ToolsListChanged }".into()),
            Ev::Misbehavior("UnknownSubscription { method: ToolsListChanged }".into()),
            Ev::Subscribed { id: "3".into(), granted: "{}".into() },
            Ev::SubscriptionEnded { id: "2".into(), cancelled: false },
            Ev::SubscriptionEnded { id: "3".into(), cancelled: true },
            Ev::Misbehavior("UnknownSubscription { method: ToolsListChanged }".into()),
        ]
    );
    assert_eq!(c.ep.requests_in_flight(), 0);
    // The client ends a stream with notifications/cancelled (stdio).
    let s = c.ep.send_request(Instant::ZERO, "subscriptions/listen", Some(&filter), RequestOptions::default()).unwrap();
    c.ep.cancel(Instant::ZERO, &s, None).unwrap();
    c.drain();
    assert_eq!(
        c.new_lines().last().unwrap(),
        r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":4}}"#
    );
    let _: Option<RawJson<'static>> = None;
    let _ = RequestId::from_u64(0);
}
