//! Output modes and routing: message mode hands out one message at a time with the
//! origin of the request it belongs to; line mode hands out everything at once; a
//! transport that takes part of a transmit gets the rest first.

mod common;

use std::time::Duration;

use common::*;
use mcp_sansio::mcp::Role;
use mcp_sansio::session::{Config, Endpoint, Event, Origin, Output, OutputMode, PendingRequest, RequestOptions};
use mcp_sansio::time::Instant;
use mcp_sansio::wire::NO_PARAMS;

type Server = Endpoint<'static, 4, 2>;

const INIT: &[u8] = br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"sampling":{}},"clientInfo":{"name":"c","version":"1"}}}"#;
const INITIALIZED: &[u8] = br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

/// A message-mode server after the handshake (on origin 0).
fn server(config: Config<'static>) -> Server {
    let mut s = Server::new(config.output(OutputMode::Messages), leak(4096), leak(4096), Instant::ZERO).unwrap();
    assert!(s.handle_frame_from(Instant::ZERO, Some(Origin(0)), INIT));
    assert!(s.handle_frame(Instant::ZERO, INITIALIZED));
    drain(&mut s, &mut |_| {});
    s
}

/// Drains, collecting every transmit as (text, origin); each is one whole message.
fn drain(s: &mut Server, on_request: &mut dyn FnMut(PendingRequest)) -> Vec<(String, Option<u32>)> {
    let mut out = Vec::new();
    loop {
        match s.poll_output() {
            Output::Transmit(t) => {
                assert!(!t.ends_with(b"\n"), "no newline in message mode");
                let text = String::from_utf8(t.to_vec()).unwrap();
                serde_json::from_str::<serde_json::Value>(&text).expect("one whole message");
                out.push((text, t.origin.map(|o| o.0)));
            }
            Output::Event(Event::Request(r)) => on_request(r.pending()),
            Output::Event(_) => {}
            Output::Idle { .. } => return out,
        }
    }
}

fn request(id: u32, method: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{{"_meta":{{"progressToken":{id}}}}}}}"#)
}

