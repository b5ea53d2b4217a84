//! Request timeouts: the idle timeout, progress resets, the absolute cap, and the
//! deadlines reported to the driver.

mod common;

use std::time::Duration;

use common::*;
use mcp_sansio::session::{
    DEFAULT_MAX_REQUEST_TIME, DEFAULT_REQUEST_TIMEOUT, Keepalive, Output, RequestOptions, Responded,
};
use mcp_sansio::time::Instant;
use mcp_sansio::wire::{NO_PARAMS, RawJson, RequestId};

fn secs(s: u64) -> Duration {
    Duration::from_secs(s)
}

fn at(ms: u64) -> Instant {
    Instant::from_millis(ms)
}

fn cancelled_line(id: &RequestId) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","method":"notifications/cancelled","params":{{"requestId":{id},"reason":"Request timed out"}}}}"#
    )
}

/// Checks that the Idle output reports the same deadline as `poll_timeout`.
fn idle_deadline(side: &mut Side) -> Option<Instant> {
    let expected = side.ep.poll_timeout();
    loop {
        match side.ep.poll_output() {
            Output::Idle { next_timeout } => {
                assert_eq!(next_timeout, expected);
                return next_timeout;
            }
            Output::Transmit(b) => {
                side.sent.extend_from_slice(&b);
                side.pipe.extend_from_slice(&b);
            }
            Output::Event(e) => side.events.push(own(&e)),
        }
    }
}

#[test]
fn the_default_idle_timeout_applies_to_every_request() {
    let mut p = Pair::ready();
    let id = p.client.ep.send_request(p.now, "tools/list", NO_PARAMS, RequestOptions::default()).unwrap();
    p.drive();
    assert_eq!(DEFAULT_REQUEST_TIMEOUT, secs(60));
    assert_eq!(idle_deadline(&mut p.client), Some(Instant::ZERO + secs(60)));
    p.advance(Duration::from_millis(59_999));
    assert!(p.client.take().is_empty());
    p.client.new_lines();
    p.advance(Duration::from_millis(1));
    assert_eq!(p.client.take(), vec![Ev::TimedOut { id: id.to_string() }]);
    assert_eq!(p.client.new_lines(), vec![cancelled_line(&id)]);
    assert_eq!(p.client.ep.poll_timeout(), None);
    assert_eq!(p.client.ep.requests_in_flight(), 0);
}

