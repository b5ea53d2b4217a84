//! Lifecycle and version negotiation, both roles.

mod common;

use common::*;
use mcp_sansio::mcp::ProtocolVersion;

#[test]
fn handshake_negotiates_the_newest_common_version() {
    let mut p = Pair::new();
    p.drive();
    let c = p.client.take();
    let s = p.server.take();
    assert_eq!(
        c,
        vec![
            Ev::Negotiated {
                version: ProtocolVersion::V2025_11_25,
                peer: String::from_utf8(
                    br#"{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":true},"resources":{"subscribe":true},"prompts":{},"logging":{},"completions":{}},"serverInfo":{"name":"test-server","version":"2.0.0"}}"#.to_vec()
                ).unwrap()
            },
            Ev::Ready { version: ProtocolVersion::V2025_11_25 },
        ]
    );
    assert!(matches!(&s[0], Ev::Negotiated { version: ProtocolVersion::V2025_11_25, .. }));
    assert_eq!(s[1], Ev::Ready { version: ProtocolVersion::V2025_11_25 });
    assert_eq!(
        p.client.sent_lines(),
        vec![
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{"listChanged":true},"sampling":{}},"clientInfo":{"name":"test-client","version":"1.0.0"}}}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        ]
    );
}

use mcp_sansio::mcp::{Capability, Role, VersionSet};
use mcp_sansio::session::{Config, RequestOptions, SendError, State};
use mcp_sansio::time::Instant;
use mcp_sansio::wire::NO_PARAMS;

