//! The peer's requests: every one answered or refused exactly once, memory bounded.
//! Cancellation frees a slot at once, the application can abandon a request, an
//! optional deadline answers what the application forgot, and requests beyond the
//! slots are held (in the receive buffer) rather than refused, without holding up
//! anything that arrives behind them.

mod common;

use common::*;
use mcp_sansio::session::{Output, Overflow, Responded};
use mcp_sansio::wire::{RawJson, RequestId};

fn list(id: u32) -> String {
    format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"tools/list\"}}\n")
}

fn cancel(id: u32) -> String {
    format!("{{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{{\"requestId\":{id}}}}}\n")
}

fn listed(id: u32) -> Ev {
    Ev::Request { id: id.to_string(), method: "tools/list".into(), params: None }
}

// ---- defect 1: a cancelled request keeps its slot -----------------------------------

#[test]
fn a_cancelled_request_frees_its_slot_at_once() {
    // `Ep` has 4 inbound slots. The peer cancels four requests the application (rightly)
    // never answers: the fifth request must still get through.
    let mut p = Pair::ready();
    for i in 1..=4 {
        p.play_client(list(i).as_bytes());
        p.play_client(cancel(i).as_bytes());
    }
    p.server.take();
    p.play_client(list(5).as_bytes());
    assert_eq!(p.server.take(), vec![listed(5)]);
    assert!(p.server.new_lines().is_empty(), "no refusal");
    assert_eq!(p.server.ep.peer_requests_in_flight(), 1);
    // A late answer to a cancelled request writes nothing.
    assert_eq!(p.server.respond(&RequestId::from_u64(1), &raw(br#"{"tools":[]}"#)), Ok(Responded::Suppressed));
    assert!(p.server.new_lines().is_empty());
}

// ---- defect 4: id_owned after respond ---------------------------------------------------

#[test]
fn id_owned_is_the_real_id_even_after_the_answer() {
    let mut server = Side::lone(server_config());
    server.feed(mcp_sansio::Instant::ZERO, &handshake_lines());
    server.take();
    let line = b"{\"jsonrpc\":\"2.0\",\"id\":\"a-b\",\"method\":\"tools/list\"}\n";
    assert_eq!(server.ep.handle_input(mcp_sansio::Instant::ZERO, line), line.len());
    let mut seen = None;
    loop {
        match server.ep.poll_output() {
            Output::Event(mcp_sansio::Event::Request(mut r)) => {
                r.respond(&RawJson::EMPTY_OBJECT).unwrap();
                seen = Some(r.id_owned());
            }
            Output::Idle { .. } => break,
            _ => {}
        }
    }
    assert_eq!(seen, Some(RequestId::string("a-b").unwrap()));
}

// ---- defect 7: requests beyond the slots are held, not refused ------------------------

#[test]
fn requests_beyond_the_slots_are_held_and_delivered_in_order() {
    let mut p = Pair::ready();
    let burst: String = (1..=10).map(list).collect();
    p.play_client(burst.as_bytes());
    assert_eq!(p.server.take(), (1..=4).map(listed).collect::<Vec<_>>());
    assert!(p.server.new_lines().is_empty(), "nothing refused");
    assert_eq!(p.server.ep.peer_requests_in_flight(), 4);
    // Each answer lets the oldest held request through.
    for i in 1..=10u32 {
        p.server.respond(&RequestId::from_u64(i.into()), &raw(br#"{"tools":[]}"#)).unwrap();
        p.server.drain();
        let next = i + 4;
        assert_eq!(p.server.take(), if next <= 10 { vec![listed(next)] } else { vec![] }, "after {i}");
    }
    let answers: Vec<String> =
        (1..=10).map(|i| format!(r#"{{"jsonrpc":"2.0","id":{i},"result":{{"tools":[]}}}}"#)).collect();
    assert_eq!(p.server.new_lines(), answers);
    assert_eq!(p.server.ep.peer_requests_in_flight(), 0);
}

// ---- giving up on a request, and the deadline ------------------------------------------

#[test]
fn an_abandoned_request_is_answered_and_over() {
    let mut p = Pair::ready();
    p.play_client(list(1).as_bytes());
    p.server.take();
    let pending = p.server.pending_for(&RequestId::from_u64(1));
    assert_eq!(p.server.ep.abandon(&pending), Ok(Responded::Sent));
    p.server.drain();
    assert_eq!(
        p.server.new_lines(),
        vec![r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"Request abandoned"}}"#]
    );
    assert_eq!(p.server.ep.peer_requests_in_flight(), 0);
    // Anything later is suppressed, not refused: the worker that finishes late has
    // nothing to fix.
    assert_eq!(p.server.ep.respond(&pending, &RawJson::EMPTY_OBJECT), Ok(Responded::Suppressed));
    assert_eq!(p.server.ep.abandon(&pending), Ok(Responded::Suppressed));
    assert!(p.server.new_lines().is_empty());
}

#[test]
fn the_deadline_answers_what_the_application_forgot_and_ends_it() {
    let server = server_config().answer_within(std::time::Duration::from_secs(5));
    let mut p = Pair::ready_with(client_config(), server);
    p.play_client(list(1).as_bytes());
    p.server.take();
    assert_eq!(p.server.ep.poll_timeout(), Some(p.now + std::time::Duration::from_secs(5)));
    p.now = p.now + std::time::Duration::from_millis(4_999);
    p.server.ep.handle_timeout(p.now);
    p.server.drain();
    assert!(p.server.new_lines().is_empty());
    p.now = p.now + std::time::Duration::from_millis(1);
    p.server.ep.handle_timeout(p.now);
    p.server.drain();
    assert_eq!(
        p.server.new_lines(),
        vec![r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"Request not answered in time"}}"#]
    );
    assert_eq!(p.server.take(), vec![Ev::Expired { id: "1".into() }]);
    assert_eq!(p.server.ep.poll_timeout(), None);
    assert_eq!(p.server.respond(&RequestId::from_u64(1), &RawJson::EMPTY_OBJECT), Ok(Responded::Suppressed));
    assert!(p.server.new_lines().is_empty());
}

#[test]
fn after_end_of_input_an_unanswered_request_ends_the_session_at_its_deadline() {
    let server = server_config().answer_within(std::time::Duration::from_secs(5));
    let mut p = Pair::ready_with(client_config(), server);
    p.play_client(list(1).as_bytes());
    p.server.take();
    p.server.ep.handle_eof(p.now);
    p.server.drain();
    assert!(p.server.take().is_empty(), "still owed an answer");
    p.now = p.now + std::time::Duration::from_secs(5);
    p.server.ep.handle_timeout(p.now);
    p.server.drain();
    assert_eq!(p.server.take(), vec![Ev::Expired { id: "1".into() }, Ev::Closed { reason: "PeerClosed".into() }]);
}

// ---- held requests do not hold anything up --------------------------------------------

#[test]
fn what_arrives_behind_held_requests_keeps_flowing() {
    let mut p = Pair::ready();
    // A request of the server's to the client, whose answer will arrive behind held ones.
    let ask = p.server.ep.send_request(p.now, "roots/list", mcp_sansio::wire::NO_PARAMS, Default::default()).unwrap();
    p.drive();
    p.client.take();
    p.server.new_lines();
    let burst: String = (1..=6).map(list).collect();
    p.play_client(burst.as_bytes());
    assert_eq!(p.server.take(), (1..=4).map(listed).collect::<Vec<_>>());
    // Behind the two held requests: a ping, the answer the server waits for, a
    // notification, and the cancellation of held request 6.
    p.play_client(
        format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":\"p\",\"method\":\"ping\"}}\n\
             {{\"jsonrpc\":\"2.0\",\"id\":{ask},\"result\":{{\"roots\":[]}}}}\n\
             {{\"jsonrpc\":\"2.0\",\"method\":\"notifications/roots/list_changed\"}}\n{}",
            cancel(6)
        )
        .as_bytes(),
    );
    assert_eq!(
        p.server.take(),
        vec![
            Ev::Response { id: ask.to_string(), method: Some("roots/list".into()), result: r#"{"roots":[]}"#.into() },
            Ev::Notification { method: "notifications/roots/list_changed".into(), params: None },
        ]
    );
    assert_eq!(p.server.new_lines(), vec![r#"{"jsonrpc":"2.0","id":"p","result":{}}"#]);
    // Two answers free two slots: the held request 5 comes through; 6 was cancelled and
    // is never delivered nor answered.
    for i in 1..=2 {
        p.server.respond(&RequestId::from_u64(i), &raw(br#"{"tools":[]}"#)).unwrap();
    }
    p.server.drain();
    assert_eq!(p.server.take(), vec![listed(5)]);
    // A held id is in flight: a duplicate of it is refused.
    p.play_client(list(3).as_bytes());
    assert_eq!(p.server.take(), vec![Ev::Misbehavior("RequestRefused(3, tools/list, -32600, DuplicateId)".into())]);
}

#[test]
fn held_requests_are_still_served_after_end_of_input() {
    let mut p = Pair::ready();
    let burst: String = (1..=6).map(list).collect();
    p.play_client(burst.as_bytes());
    p.server.ep.handle_eof(p.now);
    p.server.drain();
    assert_eq!(p.server.take(), (1..=4).map(listed).collect::<Vec<_>>());
    for i in 1..=6 {
        p.server.respond(&RequestId::from_u64(i), &raw(br#"{"tools":[]}"#)).unwrap();
        p.server.drain();
    }
    let events = p.server.take();
    assert_eq!(events, vec![listed(5), listed(6), Ev::Closed { reason: "PeerClosed".into() }]);
    assert_eq!(p.server.new_lines().len(), 6);
}

#[test]
fn held_requests_use_at_most_half_the_receive_buffer() {
    // A 1024-byte receive buffer: each held entry takes its line and a small header.
    let mut p = Pair::with_buffers(client_config(), server_config(), [64 * 1024, 64 * 1024, 1024, 64 * 1024]);
    p.drive();
    p.server.take();
    p.server.new_lines();
    let burst: String = (1..=30).map(list).collect();
    p.play_client(burst.as_bytes());
    let events = p.server.take();
    let delivered = events.iter().filter(|e| matches!(e, Ev::Request { .. })).count();
    let refused: Vec<&Ev> = events.iter().filter(|e| matches!(e, Ev::Misbehavior(_))).collect();
    assert_eq!(delivered, 4);
    assert!(!refused.is_empty(), "past half the buffer, requests are refused");
    let held = 30 - delivered - refused.len();
    // 44-byte lines and a 14-byte header: 8 fit in 512 bytes.
    assert_eq!(held, 8, "{events:?}");
    for line in p.server.new_lines() {
        assert!(line.ends_with(r#""error":{"code":-32603,"message":"Too many requests in flight"}}"#), "{line}");
    }
}

#[test]
fn a_frame_that_needs_the_room_of_held_requests_gets_it() {
    let mut p = Pair::with_buffers(client_config(), server_config(), [64 * 1024, 64 * 1024, 1024, 64 * 1024]);
    p.drive();
    p.server.take();
    p.server.new_lines();
    let burst: String = (1..=8).map(list).collect();
    p.play_client(burst.as_bytes());
    assert_eq!(p.server.take(), (1..=4).map(listed).collect::<Vec<_>>());
    // A 900-byte notification needs more than the half held requests leave: the newest
    // held ones are refused to make room, and it is read.
    let pad = "x".repeat(800);
    let big = format!("{{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\",\"params\":{{\"pad\":\"{pad}\"}}}}\n");
    p.play_client(big.as_bytes());
    let events = p.server.take();
    assert_eq!(events.len(), 1, "{events:?}");
    assert!(matches!(&events[0], Ev::Notification { method, .. } if method == "notifications/x"));
    let refusals = p.server.new_lines();
    assert!(!refusals.is_empty());
    assert!(refusals[0].starts_with(r#"{"jsonrpc":"2.0","id":8,"error":{"code":-32603"#), "{refusals:?}");
    // The oldest held requests that were not refused still come through.
    p.server.respond(&RequestId::from_u64(1), &raw(br#"{"tools":[]}"#)).unwrap();
    p.server.drain();
    assert_eq!(p.server.take(), vec![listed(5)]);
}

#[test]
fn refusal_instead_of_holding_stays_available() {
    let mut p = Pair::ready_with(client_config(), server_config().overflow(Overflow::Refuse));
    let burst: String = (1..=5).map(list).collect();
    p.play_client(burst.as_bytes());
    let events = p.server.take();
    assert_eq!(events[4], Ev::Misbehavior("RequestRefused(5, tools/list, -32603, TooManyRequests)".into()));
}