#[test]
fn configured_defaults_and_per_request_options() {
    let client = client_config().request_timeouts(secs(3), secs(4));
    let mut p = Pair::ready_with(client, server_config());
    let a = p.client.ep.send_request(p.now, "tools/list", NO_PARAMS, RequestOptions::default()).unwrap();
    let b =
        p.client.ep.send_request(p.now, "tools/list", NO_PARAMS, RequestOptions::default().timeout(secs(2))).unwrap();
    let c = p
        .client
        .ep
        .send_request(p.now, "tools/list", NO_PARAMS, RequestOptions::default().timeout(secs(9)).max_time(secs(5)))
        .unwrap();
    p.drive();
    assert_eq!(p.client.ep.poll_timeout(), Some(at(2_000)));
    p.advance(secs(2));
    assert_eq!(p.client.take(), vec![Ev::TimedOut { id: b.to_string() }]);
    assert_eq!(p.client.ep.poll_timeout(), Some(at(3_000)));
    p.advance(secs(1));
    assert_eq!(p.client.take(), vec![Ev::TimedOut { id: a.to_string() }]);
    // c: idle 9 s, but the cap of 5 s comes first.
    assert_eq!(p.client.ep.poll_timeout(), Some(at(5_000)));
    p.advance(secs(2));
    assert_eq!(p.client.take(), vec![Ev::TimedOut { id: c.to_string() }]);
    assert_eq!(
        p.client.new_lines(),
        vec![
            format!(r#"{{"jsonrpc":"2.0","id":{a},"method":"tools/list"}}"#),
            format!(r#"{{"jsonrpc":"2.0","id":{b},"method":"tools/list"}}"#),
            format!(r#"{{"jsonrpc":"2.0","id":{c},"method":"tools/list"}}"#),
            cancelled_line(&b),
            cancelled_line(&a),
            cancelled_line(&c),
        ]
    );
    // The server saw three cancellations and answers nothing.
    let cancelled: Vec<_> = p.server.take().into_iter().filter(|e| matches!(e, Ev::Cancelled { .. })).collect();
    assert_eq!(cancelled.len(), 3);
    for id in [&a, &b, &c] {
        assert_eq!(p.server.respond(id, &RawJson::EMPTY_OBJECT), Ok(Responded::Suppressed));
    }
    p.drive();
    assert!(p.server.new_lines().is_empty());
}

#[test]
fn progress_does_not_reset_the_timeout_unless_asked() {
    let mut p = Pair::ready();
    let options =
        RequestOptions { progress: true, reset_timeout_on_progress: false, ..Default::default() }.timeout(secs(10));
    let id = p.client.ep.send_request(p.now, "tools/call", Some(&raw(br#"{"name":"t"}"#)), options).unwrap();
    p.drive();
    for step in 1..=3 {
        p.advance(secs(3));
        p.server.send_progress(&id, step as f64, None, None).unwrap();
        p.drive();
        assert_eq!(p.client.ep.poll_timeout(), Some(at(10_000)), "progress left the deadline alone");
    }
    p.advance(secs(1));
    let events = p.client.take();
    assert_eq!(events.len(), 4, "{events:?}");
    assert_eq!(events[3], Ev::TimedOut { id: id.to_string() });
    // `reset_timeout_on_progress` without `progress` does nothing: no token is sent.
    let options = RequestOptions { reset_timeout_on_progress: true, ..Default::default() }.timeout(secs(10));
    let id = p.client.ep.send_request(p.now, "tools/list", NO_PARAMS, options).unwrap();
    p.drive();
    assert_eq!(
        p.client.new_lines().last().unwrap(),
        &format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/list"}}"#)
    );
}

#[test]
fn progress_keeps_a_request_alive_until_the_default_cap() {
    let mut p = Pair::ready();
    let id = p
        .client
        .ep
        .send_request(p.now, "tools/call", Some(&raw(br#"{"name":"t"}"#)), RequestOptions::with_progress())
        .unwrap();
    p.drive();
    assert_eq!(DEFAULT_MAX_REQUEST_TIME, secs(600));
    let mut step = 0.0;
    while p.now < at(600_000 - 50_000) {
        p.advance(secs(50));
        step += 1.0;
        p.server.send_progress(&id, step, None, None).unwrap();
        p.drive();
        // The idle deadline moved to 60 s after this progress, unless the cap is sooner.
        let expected = (p.now + secs(60)).min(at(600_000));
        assert_eq!(p.client.ep.poll_timeout(), Some(expected));
    }
    assert!(p.client.events.iter().all(|e| matches!(e, Ev::Progress { .. })));
    p.advance(at(600_000).saturating_duration_since(p.now) - Duration::from_millis(1));
    assert!(!p.client.events.iter().any(|e| matches!(e, Ev::TimedOut { .. })));
    p.advance(Duration::from_millis(1));
    assert_eq!(p.client.events.last(), Some(&Ev::TimedOut { id: id.to_string() }));
    assert_eq!(p.now, at(600_000));
}

#[test]
fn poll_timeout_is_always_the_earliest_deadline() {
    let keepalive = Keepalive { idle: secs(45), timeout: secs(5) };
    let mut p = Pair::with(client_config().keepalive(keepalive), server_config());
    p.client.drain();
    // Before the handshake: only the initialize deadline (30 s); keepalive waits for ready.
    assert_eq!(idle_deadline(&mut p.client), Some(at(30_000)));
    assert_eq!(idle_deadline(&mut p.server), None, "a server has no initialize deadline");
    p.drive();
    // Ready: keepalive 45 s after the last byte received (at 0).
    assert_eq!(idle_deadline(&mut p.client), Some(at(45_000)));
    p.advance(secs(1));
    let long =
        p.client.ep.send_request(p.now, "tools/list", NO_PARAMS, RequestOptions::default().timeout(secs(100))).unwrap();
    let short =
        p.client.ep.send_request(p.now, "tools/list", NO_PARAMS, RequestOptions::default().timeout(secs(20))).unwrap();
    let progress = p
        .client
        .ep
        .send_request(
            p.now,
            "tools/call",
            Some(&raw(br#"{"name":"t"}"#)),
            RequestOptions::with_progress().timeout(secs(30)),
        )
        .unwrap();
    p.drive();
    assert_eq!(idle_deadline(&mut p.client), Some(at(21_000)));
    p.server.respond(&short, &RawJson::EMPTY_OBJECT).unwrap();
    p.drive();
    assert_eq!(idle_deadline(&mut p.client), Some(at(31_000)));
    // Progress at 20 s moves `progress` to 50 s; keepalive (receipt at 20 s) to 65 s.
    p.advance(secs(19));
    p.server.send_progress(&progress, 1.0, None, None).unwrap();
    p.drive();
    assert_eq!(idle_deadline(&mut p.client), Some(at(50_000)));
    p.client.ep.cancel(p.now, &progress, None).unwrap();
    assert_eq!(idle_deadline(&mut p.client), Some(at(65_000)));
    p.client.ep.cancel(p.now, &long, None).unwrap();
    assert_eq!(idle_deadline(&mut p.client), Some(at(65_000)));
    // The ping goes out at 65 s; its answer is due by 70 s.
    p.advance(secs(45));
    assert_eq!(p.now, at(65_000));
    assert!(p.client.new_lines().last().unwrap().contains(r#""method":"ping""#));
    // (The server answered at once, so keepalive restarts from 65 s.)
    assert_eq!(idle_deadline(&mut p.client), Some(at(110_000)));
    p.server.eof_pending = true;
    p.drive();
    assert_eq!(idle_deadline(&mut p.client), None, "nothing to wait for once the peer is gone");
}

#[test]
fn spurious_and_repeated_timer_calls_change_nothing() {
    let mut p = Pair::ready();
    let id =
        p.client.ep.send_request(p.now, "tools/list", NO_PARAMS, RequestOptions::default().timeout(secs(10))).unwrap();
    p.advance(secs(4));
    p.client.take();
    p.client.new_lines();
    let before = (p.client.ep.poll_timeout(), p.client.ep.requests_in_flight(), p.client.ep.now());
    for t in [4_000, 4_000, 0, 1, 3_999, 4_000, 9_999] {
        p.client.ep.handle_timeout(at(t));
        assert!(matches!(p.client.ep.poll_output(), Output::Idle { next_timeout: Some(d) } if d == at(10_000)));
    }
    assert_eq!(p.client.ep.poll_timeout(), before.0);
    assert_eq!(p.client.ep.requests_in_flight(), before.1);
    assert_eq!(p.client.ep.now(), at(9_999), "the clock only moves forward");
    assert!(p.client.take().is_empty() && p.client.new_lines().is_empty());
    // Firing the same deadline twice ends the request once.
    p.client.ep.handle_timeout(at(10_000));
    p.client.ep.handle_timeout(at(10_000));
    p.client.drain();
    p.client.ep.handle_timeout(at(10_000));
    p.client.ep.handle_timeout(at(10_500));
    p.client.drain();
    assert_eq!(p.client.take(), vec![Ev::TimedOut { id: id.to_string() }]);
    assert_eq!(p.client.new_lines(), vec![cancelled_line(&id)]);
    // A timer call long after, with nothing pending, says nothing.
    p.client.ep.handle_timeout(at(1_000_000));
    assert!(!p.client.drain());
}

#[test]
fn any_input_carrying_a_later_time_expires_requests() {
    let mut p = Pair::ready();
    let id =
        p.client.ep.send_request(p.now, "tools/list", NO_PARAMS, RequestOptions::default().timeout(secs(10))).unwrap();
    p.drive();
    p.client.new_lines();
    // No handle_timeout: the client learns the time from a message, which then comes
    // after the expiry, so the answer in it is late.
    let line = format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"result\":{{}}}}\n");
    assert_eq!(p.client.ep.handle_input(at(10_000), line.as_bytes()), line.len());
    p.client.drain();
    assert_eq!(
        p.client.take(),
        vec![Ev::TimedOut { id: id.to_string() }, Ev::Misbehavior(format!("LateResponse({id})"))]
    );
    assert_eq!(p.client.new_lines(), vec![cancelled_line(&id)]);
    // A command with a later time also expires what is due before it acts.
    let a = p
        .client
        .ep
        .send_request(at(10_000), "tools/list", NO_PARAMS, RequestOptions::default().timeout(secs(1)))
        .unwrap();
    p.client.drain();
    let b = p.client.ep.send_request(at(11_000), "tools/list", NO_PARAMS, RequestOptions::default()).unwrap();
    p.client.drain();
    assert_eq!(p.client.take(), vec![Ev::TimedOut { id: a.to_string() }]);
    assert_eq!(p.client.ep.requests_in_flight(), 1);
    let _ = b;
}

#[test]
fn initialize_timeout_is_configurable_and_reported() {
    let mut config = client_config();
    config.initialize_timeout = secs(2);
    let mut client = Side::lone(config);
    assert_eq!(client.ep.poll_timeout(), Some(at(2_000)));
    client.ep.handle_timeout(at(1_999));
    assert!(!client.drain());
    client.ep.handle_timeout(at(2_000));
    client.drain();
    assert_eq!(client.take(), vec![Ev::Closed { reason: "InitializeTimedOut".into() }]);
    assert_eq!(client.ep.poll_timeout(), None);
    assert!(client.ep.is_closed());
    // A late answer is not even read.
    client.feed(at(3_000), b"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"protocolVersion\":\"2025-11-25\"}}\n");
    assert!(client.take().is_empty());
}

#[test]
fn a_timeout_waits_for_room_to_send_its_cancellation() {
    // A transmit buffer just big enough for the endpoint's own needs.
    let mut client = Side::lone_with(client_config(), 4096, 700);
    client.feed(
        Instant::ZERO,
        b"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"tools\":{}},\"serverInfo\":{\"name\":\"s\",\"version\":\"1\"}}}\n",
    );
    client.take();
    client.new_lines();
    let id = client
        .ep
        .send_request(Instant::ZERO, "tools/list", NO_PARAMS, RequestOptions::default().timeout(secs(1)))
        .unwrap();
    client.drain();
    client.new_lines();
    // Fill the transmit buffer with a large request, not yet handed out.
    let big = format!(r#"{{"name":"t","arguments":{{"pad":"{}"}}}}"#, "x".repeat(560));
    let filler = client
        .ep
        .send_request(
            Instant::ZERO,
            "tools/call",
            Some(&RawJson::parse(big.as_bytes()).unwrap()),
            RequestOptions::default(),
        )
        .unwrap();
    client.ep.handle_timeout(at(1_000));
    // The cancellation does not fit yet. The first poll hands out the filler; the
    // cancellation is written once room is made, before the event is delivered, so that
    // whatever the application sends in reaction comes after it on the wire.
    let mut events = 0;
    loop {
        match client.ep.poll_output() {
            Output::Transmit(b) => client.sent.extend_from_slice(&b),
            Output::Event(e) => {
                assert_eq!(own(&e), Ev::TimedOut { id: id.to_string() });
                events += 1;
                assert!(!client.sent_lines().iter().any(|l| l.contains("cancelled")), "not handed out yet");
                client.ep.send_request(at(1_000), "ping", NO_PARAMS, RequestOptions::default()).unwrap();
            }
            Output::Idle { .. } => break,
        }
    }
    assert_eq!(events, 1);
    assert_eq!(
        client.new_lines(),
        vec![
            format!(r#"{{"jsonrpc":"2.0","id":{filler},"method":"tools/call","params":{big}}}"#),
            cancelled_line(&id),
            format!(r#"{{"jsonrpc":"2.0","id":{},"method":"ping"}}"#, filler.as_ref().as_u64().unwrap() + 1),
        ]
    );
}
