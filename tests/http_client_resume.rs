//! Broken streams: resumption with `Last-Event-ID`, the server's `retry`, backoff as
//! deadlines, and the bounds that keep a bad server from holding the client in a loop.

mod http_client_support;

use http_client_support::*;
use mcp_sansio::Instant;
use mcp_sansio::http::client::{
    ExchangeKind, Expiry, Failure, HttpMethod, HttpMisbehavior, LostReason, Reconnect, SendError,
};

type D = Driver<4>;

const SSE: (&str, &str) = ("Content-Type", "text/event-stream");

/// A session with the standalone stream open, and a tools/call whose POST stream is open.
fn with_call(d: &mut D, id: u64) -> mcp_sansio::http::client::ExchangeId {
    let g = d.handshake(Some("s-1"), "2025-11-25").exchange;
    d.respond(g, 200, &[SSE]);
    let t = d.send(&request(id, "tools/call"));
    d.take();
    d.respond(t, 200, &[SSE]);
    t
}

#[test]
fn post_stream_resumes_after_the_servers_retry_with_last_event_id() {
    let mut d = D::new(D::default_config());
    d.client.set_bearer_token(Some("tok")).unwrap();
    let t = with_call(&mut d, 1);
    d.now = 1_000;
    // The conformance suite's sse-retry shape: priming with retry, then the connection closes.
    d.body(t, "id: event-2\nretry: 500\ndata: \n\n");
    d.end(t);
    let ev = d.take_events();
    let [Ev::Reconnecting { exchange: r, attempt: 1, at: 1_500 }] = ev[..] else { panic!("{ev:?}") };
    assert_eq!(d.drain(), Some(Instant::from_millis(1_500)));
    assert_eq!(d.client.poll_timeout(), Some(Instant::from_millis(1_500)));
    d.advance_to(1_499);
    d.no_request();
    d.advance_to(1_500);
    let g = d.take();
    assert_eq!(
        (g.exchange, g.kind, g.method, g.url.as_str(), g.body.as_str()),
        (r, ExchangeKind::Resume, HttpMethod::Get, URL, "")
    );
    assert_eq!(
        g.headers,
        [
            ("Accept".to_string(), "text/event-stream".to_string()),
            ("Mcp-Session-Id".to_string(), "s-1".to_string()),
            ("MCP-Protocol-Version".to_string(), "2025-11-25".to_string()),
            ("Authorization".to_string(), "Bearer tok".to_string()),
            ("Last-Event-ID".to_string(), "event-2".to_string()),
        ]
    );
    // Parts of the old exchange are ignored.
    d.respond(t, 200, &[SSE]);
    assert_eq!(d.client.handle_body(d.at(), t, b"data: {}\n\n"), 10);
    d.drain();
    assert!(d.take_messages().is_empty());
    // The resumed stream carries the answer; the client lets it go (this server never closes it).
    d.respond(r, 200, &[SSE]);
    d.body(r, &format!("event: message\nid: event-3\ndata: {}\n\n", result(1)));
    assert_eq!(d.take_messages(), [result(1)]);
    assert_eq!(d.aborts, [r]);
    assert_eq!(d.client.exchanges_in_use(), 1);
    assert_eq!(d.client.poll_timeout(), None);
}

