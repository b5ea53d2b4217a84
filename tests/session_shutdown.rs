//! The end of a session (peer EOF, local close), a full transmit buffer, and input that
//! is not what it should be.

mod common;

use common::*;
use mcp_sansio::mcp::{ProtocolVersion, VersionSet};
use mcp_sansio::session::{Output, RequestOptions, Responded, SendError, State};
use mcp_sansio::time::Instant;
use mcp_sansio::wire::{NO_PARAMS, RawJson, RequestId};

// ---- end of input ------------------------------------------------------------------

#[test]
fn peer_eof_with_requests_in_flight_both_ways() {
    let mut p = Pair::ready();
    let c1 = p.client.ep.send_request(p.now, "tools/list", NO_PARAMS, RequestOptions::default()).unwrap();
    let c2 = p.client.ep.send_request(p.now, "prompts/list", NO_PARAMS, RequestOptions::default()).unwrap();
    let s1 = p.server.ep.send_request(p.now, "roots/list", NO_PARAMS, RequestOptions::default()).unwrap();
    p.drive();
    p.client.take();
    p.server.take();
    // The server's output ends (it still reads).
    p.server.eof_pending = true;
    p.drive();
    assert_eq!(
        p.client.take(),
        vec![
            Ev::Failed { id: c1.to_string(), reason: "PeerClosed".into() },
            Ev::Failed { id: c2.to_string(), reason: "PeerClosed".into() },
        ]
    );
    // Not closed: the client still owes the server an answer, and sends it.
    assert!(!p.client.ep.is_closed());
    assert_eq!(p.client.ep.state(), State::Closing);
    assert_eq!(
        p.client.ep.send_request(p.now, "tools/list", NO_PARAMS, RequestOptions::default()),
        Err(SendError::Closed)
    );
    assert_eq!(p.client.respond(&s1, &raw(br#"{"roots":[]}"#)), Ok(Responded::Sent));
    p.drive();
    assert_eq!(p.client.take(), vec![Ev::Closed { reason: "PeerClosed".into() }]);
    assert_eq!(
        p.client.new_lines().last().unwrap(),
        &format!(r#"{{"jsonrpc":"2.0","id":{s1},"result":{{"roots":[]}}}}"#)
    );
    assert_eq!(
        p.server.take(),
        vec![Ev::Response { id: s1.to_string(), method: Some("roots/list".into()), result: r#"{"roots":[]}"#.into() }]
    );
    assert!(p.client.ep.is_closed());
    assert_eq!(p.client.ep.state(), State::Closed);
    assert_eq!(p.client.respond(&s1, &raw(b"{}")), Err(SendError::AlreadyAnswered));
}

#[test]
fn answers_queued_before_eof_are_flushed_first() {
    let mut server = Side::lone(server_config());
    let now = Instant::ZERO;
    let input = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"c\",\"version\":\"1\"}}}\n\
{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n\
{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}\n\
{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}\n\
{\"jsonrpc\":\"2.0\",\"id\":4,\"meth";
    // Everything arrives at once, followed by the end of input.
    assert_eq!(server.ep.handle_input(now, input), input.len());
    server.ep.handle_eof(now);
    let mut log = Vec::new();
    loop {
        match server.ep.poll_output() {
            Output::Transmit(b) => {
                for line in String::from_utf8_lossy(&b).lines() {
                    log.push(format!("tx {line}"));
                }
            }
            Output::Event(mcp_sansio::session::Event::Request(mut r)) => {
                log.push(format!("request {}", r.method));
                r.respond(&raw(br#"{"tools":[]}"#)).unwrap();
            }
            Output::Event(e) => log.push(format!("{:?}", own(&e))),
            Output::Idle { .. } => break,
        }
    }
    // Every line is processed (the buffer has room for the answers), the broken tail
    // is reported, the answers go out, and only then the session closes.
    assert_eq!(log.len(), 8, "{log:#?}");
    assert!(log[0].starts_with("Negotiated { version: V2025_06_18"));
    assert!(log[4].starts_with(r#"tx {"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18""#));
    assert_eq!(
        log[1..].iter().enumerate().filter(|(i, _)| *i != 3).map(|(_, l)| l.as_str()).collect::<Vec<_>>(),
        vec![
            "Ready { version: V2025_06_18 }",
            "request tools/list",
            "Misbehavior(\"UnterminatedLine(29)\")",
            r#"tx {"jsonrpc":"2.0","id":2,"result":{"tools":[]}}"#,
            r#"tx {"jsonrpc":"2.0","id":3,"result":{}}"#,
            "Closed { reason: \"PeerClosed\" }",
        ]
    );
    assert!(server.ep.is_closed());
    // After Closed: silence, whatever comes.
    assert_eq!(
        server.ep.handle_input(now, b"{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\"}\n"),
        b"{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\"}\n".len()
    );
    assert!(matches!(server.ep.poll_output(), Output::Idle { next_timeout: None }));
}

#[test]
fn eof_during_the_handshake() {
    // Client: the server went away before answering initialize.
    let mut client = Side::lone(client_config());
    client.ep.handle_eof(Instant::ZERO);
    client.drain();
    assert_eq!(client.take(), vec![Ev::Closed { reason: "PeerClosed".into() }]);
    assert_eq!(client.ep.poll_timeout(), None);
    // Server: the client went away right after initialize.
    let mut server = Side::lone(server_config());
    server.feed(Instant::ZERO, b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"c\",\"version\":\"1\"}}}\n");
    server.ep.handle_eof(Instant::ZERO);
    server.drain();
    let events = server.take();
    assert_eq!(events.last(), Some(&Ev::Closed { reason: "PeerClosed".into() }));
    assert_eq!(server.sent_lines().len(), 1, "the initialize result still went out");
}

#[test]
fn local_close_fails_ours_abandons_theirs_and_flushes() {
    let mut p = Pair::ready();
    let c1 = p.client.ep.send_request(p.now, "tools/list", NO_PARAMS, RequestOptions::default()).unwrap();
    let s1 = p.server.ep.send_request(p.now, "roots/list", NO_PARAMS, RequestOptions::default()).unwrap();
    p.drive();
    p.client.take();
    p.client.new_lines();
    // Queued, not yet handed out, then the close.
    p.client.ep.send_notification(p.now, "notifications/roots/list_changed", NO_PARAMS).unwrap();
    p.client.ep.close(p.now);
    p.client.ep.close(p.now);
    assert_eq!(p.client.ep.send_request(p.now, "ping", NO_PARAMS, RequestOptions::default()), Err(SendError::Closed));
    assert_eq!(
        p.client.ep.send_notification(p.now, "notifications/roots/list_changed", NO_PARAMS),
        Err(SendError::Closed)
    );
    assert_eq!(p.client.ep.cancel(p.now, &c1, None), Err(SendError::Closed));
    // The server's request is abandoned: it can no longer be answered.
    assert!(p.client.respond(&s1, &raw(b"{}")).is_err());
    p.client.drain();
    assert_eq!(
        p.client.take(),
        vec![
            Ev::Failed { id: c1.to_string(), reason: "LocalClose".into() },
            Ev::Closed { reason: "LocalClose".into() },
        ]
    );
    assert_eq!(p.client.new_lines(), vec![r#"{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}"#]);
    // Input after the close is taken and ignored.
    p.server.respond(&c1, &raw(br#"{"tools":[]}"#)).unwrap();
    p.drive();
    assert!(p.client.take().is_empty());
    assert!(p.client.new_lines().is_empty());
    assert_eq!(p.client.ep.poll_timeout(), None);
}

#[test]
fn local_close_during_the_handshake() {
    let mut client = Side::lone(client_config());
    client.ep.close(Instant::ZERO);
    client.drain();
    assert_eq!(client.take(), vec![Ev::Closed { reason: "LocalClose".into() }]);
    assert_eq!(client.ep.poll_timeout(), None, "no initialize deadline any more");
    let mut server = Side::lone(server_config());
    server.ep.close(Instant::ZERO);
    server.drain();
    assert_eq!(server.take(), vec![Ev::Closed { reason: "LocalClose".into() }]);
}

// ---- a full transmit buffer ----------------------------------------------------------

fn big_result(n: usize) -> String {
    format!(r#"{{"content":[{{"type":"text","text":"{}"}}]}}"#, "r".repeat(n))
}

#[test]
fn a_full_transmit_buffer_delays_auto_replies_and_refuses_commands() {
    // Server transmit buffer: just above what it reserves for its own replies.
    let mut p = Pair::with_buffers(client_config(), server_config(), [64 * 1024, 64 * 1024, 64 * 1024, 1200]);
    p.drive();
    p.client.take();
    p.server.take();
    p.server.new_lines();
    let ids: Vec<RequestId> = (0..3)
        .map(|_| {
            p.client
                .ep
                .send_request(p.now, "tools/call", Some(&raw(br#"{"name":"t"}"#)), RequestOptions::default())
                .unwrap()
        })
        .collect();
    p.drive();
    assert_eq!(p.server.take().len(), 3);
    // The application answers without draining: the second answer does not fit.
    let result_text = big_result(700);
    let result = RawJson::parse(result_text.as_bytes()).unwrap();
    assert_eq!(p.server.respond(&ids[0], &result), Ok(Responded::Sent));
    let Err(SendError::TxFull { needed, available }) = p.server.respond(&ids[1], &result) else { panic!() };
    assert!(needed > available);
    assert_eq!(needed, format!(r#"{{"jsonrpc":"2.0","id":{},"result":{result_text}}}"#, ids[1]).len() + 1);
    // Nothing changed: that request is still owed.
    assert_eq!(p.server.ep.peer_requests_in_flight(), 2);
    // The client pings meanwhile. The server takes the bytes but answers only once the
    // pending answer is handed out.
    p.client.ep.send_request(p.now, "ping", NO_PARAMS, RequestOptions::default()).unwrap();
    p.client.drain();
    let ping_line = std::mem::take(&mut p.client.pipe);
    assert_eq!(p.server.ep.handle_input(p.now, &ping_line), ping_line.len());
    let first = match p.server.ep.poll_output() {
        Output::Transmit(b) => String::from_utf8_lossy(&b).into_owned(),
        other => panic!("{other:?}"),
    };
    assert!(first.starts_with(&format!(r#"{{"jsonrpc":"2.0","id":{},"result":{{"content""#, ids[0])));
    assert_eq!(first.matches('\n').count(), 1, "the pong is not in there yet");
    p.server.sent.extend_from_slice(first.as_bytes());
    p.server.pipe.extend_from_slice(first.as_bytes());
    // Draining on: the bytes count as written, the ping is processed, the pong goes out.
    p.server.drain();
    // Retry after the drain: everything fits now.
    assert_eq!(p.server.respond(&ids[1], &result), Ok(Responded::Sent));
    p.server.drain();
    assert_eq!(p.server.respond(&ids[2], &result), Ok(Responded::Sent));
    p.drive();
    let heads: Vec<String> =
        p.server.new_lines().iter().map(|l| l[..l.find(",\"result\"").unwrap()].to_string()).collect();
    assert_eq!(
        heads,
        vec![
            format!(r#"{{"jsonrpc":"2.0","id":{}"#, ids[0]),
            format!(r#"{{"jsonrpc":"2.0","id":{}"#, ids[2].as_ref().as_u64().unwrap() + 1),
            format!(r#"{{"jsonrpc":"2.0","id":{}"#, ids[1]),
            format!(r#"{{"jsonrpc":"2.0","id":{}"#, ids[2]),
        ]
    );
    let events = p.client.take();
    assert_eq!(events.iter().filter(|e| matches!(e, Ev::Response { .. })).count(), 4, "all three answers and the pong");
}

#[test]
fn a_flood_of_requests_through_small_buffers_loses_nothing() {
    // 300 pings in one write, into a 256-byte receive buffer and a small transmit buffer.
    let mut p = Pair::with_buffers(client_config(), server_config(), [64 * 1024, 64 * 1024, 256, 1200]);
    p.drive();
    p.server.take();
    p.server.new_lines();
    let mut flood = Vec::new();
    for i in 0..300 {
        flood.extend_from_slice(format!("{{\"jsonrpc\":\"2.0\",\"id\":\"p{i}\",\"method\":\"ping\"}}\n").as_bytes());
    }
    let mut rest = &flood[..];
    let mut short_reads = 0;
    while !rest.is_empty() {
        let n = p.server.ep.handle_input(p.now, rest);
        if n < rest.len() {
            short_reads += 1;
        }
        rest = &rest[n..];
        p.server.drain();
    }
    assert!(short_reads > 10, "the receive buffer pushed back");
    let lines = p.server.new_lines();
    assert_eq!(lines.len(), 300);
    for (i, line) in lines.iter().enumerate() {
        assert_eq!(line, &format!(r#"{{"jsonrpc":"2.0","id":"p{i}","result":{{}}}}"#));
    }
    assert!(p.server.take().is_empty());
}

#[test]
fn a_full_transmit_buffer_refuses_every_command_the_same_way() {
    let mut client = Side::lone_with(client_config(), 4096, 600);
    client.feed(
        Instant::ZERO,
        b"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{\"tools\":{}},\"serverInfo\":{\"name\":\"s\",\"version\":\"1\"}}}\n",
    );
    client.take();
    client.feed(
        Instant::ZERO,
        b"{\"jsonrpc\":\"2.0\",\"id\":\"s\",\"method\":\"roots/list\",\"params\":{\"_meta\":{\"progressToken\":1}}}\n",
    );
    client.take();
    let now = Instant::ZERO;
    let id = client.ep.send_request(now, "tools/list", NO_PARAMS, RequestOptions::default()).unwrap();
    let pad = format!(r#"{{"pad":"{}"}}"#, "p".repeat(450));
    let pad = RawJson::parse(pad.as_bytes()).unwrap();
    client.ep.send_notification(now, "x/pad", Some(&pad)).unwrap();
    let full = |r: Result<(), SendError>| matches!(r, Err(SendError::TxFull { .. }));
    assert!(full(client.ep.send_request(now, "tools/call", Some(&pad), RequestOptions::default()).map(drop)));
    assert!(full(client.ep.send_notification(now, "x/pad", Some(&pad))));
    assert!(full(client.ep.cancel(now, &id, Some(&"c".repeat(200)))));
    let sid = RequestId::string("s").unwrap();
    assert!(full(client.send_progress(&sid, 1.0, Some(2.0), Some(&"m".repeat(200))).map(drop)));
    assert!(full(client.respond(&sid, &pad).map(drop)));
    // All refused without effect: the request is still live, the peer's still owed.
    assert_eq!(client.ep.requests_in_flight(), 1);
    assert_eq!(client.ep.peer_requests_in_flight(), 1);
    client.drain();
    client.send_progress(&sid, 1.0, Some(2.0), None).unwrap();
    client.respond(&sid, &raw(br#"{"roots":[]}"#)).unwrap();
    client.ep.cancel(now, &id, None).unwrap();
    client.drain();
    let lines = client.sent_lines();
    assert_eq!(
        lines[lines.len() - 3..],
        [
            r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1.0,"total":2.0}}"#,
            r#"{"jsonrpc":"2.0","id":"s","result":{"roots":[]}}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}"#,
        ]
    );
}

// ---- broken input --------------------------------------------------------------------

const GARBAGE: &[u8] = b"not json at all\n\
{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n\
{\"jsonrpc\":\"1.0\",\"id\":2,\"method\":\"ping\"}\n\
\xff\xfe{}\n\
{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":[1]}\n\
{\"jsonrpc\":\"2.0\",\"id\":9,\"result\":5}\n\
\r\n   \n\
\"just a string\"\n\
{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}\n\
{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}\r\n\
{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\",\"params\":{\"a\":1,\"a\":2}}\n\
{\"jsonrpc\":\"2.0\",\"id\":{\"x\":1},\"method\":\"ping\"}\n\
{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"ping\"\n";

#[test]
fn a_server_answers_broken_requests_and_unreadable_lines_only() {
    for version in [ProtocolVersion::V2025_06_18, ProtocolVersion::V2025_11_25] {
        let client = client_config().versions(VersionSet::only(version));
        let mut p = Pair::ready_with(client, server_config());
        for chunk in [1, 3, 64, 4096] {
            p.chunk = chunk;
            p.play_client(GARBAGE);
            let null = if version == ProtocolVersion::V2025_11_25 { "" } else { r#""id":null,"# };
            assert_eq!(
                p.server.new_lines(),
                vec![
                    format!(
                        r#"{{"jsonrpc":"2.0",{null}"error":{{"code":-32700,"message":"Parse error: invalid literal (expected true, false or null)"}}}}"#
                    ),
                    r#"{"jsonrpc":"2.0","id":1,"result":{}}"#.to_string(),
                    r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32600,"message":"Invalid Request: \"jsonrpc\" must be \"2.0\""}}"#
                        .to_string(),
                    format!(
                        r#"{{"jsonrpc":"2.0",{null}"error":{{"code":-32700,"message":"Parse error: unexpected byte where a value should start"}}}}"#
                    ),
                    format!(
                        r#"{{"jsonrpc":"2.0",{null}"error":{{"code":-32600,"message":"Invalid Request: message is not a JSON object"}}}}"#
                    ),
                    format!(
                        r#"{{"jsonrpc":"2.0",{null}"error":{{"code":-32600,"message":"Invalid Request: request id must not be null"}}}}"#
                    ),
                    r#"{"jsonrpc":"2.0","id":3,"result":{}}"#.to_string(),
                    r#"{"jsonrpc":"2.0","id":4,"result":{}}"#.to_string(),
                    format!(
                        r#"{{"jsonrpc":"2.0",{null}"error":{{"code":-32600,"message":"Invalid Request: id must be a string or an integer"}}}}"#
                    ),
                    format!(
                        r#"{{"jsonrpc":"2.0",{null}"error":{{"code":-32700,"message":"Parse error: unexpected end of input"}}}}"#
                    ),
                ],
                "{version} chunk {chunk}"
            );
            let events = p.server.take();
            assert_eq!(events.len(), 9, "{events:?}");
            assert!(
                events.iter().all(|e| matches!(e, Ev::Misbehavior(m) if m.starts_with("InvalidMessage("))),
                "{events:?}"
            );
            // The connection is still fine.
            let id = p.client.ep.send_request(p.now, "tools/list", NO_PARAMS, RequestOptions::default()).unwrap();
            p.drive();
            assert_eq!(
                p.server.take(),
                vec![Ev::Request { id: id.to_string(), method: "tools/list".into(), params: None }]
            );
            p.server.respond(&id, &raw(br#"{"tools":[]}"#)).unwrap();
            p.drive();
            assert_eq!(p.client.take().len(), 1);
            p.server.new_lines();
            p.client.new_lines();
        }
    }
}

#[test]
fn a_client_does_not_answer_garbage() {
    let mut p = Pair::ready();
    p.play_server(GARBAGE);
    // Only well-formed pings and the broken request with a readable id get a reply.
    assert_eq!(
        p.client.new_lines(),
        vec![
            r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
            r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32600,"message":"Invalid Request: \"jsonrpc\" must be \"2.0\""}}"#,
            r#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: request id must not be null"}}"#,
            r#"{"jsonrpc":"2.0","id":3,"result":{}}"#,
            r#"{"jsonrpc":"2.0","id":4,"result":{}}"#,
            r#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: id must be a string or an integer"}}"#,
        ]
    );
    assert_eq!(p.client.take().len(), 9);
    // A server printing log lines on stdout gets no answer at all.
    p.play_server(b"Starting server...\nListening on stdio\n[INFO] ready\n");
    assert!(p.client.new_lines().is_empty());
    assert_eq!(p.client.take().len(), 3);
    let id = p.client.ep.send_request(p.now, "tools/list", NO_PARAMS, RequestOptions::default()).unwrap();
    p.drive();
    assert_eq!(p.server.take(), vec![Ev::Request { id: id.to_string(), method: "tools/list".into(), params: None }]);
}

#[test]
fn oversized_lines_are_skipped_and_reported() {
    let mut server = Side::lone_with(server_config(), 256, 64 * 1024);
    let now = Instant::ZERO;
    let long =
        format!("{{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{{\"pad\":\"{}\"}}}}", "x".repeat(1000));
    let input = format!(
        "{long}\n{{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}}\n{long}\r\n{{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}}\n"
    );
    let too_long = format!(
        r#"{{"jsonrpc":"2.0","id":1,"error":{{"code":-32600,"message":"Invalid Request: message of {} bytes exceeds the 255-byte limit"}}}}"#,
        long.len()
    );
    for chunk in [1, 7, 255, 256, 257, 5000] {
        for part in input.as_bytes().chunks(chunk) {
            let mut rest = part;
            while !rest.is_empty() {
                let n = server.ep.handle_input(now, rest);
                rest = &rest[n..];
                server.drain();
            }
        }
        assert_eq!(
            server.take(),
            vec![
                Ev::Misbehavior(format!("LineTooLong({}, replied)", long.len())),
                Ev::Misbehavior(format!("LineTooLong({}, replied)", long.len()))
            ],
            "chunk {chunk}"
        );
        // The id was in the part that could be read, so the request is answered; the
        // lines after it are fine.
        assert_eq!(
            server.new_lines(),
            vec![
                too_long.as_str(),
                r#"{"jsonrpc":"2.0","id":2,"result":{}}"#,
                too_long.as_str(),
                r#"{"jsonrpc":"2.0","id":3,"result":{}}"#
            ],
            "chunk {chunk}"
        );
    }
    // A whole message handed in by a message transport, larger than the buffer.
    assert!(server.ep.handle_frame(now, long.as_bytes()));
    server.drain();
    assert_eq!(server.take(), vec![Ev::Misbehavior(format!("LineTooLong({}, replied)", long.len()))]);
    // A frame also takes a byte for its origin mark in the buffer.
    assert_eq!(server.new_lines(), vec![too_long.replace("255-byte", "254-byte")]);
    // Two in a row without a drain between: the second waits, and both are reported.
    // Its first 900 bytes show the id too.
    assert!(server.ep.handle_frame(now, long.as_bytes()));
    assert!(!server.ep.handle_frame(now, &long.as_bytes()[..900]));
    server.drain();
    assert!(server.ep.handle_frame(now, &long.as_bytes()[..900]));
    server.drain();
    assert_eq!(
        server.take(),
        vec![
            Ev::Misbehavior(format!("LineTooLong({}, replied)", long.len())),
            Ev::Misbehavior("LineTooLong(900, replied)".into())
        ]
    );
    server.new_lines();
    // Nothing can be told from a line whose id comes after the part that could be read
    // (a whole frame handed in is scanned whole, so there the id is seen).
    let hidden =
        format!("{{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"params\":{{\"pad\":\"{}\"}},\"id\":4}}", "x".repeat(1000));
    server.feed(now, format!("{hidden}\n").as_bytes());
    assert_eq!(server.take(), vec![Ev::Misbehavior(format!("LineTooLong({})", hidden.len()))]);
    assert!(server.new_lines().is_empty());
    assert!(server.ep.handle_frame(now, hidden.as_bytes()));
    server.drain();
    assert_eq!(server.take(), vec![Ev::Misbehavior(format!("LineTooLong({}, replied)", hidden.len()))]);
    server.new_lines();
    // And one that contains line breaks between tokens: still one message.
    assert!(server.ep.handle_frame(now, b"{\"jsonrpc\":\"2.0\",\n\"id\":9,\r\n\"method\":\"ping\"}"));
    server.drain();
    assert_eq!(server.new_lines(), vec![r#"{"jsonrpc":"2.0","id":9,"result":{}}"#]);
    // A raw line break inside a string is not JSON, and does not split the message.
    assert!(server.ep.handle_frame(now, b"{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"pi\nng\"}"));
    server.drain();
    assert_eq!(server.take().len(), 1);
    assert_eq!(server.new_lines().len(), 1);
}