#[test]
fn everything_sent_for_a_request_carries_its_origin() {
    let mut s = server(server_config());
    let mut pending = Vec::new();
    assert!(s.handle_frame_from(Instant::ZERO, Some(Origin(5)), request(1, "tools/call").as_bytes()));
    assert!(s.handle_frame_from(Instant::ZERO, Some(Origin(6)), br#"{"jsonrpc":"2.0","id":"p","method":"ping"}"#));
    assert!(s.handle_frame_from(
        Instant::ZERO,
        Some(Origin(7)),
        br#"{"jsonrpc":"2.0","id":3,"method":"sampling/createMessage"}"#
    ));
    let out = drain(&mut s, &mut |p| pending.push(p));
    assert_eq!(
        out,
        vec![
            (r#"{"jsonrpc":"2.0","id":"p","result":{}}"#.into(), Some(6)),
            (r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"Method not found: not in this protocol version"}}"#.into(), Some(7)),
        ]
    );
    let call = pending.pop().unwrap();
    assert_eq!(call.origin(), Some(Origin(5)));
    // Progress, a log message and a sampling request about it, and its answer: all on 5.
    s.send_progress(&call, 1, Some(2), None).unwrap();
    let log = raw(br#"{"level":"info","data":"working"}"#);
    s.send_related_notification(Instant::ZERO, &call, "notifications/message", Some(&log)).unwrap();
    let ask = raw(br#"{"messages":[],"maxTokens":5}"#);
    let options = RequestOptions::default().related_to(&call).timeout(Duration::from_secs(1));
    let sampling = s.send_request(Instant::ZERO, "sampling/createMessage", Some(&ask), options).unwrap();
    // A notification about nothing in particular has no origin.
    s.send_notification(Instant::ZERO, "notifications/tools/list_changed", NO_PARAMS).unwrap();
    let out = drain(&mut s, &mut |_| {});
    let origins: Vec<Option<u32>> = out.iter().map(|(_, o)| *o).collect();
    assert_eq!(origins, vec![Some(5), Some(5), Some(5), None], "{out:?}");
    // The sampling request times out: its cancellation goes where it went.
    s.handle_timeout(Instant::from_secs(1));
    let out = drain(&mut s, &mut |_| {});
    assert_eq!(
        out,
        vec![(
            format!(
                r#"{{"jsonrpc":"2.0","method":"notifications/cancelled","params":{{"requestId":{sampling},"reason":"Request timed out"}}}}"#
            ),
            Some(5)
        )]
    );
    s.respond(&call, &raw(br#"{"content":[]}"#)).unwrap();
    let out = drain(&mut s, &mut |_| {});
    assert_eq!(out, vec![(r#"{"jsonrpc":"2.0","id":1,"result":{"content":[]}}"#.into(), Some(5))]);
}

#[test]
fn held_expired_and_refused_requests_keep_their_origin() {
    let mut s = server(server_config().answer_within(Duration::from_secs(10)));
    // Two slots: 1 and 2 are delivered, 3 is held.
    for (i, origin) in [(1, 11), (2, 12), (3, 13)] {
        assert!(s.handle_frame_from(Instant::ZERO, Some(Origin(origin)), request(i, "tools/list").as_bytes()));
    }
    let mut pending = Vec::new();
    assert!(drain(&mut s, &mut |p| pending.push(p)).is_empty());
    assert_eq!(pending.iter().map(|p| p.origin()).collect::<Vec<_>>(), vec![Some(Origin(11)), Some(Origin(12))]);
    s.respond(&pending[0], &raw(br#"{"tools":[]}"#)).unwrap();
    let out = drain(&mut s, &mut |p| pending.push(p));
    assert_eq!(out, vec![(r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}"#.into(), Some(11))]);
    assert_eq!(pending.last().unwrap().origin(), Some(Origin(13)), "the held request kept its origin");
    // Requests 2 and 3 expire: the endpoint's answers go back on 12 and 13.
    s.handle_timeout(Instant::from_secs(10));
    let mut out = drain(&mut s, &mut |_| {});
    out.sort_by_key(|(_, o)| *o);
    let expired = |id: u32, origin: u32| {
        (
            format!(
                r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32603,"message":"Request not answered in time"}}}}"#
            ),
            Some(origin),
        )
    };
    assert_eq!(out, vec![expired(2, 12), expired(3, 13)]);
}

#[test]
fn an_oversized_frame_is_answered_on_its_channel() {
    let mut s = server(server_config());
    let big = format!(r#"{{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{{"pad":"{}"}}}}"#, "x".repeat(5000));
    assert!(s.handle_frame_from(Instant::ZERO, Some(Origin(3)), big.as_bytes()));
    let out = drain(&mut s, &mut |_| {});
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].1, Some(3));
    assert!(out[0].0.starts_with(r#"{"jsonrpc":"2.0","id":9,"error":{"code":-32600"#), "{out:?}");
}

#[test]
fn a_batch_is_answered_on_its_channel() {
    let config = server_config().versions(mcp_sansio::mcp::VersionSet::only(mcp_sansio::ProtocolVersion::V2025_03_26));
    let mut s = Server::new(config.output(OutputMode::Messages), leak(4096), leak(4096), Instant::ZERO).unwrap();
    assert!(s.handle_frame(Instant::ZERO, INIT));
    assert!(s.handle_frame(Instant::ZERO, INITIALIZED));
    drain(&mut s, &mut |_| {});
    let batch = br#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]"#;
    assert!(s.handle_frame_from(Instant::ZERO, Some(Origin(4)), batch));
    let out = drain(&mut s, &mut |_| {});
    assert_eq!(
        out,
        vec![
            (r#"{"jsonrpc":"2.0","id":1,"result":{}}"#.into(), Some(4)),
            (r#"{"jsonrpc":"2.0","id":2,"result":{}}"#.into(), Some(4))
        ]
    );
}

#[test]
fn line_mode_hands_out_everything_at_once_without_origins() {
    let mut s: Server = Endpoint::new(server_config(), leak(4096), leak(4096), Instant::ZERO).unwrap();
    assert!(s.handle_frame_from(Instant::ZERO, Some(Origin(1)), INIT));
    assert!(s.handle_frame(Instant::ZERO, INITIALIZED));
    assert!(s.handle_frame_from(Instant::ZERO, Some(Origin(2)), br#"{"jsonrpc":"2.0","id":"a","method":"ping"}"#));
    let mut transmits = Vec::new();
    loop {
        match s.poll_output() {
            Output::Transmit(t) => transmits.push((t.to_vec(), t.origin)),
            Output::Idle { .. } => break,
            _ => {}
        }
    }
    assert_eq!(transmits.len(), 1);
    assert_eq!(transmits[0].1, None);
    let text = String::from_utf8(transmits[0].0.clone()).unwrap();
    assert_eq!(text.lines().count(), 2);
    assert!(text.ends_with("{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"result\":{}}\n"));
}

#[test]
fn a_transport_that_takes_part_of_a_transmit_gets_the_rest_first() {
    for mode in [OutputMode::Lines, OutputMode::Messages] {
        let config = Config::new(Role::Server, raw(SERVER_INFO)).output(mode);
        let mut s: Server = Endpoint::new(config, leak(4096), leak(4096), Instant::ZERO).unwrap();
        assert!(s.handle_frame(Instant::ZERO, INIT));
        assert!(s.handle_frame(Instant::ZERO, INITIALIZED));
        for id in 1..=3 {
            let ping = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"ping"}}"#);
            assert!(s.handle_frame(Instant::ZERO, ping.as_bytes()));
        }
        // A "UART" that takes at most 7 bytes per write.
        let mut wire = Vec::new();
        loop {
            match s.poll_output() {
                Output::Transmit(t) => {
                    let n = t.len().min(7);
                    wire.extend_from_slice(&t[..n]);
                    if mode == OutputMode::Messages && n == t.len() {
                        wire.push(b'\n');
                    }
                    s.sent(n);
                }
                Output::Idle { .. } => break,
                _ => {}
            }
        }
        let lines: Vec<String> = String::from_utf8(wire).unwrap().lines().map(str::to_owned).collect();
        assert_eq!(lines.len(), 4, "{mode:?}: {lines:?}");
        assert!(lines[0].starts_with(r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion""#), "{mode:?}");
        for (id, line) in lines.iter().enumerate().skip(1) {
            assert_eq!(*line, format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{}}}}"#), "{mode:?}");
        }
    }
}

#[test]
fn a_held_request_refused_to_make_room_is_refused_on_its_channel() {
    let mut s = server(server_config());
    for (i, origin) in [(1, 21), (2, 22), (3, 23)] {
        assert!(s.handle_frame_from(Instant::ZERO, Some(Origin(origin)), request(i, "tools/list").as_bytes()));
    }
    assert!(drain(&mut s, &mut |_| {}).is_empty(), "two delivered, one held");
    // A frame that needs nearly the whole receive buffer, the held request's room too.
    let big = format!(r#"{{"jsonrpc":"2.0","method":"notifications/x","params":{{"pad":"{}"}}}}"#, "x".repeat(4000));
    assert!(s.handle_frame_from(Instant::ZERO, Some(Origin(24)), big.as_bytes()));
    let out = drain(&mut s, &mut |_| {});
    assert_eq!(
        out,
        vec![(
            r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"Too many requests in flight"}}"#.into(),
            Some(23)
        )]
    );
}
