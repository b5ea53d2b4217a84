//! Buffer limits never cost the peer its answer: a message too long to read is answered
//! when its id can be seen, and a reply too long to send is replaced by an error that
//! fits.

mod common;

use common::*;
use mcp_sansio::Instant;
use mcp_sansio::session::{Era, SendError};
use mcp_sansio::wire::RawJson;

fn lone_ready_server(rx: usize, tx: usize) -> Side {
    let mut server = Side::lone_with(server_config(), rx, tx);
    server.feed(Instant::ZERO, &handshake_lines());
    server.take();
    server.new_lines();
    server
}

// ---- defect 5: a line longer than the receive buffer ----------------------------------

#[test]
fn an_oversized_request_whose_id_can_be_seen_is_answered() {
    // A 450-byte tools/call to a 256-byte receive buffer, as seen on a microcontroller.
    let mut server = lone_ready_server(256, 4096);
    let call = format!(
        r#"{{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{{"name":"echo","arguments":{{"text":"{}"}}}}}}"#,
        "x".repeat(355)
    );
    assert_eq!(call.len(), 450);
    for chunk in [1, 64, 4096] {
        for part in format!("{call}\n").as_bytes().chunks(chunk) {
            server.feed(Instant::ZERO, part);
        }
        assert_eq!(
            server.new_lines(),
            vec![
                r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"Invalid Request: message of 450 bytes exceeds the 255-byte limit"}}"#
            ],
            "chunk {chunk}"
        );
    }
}

