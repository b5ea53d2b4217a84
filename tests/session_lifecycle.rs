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
use mcp_sansio::session::{Config, RequestOptions, SendError};
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
    p.server.ep.respond(id.as_ref(), &raw(br#"{"tools":[]}"#)).unwrap();
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
    let _ = Config::new;
}
