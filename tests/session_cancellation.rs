//! Cancellation both ways: what is sent, what is suppressed, what is ignored.

mod common;

use std::time::Duration;

use common::*;
use mcp_sansio::session::{RequestOptions, Responded, SendError};
use mcp_sansio::wire::{ErrorCode, NO_PARAMS, RawJson, RequestId};

fn cancel_line(id: &str, reason: Option<&str>) -> String {
    match reason {
        Some(r) => format!(
            r#"{{"jsonrpc":"2.0","method":"notifications/cancelled","params":{{"requestId":{id},"reason":"{r}"}}}}"#
        ),
        None => format!(r#"{{"jsonrpc":"2.0","method":"notifications/cancelled","params":{{"requestId":{id}}}}}"#),
    }
}

#[test]
fn outbound_cancel_sends_exactly_one_notification() {
    let mut p = Pair::ready();
    let a = p.client.ep.send_request(p.now, "tools/list", NO_PARAMS, RequestOptions::default()).unwrap();
    let b = p.client.ep.send_request(p.now, "tools/list", NO_PARAMS, RequestOptions::default()).unwrap();
    p.drive();
    p.client.new_lines();
    p.client.ep.cancel(p.now, &a, None).unwrap();
    p.client.ep.cancel(p.now, &b, Some("no \"longer\" needed")).unwrap();
    // A second cancel of the same request, or one for an id never used, is refused locally.
    assert_eq!(p.client.ep.cancel(p.now, &a, None), Err(SendError::UnknownRequest));
    assert_eq!(p.client.ep.cancel(p.now, &RequestId::from_u64(99), None), Err(SendError::UnknownRequest));
    assert_eq!(p.client.ep.cancel(p.now, &RequestId::string("2").unwrap(), None), Err(SendError::UnknownRequest));
    p.drive();
    assert_eq!(
        p.client.new_lines(),
        vec![cancel_line(&a.to_string(), None), cancel_line(&b.to_string(), Some("no \\\"longer\\\" needed"))]
    );
    assert_eq!(
        p.server.take(),
        vec![
            Ev::Request { id: a.to_string(), method: "tools/list".into(), params: None },
            Ev::Request { id: b.to_string(), method: "tools/list".into(), params: None },
            Ev::Cancelled { id: a.to_string(), reason: None },
            Ev::Cancelled { id: b.to_string(), reason: Some("no \"longer\" needed".into()) },
        ]
    );
    // No other event ever follows for a cancelled request.
    p.advance(Duration::from_secs(3600));
    assert!(p.client.take().is_empty());
}

#[test]
fn cancel_after_the_answer_or_the_timeout_is_refused() {
    let mut p = Pair::ready();
    let id = p.client.ep.send_request(p.now, "tools/list", NO_PARAMS, RequestOptions::default()).unwrap();
    p.drive();
    p.server.respond(&id, &RawJson::EMPTY_OBJECT).unwrap();
    p.drive();
    p.client.take();
    assert_eq!(p.client.ep.cancel(p.now, &id, None), Err(SendError::UnknownRequest));
    let id = p
        .client
        .ep
        .send_request(p.now, "tools/list", NO_PARAMS, RequestOptions::default().timeout(Duration::from_secs(1)))
        .unwrap();
    p.drive();
    p.now = p.now + Duration::from_secs(1);
    p.client.ep.handle_timeout(p.now);
    // Timed out, event not yet delivered: already over.
    assert_eq!(p.client.ep.cancel(p.now, &id, None), Err(SendError::UnknownRequest));
    p.drive();
    assert_eq!(p.client.take(), vec![Ev::TimedOut { id: id.to_string() }]);
    let cancels = p.client.sent_lines().iter().filter(|l| l.contains("notifications/cancelled")).count();
    assert_eq!(cancels, 1, "only the timeout's own");
}

#[test]
fn a_response_crossing_the_cancel_is_dropped_with_an_event() {
    let mut p = Pair::ready();
    let id = p.client.ep.send_request(p.now, "tools/list", NO_PARAMS, RequestOptions::default()).unwrap();
    p.drive();
    // Both act before hearing from the other.
    p.server.respond(&id, &raw(br#"{"tools":[]}"#)).unwrap();
    p.client.ep.cancel(p.now, &id, None).unwrap();
    p.drive();
    assert_eq!(p.client.take(), vec![Ev::Misbehavior(format!("LateResponse({id})"))]);
    // The server had answered: the cancellation names a request it no longer has.
    assert_eq!(p.server.take(), vec![Ev::Request { id: id.to_string(), method: "tools/list".into(), params: None }]);
}

#[test]
fn inbound_cancel_suppresses_every_kind_of_answer() {
    let mut p = Pair::ready();
    for (i, how) in ["result", "error", "error_with_data", "progress"].into_iter().enumerate() {
        let options = RequestOptions::with_progress();
        let id = p.client.ep.send_request(p.now, "tools/call", Some(&raw(br#"{"name":"t"}"#)), options).unwrap();
        p.drive();
        p.client.ep.cancel(p.now, &id, Some("stop")).unwrap();
        p.drive();
        let events = p.server.take();
        assert_eq!(events.last(), Some(&Ev::Cancelled { id: id.to_string(), reason: Some("stop".into()) }), "{i}");
        p.server.new_lines();
        let r = &p.server.pending_for(&id);
        match how {
            "result" => assert_eq!(p.server.ep.respond(r, &raw(br#"{"content":[]}"#)), Ok(Responded::Suppressed)),
            "error" => {
                assert_eq!(p.server.ep.respond_error(r, ErrorCode::INTERNAL_ERROR, "x"), Ok(Responded::Suppressed))
            }
            "error_with_data" => assert_eq!(
                p.server.ep.respond_error_with_data(r, ErrorCode::INTERNAL_ERROR, "x", &raw(b"[1]")),
                Ok(Responded::Suppressed)
            ),
            _ => {
                assert_eq!(p.server.ep.send_progress(r, 1.0, None, None), Ok(Responded::Suppressed));
                assert_eq!(p.server.ep.respond(r, &raw(b"{}")), Ok(Responded::Suppressed));
            }
        }
        // The request is over: whatever comes later is suppressed, nothing is sent.
        assert_eq!(p.server.ep.respond(r, &raw(b"{}")), Ok(Responded::Suppressed));
        p.drive();
        assert!(p.server.new_lines().is_empty(), "{how}");
        assert!(p.client.take().is_empty(), "{how}");
    }
    assert_eq!(p.server.ep.peer_requests_in_flight(), 0);
}

#[test]
fn unknown_stale_repeated_and_malformed_cancels_are_ignored_silently() {
    let mut p = Pair::ready();
    p.play_client(b"{\"jsonrpc\":\"2.0\",\"id\":\"f1\",\"method\":\"tools/list\"}\n");
    p.server.respond(&RequestId::string("f1").unwrap(), &raw(br#"{"tools":[]}"#)).unwrap();
    p.server.drain();
    p.server.pipe.clear();
    p.play_client(b"{\"jsonrpc\":\"2.0\",\"id\":\"f2\",\"method\":\"tools/list\"}\n");
    p.server.take();
    p.server.new_lines();
    p.play_client(
        b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\"f1\"}}\n\
          {\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":77}}\n\
          {\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\"f2 \"}}\n\
          {\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":null}}\n\
          {\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":2.5}}\n\
          {\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":[\"f2\"]}}\n\
          {\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{}}\n\
          {\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\"}\n\
          {\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\"f2\"}}\n\
          {\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\"f2\",\"reason\":\"again\"}}\n",
    );
    // Only the one real cancellation is reported, once.
    assert_eq!(p.server.take(), vec![Ev::Cancelled { id: "\"f2\"".into(), reason: None }]);
    assert!(p.server.new_lines().is_empty(), "a notification is never answered");
    // A cancel naming one of the *client's* requests (the wrong direction: only the
    // requester cancels) is ignored by the client, and its request stays in flight.
    let cid = p.client.ep.send_request(p.now, "tools/list", NO_PARAMS, RequestOptions::default()).unwrap();
    p.drive();
    p.server.take();
    p.play_server(format!("{}\n", cancel_line(&cid.to_string(), None)).as_bytes());
    let events = p.client.take();
    assert!(events.is_empty(), "{events:?}");
    assert_eq!(p.client.ep.requests_in_flight(), 1);
    p.server.respond(&cid, &raw(b"{}")).unwrap();
    p.drive();
    assert_eq!(
        p.client.take(),
        vec![Ev::Response { id: cid.to_string(), method: Some("tools/list".into()), result: "{}".into() }]
    );
}

#[test]
fn cancellation_works_from_server_to_client_too() {
    let mut p = Pair::ready();
    let id = p
        .server
        .ep
        .send_request(
            p.now,
            "sampling/createMessage",
            Some(&raw(br#"{"messages":[],"maxTokens":5}"#)),
            RequestOptions::default(),
        )
        .unwrap();
    p.drive();
    assert_eq!(
        p.client.take(),
        vec![Ev::Request {
            id: id.to_string(),
            method: "sampling/createMessage".into(),
            params: Some(r#"{"messages":[],"maxTokens":5}"#.into())
        }]
    );
    p.server.new_lines();
    p.server.ep.cancel(p.now, &id, Some("user closed the dialog")).unwrap();
    p.drive();
    assert_eq!(p.server.new_lines(), vec![cancel_line(&id.to_string(), Some("user closed the dialog"))]);
    assert_eq!(
        p.client.take(),
        vec![Ev::Cancelled { id: id.to_string(), reason: Some("user closed the dialog".into()) }]
    );
    assert_eq!(p.client.respond(&id, &raw(br#"{"role":"assistant"}"#)), Ok(Responded::Suppressed));
    p.drive();
    assert!(p.client.new_lines().is_empty());
    assert!(p.server.take().is_empty());
}

#[test]
fn cancelled_requests_do_not_hold_up_the_close() {
    let mut p = Pair::ready();
    let id = p.client.ep.send_request(p.now, "tools/list", NO_PARAMS, RequestOptions::default()).unwrap();
    p.drive();
    p.client.ep.cancel(p.now, &id, None).unwrap();
    p.client.eof_pending = true;
    p.drive();
    // The server owes nothing for a cancelled request, so it closes without an answer.
    assert_eq!(
        p.server.take(),
        vec![
            Ev::Request { id: id.to_string(), method: "tools/list".into(), params: None },
            Ev::Cancelled { id: id.to_string(), reason: None },
            Ev::Closed { reason: "PeerClosed".into() },
        ]
    );
}