#[test]
fn server_answers_the_clients_version_or_its_newest() {
    for (offered, expected) in
        [("2025-03-26", "2025-03-26"), ("2024-11-05", "2024-11-05"), ("1999-01-01", "2025-11-25")]
    {
        let mut server = Side::lone(server_config());
        let line = format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":\"i\",\"method\":\"initialize\",\"params\":{{\"protocolVersion\":\"{offered}\",\"capabilities\":{{}},\"clientInfo\":{{\"name\":\"x\",\"version\":\"1\"}}}}}}\n"
        );
        server.feed(Instant::ZERO, line.as_bytes());
        let reply = server.sent_lines().pop().unwrap();
        assert!(
            reply.starts_with(&format!(r#"{{"jsonrpc":"2.0","id":"i","result":{{"protocolVersion":"{expected}""#)),
            "{reply}"
        );
    }
}

#[test]
fn client_refuses_a_version_it_does_not_support() {
    let client = client_config().versions(VersionSet::only(ProtocolVersion::V2025_06_18));
    let mut p = Pair::with(client, server_config());
    p.client.drain();
    p.inject_to_client(
        b"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"protocolVersion\":\"2025-03-26\",\"capabilities\":{},\"serverInfo\":{\"name\":\"s\",\"version\":\"1\"}}}\n",
    );
    assert_eq!(p.client.take(), vec![Ev::Closed { reason: "UnsupportedVersion".into() }]);
    assert_eq!(p.client.ep.send_request(p.now, "ping", NO_PARAMS, RequestOptions::default()), Err(SendError::Closed));
}

#[test]
fn client_retries_with_a_version_the_server_lists() {
    let mut client = Side::lone(client_config());
    client.feed(
        Instant::ZERO,
        b"{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32602,\"message\":\"Unsupported protocol version\",\"data\":{\"supported\":[\"2024-11-05\",\"2099-01-01\"],\"requested\":\"2025-11-25\"}}}\n",
    );
    assert!(client.take().is_empty());
    let retry = client.sent_lines().pop().unwrap();
    assert!(
        retry.starts_with(r#"{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2024-11-05""#),
        "{retry}"
    );
}

#[test]
fn only_ping_passes_before_ready() {
    let mut p = Pair::new();
    p.client.drain(); // initialize sent, not yet delivered
    assert_eq!(
        p.client.ep.send_request(p.now, "tools/list", NO_PARAMS, RequestOptions::default()),
        Err(SendError::NotReady)
    );
    assert!(p.client.ep.send_request(p.now, "ping", NO_PARAMS, RequestOptions::default()).is_ok());
    // A server that has not been initialized refuses everything but ping.
    let mut server = Side::lone(server_config());
    server.feed(Instant::ZERO, b"{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/list\"}\n");
    assert_eq!(server.take(), vec![Ev::Misbehavior("RequestRefused(9, tools/list, -32600, NotInitialized)".into())]);
}

#[test]
fn second_initialize_is_refused() {
    let mut p = Pair::ready();
    p.inject_to_server(b"{\"jsonrpc\":\"2.0\",\"id\":\"again\",\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"x\",\"version\":\"1\"}}}\n");
    assert_eq!(
        p.server.take(),
        vec![Ev::Misbehavior("RequestRefused(\"again\", initialize, -32600, AlreadyInitialized)".into())]
    );
}

#[test]
fn capabilities_gate_both_directions() {
    let client = client_config().capabilities(raw(b"{}"));
    let server = server_config().capabilities(raw(br#"{"tools":{}}"#));
    let mut p = Pair::with(client, server);
    p.drive();
    // The server did not declare resources.subscribe: refused locally.
    assert_eq!(
        p.client.ep.send_request(
            p.now,
            "resources/subscribe",
            Some(&raw(br#"{"uri":"x"}"#)),
            RequestOptions::default()
        ),
        Err(SendError::CapabilityNotDeclared(Capability::ResourcesSubscribe))
    );
    // The client did not declare sampling.
    assert_eq!(
        p.server.ep.send_request(p.now, "sampling/createMessage", Some(&raw(b"{}")), RequestOptions::default()),
        Err(SendError::CapabilityNotDeclared(Capability::Sampling))
    );
    // A request for an undeclared feature gets -32601.
    p.inject_to_server(b"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"prompts/list\"}\n");
    assert_eq!(
        p.server.take().last().unwrap(),
        &Ev::Misbehavior("RequestRefused(3, prompts/list, -32601, CapabilityNotDeclared)".into())
    );
    // Only the direction the table allows: a server cannot send tools/list.
    assert_eq!(
        p.server.ep.send_request(p.now, "tools/list", NO_PARAMS, RequestOptions::default()),
        Err(SendError::MethodNotAllowed)
    );
}

#[test]
fn peer_eof_fails_pending_requests_flushes_answers_then_closes() {
    let mut p = Pair::ready();
    let id = p.client.ep.send_request(p.now, "tools/list", NO_PARAMS, RequestOptions::default()).unwrap();
    p.drive();
    // The server receives the request, then the client's side of the pipe closes.
    p.client.eof_pending = true;
    p.drive();
    let ev = p.server.take();
    assert_eq!(ev, vec![Ev::Request { id: id.to_string(), method: "tools/list".into(), params: None }]);
    // Not closed yet: the server still owes an answer.
    assert!(!p.server.ep.is_closed());
    p.server.respond(&id, &raw(br#"{"tools":[]}"#)).unwrap();
    p.drive();
    assert_eq!(p.server.take(), vec![Ev::Closed { reason: "PeerClosed".into() }]);
    assert!(p.server.sent_lines().last().unwrap().contains(r#""result":{"tools":[]}"#));
    // And the client, whose request is answered, closes when the server's side ends.
    p.server.eof_pending = true;
    p.drive();
    assert_eq!(
        p.client.take(),
        vec![
            Ev::Response { id: id.to_string(), method: Some("tools/list".into()), result: r#"{"tools":[]}"#.into() },
            Ev::Closed { reason: "PeerClosed".into() }
        ]
    );
}

#[test]
fn local_close_fails_in_flight_requests() {
    let mut p = Pair::ready();
    let id = p.client.ep.send_request(p.now, "tools/list", NO_PARAMS, RequestOptions::default()).unwrap();
    p.client.ep.close(p.now);
    p.drive();
    assert_eq!(
        p.client.take(),
        vec![
            Ev::Failed { id: id.to_string(), reason: "LocalClose".into() },
            Ev::Closed { reason: "LocalClose".into() }
        ]
    );
    // What was queued before the close still went out.
    assert!(p.client.sent_lines().last().unwrap().contains(r#""method":"tools/list""#));
}

#[test]
fn initialize_times_out() {
    let client = client_config();
    let mut p = Pair::with(client, server_config());
    p.client.drain();
    p.client.pipe.clear(); // the server never sees it
    p.advance(std::time::Duration::from_secs(30));
    assert_eq!(p.client.take(), vec![Ev::Closed { reason: "InitializeTimedOut".into() }]);
    let _ = Role::Client;
    let _: fn(mcp_sansio::Role, mcp_sansio::wire::RawJson<'static>) -> Config<'static> = Config::new;
}

// ---- the handshake, byte for byte, for every handshake version --------------------

const ALL_HANDSHAKE: [ProtocolVersion; 4] = ProtocolVersion::HANDSHAKE;

fn server_result(version: &str) -> String {
    format!(
        r#"{{"protocolVersion":"{version}","capabilities":{},"serverInfo":{}}}"#,
        std::str::from_utf8(SERVER_CAPS).unwrap(),
        std::str::from_utf8(SERVER_INFO).unwrap()
    )
}

fn client_initialize(id: u64, version: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"initialize","params":{{"protocolVersion":"{version}","capabilities":{},"clientInfo":{}}}}}"#,
        std::str::from_utf8(CLIENT_CAPS).unwrap(),
        std::str::from_utf8(CLIENT_INFO).unwrap()
    )
}

#[test]
fn both_roles_handshake_in_every_version() {
    for version in ALL_HANDSHAKE {
        let v = version.as_str();
        // The client supports only `version`, so it offers it; the server supports all.
        let mut p = Pair::with(client_config().versions(VersionSet::only(version)), server_config());
        p.chunk = 1 + version.index() * 13;
        p.drive();
        assert_eq!(
            p.client.sent_lines(),
            vec![client_initialize(1, v), r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_string()],
            "{v}"
        );
        assert_eq!(p.server.sent_lines(), vec![format!(r#"{{"jsonrpc":"2.0","id":1,"result":{}}}"#, server_result(v))]);
        assert_eq!(
            p.client.take(),
            vec![Ev::Negotiated { version, peer: server_result(v) }, Ev::Ready { version }],
            "{v}"
        );
        let client_params = format!(
            r#"{{"protocolVersion":"{v}","capabilities":{},"clientInfo":{}}}"#,
            std::str::from_utf8(CLIENT_CAPS).unwrap(),
            std::str::from_utf8(CLIENT_INFO).unwrap()
        );
        assert_eq!(p.server.take(), vec![Ev::Negotiated { version, peer: client_params }, Ev::Ready { version }]);
        for side in [&p.client, &p.server] {
            assert_eq!(side.ep.protocol_version(), Some(version));
            assert_eq!(side.ep.state(), State::Ready);
        }
        assert_eq!(p.client.ep.peer_capabilities(), p.server.ep.capabilities());
        assert_eq!(p.server.ep.peer_capabilities(), p.client.ep.capabilities());
    }
}

#[test]
fn server_negotiates_down_to_its_only_version() {
    for version in ALL_HANDSHAKE {
        let server = server_config().versions(VersionSet::only(version));
        let mut p = Pair::with(client_config(), server);
        p.drive();
        // The client offered its newest; the server answered with the one it has.
        assert_eq!(p.client.sent_lines()[0], client_initialize(1, "2025-11-25"));
        assert_eq!(
            p.server.sent_lines(),
            vec![format!(r#"{{"jsonrpc":"2.0","id":1,"result":{}}}"#, server_result(version.as_str()))]
        );
        assert_eq!(p.client.ep.protocol_version(), Some(version));
        assert_eq!(p.client.events.last(), Some(&Ev::Ready { version }));
        assert_eq!(p.server.events.last(), Some(&Ev::Ready { version }));
    }
}

#[test]
fn server_states_walk_through_the_handshake() {
    let mut server = Side::lone(server_config());
    assert_eq!(server.ep.state(), State::AwaitingInitialize);
    assert_eq!(server.ep.protocol_version(), None);
    server.feed(Instant::ZERO, format!("{}\n", client_initialize(7, "2025-06-18")).as_bytes());
    assert_eq!(server.ep.state(), State::AwaitingInitialized);
    assert_eq!(server.ep.protocol_version(), Some(ProtocolVersion::V2025_06_18));
    assert_eq!(
        server.new_lines(),
        vec![format!(r#"{{"jsonrpc":"2.0","id":7,"result":{}}}"#, server_result("2025-06-18"))]
    );
    // `instructions` travel with the result when configured.
    let mut with_text = Side::lone(server_config().instructions("Use the \"echo\" tool."));
    with_text.feed(Instant::ZERO, format!("{}\n", client_initialize(1, "2024-11-05")).as_bytes());
    assert_eq!(
        with_text.new_lines(),
        vec![format!(
            r#"{{"jsonrpc":"2.0","id":1,"result":{{"protocolVersion":"2024-11-05","capabilities":{},"serverInfo":{},"instructions":"Use the \"echo\" tool."}}}}"#,
            std::str::from_utf8(SERVER_CAPS).unwrap(),
            std::str::from_utf8(SERVER_INFO).unwrap()
        )]
    );
    server.feed(Instant::ZERO, b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n");
    assert_eq!(server.ep.state(), State::Ready);
    assert_eq!(server.take().last(), Some(&Ev::Ready { version: ProtocolVersion::V2025_06_18 }));
    // A repeated `initialized` changes nothing and says nothing.
    server.feed(Instant::ZERO, b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n");
    assert!(server.take().is_empty());
    assert!(server.new_lines().is_empty());
}

#[test]
fn client_states_walk_through_the_handshake() {
    let mut client = Side::lone(client_config());
    assert_eq!(client.ep.state(), State::AwaitingInitializeResult);
    assert_eq!(client.new_lines(), vec![client_initialize(1, "2025-11-25")]);
    assert_eq!(client.ep.poll_timeout(), Some(Instant::ZERO + mcp_sansio::session::DEFAULT_INITIALIZE_TIMEOUT));
    client.feed(
        Instant::from_millis(5),
        format!("{{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}}\n", server_result("2025-03-26")).as_bytes(),
    );
    assert_eq!(client.ep.state(), State::Ready);
    assert_eq!(client.new_lines(), vec![r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#]);
    assert_eq!(client.ep.poll_timeout(), None, "no initialize deadline once answered");
    assert_eq!(
        client.take(),
        vec![
            Ev::Negotiated { version: ProtocolVersion::V2025_03_26, peer: server_result("2025-03-26") },
            Ev::Ready { version: ProtocolVersion::V2025_03_26 }
        ]
    );
}

// ---- negotiation corner cases ----------------------------------------------------

#[test]
fn client_refuses_unknown_and_missing_versions() {
    for (result, reason) in [
        (
            r#"{"protocolVersion":"2099-01-01","capabilities":{},"serverInfo":{"name":"s","version":"1"}}"#,
            "UnsupportedVersion",
        ),
        // Compared as an identifier, never as a string that sorts after a known one.
        (
            r#"{"protocolVersion":"2025-11-25 ","capabilities":{},"serverInfo":{"name":"s","version":"1"}}"#,
            "UnsupportedVersion",
        ),
        (
            r#"{"protocolVersion":"2026-07-28","capabilities":{},"serverInfo":{"name":"s","version":"1"}}"#,
            "UnsupportedVersion",
        ),
        (r#"{"capabilities":{},"serverInfo":{"name":"s","version":"1"}}"#, "InvalidInitializeResult"),
        (r#"{"protocolVersion":20251125}"#, "InvalidInitializeResult"),
    ] {
        let mut client = Side::lone(client_config());
        client.new_lines();
        client.feed(Instant::ZERO, format!("{{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{result}}}\n").as_bytes());
        assert_eq!(client.take(), vec![Ev::Closed { reason: reason.into() }], "{result}");
        assert!(client.new_lines().is_empty(), "no initialized after a refused result");
        assert_eq!(client.ep.state(), State::Closed);
        assert_eq!(client.ep.protocol_version(), None);
    }
}

#[test]
fn client_gives_up_on_an_initialize_error() {
    // Without a usable `supported` list the error ends the session, reported twice: the
    // error itself and the reason.
    for data in ["", r#","data":{"supported":["1999-01-01"]}"#, r#","data":{"supported":"2024-11-05"}"#] {
        let mut client = Side::lone(client_config());
        client.new_lines();
        client.feed(
            Instant::ZERO,
            format!("{{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{{\"code\":-32602,\"message\":\"Unsupported protocol version\"{data}}}}}\n")
                .as_bytes(),
        );
        assert_eq!(
            client.take(),
            vec![
                Ev::Error {
                    id: "1".into(),
                    method: Some("initialize".into()),
                    code: -32602,
                    message: "Unsupported protocol version".into()
                },
                Ev::Closed { reason: "InitializeRejected { code: -32602 (Invalid params) }".into() }
            ],
            "{data}"
        );
        assert!(client.new_lines().is_empty());
    }
    // Another code is not a negotiation, even with a list.
    let mut client = Side::lone(client_config());
    client.feed(
        Instant::ZERO,
        b"{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32603,\"message\":\"boom\",\"data\":{\"supported\":[\"2024-11-05\"]}}}\n",
    );
    assert_eq!(
        client.take().last(),
        Some(&Ev::Closed { reason: "InitializeRejected { code: -32603 (Internal error) }".into() })
    );
}

#[test]
fn client_retry_picks_the_newest_listed_version_and_then_succeeds() {
    let mut client = Side::lone(client_config());
    client.new_lines();
    client.feed(
        Instant::ZERO,
        b"{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32602,\"message\":\"Unsupported protocol version\",\"data\":{\"supported\":[\"2024-11-05\",\"2025-06-18\",\"2025-03-26\"],\"requested\":\"2025-11-25\"}}}\n",
    );
    assert!(client.take().is_empty());
    assert_eq!(client.new_lines(), vec![client_initialize(2, "2025-06-18")]);
    // The answer to the first attempt arriving late is just late.
    client.feed(
        Instant::ZERO,
        format!("{{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}}\n", server_result("2025-06-18")).as_bytes(),
    );
    assert_eq!(
        client.take(),
        vec![
            Ev::Negotiated { version: ProtocolVersion::V2025_06_18, peer: server_result("2025-06-18") },
            Ev::Ready { version: ProtocolVersion::V2025_06_18 }
        ]
    );
    assert_eq!(client.new_lines(), vec![r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#]);
    client.feed(Instant::ZERO, b"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n");
    assert_eq!(client.take(), vec![Ev::Misbehavior("LateResponse(1)".into())]);
}

#[test]
fn client_retries_a_bounded_number_of_times() {
    let mut client = Side::lone(client_config());
    client.new_lines();
    let refuse = |id: u64, version: &str| {
        format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"error\":{{\"code\":-32602,\"message\":\"no\",\"data\":{{\"supported\":[\"{version}\"]}}}}}}\n"
        )
    };
    client.feed(Instant::ZERO, refuse(1, "2025-06-18").as_bytes());
    client.feed(Instant::ZERO, refuse(2, "2024-11-05").as_bytes());
    assert_eq!(client.new_lines(), vec![client_initialize(2, "2025-06-18"), client_initialize(3, "2024-11-05")]);
    assert!(client.take().is_empty());
    // Two retries are all there is.
    client.feed(Instant::ZERO, refuse(3, "2025-03-26").as_bytes());
    assert!(client.new_lines().is_empty());
    assert_eq!(
        client.take().last(),
        Some(&Ev::Closed { reason: "InitializeRejected { code: -32602 (Invalid params) }".into() })
    );
}

#[test]
fn client_does_not_offer_a_refused_version_again() {
    let mut client = Side::lone(client_config());
    client.new_lines();
    // The server says it supports only the version it just refused: nothing to retry.
    client.feed(
        Instant::ZERO,
        b"{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32602,\"message\":\"no\",\"data\":{\"supported\":[\"2025-11-25\"]}}}\n",
    );
    assert!(client.new_lines().is_empty());
    assert_eq!(
        client.take().last(),
        Some(&Ev::Closed { reason: "InitializeRejected { code: -32602 (Invalid params) }".into() })
    );
}

#[test]
fn server_refuses_initialize_without_a_version_and_stays_ready_for_one() {
    let mut server = Side::lone(server_config());
    server.feed(
        Instant::ZERO,
        b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"capabilities\":{}}}\n",
    );
    server.feed(Instant::ZERO, b"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"initialize\"}\n");
    assert_eq!(
        server.take(),
        vec![
            Ev::Misbehavior("RequestRefused(1, initialize, -32602, InvalidInitialize)".into()),
            Ev::Misbehavior("RequestRefused(2, initialize, -32602, InvalidInitialize)".into()),
        ]
    );
    assert_eq!(
        server.new_lines(),
        vec![
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"initialize params need a protocolVersion string"}}"#,
            r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"initialize params need a protocolVersion string"}}"#,
        ]
    );
    assert_eq!(server.ep.state(), State::AwaitingInitialize);
    server.feed(Instant::ZERO, format!("{}\n", client_initialize(3, "2024-11-05")).as_bytes());
    assert_eq!(server.ep.state(), State::AwaitingInitialized);
}

// ---- gating before the handshake completes ----------------------------------------

#[test]
fn client_sends_only_ping_before_ready() {
    let mut client = Side::lone(client_config());
    let now = Instant::ZERO;
    for method in ["tools/list", "tools/call", "resources/read", "logging/setLevel"] {
        assert_eq!(
            client.ep.send_request(now, method, Some(&raw(b"{}")), RequestOptions::default()),
            Err(SendError::NotReady),
            "{method}"
        );
    }
    assert_eq!(client.ep.send_request(now, "x/custom", NO_PARAMS, RequestOptions::default()), Err(SendError::NotReady));
    for method in ["notifications/roots/list_changed", "notifications/message", "x/custom"] {
        assert_eq!(client.ep.send_notification(now, method, NO_PARAMS), Err(SendError::NotReady), "{method}");
    }
    let ping = client.ep.send_request(now, "ping", NO_PARAMS, RequestOptions::default()).unwrap();
    client.drain();
    assert_eq!(
        client.new_lines(),
        vec![client_initialize(1, "2025-11-25"), format!(r#"{{"jsonrpc":"2.0","id":{ping},"method":"ping"}}"#)]
    );
    assert_eq!(ping.to_string(), "2");
    // The pong arrives before the initialize result: correlated normally.
    client.feed(now, b"{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}\n");
    assert_eq!(client.take(), vec![Ev::Response { id: "2".into(), method: Some("ping".into()), result: "{}".into() }]);
}

#[test]
fn server_sends_only_ping_and_log_messages_before_ready() {
    for initialized in [false, true] {
        let mut server = Side::lone(server_config());
        let now = Instant::ZERO;
        if initialized {
            // `initialize` answered, `initialized` not yet received.
            server.feed(now, format!("{}\n", client_initialize(1, "2025-11-25")).as_bytes());
            server.new_lines();
            server.take();
        }
        for method in ["roots/list", "sampling/createMessage", "elicitation/create", "x/custom"] {
            assert_eq!(
                server.ep.send_request(now, method, Some(&raw(b"{}")), RequestOptions::default()),
                Err(SendError::NotReady),
                "{method}"
            );
        }
        for method in ["notifications/tools/list_changed", "notifications/resources/updated", "x/custom"] {
            assert_eq!(server.ep.send_notification(now, method, Some(&raw(b"{}"))), Err(SendError::NotReady));
        }
        server
            .ep
            .send_notification(now, "notifications/message", Some(&raw(br#"{"level":"info","data":"booting"}"#)))
            .unwrap();
        let ping = server.ep.send_request(now, "ping", NO_PARAMS, RequestOptions::default()).unwrap();
        server.drain();
        assert_eq!(
            server.new_lines(),
            vec![
                r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"booting"}}"#
                    .to_string(),
                format!(r#"{{"jsonrpc":"2.0","id":{ping},"method":"ping"}}"#),
            ]
        );
        assert_eq!(ping.to_string(), "1", "the server's own id space starts at 1");
    }
    // Log messages before ready still need the server's own `logging` capability.
    let mut quiet = Side::lone(server_config().capabilities(raw(br#"{"tools":{}}"#)));
    assert_eq!(
        quiet.ep.send_notification(Instant::ZERO, "notifications/message", Some(&raw(br#"{"level":"info","data":1}"#))),
        Err(SendError::CapabilityNotDeclared(Capability::Logging))
    );
}

#[test]
fn server_refuses_requests_before_initialize_and_before_initialized() {
    let mut server = Side::lone(server_config());
    let now = Instant::ZERO;
    server.feed(now, b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}\n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}\n");
    server.feed(now, format!("{}\n", client_initialize(3, "2025-06-18")).as_bytes());
    server.take();
    // Answered initialize, awaiting `initialized`: still only ping.
    server.feed(now, b"{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"t\"}}\n{\"jsonrpc\":\"2.0\",\"id\":\"p\",\"method\":\"ping\"}\n");
    // Notifications other than `initialized` are ignored, without a reply.
    server.feed(now, b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/roots/list_changed\"}\n");
    assert_eq!(
        server.take(),
        vec![
            Ev::Misbehavior("RequestRefused(4, tools/call, -32600, NotInitialized)".into()),
            Ev::Misbehavior("NotificationIgnored(notifications/roots/list_changed, NotInitialized)".into()),
        ]
    );
    let not_init = "Session not initialized: only ping is allowed before initialization";
    assert_eq!(
        server.new_lines(),
        vec![
            format!(r#"{{"jsonrpc":"2.0","id":1,"error":{{"code":-32600,"message":"{not_init}"}}}}"#),
            r#"{"jsonrpc":"2.0","id":2,"result":{}}"#.to_string(),
            format!(r#"{{"jsonrpc":"2.0","id":3,"result":{}}}"#, server_result("2025-06-18")),
            format!(r#"{{"jsonrpc":"2.0","id":4,"error":{{"code":-32600,"message":"{not_init}"}}}}"#),
            r#"{"jsonrpc":"2.0","id":"p","result":{}}"#.to_string(),
        ]
    );
}

#[test]
fn client_before_ready_takes_log_messages_and_pings_only() {
    let mut client = Side::lone(client_config());
    client.new_lines();
    let now = Instant::ZERO;
    client.feed(
        now,
        b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"debug\",\"data\":\"hi\"}}\n\
          {\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n\
          {\"jsonrpc\":\"2.0\",\"id\":\"r\",\"method\":\"roots/list\"}\n\
          {\"jsonrpc\":\"2.0\",\"id\":\"q\",\"method\":\"ping\"}\n",
    );
    assert_eq!(
        client.take(),
        vec![
            Ev::Notification {
                method: "notifications/message".into(),
                params: Some(r#"{"level":"debug","data":"hi"}"#.into())
            },
            Ev::Misbehavior("NotificationIgnored(notifications/tools/list_changed, NotInitialized)".into()),
            Ev::Misbehavior("RequestRefused(\"r\", roots/list, -32600, NotInitialized)".into()),
        ]
    );
    assert_eq!(
        client.new_lines(),
        vec![
            r#"{"jsonrpc":"2.0","id":"r","error":{"code":-32600,"message":"Session not initialized: only ping is allowed before initialization"}}"#,
            r#"{"jsonrpc":"2.0","id":"q","result":{}}"#,
        ]
    );
}

// ---- initialize is special --------------------------------------------------------

#[test]
fn second_initialize_is_refused_while_awaiting_initialized_too() {
    let mut server = Side::lone(server_config());
    server.feed(Instant::ZERO, format!("{}\n", client_initialize(1, "2025-06-18")).as_bytes());
    server.new_lines();
    server.take();
    server.feed(Instant::ZERO, format!("{}\n", client_initialize(2, "2024-11-05")).as_bytes());
    assert_eq!(
        server.take(),
        vec![Ev::Misbehavior("RequestRefused(2, initialize, -32600, AlreadyInitialized)".into())]
    );
    assert_eq!(
        server.new_lines(),
        vec![r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32600,"message":"Session already initialized"}}"#]
    );
    // The first negotiation stands.
    assert_eq!(server.ep.protocol_version(), Some(ProtocolVersion::V2025_06_18));
    assert_eq!(server.ep.state(), State::AwaitingInitialized);
}

#[test]
fn a_client_never_accepts_initialize() {
    let mut p = Pair::ready();
    p.inject_to_client(format!("{}\n", client_initialize(50, "2025-11-25")).as_bytes());
    assert_eq!(p.client.take(), vec![Ev::Misbehavior("RequestRefused(50, initialize, -32601, NotInVersion)".into())]);
    assert_eq!(
        p.client.new_lines(),
        vec![
            r#"{"jsonrpc":"2.0","id":50,"error":{"code":-32601,"message":"Method not found: not in this protocol version"}}"#
        ]
    );
    // Nor can the application send one.
    assert_eq!(
        p.client.ep.send_request(p.now, "initialize", Some(&raw(b"{}")), RequestOptions::default()),
        Err(SendError::MethodNotAllowed)
    );
    assert_eq!(
        p.client.ep.send_notification(p.now, "notifications/initialized", NO_PARAMS),
        Err(SendError::MethodNotAllowed)
    );
}

#[test]
fn initialize_cannot_be_cancelled_either_way() {
    // Outbound: the client's initialize is not cancellable, and stays in flight.
    let mut client = Side::lone(client_config());
    let id = mcp_sansio::wire::RequestId::from_u64(1);
    assert_eq!(client.ep.cancel(Instant::ZERO, &id, None), Err(SendError::NotCancellable));
    client.drain();
    assert_eq!(client.new_lines(), vec![client_initialize(1, "2025-11-25")]);
    assert_eq!(client.ep.state(), State::AwaitingInitializeResult);
    // Inbound: a cancellation of initialize is ignored, silently.
    let mut server = Side::lone(server_config());
    server.feed(
        Instant::ZERO,
        format!(
            "{}\n{{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{{\"requestId\":1}}}}\n",
            client_initialize(1, "2025-11-25")
        )
        .as_bytes(),
    );
    let events = server.take();
    assert_eq!(events.len(), 1, "{events:?}");
    assert!(matches!(events[0], Ev::Negotiated { .. }));
    assert_eq!(server.new_lines().len(), 1, "just the initialize result");
    assert_eq!(server.ep.state(), State::AwaitingInitialized);
}

// ---- batches ---------------------------------------------------------------------

fn ready_server(version: ProtocolVersion) -> Side {
    let mut server = Side::lone(server_config());
    server.feed(Instant::ZERO, format!("{}\n", client_initialize(1, version.as_str())).as_bytes());
    server.feed(Instant::ZERO, b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n");
    assert_eq!(server.ep.state(), State::Ready);
    server.take();
    server.new_lines();
    server
}

#[test]
fn batches_work_when_2025_03_26_was_negotiated() {
    let mut server = ready_server(ProtocolVersion::V2025_03_26);
    server.feed(
        Instant::ZERO,
        b"[{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"tools/list\"}, {\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"ping\"},\
          {\"jsonrpc\":\"2.0\",\"method\":\"notifications/roots/list_changed\"},\
          {\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-03-26\",\"capabilities\":{},\"clientInfo\":{\"name\":\"x\",\"version\":\"1\"}}},\
          {\"jsonrpc\":\"2.0\",\"id\":13,\"method\":\"prompts/get\",\"params\":{\"name\":\"p\"}}]\n",
    );
    assert_eq!(
        server.take(),
        vec![
            Ev::Request { id: "10".into(), method: "tools/list".into(), params: None },
            Ev::Notification { method: "notifications/roots/list_changed".into(), params: None },
            Ev::Misbehavior("RequestRefused(12, initialize, -32600, InitializeInBatch)".into()),
            Ev::Request { id: "13".into(), method: "prompts/get".into(), params: Some(r#"{"name":"p"}"#.into()) },
        ]
    );
    assert_eq!(
        server.new_lines(),
        vec![
            r#"{"jsonrpc":"2.0","id":11,"result":{}}"#,
            r#"{"jsonrpc":"2.0","id":12,"error":{"code":-32600,"message":"initialize must not be part of a batch"}}"#,
        ]
    );
    // Elements of a batch are checked one by one: a broken one does not spoil the rest.
    server.feed(
        Instant::ZERO,
        b"[1, {\"jsonrpc\":\"2.0\",\"id\":14,\"method\":5}, {\"jsonrpc\":\"2.0\",\"id\":15,\"method\":\"ping\"}]\n",
    );
    assert_eq!(
        server.take(),
        vec![
            Ev::Misbehavior("InvalidMessage(NotAnObject, replied=true)".into()),
            Ev::Misbehavior("InvalidMessage(MethodNotString, replied=true)".into()),
        ]
    );
    assert_eq!(
        server.new_lines(),
        vec![
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: message is not a JSON object"}}"#,
            r#"{"jsonrpc":"2.0","id":14,"error":{"code":-32600,"message":"Invalid Request: \"method\" must be a string"}}"#,
            r#"{"jsonrpc":"2.0","id":15,"result":{}}"#,
        ]
    );
    // An empty batch is one Invalid Request.
    server.feed(Instant::ZERO, b"[]\n");
    assert_eq!(server.take(), vec![Ev::Misbehavior("InvalidMessage(EmptyBatch, replied=true)".into())]);
    assert_eq!(
        server.new_lines(),
        vec![r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: empty batch"}}"#]
    );
}

#[test]
fn batches_of_responses_reach_a_2025_03_26_client() {
    let client = client_config().versions(VersionSet::only(ProtocolVersion::V2025_03_26));
    let mut p = Pair::ready_with(client, server_config());
    let a = p.client.ep.send_request(p.now, "tools/list", NO_PARAMS, RequestOptions::default()).unwrap();
    let b = p.client.ep.send_request(p.now, "prompts/list", NO_PARAMS, RequestOptions::default()).unwrap();
    p.client.drain();
    p.client.pipe.clear();
    p.inject_to_client(
        format!("[{{\"jsonrpc\":\"2.0\",\"id\":{b},\"result\":{{\"prompts\":[]}}}},{{\"jsonrpc\":\"2.0\",\"id\":{a},\"result\":{{\"tools\":[]}}}}]\n")
            .as_bytes(),
    );
    assert_eq!(
        p.client.take(),
        vec![
            Ev::Response { id: b.to_string(), method: Some("prompts/list".into()), result: r#"{"prompts":[]}"#.into() },
            Ev::Response { id: a.to_string(), method: Some("tools/list".into()), result: r#"{"tools":[]}"#.into() },
        ]
    );
}

#[test]
fn batches_are_refused_in_every_other_version_and_before_negotiation() {
    let batch = b"[{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"ping\"}]\n";
    for version in [ProtocolVersion::V2024_11_05, ProtocolVersion::V2025_06_18, ProtocolVersion::V2025_11_25] {
        let mut server = ready_server(version);
        server.feed(Instant::ZERO, batch);
        assert_eq!(server.take(), vec![Ev::Misbehavior("InvalidMessage(BatchNotAllowed, replied=true)".into())]);
        // 2025-11-25 made the id of such an error optional; before, it is null.
        let id = if version == ProtocolVersion::V2025_11_25 { "" } else { r#""id":null,"# };
        assert_eq!(
            server.new_lines(),
            vec![format!(
                r#"{{"jsonrpc":"2.0",{id}"error":{{"code":-32600,"message":"Invalid Request: JSON-RPC batches are not allowed in this protocol version"}}}}"#
            )],
            "{version}"
        );
    }
    // Before negotiation nothing is agreed, so no batch either (and initialize never).
    let mut server = Side::lone(server_config());
    server.feed(Instant::ZERO, format!("[{}]\n", client_initialize(1, "2025-03-26")).as_bytes());
    assert_eq!(server.take(), vec![Ev::Misbehavior("InvalidMessage(BatchNotAllowed, replied=true)".into())]);
    assert_eq!(server.ep.state(), State::AwaitingInitialize);
    // A client does not answer a batch it cannot read: it is not a request.
    let mut p = Pair::ready();
    p.inject_to_client(batch);
    assert_eq!(p.client.take(), vec![Ev::Misbehavior("InvalidMessage(BatchNotAllowed, replied=false)".into())]);
    assert!(p.client.new_lines().is_empty());
}

#[test]
fn server_discover_before_initialize_is_an_unknown_method() {
    // A dual-era client probes with server/discover; a handshake-only server answers
    // -32601 (the method does not exist in any version it speaks), and the client falls
    // back to initialize.
    let mut server = Side::lone(server_config().era(mcp_sansio::session::Era::Legacy));
    server.feed(
        Instant::ZERO,
        b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"server/discover\",\"params\":{\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"}}}\n",
    );
    assert_eq!(
        server.sent_lines(),
        vec![
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found: not in this protocol version"}}"#
        ]
    );
    assert_eq!(server.take(), vec![Ev::Misbehavior("RequestRefused(1, server/discover, -32601, NotInVersion)".into())]);
}
