//! The stateless era (2026-07-28) on the server side: per-request `_meta`, discovery,
//! result completion, the era's methods, the era per opening, logging, stream closes.
//! Exact bytes.

mod common;

use common::*;
use mcp_sansio::Instant;
use mcp_sansio::mcp::{Capability, LoggingLevel, Role};
use mcp_sansio::session::{
    Config, Era, Event, Origin, Output, OutputMode, PendingRequest, RefuseReason, SendError, State,
};
use mcp_sansio::wire::{ErrorCode, RawJson, RequestId};

/// The `_meta` a modern client puts on every request, with `caps` as its capabilities.
fn meta(caps: &str) -> String {
    format!(
        r#""_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{caps},"io.modelcontextprotocol/clientInfo":{{"name":"c","version":"1"}}}}"#
    )
}

/// A modern request line: `params` members (without braces), then the `_meta`.
fn rq(id: u32, method: &str, params: &str, caps: &str) -> String {
    let sep = if params.is_empty() { "" } else { "," };
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{{{params}{sep}{}}}}}"#, meta(caps)) + "\n"
}

fn req(id: u32, method: &str, params: &str) -> String {
    rq(id, method, params, "{}")
}

/// The `serverInfo` every stateless result carries.
const SI: &str = r#""_meta":{"io.modelcontextprotocol/serverInfo":{"name":"test-server","version":"2.0.0"}}"#;

fn id(n: u64) -> RequestId {
    RequestId::from_u64(n)
}

#[test]
fn discover_is_answered_from_the_configuration() {
    let mut server = Side::lone(server_config().instructions("Use the tools."));
    server.feed(Instant::ZERO, req(1, "server/discover", "").as_bytes());
    assert_eq!(
        server.new_lines(),
        vec![format!(
            concat!(
                r#"{{"jsonrpc":"2.0","id":1,"result":{{"resultType":"complete","supportedVersions":["2026-07-28"],"#,
                r#""capabilities":{{"tools":{{"listChanged":true}},"resources":{{"subscribe":true}},"prompts":{{}},"logging":{{}},"completions":{{}}}},"#,
                r#""instructions":"Use the tools.","ttlMs":0,"cacheScope":"private",{}}}}}"#
            ),
            SI
        )]
    );
    assert!(server.take().is_empty(), "answered by the endpoint");
    assert_eq!(server.ep.state(), State::Stateless);
}