#[test]
fn without_an_event_id_there_is_nothing_to_resume() {
    let mut d = D::new(D::default_config());
    let t = with_call(&mut d, 1);
    d.body(t, &sse(None, r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{}}"#));
    d.end(t);
    assert_eq!(d.take_events(), [Ev::Lost { exchange: t, request: Some("1".into()), reason: LostReason::StreamEnded }]);
    assert_eq!(d.client.exchanges_in_use(), 1);
}

#[test]
fn a_stream_cut_mid_event_resumes_from_the_last_whole_one() {
    let mut d = D::new(D::default_config());
    let t = with_call(&mut d, 1);
    d.body(t, "id: a\ndata: \n\nid: b\ndata: {\"jsonrpc\"");
    d.fail(t, Failure::Broken);
    let ev = d.take_events();
    assert_eq!(ev[0], Ev::Misbehavior { exchange: t, what: HttpMisbehavior::IncompleteEvent });
    let Ev::Reconnecting { exchange: r, attempt: 1, at: 1_000 } = ev[1] else { panic!("{ev:?}") };
    d.advance_to(1_000);
    let g = d.take();
    assert_eq!((g.exchange, g.header("Last-Event-ID")), (r, Some("a")));
}

#[test]
fn fruitless_reconnections_are_bounded_with_growing_delays() {
    let mut d = D::new(D::default_config());
    let t = with_call(&mut d, 1);
    d.body(t, "id: e1\ndata: \n\n");
    d.end(t);
    let mut waits = Vec::new();
    let mut last = t;
    loop {
        let ev = d.take_events();
        match ev.as_slice() {
            [Ev::Reconnecting { exchange, attempt, at }] => {
                assert_eq!(*attempt as usize, waits.len() + 1);
                waits.push(at - d.now);
                d.advance_to(*at);
                let g = d.take();
                assert_eq!((g.exchange, g.header("Last-Event-ID")), (*exchange, Some("e1")));
                // rmcp issue #958: a server that answers the resumption with an empty 200.
                d.reply(g.exchange, 200, &[SSE], "");
                last = g.exchange;
            }
            [Ev::Lost { exchange, request, reason }] => {
                assert_eq!(
                    (*exchange, request.as_deref(), *reason),
                    (last, Some("1"), LostReason::ReconnectsExhausted)
                );
                break;
            }
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(waits, [1000, 1500, 2250, 3375, 5062]);
    d.advance_to(d.now + 3_600_000);
    d.no_request();
}

#[test]
fn a_polling_server_is_followed_for_as_long_as_it_brings_news() {
    // SEP-1699 polling: every connection primes with a new id and closes.
    let mut d = D::new(D::default_config());
    let t = with_call(&mut d, 1);
    d.body(t, "id: p0\nretry: 200\ndata: \n\n");
    d.end(t);
    for k in 1..=30 {
        let ev = d.take_events();
        let [Ev::Reconnecting { exchange, attempt: 1, at }] = ev[..] else { panic!("round {k}: {ev:?}") };
        assert_eq!(at - d.now, 200);
        d.advance_to(at);
        let g = d.take();
        assert_eq!(g.header("Last-Event-ID"), Some(format!("p{}", k - 1).as_str()));
        d.reply(exchange, 200, &[SSE], &format!("id: p{k}\ndata: \n\n"));
    }
    // Then the answer.
    let ev = d.take_events();
    let [Ev::Reconnecting { exchange, at, .. }] = ev[..] else { panic!("{ev:?}") };
    d.advance_to(at);
    d.take();
    d.respond(exchange, 200, &[SSE]);
    d.body(exchange, &sse(Some("p31"), &result(1)));
    assert_eq!(d.take_messages(), [result(1)]);
}

#[test]
fn resumption_refused() {
    for (status, want) in [
        (405, Some(LostReason::Status(405))),
        (400, Some(LostReason::Status(400))),
        (409, Some(LostReason::Status(409))),
        (404, None),
    ] {
        let mut d = D::new(D::default_config());
        let t = with_call(&mut d, 1);
        d.body(t, "id: e1\ndata: \n\n");
        d.end(t);
        let ev = d.take_events();
        let [Ev::Reconnecting { exchange, at, .. }] = ev[..] else { panic!("{ev:?}") };
        d.advance_to(at);
        d.take();
        d.respond(exchange, status, &[]);
        let ev = d.take_events();
        match want {
            Some(reason) => assert_eq!(ev, [Ev::Lost { exchange, request: Some("1".into()), reason }], "{status}"),
            None => assert_eq!(ev, [Ev::SessionExpired(Expiry::NotFound)], "{status}"),
        }
    }
}

#[test]
fn server_errors_on_resumption_are_retried() {
    let mut d = D::new(D::default_config());
    let t = with_call(&mut d, 1);
    d.body(t, "id: e1\ndata: \n\n");
    d.end(t);
    for (attempt, status) in [(1u8, 503u16), (2, 500), (3, 429)] {
        let ev = d.take_events();
        let [Ev::Reconnecting { exchange, attempt: a, at }] = ev[..] else { panic!("{ev:?}") };
        assert_eq!(a, attempt);
        d.advance_to(at);
        d.take();
        d.respond(exchange, status, &[]);
    }
    let ev = d.take_events();
    let [Ev::Reconnecting { exchange, attempt: 4, at }] = ev[..] else { panic!("{ev:?}") };
    d.advance_to(at);
    d.take();
    d.fail(exchange, Failure::Connect);
    let ev = d.take_events();
    assert!(matches!(ev[..], [Ev::Reconnecting { attempt: 5, .. }]), "{ev:?}");
}

#[test]
fn standalone_stream_reconnects_with_last_event_id() {
    let mut d = D::new(D::default_config());
    let g = d.handshake(Some("s-1"), "2025-11-25").exchange;
    d.respond(g, 200, &[SSE]);
    let note = r#"{"jsonrpc":"2.0","method":"notifications/resources/list_changed"}"#;
    d.body(g, &format!("id: g-0\nretry: 3000\ndata: \n\n{}", sse(Some("g-1"), note)));
    d.end(g);
    assert_eq!(d.take_messages(), [note]);
    let ev = d.take_events();
    let [Ev::Reconnecting { exchange, attempt: 1, at: 3_000 }] = ev[..] else { panic!("{ev:?}") };
    d.advance_to(3_000);
    let r = d.take();
    assert_eq!((r.exchange, r.kind, r.header("Last-Event-ID")), (exchange, ExchangeKind::Stream, Some("g-1")));
    // A stream that never had an id reconnects without the header.
    let mut d = D::new(D::default_config());
    let g = d.handshake(None, "2025-06-18").exchange;
    d.reply(g, 200, &[SSE], &sse(None, note));
    let ev = d.take_events();
    let [Ev::Reconnecting { exchange, at, .. }] = ev[..] else { panic!("{ev:?}") };
    d.advance_to(at);
    let r = d.take();
    assert_eq!((r.exchange, r.header("Last-Event-ID")), (exchange, None));
}

#[test]
fn standalone_stream_gives_up_after_fruitless_attempts() {
    let mut d = D::new(D::default_config().reconnect(Reconnect {
        initial: core::time::Duration::from_millis(100),
        max: core::time::Duration::from_millis(250),
        max_attempts: 3,
        ..Reconnect::DEFAULT
    }));
    let g = d.handshake(Some("s"), "2025-06-18").exchange;
    d.fail(g, Failure::Connect);
    let mut waits = Vec::new();
    loop {
        let ev = d.take_events();
        match ev.as_slice() {
            [Ev::Reconnecting { exchange, at, .. }] => {
                waits.push(at - d.now);
                d.advance_to(*at);
                assert_eq!(d.take().exchange, *exchange);
                d.respond(*exchange, 502, &[]);
            }
            [Ev::StandaloneUnavailable(None)] => break,
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(waits, [100, 150, 225]);
    assert_eq!(d.client.exchanges_in_use(), 0);
    d.advance_to(d.now + 100_000);
    d.no_request();
}

#[test]
fn never_reconnect() {
    let mut d = D::new(D::default_config().reconnect(Reconnect::NEVER));
    let t = with_call(&mut d, 1);
    d.body(t, "id: e1\ndata: \n\n");
    d.end(t);
    assert_eq!(
        d.take_events(),
        [Ev::Lost { exchange: t, request: Some("1".into()), reason: LostReason::ReconnectsExhausted }]
    );
}

#[test]
fn an_answer_seen_elsewhere_ends_the_wait_for_a_stream() {
    // A server that answers a request on the standalone stream (it should not): the
    // request's own stream then needs no resumption when it ends.
    let mut d = D::new(D::default_config());
    let g = d.handshake(Some("s"), "2025-06-18").exchange;
    d.respond(g, 200, &[SSE]);
    let t = d.send(&request(4, "tools/call"));
    d.take();
    d.respond(t, 200, &[SSE]);
    d.body(t, "id: t0\ndata: \n\n");
    d.body(g, &sse(Some("g1"), &result(4)));
    assert_eq!(d.take_messages(), [result(4)]);
    d.end(t);
    assert!(d.take_events().is_empty());
    assert_eq!(d.client.exchanges_in_use(), 1);
}

#[test]
fn oversized_events_are_reported_and_skipped() {
    let mut d = D::with_slot(D::default_config(), 300);
    let t = with_call(&mut d, 1);
    let big = format!("id: big\ndata: {}\n\n", "x".repeat(400));
    d.body(t, &big);
    d.body(t, &sse(Some("after"), &result(1)));
    assert_eq!(
        d.take_events(),
        [Ev::Misbehavior { exchange: t, what: HttpMisbehavior::EventTooLarge { capacity: 300 } }]
    );
    assert_eq!(d.take_messages(), [result(1)]);
}

#[test]
fn waiting_reconnections_still_hold_their_slot() {
    let mut d = D::new(D::default_config());
    let t = with_call(&mut d, 1);
    d.body(t, "id: e1\ndata: \n\n");
    d.end(t);
    d.take_events();
    assert_eq!(d.client.exchanges_in_use(), 2);
    let _b = d.send(&request(2, "tools/call"));
    d.take();
    assert_eq!(d.try_send(&request(3, "tools/call")), Err(SendError::Busy));
}
