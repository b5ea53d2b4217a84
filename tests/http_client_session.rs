//! Session expiry: a 404 to a request that carried the session id ends the session on
//! the client's side, drops everything of it, and lets only a new `initialize` go, which
//! carries no session header.

mod http_client_support;

use http_client_support::*;
use mcp_sansio::http::client::{ExchangeKind, Expiry, HttpClient, LostReason, Output, SendError, Transport};

type D = Driver<4>;
const SSE: (&str, &str) = ("Content-Type", "text/event-stream");

#[test]
fn a_404_with_the_session_id_starts_a_new_session() {
    let mut d = D::new(D::default_config());
    let g = d.handshake(Some("old"), "2025-06-18").exchange;
    d.respond(g, 200, &[SSE]);
    let a = d.send(&request(1, "tools/call"));
    d.take();
    d.respond(a, 200, &[SSE]);
    d.body(a, "id: a0\ndata: \n\n");
    let b = d.send(&request(2, "tools/list"));
    let r = d.take();
    assert_eq!(r.header("Mcp-Session-Id"), Some("old"));
    // The server restarted and forgot the session.
    d.respond(b, 404, &[("Content-Type", "application/json")]);
    assert_eq!(d.take_events(), [Ev::SessionExpired(Expiry::NotFound)]);
    let mut aborted = d.aborts.clone();
    aborted.sort();
    let mut want = vec![a, b, g];
    want.sort();
    assert_eq!(aborted, want);
    assert_eq!(d.client.exchanges_in_use(), 0);
    assert_eq!((d.client.session_id(), d.client.protocol_version(), d.client.transport()), (None, None, None));
    // Old traffic is refused; only initialize may go.
    assert_eq!(d.try_send(&request(3, "ping")), Err(SendError::SessionExpired));
    assert_eq!(d.try_send(INITIALIZED), Err(SendError::SessionExpired));
    d.no_request();
    // A late part of the old session changes nothing.
    d.reply(a, 200, &[SSE], &sse(Some("a1"), &result(1)));
    assert!(d.take_messages().is_empty());

    let x = d.send(&init_msg(0));
    let r = d.take();
    assert_eq!(r.names(), ["Accept", "Content-Type"], "no session header, no version");
    d.reply(x, 200, &[("Content-Type", "application/json"), ("Mcp-Session-Id", "new")], &init_result(0, "2025-06-18"));
    assert_eq!(d.take_events(), [Ev::Connected { transport: Transport::Streamable, session: Some("new".into()) }]);
    let n = d.send(INITIALIZED);
    assert_eq!(d.take().header("Mcp-Session-Id"), Some("new"));
    d.accepted(n);
    let g2 = d.take();
    assert_eq!((g2.kind, g2.header("Mcp-Session-Id")), (ExchangeKind::Stream, Some("new")));
    assert_eq!(g2.header("Last-Event-ID"), None, "a new session's stream starts afresh");
}

#[test]
fn a_404_on_the_stream_or_a_resumption_also_expires() {
    let mut d = D::new(D::default_config());
    let g = d.handshake(Some("s"), "2025-06-18").exchange;
    d.respond(g, 404, &[]);
    assert_eq!(d.take_events(), [Ev::SessionExpired(Expiry::NotFound)]);

    let mut d = D::new(D::default_config());
    let g = d.handshake(Some("s"), "2025-11-25").exchange;
    d.respond(g, 200, &[SSE]);
    d.body(g, "id: g0\nretry: 10\ndata: \n\n");
    d.end(g);
    let ev = d.take_events();
    let [Ev::Reconnecting { exchange, at, .. }] = ev[..] else { panic!("{ev:?}") };
    // A reconnection waiting when another request finds the session gone is dropped.
    let t = d.send(&request(1, "ping"));
    d.take();
    d.respond(t, 404, &[]);
    assert_eq!(d.take_events(), [Ev::SessionExpired(Expiry::NotFound)]);
    assert_eq!(d.client.poll_timeout(), None);
    d.advance_to(at);
    d.no_request();
    d.respond(exchange, 200, &[SSE]);
    assert!(d.take_events().is_empty());
}

#[test]
fn without_a_session_id_404_is_only_a_refusal() {
    let mut d = D::new(D::default_config());
    d.handshake(None, "2025-06-18");
    let t = d.send(&request(1, "tools/list"));
    d.take();
    d.respond(t, 404, &[]);
    assert_eq!(d.take_events(), [Ev::Lost { exchange: t, request: Some("1".into()), reason: LostReason::Status(404) }]);
    assert_eq!(d.client.exchanges_in_use(), 1);
}

#[test]
fn a_message_held_by_the_session_is_dropped_with_its_session() {
    let config = D::default_config();
    let storage = vec![0u8; config.storage_len(4, 1024)].leak();
    let mut c: HttpClient<'static, 4> = HttpClient::new(config, storage).unwrap();
    let now = mcp_sansio::Instant::ZERO;
    let x = c.send_message(now, init_msg(0).as_bytes()).unwrap();
    while !matches!(c.poll_output(), Output::Idle { .. }) {}
    c.handle_response(now, x, 200, [("Content-Type", &b"application/json"[..]), ("Mcp-Session-Id", b"s")]);
    c.handle_body(now, x, init_result(0, "2025-06-18").as_bytes());
    c.handle_end(now, x);
    while !matches!(c.poll_output(), Output::Idle { .. }) {
        c.consume_message();
    }
    let t = c.send_message(now, request(1, "tools/call").as_bytes()).unwrap();
    let p = c.send_message(now, request(2, "ping").as_bytes()).unwrap();
    while !matches!(c.poll_output(), Output::Idle { .. }) {}
    c.handle_response(now, t, 200, [("Content-Type", &b"text/event-stream"[..])]);
    c.handle_body(now, t, sse(None, r#"{"jsonrpc":"2.0","method":"notifications/message","params":{}}"#).as_bytes());
    assert!(matches!(c.poll_output(), Output::Message(_)));
    // Not consumed yet when the session ends.
    c.handle_response(now, p, 404, []);
    let mut saw = Vec::new();
    loop {
        match c.poll_output() {
            Output::Message(_) => panic!("a message of the old session"),
            Output::Idle { .. } => break,
            Output::Event(e) => saw.push(own(e)),
            _ => {}
        }
    }
    assert_eq!(saw, [Ev::SessionExpired(Expiry::NotFound)]);
}