#[test]
fn discover_leaves_out_the_handshake_eras_tasks_capability_and_uses_the_cache_hints() {
    let caps = raw(br#"{"tools":{},"tasks":{"list":{}},"extensions":{"io.modelcontextprotocol/tasks":{}}}"#);
    let config = server_config().capabilities(caps).cache_hints(60_000, mcp_sansio::mcp::CacheScope::Public);
    let mut server = Side::lone(config);
    server.feed(Instant::ZERO, req(1, "server/discover", "").as_bytes());
    let line = &server.new_lines()[0];
    assert!(
        line.contains(r#""capabilities":{"tools":{},"extensions":{"io.modelcontextprotocol/tasks":{}}},"ttlMs":60000,"cacheScope":"public""#),
        "{line}"
    );
}

#[test]
fn a_tools_call_is_delivered_with_its_meta_read_and_its_result_completed() {
    let mut server = Side::lone(server_config());
    let line = rq(7, "tools/call", r#""name":"echo","arguments":{}"#, r#"{"sampling":{},"elicitation":{}}"#);
    let mut ep_events = Vec::new();
    let mut rest = line.as_bytes();
    while !rest.is_empty() {
        let n = server.ep.handle_input(Instant::ZERO, rest);
        rest = &rest[n..];
        loop {
            match server.ep.poll_output() {
                Output::Event(Event::Request(r)) => {
                    let m = r.modern().expect("a stateless request");
                    assert!(m.client_capabilities.contains(Capability::Sampling));
                    assert!(m.client_capabilities.contains(Capability::ElicitationForm));
                    assert_eq!((m.log_level, m.tasks_extension), (None, false));
                    server.pending.insert("7".into(), r.pending());
                    ep_events.push("request");
                }
                Output::Event(e) => panic!("{e:?}"),
                Output::Transmit(t) => server.sent.extend_from_slice(&t),
                Output::Idle { .. } => break,
            }
        }
    }
    assert_eq!(ep_events, ["request"]);
    server.respond(&id(7), &raw(br#"{"content":[{"type":"text","text":"hi"}]}"#)).unwrap();
    server.drain();
    assert_eq!(
        server.new_lines(),
        vec![format!(
            r#"{{"jsonrpc":"2.0","id":7,"result":{{"resultType":"complete",{SI},"content":[{{"type":"text","text":"hi"}}]}}}}"#
        )]
    );
}

#[test]
fn the_applications_meta_and_result_type_are_kept_and_completed() {
    let mut server = Side::lone(server_config());
    server.feed(Instant::ZERO, req(1, "tools/call", r#""name":"x""#).as_bytes());
    server.feed(Instant::ZERO, req(2, "tools/call", r#""name":"y""#).as_bytes());
    server.take();
    // Its own `_meta` gets serverInfo added at its start; no second `_meta` member.
    server.respond(&id(1), &raw(br#"{"content":[],"_meta":{"com.example/x":1}}"#)).unwrap();
    // Its own resultType and serverInfo are kept as they are.
    server
        .respond(
            &id(2),
            &raw(br#"{"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"me","version":"0"}},"content":[]}"#),
        )
        .unwrap();
    server.drain();
    assert_eq!(
        server.new_lines(),
        vec![
            r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[],"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"test-server","version":"2.0.0"},"com.example/x":1}}}"#.to_string(),
            r#"{"jsonrpc":"2.0","id":2,"result":{"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"me","version":"0"}},"content":[]}}"#.to_string(),
        ]
    );
}

#[test]
fn cacheable_results_carry_caching_hints_unless_the_application_gave_them() {
    let mut server = Side::lone(server_config());
    server.feed(Instant::ZERO, req(1, "tools/list", "").as_bytes());
    server.feed(Instant::ZERO, req(2, "resources/read", r#""uri":"test://a""#).as_bytes());
    server.feed(Instant::ZERO, req(3, "prompts/list", "").as_bytes());
    server.take();
    server.respond(&id(1), &raw(br#"{"tools":[]}"#)).unwrap();
    server.respond(&id(2), &raw(br#"{"contents":[],"ttlMs":5000}"#)).unwrap();
    server.respond(&id(3), &raw(br#"{"prompts":[],"ttlMs":1,"cacheScope":"public"}"#)).unwrap();
    server.drain();
    assert_eq!(
        server.new_lines(),
        vec![
            format!(
                r#"{{"jsonrpc":"2.0","id":1,"result":{{"resultType":"complete","ttlMs":0,"cacheScope":"private",{SI},"tools":[]}}}}"#
            ),
            format!(
                r#"{{"jsonrpc":"2.0","id":2,"result":{{"resultType":"complete","cacheScope":"private",{SI},"contents":[],"ttlMs":5000}}}}"#
            ),
            format!(
                r#"{{"jsonrpc":"2.0","id":3,"result":{{"resultType":"complete",{SI},"prompts":[],"ttlMs":1,"cacheScope":"public"}}}}"#
            ),
        ]
    );
}

#[test]
fn an_input_required_result_is_checked_and_carries_no_caching_hints() {
    let mut server = Side::lone(server_config());
    server.feed(Instant::ZERO, rq(1, "resources/read", r#""uri":"test://a""#, r#"{"elicitation":{}}"#).as_bytes());
    server.feed(Instant::ZERO, req(2, "tools/list", "").as_bytes());
    server.feed(Instant::ZERO, req(3, "tools/call", r#""name":"t""#).as_bytes());
    server.take();
    let ask = br#"{"resultType":"input_required","inputRequests":{"k":{"method":"elicitation/create","params":{"message":"?","requestedSchema":{"type":"object"}}}},"requestState":"s"}"#;
    // Not on tools/list; not for a capability this request did not declare.
    assert_eq!(server.respond(&id(2), &raw(ask)), Err(SendError::ResultTypeNotAllowed));
    assert_eq!(server.respond(&id(3), &raw(ask)), Err(SendError::CapabilityNotDeclared(Capability::ElicitationForm)));
    let url = br#"{"resultType":"input_required","inputRequests":{"k":{"method":"elicitation/create","params":{"mode":"url","message":"?","elicitationId":"e","url":"https://x"}}}}"#;
    assert_eq!(server.respond(&id(1), &raw(url)), Err(SendError::CapabilityNotDeclared(Capability::ElicitationUrl)));
    let bad = br#"{"resultType":"input_required","inputRequests":{"k":{"method":"tools/call"}}}"#;
    assert_eq!(server.respond(&id(1), &raw(bad)), Err(SendError::InvalidInputRequest));
    assert_eq!(
        server.respond(&id(1), &raw(br#"{"resultType":"input_required"}"#)),
        Err(SendError::ResultTypeNotAllowed)
    );
    assert_eq!(server.respond(&id(1), &raw(br#"{"resultType":"task"}"#)), Err(SendError::ResultTypeNotAllowed));
    assert_eq!(
        server.respond(&id(2), &raw(br#"{"resultType":"later","tools":[]}"#)),
        Err(SendError::ResultTypeNotAllowed)
    );
    server.drain();
    assert!(server.new_lines().is_empty(), "nothing written for a refused result");
    server.respond(&id(1), &raw(ask)).unwrap();
    server.drain();
    let line = &server.new_lines()[0];
    assert!(
        line.starts_with(r#"{"jsonrpc":"2.0","id":1,"result":{"_meta":{"io.modelcontextprotocol/serverInfo""#),
        "{line}"
    );
    assert!(!line.contains("ttlMs") && !line.contains("cacheScope"), "{line}");
}

#[test]
fn missing_meta_fields_are_refused_naming_them_and_decide_nothing() {
    let mut server = Side::lone(server_config());
    let lines = [
        r#"{"jsonrpc":"2.0","id":101,"method":"server/discover","params":{}}"#.to_string(),
        r#"{"jsonrpc":"2.0","id":102,"method":"server/discover"}"#.to_string(),
        r#"{"jsonrpc":"2.0","id":103,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/protocolVersion":5}}}"#.to_string(),
        r#"{"jsonrpc":"2.0","id":104,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#.to_string(),
        r#"{"jsonrpc":"2.0","id":105,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":[]}}}"#.to_string(),
        r#"{"jsonrpc":"2.0","id":106,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"loud"}}}"#.to_string(),
    ];
    for l in &lines {
        server.feed(Instant::ZERO, (l.clone() + "\n").as_bytes());
    }
    let version = "Missing required _meta field io.modelcontextprotocol/protocolVersion";
    let caps = "Missing required _meta field io.modelcontextprotocol/clientCapabilities";
    let expected: Vec<String> = [
        (101, version),
        (102, version),
        (103, version),
        (104, caps),
        (105, caps),
        (106, "Invalid _meta field io.modelcontextprotocol/logLevel"),
    ]
    .iter()
    .map(|(id, m)| format!(r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32602,"message":"{m}"}}}}"#))
    .collect();
    assert_eq!(server.new_lines(), expected);
    assert_eq!(server.ep.state(), State::AwaitingInitialize, "a refused request does not decide the era");
    // So a handshake-era client can still open.
    server.feed(Instant::ZERO, &handshake_lines());
    assert_eq!(server.ep.state(), State::Ready);
}

#[test]
fn an_unsupported_version_gets_the_supported_ones_and_the_requested_one_echoed() {
    let mut server = Side::lone(server_config());
    let line = r#"{"jsonrpc":"2.0","id":301,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"v999.0.0","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
    server.feed(Instant::ZERO, format!("{line}\n").as_bytes());
    assert_eq!(
        server.new_lines(),
        vec![
            r#"{"jsonrpc":"2.0","id":301,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28"],"requested":"v999.0.0"}}}"#
        ]
    );
    // A handshake version is not a stateless one.
    let line = r#"{"jsonrpc":"2.0","id":302,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
    server.feed(Instant::ZERO, format!("{line}\n").as_bytes());
    assert!(server.new_lines()[0].contains(r#""code":-32022"#));
}

#[test]
fn the_removed_methods_and_unknown_ones_are_method_not_found() {
    let mut server = Side::lone(server_config());
    server.feed(Instant::ZERO, req(1, "server/discover", "").as_bytes());
    server.new_lines();
    for (n, method) in
        ["ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe", "tasks/get"].iter().enumerate()
    {
        server.feed(Instant::ZERO, req(500 + n as u32, method, "").as_bytes());
    }
    let not_found = |id: u32| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32601,"message":"Method not found: not in this protocol version"}}}}"#
        )
    };
    assert_eq!(server.new_lines(), (500..505).map(not_found).collect::<Vec<_>>());
    // An unknown method reaches the application, which answers -32601 itself (or serves
    // an extension it knows).
    server.feed(Instant::ZERO, req(601, "unknown/method", "").as_bytes());
    assert!(matches!(&server.take()[..], [.., Ev::Request { method, .. }] if method == "unknown/method"));
}

#[test]
fn this_servers_capabilities_gate_its_methods() {
    let config = Config::new(Role::Server, raw(SERVER_INFO)).capabilities(raw(br#"{"tools":{}}"#));
    let mut server = Side::lone(config);
    server.feed(Instant::ZERO, req(203, "prompts/list", "").as_bytes());
    assert_eq!(
        server.new_lines(),
        vec![
            r#"{"jsonrpc":"2.0","id":203,"error":{"code":-32601,"message":"Method not found: capability not declared"}}"#
        ]
    );
}

#[test]
fn initialize_on_a_stateless_connection_names_the_versions_it_speaks() {
    let mut server = Side::lone(server_config());
    server.feed(Instant::ZERO, req(1, "tools/list", "").as_bytes());
    assert_eq!(server.ep.state(), State::Stateless);
    server.take();
    server.feed(Instant::ZERO, &handshake_lines());
    assert_eq!(
        server.new_lines(),
        vec![
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"This connection speaks the 2026-07-28 protocol: initialize is not accepted","data":{"supported":["2026-07-28"],"requested":"2025-06-18"}}}"#
        ]
    );
    assert!(server.take().iter().any(|e| matches!(e, Ev::Misbehavior(m) if m.contains("InitializeWhenStateless"))));
    // A server of the stateless era only: initialize is not one of its methods.
    let mut modern = Side::lone(server_config().era(Era::Modern));
    assert_eq!(modern.ep.state(), State::Stateless);
    modern.feed(Instant::ZERO, &handshake_lines());
    assert_eq!(
        modern.new_lines(),
        vec![
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found: initialize (this server speaks only 2026-07-28)","data":{"supported":["2026-07-28"],"requested":"2025-06-18"}}}"#
        ]
    );
}

#[test]
fn a_session_that_opened_with_initialize_refuses_stateless_requests() {
    let mut server = Side::lone(server_config());
    server.feed(Instant::ZERO, &handshake_lines());
    server.take();
    server.new_lines();
    server.feed(Instant::ZERO, req(5, "tools/list", "").as_bytes());
    assert_eq!(
        server.new_lines(),
        vec![
            r#"{"jsonrpc":"2.0","id":5,"error":{"code":-32600,"message":"This session opened with initialize: 2026-07-28 requests are not accepted on it"}}"#
        ]
    );
    assert!(matches!(&server.take()[..], [Ev::Misbehavior(m)] if m.contains("StatelessOnHandshakeSession")));
}

#[test]
fn one_configuration_serves_a_handshake_session_and_stateless_requests() {
    // Over stdio a process is of one era; over HTTP one server runs both at once (a
    // session per legacy client, stateless handling for the rest). At the endpoint: the
    // same dual-era configuration, one endpoint each.
    let config = server_config();
    let mut legacy = Side::lone(config);
    let mut modern = Side::lone(config);
    legacy.feed(Instant::ZERO, &handshake_lines());
    legacy.feed(
        Instant::ZERO,
        br#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}
"#,
    );
    modern.feed(Instant::ZERO, req(2, "tools/list", "").as_bytes());
    for side in [&mut legacy, &mut modern] {
        assert!(side.take().iter().any(|e| matches!(e, Ev::Request { method, .. } if method == "tools/list")));
        side.respond(&id(2), &raw(br#"{"tools":[]}"#)).unwrap();
        side.drain();
    }
    assert_eq!(legacy.ep.state(), State::Ready);
    assert_eq!(modern.ep.state(), State::Stateless);
    assert_eq!(legacy.new_lines().last().unwrap(), r#"{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}"#);
    assert_eq!(
        modern.new_lines().last().unwrap(),
        &format!(
            r#"{{"jsonrpc":"2.0","id":2,"result":{{"resultType":"complete","ttlMs":0,"cacheScope":"private",{SI},"tools":[]}}}}"#
        )
    );
}

#[test]
fn log_messages_go_out_only_as_their_request_asked() {
    let mut server = Side::lone(server_config());
    let with_level = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"warning"}}}"#.to_string()
        + "\n";
    server.feed(Instant::ZERO, req(1, "tools/call", r#""name":"t""#).as_bytes());
    server.feed(Instant::ZERO, with_level.as_bytes());
    server.take();
    let (quiet, loud) = (server.pending_for(&id(1)), server.pending_for(&id(2)));
    let log = |level: &str| raw(format!(r#"{{"level":"{level}","data":"x"}}"#).leak().as_bytes());
    let send = |s: &mut Side, p: &PendingRequest, level| {
        s.ep.send_related_notification(Instant::ZERO, p, "notifications/message", Some(&log(level)))
    };
    assert_eq!(send(&mut server, &quiet, "emergency"), Err(SendError::LogLevelNotRequested));
    assert_eq!(send(&mut server, &loud, "info"), Err(SendError::LogLevelNotRequested));
    assert_eq!(send(&mut server, &loud, "warning"), Ok(()));
    assert_eq!(send(&mut server, &loud, "error"), Ok(()));
    // Unrelated to a request, a log message has nowhere to go in this era.
    assert_eq!(
        server.ep.send_notification(Instant::ZERO, "notifications/message", Some(&log("error"))),
        Err(SendError::MethodNotAllowed)
    );
    server.drain();
    assert_eq!(
        server.new_lines(),
        vec![
            r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"warning","data":"x"}}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"error","data":"x"}}"#,
        ]
    );
    assert_eq!(LoggingLevel::Warning.as_str(), "warning");
}

#[test]
fn a_stateless_server_sends_no_requests_and_its_progress_still_works() {
    let mut server = Side::lone(server_config());
    let line = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","_meta":{"progressToken":"p","io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"sampling":{}}}}}"#;
    server.feed(Instant::ZERO, format!("{line}\n").as_bytes());
    server.take();
    let params = raw(br#"{"messages":[],"maxTokens":1}"#);
    assert_eq!(
        server.ep.send_request(Instant::ZERO, "sampling/createMessage", Some(&params), Default::default()),
        Err(SendError::MethodNotAllowed)
    );
    server.send_progress(&id(1), 1.0, None, None).unwrap();
    server.drain();
    assert_eq!(
        server.new_lines(),
        vec![r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p","progress":1.0}}"#]
    );
}

#[test]
fn cancellation_ends_a_request_and_nothing_more_goes_out_for_it() {
    let mut server = Side::lone(server_config());
    server.feed(Instant::ZERO, req(9, "tools/call", r#""name":"t""#).as_bytes());
    server.feed(
        Instant::ZERO,
        br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9}}
"#,
    );
    assert!(matches!(&server.take()[..], [Ev::Request { .. }, Ev::Cancelled { id, .. }] if id == "9"));
    let p = server.pending_for(&id(9));
    assert_eq!(server.ep.respond(&p, &raw(br#"{"content":[]}"#)), Ok(mcp_sansio::session::Responded::Suppressed));
    let log = raw(br#"{"level":"error","data":"x"}"#);
    assert_eq!(server.ep.send_related_notification(Instant::ZERO, &p, "notifications/message", Some(&log)), Ok(()));
    server.drain();
    assert!(server.new_lines().is_empty());
}

/// A server in message mode, fed frames from origins (a stateless HTTP server's use).
fn framed() -> Side {
    Side::lone(server_config().output(OutputMode::Messages))
}

#[test]
fn ids_are_per_channel_and_a_closed_channel_cancels_its_requests() {
    let mut server = framed();
    // Two clients, two POSTs, both with id 1: two requests.
    for origin in [Origin(1), Origin(2)] {
        assert!(server.ep.handle_frame_from(
            Instant::ZERO,
            Some(origin),
            req(1, "tools/call", r#""name":"t""#).trim_end().as_bytes()
        ));
        server.drain();
    }
    let events = server.take();
    assert_eq!(events.iter().filter(|e| matches!(e, Ev::Request { .. })).count(), 2, "{events:?}");
    assert_eq!(server.ep.peer_requests_in_flight(), 2);
    // The first POST's stream closes: that is its cancellation.
    assert_eq!(server.ep.handle_origin_closed(Instant::ZERO, Origin(1)), 1);
    server.drain();
    assert!(matches!(&server.take()[..], [Ev::Cancelled { id, reason: None }] if id == "1"));
    assert_eq!(server.ep.peer_requests_in_flight(), 1);
    assert_eq!(server.ep.handle_origin_closed(Instant::ZERO, Origin(1)), 0);
    // A cancellation names a request by its channel too.
    assert!(server.ep.handle_frame_from(
        Instant::ZERO,
        Some(Origin(3)),
        br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#
    ));
    server.drain();
    assert!(server.take().is_empty());
    assert_eq!(server.ep.peer_requests_in_flight(), 1);
}

#[test]
fn a_closed_channel_cancels_nothing_in_a_handshake_session() {
    let mut server = framed();
    for line in handshake_lines().split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        assert!(server.ep.handle_frame_from(Instant::ZERO, Some(Origin(1)), line));
        server.drain();
    }
    assert!(server.ep.handle_frame_from(
        Instant::ZERO,
        Some(Origin(2)),
        br#"{"jsonrpc":"2.0","id":5,"method":"tools/list"}"#
    ));
    server.drain();
    assert_eq!(server.ep.handle_origin_closed(Instant::ZERO, Origin(2)), 0);
    assert_eq!(server.ep.peer_requests_in_flight(), 1);
}

#[test]
fn tasks_methods_need_the_extension_on_both_sides() {
    // A server without the extension: its methods do not exist.
    let mut plain = Side::lone(server_config());
    plain.feed(Instant::ZERO, req(1, "tasks/update", r#""taskId":"t","inputResponses":{}"#).as_bytes());
    assert!(plain.new_lines()[0].contains(r#""code":-32601"#));
    // A server with it: a client without it gets -32021 naming the extension.
    let caps = raw(br#"{"tools":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}"#);
    let mut server = Side::lone(server_config().capabilities(caps));
    for (n, m) in ["tasks/get", "tasks/update", "tasks/cancel"].iter().enumerate() {
        server.feed(Instant::ZERO, req(n as u32 + 1, m, r#""taskId":"gate-test""#).as_bytes());
    }
    let expected: Vec<String> = (1..=3)
        .map(|id| format!(r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32021,"message":"Missing required client capability","data":{{"requiredCapabilities":{{"extensions":{{"io.modelcontextprotocol/tasks":{{}}}}}}}}}}}}"#))
        .collect();
    assert_eq!(server.new_lines(), expected);
    // With it, they reach the application; a task handle may answer tools/call.
    let ext = r#"{"extensions":{"io.modelcontextprotocol/tasks":{}}}"#;
    server.feed(Instant::ZERO, rq(4, "tasks/get", r#""taskId":"t1""#, ext).as_bytes());
    server.feed(Instant::ZERO, rq(5, "tools/call", r#""name":"slow""#, ext).as_bytes());
    server.feed(Instant::ZERO, req(6, "tools/call", r#""name":"slow""#).as_bytes());
    let events = server.take();
    assert_eq!(events.iter().filter(|e| matches!(e, Ev::Request { .. })).count(), 3);
    let handle = br#"{"resultType":"task","taskId":"t1","status":"working","createdAt":"2026-01-01T00:00:00Z","lastUpdatedAt":"2026-01-01T00:00:00Z","ttlMs":60000,"pollIntervalMs":100}"#;
    assert_eq!(
        server.respond(&id(6), &raw(handle)),
        Err(SendError::ResultTypeNotAllowed),
        "not to a client without it"
    );
    server.respond(&id(5), &raw(handle)).unwrap();
    server.drain();
    let line = server.new_lines().pop().unwrap();
    assert!(
        line.starts_with(r#"{"jsonrpc":"2.0","id":5,"result":{"_meta":{"io.modelcontextprotocol/serverInfo""#),
        "{line}"
    );
    assert!(line.contains(r#""resultType":"task""#));
}

#[test]
fn an_owned_request_handle_stays_small() {
    // A request handle is copied around inside every `Event::Request`; up to 128 bytes
    // the copies stay inline (the session's contract). The stateless era must keep it.
    let size = size_of::<mcp_sansio::session::IncomingRequest<'static>>();
    assert!(size <= 128, "{size}");
    let _ = RefuseReason::UnsupportedVersion;
    let _ = ErrorCode::HEADER_MISMATCH;
    let _: Option<RawJson<'static>> = None;
}

#[test]
fn a_dual_era_server_needs_room_for_its_discover_result() {
    use mcp_sansio::session::ConfigError;
    let err = |config, tx| Ep::new(config, leak(256), leak(tx), Instant::ZERO).err();
    let config = server_config().reply_reserve(229);
    let needed = match err(config, 100) {
        Some(ConfigError::TxTooSmall { needed }) => needed,
        other => panic!("{other:?}"),
    };
    assert!(needed > 304, "more than the handshake era's floor: {needed}");
    // That much is enough to answer discover.
    let mut server = Side::lone_with(config, 512, needed);
    server.feed(Instant::ZERO, req(1, "server/discover", "").as_bytes());
    assert!(server.new_lines()[0].contains("supportedVersions"));
}