#[test]
fn an_oversized_response_fails_the_request_it_answers() {
    let mut p = Pair::with_buffers(client_config(), server_config(), [256, 64 * 1024, 64 * 1024, 64 * 1024]);
    p.drive();
    p.client.take();
    let id = p.client.ep.send_request(p.now, "tools/list", mcp_sansio::wire::NO_PARAMS, Default::default()).unwrap();
    p.drive();
    p.server.take();
    let tools = format!(r#"{{"tools":[{{"name":"{}","inputSchema":{{"type":"object"}}}}]}}"#, "t".repeat(400));
    p.server.respond(&id, &raw(Box::leak(tools.into_bytes().into_boxed_slice()))).unwrap();
    p.drive();
    assert_eq!(p.client.take(), vec![Ev::ResponseTooLong { id: id.to_string(), len: 489 }]);
    assert_eq!(p.client.ep.requests_in_flight(), 0);
}

// ---- defect 6: a reply that does not fit the transmit buffer --------------------------

#[test]
fn a_reply_that_can_never_fit_is_replaced_by_an_error_that_does() {
    // A ping and a tools/list whose 2000-byte ids make any reply larger than the
    // 1024-byte transmit buffer: the id itself is what does not fit, so it is null.
    let mut server = lone_ready_server(64 * 1024, 1024);
    let id = "i".repeat(2000);
    for method in ["ping", "tools/list"] {
        let line = format!("{{\"jsonrpc\":\"2.0\",\"id\":\"{id}\",\"method\":\"{method}\"}}\n");
        server.feed(Instant::ZERO, line.as_bytes());
        let needed = if method == "ping" { 2038 } else { 2085 };
        assert_eq!(
            server.new_lines(),
            vec![format!(
                r#"{{"jsonrpc":"2.0","id":null,"error":{{"code":-32603,"message":"Reply of {needed} bytes exceeds the 1024-byte transmit buffer"}}}}"#
            )],
            "{method}"
        );
    }
    // Under 2025-11-25 the id is omitted instead.
    let mut server = Side::lone_with(server_config(), 64 * 1024, 1024);
    server.feed(
        Instant::ZERO,
        concat!(
            r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#,
            "\n"
        )
        .as_bytes(),
    );
    server.new_lines();
    server.feed(Instant::ZERO, format!("{{\"jsonrpc\":\"2.0\",\"id\":\"{id}\",\"method\":\"ping\"}}\n").as_bytes());
    assert_eq!(
        server.new_lines(),
        vec![
            r#"{"jsonrpc":"2.0","error":{"code":-32603,"message":"Reply of 2038 bytes exceeds the 1024-byte transmit buffer"}}"#
        ]
    );
}

#[test]
fn an_answer_larger_than_the_buffer_is_replaced_and_said_so() {
    let mut server = lone_ready_server(64 * 1024, 1024);
    server.feed(Instant::ZERO, b"{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/list\"}\n");
    let big = format!(r#"{{"tools":[{{"name":"{}"}}]}}"#, "t".repeat(2000));
    let id = mcp_sansio::wire::RequestId::from_u64(5);
    assert_eq!(
        server.respond(&id, &raw(Box::leak(big.into_bytes().into_boxed_slice()))),
        Err(SendError::ReplyTooLarge { needed: 2058, capacity: 1024 })
    );
    server.drain();
    assert_eq!(
        server.new_lines(),
        vec![
            r#"{"jsonrpc":"2.0","id":5,"error":{"code":-32603,"message":"Reply of 2058 bytes exceeds the 1024-byte transmit buffer"}}"#
        ]
    );
    assert_eq!(server.ep.peer_requests_in_flight(), 0);
    assert_eq!(server.respond(&id, &RawJson::EMPTY_OBJECT), Err(SendError::AlreadyAnswered));
}

#[test]
fn an_automatic_reply_that_fits_only_later_waits_for_the_room() {
    // A pong larger than the reply reserve but smaller than the buffer: its line waits
    // until the queued bytes are out, then it is answered, and the lines after it too.
    let mut server = lone_ready_server(64 * 1024, 1024);
    let pad = RawJson::parse(br#"{"level":"info","data":"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}"#).unwrap();
    server.ep.send_notification(Instant::ZERO, "notifications/message", Some(&pad)).unwrap();
    let id = "i".repeat(600);
    let input = format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":\"{id}\",\"method\":\"ping\"}}\n{{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}}\n"
    );
    assert_eq!(server.ep.handle_input(Instant::ZERO, input.as_bytes()), input.len());
    server.drain();
    let lines = server.new_lines();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(lines[0].contains("notifications/message"));
    assert_eq!(lines[1], format!(r#"{{"jsonrpc":"2.0","id":"{id}","result":{{}}}}"#));
    assert_eq!(lines[2], r#"{"jsonrpc":"2.0","id":2,"result":{}}"#);
}

#[test]
fn the_transmit_floor_is_tunable_for_small_parts() {
    use mcp_sansio::session::{ConfigError, OutputMode};
    // The reserve must hold the longest reply the endpoint writes on its own.
    let err = |config, tx| Ep::new(config, leak(256), leak(tx), Instant::ZERO).err();
    assert_eq!(
        err(server_config().era(Era::Legacy).reply_reserve(100), 4096),
        Some(ConfigError::ReserveTooSmall { needed: 229 })
    );
    let messages = server_config().era(Era::Legacy).reply_reserve(100).output(OutputMode::Messages);
    assert_eq!(err(messages, 4096), Some(ConfigError::ReserveTooSmall { needed: 237 }));
    // With the default reserve a server of the handshake era needs 512 bytes; tuned
    // down, what its initialize result needs. (A dual-era server also needs its
    // server/discover result to fit: session_modern tests that floor.)
    assert_eq!(err(server_config().era(Era::Legacy), 511), Some(ConfigError::TxTooSmall { needed: 512 }));
    assert_eq!(
        err(server_config().era(Era::Legacy).reply_reserve(229), 303),
        Some(ConfigError::TxTooSmall { needed: 304 })
    );
    // Such a server works: handshake, a ping with the longest id it stores, a refusal.
    let mut server = Side::lone_with(server_config().era(Era::Legacy).reply_reserve(229), 256, 304);
    server.feed(Instant::ZERO, &handshake_lines());
    let id = "i".repeat(62);
    server.feed(Instant::ZERO, format!("{{\"jsonrpc\":\"2.0\",\"id\":\"{id}\",\"method\":\"ping\"}}\n").as_bytes());
    server.feed(
        Instant::ZERO,
        format!("{{\"jsonrpc\":\"2.0\",\"id\":\"{id}\",\"method\":\"sampling/createMessage\"}}\n").as_bytes(),
    );
    let lines = server.new_lines();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert_eq!(lines[1], format!(r#"{{"jsonrpc":"2.0","id":"{id}","result":{{}}}}"#));
    assert!(lines[2].contains("-32601"));
}

#[test]
fn a_line_waiting_for_room_is_kept_when_the_buffer_fills_behind_it() {
    // The pong to a ping with a long id does not fit beside a queued notification, so its
    // line waits in the receive buffer; before the next poll, bytes without a newline
    // fill the buffer behind it. The waiting line is still a complete line: it is
    // answered, and only then is the rest a line too long. (The framer used to look for a
    // newline only past the waiting line's, took the whole buffer for one line too long,
    // and the pong was never sent.)
    let mut server = lone_ready_server(1024, 1024);
    let data = "x".repeat(330);
    let pad = format!(r#"{{"level":"info","data":"{data}"}}"#);
    let pad = RawJson::parse(pad.as_bytes()).unwrap();
    server.ep.send_notification(Instant::ZERO, "notifications/message", Some(&pad)).unwrap();
    let id = "i".repeat(600);
    let ping = format!("{{\"jsonrpc\":\"2.0\",\"id\":\"{id}\",\"method\":\"ping\"}}\n");
    assert_eq!(server.ep.handle_input(Instant::ZERO, ping.as_bytes()), ping.len());
    match server.ep.poll_output() {
        mcp_sansio::session::Output::Transmit(bytes) => server.sent.extend_from_slice(&bytes),
        _ => panic!("the notification goes out first"),
    }
    let mut taken = 0;
    while taken < 4096 {
        let n = server.ep.handle_input(Instant::ZERO, &[b'y'; 64]);
        if n == 0 {
            break;
        }
        taken += n;
    }
    assert!(taken < 1024, "a full buffer takes nothing more until the waiting line is out ({taken} taken)");
    server.drain();
    let lines = server.new_lines();
    assert!(lines[0].contains("notifications/message"), "{lines:?}");
    assert_eq!(lines[1], format!(r#"{{"jsonrpc":"2.0","id":"{id}","result":{{}}}}"#));
    assert_eq!(lines.len(), 2, "{lines:?}");
    // The rest of that line, and the next message after its newline.
    server.feed(Instant::ZERO, &[b'y'; 2000]);
    server.feed(Instant::ZERO, b"\n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}\n");
    assert_eq!(server.new_lines(), [r#"{"jsonrpc":"2.0","id":2,"result":{}}"#]);
}
