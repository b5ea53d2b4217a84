//! Correlation: ids, responses that match nothing, duplicates, and capacity both ways.

mod common;

use std::time::Duration;

use common::*;
use mcp_sansio::session::{Config, Keepalive, Overflow, RequestOptions, Responded, SendError};
use mcp_sansio::time::Instant;
use mcp_sansio::wire::{NO_PARAMS, RawJson, RequestId};

fn ids_of_requests(lines: &[String]) -> Vec<u64> {
    lines
        .iter()
        .filter(|l| l.contains(r#""method":"#) && l.starts_with(r#"{"jsonrpc":"2.0","id":"#))
        .map(|l| {
            let rest = &l[r#"{"jsonrpc":"2.0","id":"#.len()..];
            rest[..rest.find(',').unwrap()].parse().unwrap()
        })
        .collect()
}

#[test]
fn ids_are_never_reused_whatever_ends_the_request() {
    let keepalive = Keepalive { idle: Duration::from_secs(30), timeout: Duration::from_secs(5) };
    let mut p = Pair::with(client_config().keepalive(keepalive), server_config());
    // The first initialize is refused with a list: the retry takes a fresh id.
    p.client.drain();
    p.client.pipe.clear();
    p.inject_to_client(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32602,\"message\":\"v\",\"data\":{\"supported\":[\"2025-06-18\"]}}}\n");
    p.drive();
    assert_eq!(p.client.ep.state(), mcp_sansio::session::State::Ready);
    let opts = RequestOptions::default().timeout(Duration::from_secs(10));
    let mut expected_next = 3;
    for round in 0..25u64 {
        let id = p.client.ep.send_request(p.now, "tools/list", NO_PARAMS, opts).unwrap();
        assert_eq!(id, RequestId::from_u64(expected_next), "round {round}");
        expected_next += 1;
        p.drive();
        match round % 5 {
            0 => {
                p.server.respond(&id, &raw(br#"{"tools":[]}"#)).unwrap();
            }
            1 => {
                p.server.respond_error(&id, mcp_sansio::wire::ErrorCode::INTERNAL_ERROR, "x").unwrap();
            }
            2 => {
                p.client.ep.cancel(p.now, &id, None).unwrap();
                p.drive();
                assert_eq!(p.server.respond(&id, &raw(b"{}")), Ok(Responded::Suppressed));
            }
            3 => {
                // Times out; the server answers after the cancellation, which is suppressed.
                p.advance(Duration::from_secs(10));
                assert_eq!(p.server.respond(&id, &raw(b"{}")), Ok(Responded::Suppressed));
            }
            _ => {
                // Silence long enough for a keepalive ping, which takes an id too.
                p.server.respond(&id, &raw(b"{}")).unwrap();
                p.drive();
                p.advance(Duration::from_secs(31));
                expected_next += 1;
            }
        }
        p.drive();
    }
    let ids = ids_of_requests(&p.client.sent_lines());
    assert_eq!(ids.len() as u64, expected_next - 1, "{ids:?}");
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "{ids:?}");
    assert_eq!(ids, (1..expected_next).collect::<Vec<_>>());
    // The server's own id space is separate and also counts up from 1.
    let sid = p.server.ep.send_request(p.now, "roots/list", NO_PARAMS, RequestOptions::default()).unwrap();
    assert_eq!(sid, RequestId::from_u64(1));
}

#[test]
fn refused_or_unsendable_requests_consume_no_id() {
    let mut p = Pair::ready();
    assert!(p.client.ep.send_request(p.now, "sampling/createMessage", NO_PARAMS, RequestOptions::default()).is_err());
    // Params that are not an object cannot be encoded: refused, nothing written.
    let err = p.client.ep.send_request(p.now, "tools/call", Some(&[1, 2]), RequestOptions::default());
    assert!(matches!(err, Err(SendError::Encode(_))), "{err:?}");
    let id = p.client.ep.send_request(p.now, "tools/list", NO_PARAMS, RequestOptions::default()).unwrap();
    assert_eq!(id, RequestId::from_u64(2));
    p.drive();
    assert_eq!(p.client.new_lines(), vec![r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#]);
}

#[test]
fn responses_that_match_nothing_are_each_an_event() {
    let mut p = Pair::ready();
    let id = p.client.ep.send_request(p.now, "tools/list", NO_PARAMS, RequestOptions::default()).unwrap();
    assert_eq!(id.to_string(), "2");
    p.drive();
    p.server.respond(&id, &raw(br#"{"tools":[]}"#)).unwrap();
    p.drive();
    assert_eq!(p.client.take().len(), 1);
    p.client.new_lines();
    p.play_server(
        b"{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"tools\":[1]}}\n\
          {\"jsonrpc\":\"2.0\",\"id\":2,\"error\":{\"code\":-1,\"message\":\"again\"}}\n\
          {\"jsonrpc\":\"2.0\",\"id\":\"2\",\"result\":{}}\n\
          {\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}\n\
          {\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{}}\n\
          {\"jsonrpc\":\"2.0\",\"id\":-2,\"result\":{}}\n\
          {\"jsonrpc\":\"2.0\",\"id\":18446744073709551617,\"result\":{}}\n\
          {\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}\n\
          {\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32600,\"message\":\"Invalid Request\"}}\n",
    );
    assert_eq!(
        p.client.take(),
        vec![
            Ev::Misbehavior("LateResponse(2)".into()),
            Ev::Misbehavior("LateResponse(2)".into()),
            // Ids are not coerced: "2" is not 2.
            Ev::Misbehavior("UnknownResponse(\"2\")".into()),
            Ev::Misbehavior("UnknownResponse(3)".into()),
            Ev::Misbehavior("UnknownResponse(0)".into()),
            Ev::Misbehavior("UnknownResponse(-2)".into()),
            Ev::Misbehavior("UnknownResponse(18446744073709551617)".into()),
            Ev::Misbehavior("UncorrelatedError(-32700)".into()),
            Ev::Misbehavior("UncorrelatedError(-32600)".into()),
        ]
    );
    // None of it is answered.
    assert!(p.client.new_lines().is_empty());
    // And the connection is fine.
    let id = p.client.ep.send_request(p.now, "ping", NO_PARAMS, RequestOptions::default()).unwrap();
    p.drive();
    assert_eq!(
        p.client.take(),
        vec![Ev::Response { id: id.to_string(), method: Some("ping".into()), result: "{}".into() }]
    );
}

#[test]
fn duplicate_inbound_ids_are_refused_while_in_flight() {
    let mut p = Pair::ready();
    p.play_client(b"{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"tools/list\"}\n");
    p.play_client(b"{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"tools/call\",\"params\":{\"name\":\"t\"}}\n");
    // Same text, other type: a different id.
    p.play_client(b"{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/list\"}\n");
    p.play_client(b"{\"jsonrpc\":\"2.0\",\"id\":\"7\",\"method\":\"tools/list\"}\n");
    assert_eq!(
        p.server.take(),
        vec![
            Ev::Request { id: "\"a\"".into(), method: "tools/list".into(), params: None },
            Ev::Misbehavior("RequestRefused(\"a\", tools/call, -32600, DuplicateId)".into()),
            Ev::Request { id: "7".into(), method: "tools/list".into(), params: None },
            Ev::Request { id: "\"7\"".into(), method: "tools/list".into(), params: None },
        ]
    );
    assert_eq!(
        p.server.new_lines(),
        vec![
            r#"{"jsonrpc":"2.0","id":"a","error":{"code":-32600,"message":"Request id is already in use by a request in flight"}}"#
        ]
    );
    // A cancelled request is over at once: its id may be used again (answers to the
    // old one are matched by serial, so they cannot reach the new one).
    p.play_client(b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":7}}\n");
    let old = p.server.pending_for(&RequestId::from_u64(7));
    p.play_client(b"{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/list\"}\n");
    assert_eq!(
        p.server.take(),
        vec![
            Ev::Cancelled { id: "7".into(), reason: None },
            Ev::Request { id: "7".into(), method: "tools/list".into(), params: None }
        ]
    );
    assert_eq!(p.server.ep.respond(&old, &RawJson::EMPTY_OBJECT), Ok(Responded::Suppressed));
    assert!(p.server.new_lines().is_empty(), "the new request 7 is not answered by the old one's answer");
    // Pings are never stored, so they never collide.
    p.play_client(b"{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"ping\"}\n");
    assert!(p.server.take().is_empty());
    assert_eq!(p.server.new_lines(), vec![r#"{"jsonrpc":"2.0","id":"a","result":{}}"#]);
}

#[test]
fn inbound_over_capacity_gets_a_deterministic_error_when_holding_is_off() {
    // `Ep` has 4 inbound slots.
    let mut p = Pair::ready_with(client_config(), server_config().overflow(Overflow::Refuse));
    for i in 1..=6 {
        p.play_client(format!("{{\"jsonrpc\":\"2.0\",\"id\":{i},\"method\":\"tools/list\"}}\n").as_bytes());
    }
    let events = p.server.take();
    assert_eq!(events.len(), 6);
    for (i, ev) in events.iter().enumerate().take(4) {
        assert_eq!(ev, &Ev::Request { id: (i + 1).to_string(), method: "tools/list".into(), params: None });
    }
    assert_eq!(events[4], Ev::Misbehavior("RequestRefused(5, tools/list, -32603, TooManyRequests)".into()));
    assert_eq!(events[5], Ev::Misbehavior("RequestRefused(6, tools/list, -32603, TooManyRequests)".into()));
    assert_eq!(
        p.server.new_lines(),
        vec![
            r#"{"jsonrpc":"2.0","id":5,"error":{"code":-32603,"message":"Too many requests in flight"}}"#,
            r#"{"jsonrpc":"2.0","id":6,"error":{"code":-32603,"message":"Too many requests in flight"}}"#,
        ]
    );
    assert_eq!(p.server.ep.peer_requests_in_flight(), 4);
    // Pings are still answered at capacity.
    p.play_client(b"{\"jsonrpc\":\"2.0\",\"id\":99,\"method\":\"ping\"}\n");
    assert_eq!(p.server.new_lines(), vec![r#"{"jsonrpc":"2.0","id":99,"result":{}}"#]);
    // Answering one frees a slot.
    p.server.respond(&RequestId::from_u64(2), &raw(br#"{"tools":[]}"#)).unwrap();
    p.play_client(b"{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/list\"}\n");
    assert_eq!(p.server.take(), vec![Ev::Request { id: "7".into(), method: "tools/list".into(), params: None }]);
}

#[test]
fn outbound_backpressure_is_a_typed_error() {
    let mut p = Pair::ready();
    let ids: Vec<RequestId> = (0..4)
        .map(|_| p.client.ep.send_request(p.now, "tools/list", NO_PARAMS, RequestOptions::default()).unwrap())
        .collect();
    assert_eq!(
        p.client.ep.send_request(p.now, "tools/list", NO_PARAMS, RequestOptions::default()),
        Err(SendError::TooManyInFlight { limit: 4 })
    );
    // Even ping needs a slot.
    assert_eq!(
        p.client.ep.send_request(p.now, "ping", NO_PARAMS, RequestOptions::default()),
        Err(SendError::TooManyInFlight { limit: 4 })
    );
    assert_eq!(p.client.ep.requests_in_flight(), 4);
    p.drive();
    assert_eq!(p.server.take().len(), 4);
    p.server.respond(&ids[1], &raw(b"{}")).unwrap();
    p.drive();
    let id = p.client.ep.send_request(p.now, "tools/list", NO_PARAMS, RequestOptions::default()).unwrap();
    assert_eq!(id, RequestId::from_u64(6));
    // A cancellation frees a slot at once.
    assert!(p.client.ep.send_request(p.now, "tools/list", NO_PARAMS, RequestOptions::default()).is_err());
    p.client.ep.cancel(p.now, &ids[0], None).unwrap();
    assert!(p.client.ep.send_request(p.now, "tools/list", NO_PARAMS, RequestOptions::default()).is_ok());
}

#[test]
fn a_timed_out_slot_is_free_once_its_event_is_delivered() {
    let mut p = Pair::ready();
    let opts = RequestOptions::default().timeout(Duration::from_secs(1));
    for _ in 0..4 {
        p.client.ep.send_request(p.now, "tools/list", NO_PARAMS, opts).unwrap();
    }
    p.drive();
    p.now = p.now + Duration::from_secs(1);
    p.client.ep.handle_timeout(p.now);
    assert_eq!(p.client.ep.requests_in_flight(), 0);
    p.drive();
    assert_eq!(p.client.take().iter().filter(|e| matches!(e, Ev::TimedOut { .. })).count(), 4);
    for _ in 0..4 {
        p.client.ep.send_request(p.now, "tools/list", NO_PARAMS, opts).unwrap();
    }
}

#[test]
fn ids_the_endpoint_cannot_store_are_refused() {
    let mut p = Pair::ready();
    let long = "x".repeat(65);
    p.play_client(format!("{{\"jsonrpc\":\"2.0\",\"id\":\"{long}\",\"method\":\"tools/list\"}}\n").as_bytes());
    assert_eq!(
        p.server.take(),
        vec![Ev::Misbehavior(format!("RequestRefused(\"{long}\", tools/list, -32600, IdTooLong)"))]
    );
    assert_eq!(
        p.server.new_lines(),
        vec![format!(
            r#"{{"jsonrpc":"2.0","id":"{long}","error":{{"code":-32600,"message":"Request id is too long"}}}}"#
        )]
    );
    // 64 bytes of token (quotes included) still fit.
    let fits = "y".repeat(62);
    p.play_client(format!("{{\"jsonrpc\":\"2.0\",\"id\":\"{fits}\",\"method\":\"tools/list\"}}\n").as_bytes());
    assert_eq!(
        p.server.take(),
        vec![Ev::Request { id: format!("\"{fits}\""), method: "tools/list".into(), params: None }]
    );
    let id = RequestId::string(&fits).unwrap();
    assert_eq!(p.server.respond(&id, &RawJson::EMPTY_OBJECT), Ok(Responded::Sent));
    assert_eq!(p.server.respond(&id, &RawJson::EMPTY_OBJECT), Err(SendError::AlreadyAnswered));
}

#[test]
fn the_request_handle_and_the_endpoint_answer_the_same_way() {
    // Answer through the borrowed handle in the event itself.
    let mut server = Side::lone(server_config());
    let now = Instant::ZERO;
    let init = br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":"h","method":"tools/list"}
"#;
    let mut rest: &[u8] = init;
    let mut answered = None;
    while !rest.is_empty() {
        let n = server.ep.handle_input(now, rest);
        rest = &rest[n..];
        loop {
            match server.ep.poll_output() {
                mcp_sansio::session::Output::Event(mcp_sansio::session::Event::Request(mut r)) => {
                    assert!(!r.wants_progress());
                    assert_eq!(r.id_owned(), RequestId::string("h").unwrap());
                    assert_eq!(r.respond(&raw(br#"{"tools":[]}"#)), Ok(Responded::Sent));
                    assert_eq!(r.respond_empty(), Err(SendError::AlreadyAnswered));
                    answered = Some(r.pending());
                }
                mcp_sansio::session::Output::Transmit(b) => server.sent.extend_from_slice(&b),
                mcp_sansio::session::Output::Event(_) => {}
                mcp_sansio::session::Output::Idle { .. } => break,
            }
        }
    }
    let answered = answered.expect("the request was delivered");
    assert_eq!(server.sent_lines().last().unwrap(), r#"{"jsonrpc":"2.0","id":"h","result":{"tools":[]}}"#);
    assert_eq!(server.ep.respond(&answered, &RawJson::EMPTY_OBJECT), Err(SendError::AlreadyAnswered));
    let _: fn(mcp_sansio::Role, mcp_sansio::wire::RawJson<'static>) -> Config<'static> = Config::new;
}
