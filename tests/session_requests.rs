//! Correlation, cancellation, timeouts and progress between two endpoints.

mod common;

use std::time::Duration;

use common::*;
use mcp_sansio::session::{RequestOptions, Responded, SendError};
use mcp_sansio::wire::{ErrorCode, NO_PARAMS, RawJson};

fn call(p: &mut Pair, options: RequestOptions) -> mcp_sansio::wire::RequestId {
    let params = raw(br#"{"name":"slow","arguments":{"n":1}}"#);
    p.client.ep.send_request(p.now, "tools/call", Some(&params), options).unwrap()
}

#[test]
fn request_response_round_trip_carries_the_method() {
    let mut p = Pair::ready();
    let id = call(&mut p, RequestOptions::default());
    p.drive();
    assert_eq!(
        p.server.take(),
        vec![Ev::Request {
            id: "2".into(),
            method: "tools/call".into(),
            params: Some(r#"{"name":"slow","arguments":{"n":1}}"#.into())
        }]
    );
    let result = raw(br#"{"content":[{"type":"text","text":"done"}]}"#);
    assert_eq!(p.server.respond(&id, &result), Ok(Responded::Sent));
    p.drive();
    assert_eq!(
        p.client.take(),
        vec![Ev::Response {
            id: "2".into(),
            method: Some("tools/call".into()),
            result: r#"{"content":[{"type":"text","text":"done"}]}"#.into()
        }]
    );
    assert_eq!(p.client.ep.requests_in_flight(), 0);
    assert_eq!(p.server.ep.peer_requests_in_flight(), 0);
}

#[test]
fn ping_is_answered_automatically_in_every_state() {
    // Before the handshake completes: the server pings the client while initialize is
    // still unanswered on the client's side.
    let mut p = Pair::new();
    p.inject_to_client(b"{\"jsonrpc\":\"2.0\",\"id\":\"early\",\"method\":\"ping\"}\n");
    assert!(p.client.sent_lines().contains(&r#"{"jsonrpc":"2.0","id":"early","result":{}}"#.to_string()));
    let mut p = Pair::ready();
    let id = p.client.ep.send_request(p.now, "ping", NO_PARAMS, RequestOptions::default()).unwrap();
    p.drive();
    assert!(p.server.take().is_empty(), "pings never reach the application");
    assert_eq!(
        p.client.take(),
        vec![Ev::Response { id: id.to_string(), method: Some("ping".into()), result: "{}".into() }]
    );
}

#[test]
fn timeout_sends_cancelled_and_drops_the_late_response() {
    let mut p = Pair::ready();
    let id = call(&mut p, RequestOptions::default().timeout(Duration::from_secs(5)));
    p.drive();
    p.server.take();
    p.advance(Duration::from_millis(4_999));
    assert!(p.client.take().is_empty());
    p.advance(Duration::from_millis(1));
    assert_eq!(p.client.take(), vec![Ev::TimedOut { id: id.to_string() }]);
    assert_eq!(p.server.take(), vec![Ev::Cancelled { id: id.to_string(), reason: Some("Request timed out".into()) }]);
    // The server's handler finishes anyway: its answer is suppressed, not sent.
    assert_eq!(p.server.respond(&id, &RawJson::EMPTY_OBJECT), Ok(Responded::Suppressed));
    p.drive();
    assert!(p.client.take().is_empty());
    // A response crossing the cancellation is dropped with an event.
    p.inject_to_client(b"{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}\n");
    assert_eq!(p.client.take(), vec![Ev::Misbehavior("LateResponse(2)".into())]);
}

#[test]
fn progress_resets_the_idle_timeout_but_not_the_cap() {
    let mut p = Pair::ready();
    let options = RequestOptions::with_progress().timeout(Duration::from_secs(10)).max_time(Duration::from_secs(25));
    let id = call(&mut p, options);
    p.drive();
    p.server.take();
    for step in 1..=4 {
        p.advance(Duration::from_secs(6));
        if p.client.events.iter().any(|e| matches!(e, Ev::TimedOut { .. })) {
            break;
        }
        p.server.send_progress(&id, step as f64, Some(10.0), Some("working")).unwrap();
        p.drive();
    }
    let events = p.client.take();
    let progress: Vec<_> = events.iter().filter(|e| matches!(e, Ev::Progress { .. })).collect();
    assert_eq!(progress.len(), 4, "{events:?}");
    // 4 × 6 s = 24 s: alive thanks to progress; the 25 s cap ends it.
    p.advance(Duration::from_secs(1));
    assert_eq!(p.client.take(), vec![Ev::TimedOut { id: id.to_string() }]);
}

#[test]
fn progress_must_increase_and_stops_with_the_response() {
    let mut p = Pair::ready();
    let id = call(&mut p, RequestOptions::with_progress());
    p.drive();
    p.server.send_progress(&id, 1.0, None, None).unwrap();
    assert_eq!(p.server.send_progress(&id, 1.0, None, None), Err(SendError::ProgressNotIncreasing));
    p.server.respond(&id, &RawJson::EMPTY_OBJECT).unwrap();
    assert_eq!(p.server.send_progress(&id, 2.0, None, None), Err(SendError::AlreadyAnswered));
    // A peer that sends non-increasing or unknown progress gets its messages dropped.
    p.drive();
    p.client.take();
    let id2 = call(&mut p, RequestOptions::with_progress());
    p.drive();
    let tok = id2.to_string();
    p.inject_to_client(
        format!(
            "{{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{{\"progressToken\":{tok},\"progress\":5}}}}\n\
             {{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{{\"progressToken\":{tok},\"progress\":5}}}}\n\
             {{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{{\"progressToken\":99,\"progress\":6}}}}\n"
        )
        .as_bytes(),
    );
    assert_eq!(
        p.client.take(),
        vec![
            Ev::Progress { id: tok.clone(), progress: 5.0, total: None, message: None },
            Ev::Misbehavior(format!("NonIncreasingProgress({tok}, 5)")),
            Ev::Misbehavior("UnknownProgressToken(99)".into()),
        ]
    );
}

#[test]
fn outbound_cancel_frees_the_slot_and_drops_the_answer() {
    let mut p = Pair::ready();
    let id = call(&mut p, RequestOptions::default());
    p.drive();
    p.client.ep.cancel(p.now, &id, Some("user pressed stop")).unwrap();
    assert_eq!(p.client.ep.requests_in_flight(), 0);
    p.drive();
    assert_eq!(
        p.server.take(),
        vec![
            Ev::Request {
                id: "2".into(),
                method: "tools/call".into(),
                params: Some(r#"{"name":"slow","arguments":{"n":1}}"#.into())
            },
            Ev::Cancelled { id: "2".into(), reason: Some("user pressed stop".into()) },
        ]
    );
    assert_eq!(p.server.respond(&id, &RawJson::EMPTY_OBJECT), Ok(Responded::Suppressed));
    p.drive();
    assert!(p.client.take().is_empty());
}

#[test]
fn unknown_and_duplicate_responses_and_null_id_errors_are_events() {
    let mut p = Pair::ready();
    p.inject_to_client(
        b"{\"jsonrpc\":\"2.0\",\"id\":77,\"result\":{}}\n{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"result\":{}}\n",
    );
    p.inject_to_client(b"{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}\n");
    assert_eq!(
        p.client.take(),
        vec![
            Ev::Misbehavior("UnknownResponse(77)".into()),
            Ev::Misbehavior("UnknownResponse(\"x\")".into()),
            Ev::Misbehavior("UncorrelatedError(-32700)".into()),
        ]
    );
    // The initialize id (1) was answered: a second answer is late.
    p.inject_to_client(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n");
    assert_eq!(p.client.take(), vec![Ev::Misbehavior("LateResponse(1)".into())]);
}

#[test]
fn inbound_duplicate_id_in_flight_gets_invalid_request() {
    let mut p = Pair::ready();
    let line = b"{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/list\"}\n";
    p.inject_to_server(line);
    p.inject_to_server(line);
    let ev = p.server.take();
    assert_eq!(ev[0], Ev::Request { id: "5".into(), method: "tools/list".into(), params: None });
    assert_eq!(ev[1], Ev::Misbehavior("RequestRefused(5, tools/list, -32600, DuplicateId)".into()));
    assert_eq!(
        p.server.sent_lines().last().unwrap(),
        r#"{"jsonrpc":"2.0","id":5,"error":{"code":-32600,"message":"Request id is already in use by a request in flight"}}"#
    );
    // Once answered, the id may be used again.
    p.server.respond(&mcp_sansio::wire::RequestId::from_u64(5), &raw(br#"{"tools":[]}"#)).unwrap();
    p.inject_to_server(line);
    assert_eq!(
        p.server.take().last().unwrap(),
        &Ev::Request { id: "5".into(), method: "tools/list".into(), params: None }
    );
}

#[test]
fn errors_come_back_with_their_method() {
    let mut p = Pair::ready();
    let id = call(&mut p, RequestOptions::default());
    p.drive();
    p.server.respond_error(&id, ErrorCode::INVALID_PARAMS, "Unknown tool: slow").unwrap();
    p.drive();
    assert_eq!(
        p.client.take(),
        vec![Ev::Error {
            id: "2".into(),
            method: Some("tools/call".into()),
            code: -32602,
            message: "Unknown tool: slow".into()
        }]
    );
}
