//! Ping: answered in every state; keepalive pings on an idle line; unresponsive peers.

mod common;

use std::time::Duration;

use common::*;
use mcp_sansio::session::{Keepalive, RequestOptions};
use mcp_sansio::time::Instant;
use mcp_sansio::wire::NO_PARAMS;

const KA: Keepalive = Keepalive { idle: Duration::from_secs(30), timeout: Duration::from_secs(10) };

fn secs(s: u64) -> Duration {
    Duration::from_secs(s)
}

#[test]
fn no_keepalive_unless_configured() {
    let mut p = Pair::ready();
    assert_eq!(p.client.ep.poll_timeout(), None);
    assert_eq!(p.server.ep.poll_timeout(), None);
    p.advance(secs(24 * 3600));
    assert!(p.client.new_lines().is_empty() && p.server.new_lines().is_empty());
    assert!(p.client.take().is_empty() && p.server.take().is_empty());
}

#[test]
fn an_idle_line_gets_a_ping_and_the_pong_is_silent() {
    let mut p = Pair::ready_with(client_config().keepalive(KA), server_config());
    assert_eq!(p.client.ep.poll_timeout(), Some(Instant::ZERO + secs(30)));
    p.advance(secs(29));
    assert!(p.client.new_lines().is_empty());
    p.advance(secs(1));
    // Ids come from the same counter as requests: 1 was initialize.
    assert_eq!(p.client.new_lines(), vec![r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#]);
    assert_eq!(p.server.new_lines(), vec![r#"{"jsonrpc":"2.0","id":2,"result":{}}"#]);
    assert!(p.client.take().is_empty(), "the pong is the endpoint's own business");
    assert!(p.server.take().is_empty());
    // Idle again from the pong's arrival.
    assert_eq!(p.client.ep.poll_timeout(), Some(Instant::ZERO + secs(60)));
    p.advance(secs(30));
    assert_eq!(p.client.new_lines(), vec![r#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#]);
    let id = p.client.ep.send_request(p.now, "tools/list", NO_PARAMS, RequestOptions::default()).unwrap();
    assert_eq!(id.to_string(), "4");
}

#[test]
fn anything_received_counts_as_life() {
    let mut p = Pair::ready_with(client_config().keepalive(KA), server_config());
    for _ in 0..5 {
        p.advance(secs(20));
        p.server.ep.send_notification(p.now, "notifications/tools/list_changed", NO_PARAMS).unwrap();
        p.drive();
    }
    // 100 s, never 30 s of silence: no ping.
    assert!(p.client.new_lines().is_empty());
    assert_eq!(p.client.ep.poll_timeout(), Some(p.now + secs(30)));
    // What the client itself sends does not count: the question is whether the peer lives.
    for _ in 0..3 {
        p.advance(secs(10));
        p.client.ep.send_notification(p.now, "notifications/roots/list_changed", NO_PARAMS).unwrap();
        p.drive();
    }
    assert_eq!(
        p.client.new_lines(),
        vec![
            r#"{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}"#,
            r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}"#,
        ]
    );
}

#[test]
fn a_silent_peer_is_reported_once() {
    let mut p = Pair::ready_with(client_config().keepalive(KA), server_config());
    let mut client = p.client;
    client.new_lines();
    // Nobody answers from here on: the test holds the server's side.
    let t = |s| Instant::ZERO + secs(s);
    client.ep.handle_timeout(t(30));
    client.drain();
    assert_eq!(client.new_lines(), vec![r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#]);
    assert_eq!(client.ep.poll_timeout(), Some(t(40)));
    client.ep.handle_timeout(t(39));
    client.drain();
    assert!(client.take().is_empty());
    client.ep.handle_timeout(t(40));
    client.drain();
    assert_eq!(client.take(), vec![Ev::PeerUnresponsive]);
    // Reported once, no more pings while the first is unanswered, no more deadlines.
    assert_eq!(client.ep.poll_timeout(), None);
    client.ep.handle_timeout(t(1000));
    client.drain();
    assert!(client.take().is_empty() && client.new_lines().is_empty());
    // The pong finally arrives: keepalive resumes from then.
    client.feed(t(1000), b"{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}\n");
    assert!(client.take().is_empty());
    assert_eq!(client.ep.poll_timeout(), Some(t(1030)));
    client.ep.handle_timeout(t(1030));
    client.drain();
    assert_eq!(client.new_lines(), vec![r#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#]);
    // An error answer to a ping also proves the peer is alive.
    client.feed(t(1031), b"{\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-32601,\"message\":\"no ping here\"}}\n");
    assert!(client.take().is_empty());
    assert_eq!(client.ep.poll_timeout(), Some(t(1061)));
    p.client = client;
}

#[test]
fn the_report_carries_how_long_the_ping_waited() {
    let mut client = Side::lone(client_config().keepalive(KA));
    client.feed(
        Instant::ZERO,
        b"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"serverInfo\":{\"name\":\"s\",\"version\":\"1\"}}}\n",
    );
    client.take();
    client.ep.handle_timeout(Instant::from_secs(30));
    client.drain();
    // The driver was late: it woke up 25 s after the deadline.
    client.ep.handle_timeout(Instant::from_secs(65));
    let mut waited = None;
    loop {
        match client.ep.poll_output() {
            mcp_sansio::session::Output::Event(mcp_sansio::session::Event::PeerUnresponsive { waited: w }) => {
                waited = Some(w)
            }
            mcp_sansio::session::Output::Idle { .. } => break,
            _ => {}
        }
    }
    assert_eq!(waited, Some(secs(35)));
}

#[test]
fn servers_keep_alive_too_and_both_sides_can_at_once() {
    let mut p = Pair::ready_with(client_config().keepalive(KA), server_config().keepalive(KA));
    p.advance(secs(30));
    // Both were idle for 30 s; both ping, both answer; no events.
    assert_eq!(
        p.client.new_lines(),
        vec![r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#, r#"{"jsonrpc":"2.0","id":1,"result":{}}"#]
    );
    assert_eq!(
        p.server.new_lines(),
        vec![r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#, r#"{"jsonrpc":"2.0","id":2,"result":{}}"#]
    );
    assert!(p.client.take().is_empty() && p.server.take().is_empty());
}

#[test]
fn keepalive_waits_for_the_handshake_and_stops_with_the_session() {
    let mut client = Side::lone(client_config().keepalive(KA));
    // Before ready only the initialize deadline counts.
    assert_eq!(client.ep.poll_timeout(), Some(Instant::from_secs(30)));
    client.ep.handle_timeout(Instant::from_secs(29));
    client.drain();
    assert_eq!(client.new_lines().len(), 1, "just initialize, no ping");
    let mut server = Side::lone(server_config().keepalive(KA));
    assert_eq!(server.ep.poll_timeout(), None);
    server.ep.handle_timeout(Instant::from_secs(100));
    assert!(!server.drain());
    // After a local close or the peer's EOF: no pings.
    let mut p = Pair::ready_with(client_config().keepalive(KA), server_config().keepalive(KA));
    p.client.ep.close(p.now);
    // (Its driver then closes the transport: the server sees the end of input.)
    p.client.eof_pending = true;
    p.drive();
    p.advance(secs(100));
    assert!(p.client.new_lines().is_empty());
    assert!(!p.server.new_lines().iter().any(|l| l.contains("ping")));
    assert_eq!(p.client.ep.poll_timeout(), None);
    let mut p = Pair::ready_with(client_config().keepalive(KA), server_config().keepalive(KA));
    p.server.eof_pending = true;
    p.drive();
    p.advance(secs(100));
    assert!(p.client.new_lines().is_empty());
}

#[test]
fn pings_from_the_peer_are_answered_whatever_the_state() {
    // Before initialize, in between, when ready, after the peer's EOF (the answer still
    // flushes), with string and integer ids and params.
    let mut server = Side::lone(server_config());
    let now = Instant::ZERO;
    server.feed(now, b"{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"ping\"}\n");
    server.feed(now, b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"c\",\"version\":\"1\"}}}\n");
    server.new_lines();
    server.feed(now, b"{\"jsonrpc\":\"2.0\",\"id\":-3,\"method\":\"ping\",\"params\":{\"_meta\":{\"x\":1}}}\n");
    server.feed(now, b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n");
    server.feed(
        now,
        b"{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\"}\n{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\"}\n",
    );
    server.ep.handle_eof(now);
    server.drain();
    assert_eq!(
        server.new_lines(),
        vec![
            r#"{"jsonrpc":"2.0","id":-3,"result":{}}"#,
            r#"{"jsonrpc":"2.0","id":4,"result":{}}"#,
            r#"{"jsonrpc":"2.0","id":5,"result":{}}"#,
        ]
    );
    assert_eq!(server.sent_lines()[0], r#"{"jsonrpc":"2.0","id":"a","result":{}}"#);
    let events = server.take();
    assert!(matches!(events[0], Ev::Negotiated { .. }));
    assert_eq!(
        events[1..],
        [
            Ev::Ready { version: mcp_sansio::mcp::ProtocolVersion::V2025_11_25 },
            Ev::Closed { reason: "PeerClosed".into() }
        ]
    );
}
