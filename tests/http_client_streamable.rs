//! The HTTP client core over Streamable HTTP: the requests it makes (every header on
//! every kind), the responses it reads (JSON, event streams, 202), the session id, the
//! standalone stream, concurrency, and close.

mod http_client_support;

use http_client_support::*;
use mcp_sansio::ProtocolVersion;
use mcp_sansio::http::client::{
    ClientConfig, ExchangeKind, HttpClient, HttpMethod, HttpMisbehavior, LostReason, SendError, Transport,
};

type D = Driver<4>;

#[test]
fn initialize_post_has_no_session_and_no_version() {
    let mut d = D::new(D::default_config());
    let x = d.send(&init_msg(0));
    let r = d.take();
    assert_eq!((r.exchange, r.kind, r.method, r.url.as_str()), (x, ExchangeKind::Post, HttpMethod::Post, URL));
    assert_eq!(
        r.headers,
        [
            ("Accept".to_string(), "application/json, text/event-stream".to_string()),
            ("Content-Type".to_string(), "application/json".to_string()),
        ]
    );
    assert_eq!(r.body, init_msg(0));
}

#[test]
fn session_id_and_version_on_every_later_request() {
    let mut d = D::new(D::default_config());
    let x = d.send(&init_msg(0));
    d.take();
    d.reply(
        x,
        200,
        &[("Content-Type", "application/json"), ("mcp-session-id", "s-123")],
        &init_result(0, "2025-06-18"),
    );
    assert_eq!(d.take_messages(), [init_result(0, "2025-06-18")]);
    assert_eq!(d.take_events(), [Ev::Connected { transport: Transport::Streamable, session: Some("s-123".into()) }]);
    assert_eq!(d.client.session_id(), Some("s-123"));
    assert_eq!(d.client.protocol_version(), Some(ProtocolVersion::V2025_06_18));
    assert_eq!(d.client.transport(), Some(Transport::Streamable));

    let n = d.send(INITIALIZED);
    let r = d.take();
    assert_eq!(r.exchange, n);
    assert_eq!(
        r.names(),
        ["Accept", "Content-Type", "Mcp-Session-Id", "MCP-Protocol-Version"],
        "notification POST headers"
    );
    assert_eq!((r.header("mcp-session-id"), r.header("mcp-protocol-version")), (Some("s-123"), Some("2025-06-18")));
    d.no_request();
    d.accepted(n);

    // Accepted `initialized` opens the standalone stream.
    let g = d.take();
    assert_eq!((g.kind, g.method, g.url.as_str(), g.body.as_str()), (ExchangeKind::Stream, HttpMethod::Get, URL, ""));
    assert_eq!(
        g.headers,
        [
            ("Accept".to_string(), "text/event-stream".to_string()),
            ("Mcp-Session-Id".to_string(), "s-123".to_string()),
            ("MCP-Protocol-Version".to_string(), "2025-06-18".to_string()),
        ]
    );

    let t = d.send(&request(1, "tools/list"));
    let r = d.take();
    assert_eq!(r.exchange, t);
    assert_eq!(r.header("Mcp-Session-Id"), Some("s-123"));
    d.json(t, &result(1));
    assert_eq!(d.take_messages(), [result(1)]);
    assert_eq!(d.client.exchanges_in_use(), 1, "only the GET stream is left");
}

#[test]
fn no_session_id_means_no_header() {
    let mut d = D::new(D::default_config());
    let g = d.handshake(None, "2025-03-26");
    assert_eq!(g.names(), ["Accept", "MCP-Protocol-Version"]);
    assert_eq!(d.client.session_id(), None);
}

#[test]
fn invalid_session_id_is_reported_and_not_sent() {
    let mut d = D::new(D::default_config());
    let x = d.send(&init_msg(0));
    d.take();
    d.reply(
        x,
        200,
        &[("Content-Type", "application/json"), ("Mcp-Session-Id", "bad id")],
        &init_result(0, "2025-06-18"),
    );
    assert_eq!(
        d.take_events(),
        [
            Ev::Misbehavior { exchange: x, what: HttpMisbehavior::InvalidSessionId },
            Ev::Connected { transport: Transport::Streamable, session: None }
        ]
    );
    let n = d.send(INITIALIZED);
    assert_eq!(d.take().header("Mcp-Session-Id"), None);
    d.accepted(n);
}

#[test]
fn session_id_of_a_failed_initialize_is_dropped() {
    let mut d = D::new(D::default_config());
    let x = d.send(&init_msg(0));
    d.take();
    let err = r#"{"jsonrpc":"2.0","id":0,"error":{"code":-32602,"message":"Unsupported protocol version","data":{"supported":["2025-03-26"]}}}"#;
    d.reply(x, 200, &[("Content-Type", "application/json"), ("Mcp-Session-Id", "s-1")], err);
    assert_eq!(d.take_messages(), [err]);
    assert_eq!(d.client.session_id(), None);
    assert!(d.take_events().is_empty());
    // The session retries initialize with another version: no fallback any more (the
    // server spoke Streamable HTTP), no session header.
    let x = d.send(&init_msg(1));
    let r = d.take();
    assert_eq!(r.header("Mcp-Session-Id"), None);
    d.reply(x, 404, &[], "");
    assert_eq!(d.take_events(), [Ev::Lost { exchange: x, request: Some("1".into()), reason: LostReason::Status(404) }]);
}

#[test]
fn sse_response_skips_priming_and_delivers_messages_in_order() {
    let mut d = D::new(D::default_config());
    d.handshake(Some("s"), "2025-11-25");
    let t = d.send(&request(1, "tools/call"));
    d.take();
    d.respond(t, 200, &[("Content-Type", "text/event-stream")]);
    let progress = r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}"#;
    let stream = format!(
        "id: p-0\nretry: 500\ndata: \n\n: keep-alive\n\n{}event: message\nid: p-2\ndata: {}\n\n",
        sse(Some("p-1"), progress),
        result(1)
    );
    // Fed one byte at a time: the same events.
    for b in stream.as_bytes() {
        d.body(t, std::str::from_utf8(std::slice::from_ref(b)).unwrap());
    }
    assert_eq!(d.take_messages(), [progress.to_string(), result(1)]);
    // The answer is in: the stream is let go.
    assert_eq!(d.aborts, [t]);
    assert_eq!(d.client.exchanges_in_use(), 1);
    d.end(t); // ignored: the exchange was aborted
    assert!(d.take_events().is_empty());
}

#[test]
fn data_split_over_lines_is_one_message() {
    let mut d = D::new(D::default_config());
    d.handshake(None, "2025-06-18");
    let t = d.send(&request(1, "ping"));
    d.take();
    d.respond(t, 200, &[("Content-Type", "text/event-stream; charset=utf-8")]);
    d.body(t, "data: {\"jsonrpc\":\"2.0\",\r\ndata: \"id\":1,\"result\":{}}\r\n\r\n");
    assert_eq!(d.take_messages(), ["{\"jsonrpc\":\"2.0\",\n\"id\":1,\"result\":{}}"]);
}

#[test]
fn server_requests_on_a_post_stream_are_answered_on_their_own_post() {
    let mut d = D::new(D::default_config());
    d.handshake(Some("s"), "2025-06-18");
    let t = d.send(&request(1, "tools/call"));
    d.take();
    d.respond(t, 200, &[("Content-Type", "text/event-stream")]);
    let sampling = r#"{"jsonrpc":"2.0","id":"srv-1","method":"sampling/createMessage","params":{}}"#;
    d.body(t, &sse(None, sampling));
    assert_eq!(d.take_messages(), [sampling]);
    // The answer goes out while the tools/call stream stays open.
    let a = d.send(r#"{"jsonrpc":"2.0","id":"srv-1","result":{"role":"assistant"}}"#);
    let r = d.take();
    assert_eq!((r.exchange, r.kind), (a, ExchangeKind::Post));
    assert_eq!(d.client.exchanges_in_use(), 3);
    d.accepted(a);
    d.body(t, &sse(None, &result(1)));
    assert_eq!(d.take_messages(), [result(1)]);
    assert!(d.aborts.contains(&t));
}

#[test]
fn a_slot_is_always_kept_for_answers() {
    let mut d = D::new(D::default_config());
    d.handshake(Some("s"), "2025-06-18"); // the GET stream takes one slot
    let a = d.send(&request(1, "tools/call"));
    d.take();
    d.respond(a, 200, &[("Content-Type", "text/event-stream")]);
    let b = d.send(&request(2, "tools/call"));
    d.take();
    // A third request would leave no slot for answers.
    assert_eq!(d.try_send(&request(3, "tools/call")), Err(SendError::Busy));
    // Notifications and answers still go.
    let n = d.send(r#"{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}"#);
    assert_eq!(d.take().exchange, n);
    assert_eq!(d.try_send(r#"{"jsonrpc":"2.0","id":"q","result":{}}"#), Err(SendError::Busy), "all four in use");
    d.accepted(n);
    let r = d.send(r#"{"jsonrpc":"2.0","id":"q","result":{}}"#);
    assert_eq!(d.take().exchange, r);
    d.accepted(r);
    assert_eq!(d.try_send(&request(3, "ping")), Err(SendError::Busy));
    d.json(b, &result(2));
    let _c = d.send(&request(3, "ping"));
    assert_eq!(d.take().body, request(3, "ping"));
}

#[test]
fn json_response_in_chunks_and_too_large() {
    let config = D::default_config();
    let mut d = D::with_slot(config, 300);
    d.handshake(None, "2025-06-18");
    let t = d.send(&request(1, "tools/list"));
    d.take();
    d.respond(t, 200, &[("Content-Type", "application/json")]);
    let big = format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"pad":"{}"}}}}"#, "x".repeat(300));
    d.body(t, &big[..100]);
    assert!(d.aborts.is_empty());
    d.body(t, &big[100..]);
    assert_eq!(d.aborts, [t]);
    assert_eq!(
        d.take_events(),
        [Ev::Lost { exchange: t, request: Some("1".into()), reason: LostReason::TooLarge { capacity: 300 } }]
    );
    assert!(d.take_messages().is_empty());
    assert_eq!(d.client.exchanges_in_use(), 1);
    assert_eq!(
        d.try_send(&format!(r#"{{"jsonrpc":"2.0","id":2,"method":"x","params":{{"p":"{}"}}}}"#, "y".repeat(300))),
        Err(SendError::TooLarge { needed: 355, capacity: 300 })
    );
}

#[test]
fn json_body_that_breaks_or_is_empty() {
    let mut d = D::new(D::default_config());
    d.handshake(None, "2025-06-18");
    let t = d.send(&request(1, "tools/list"));
    d.take();
    d.respond(t, 200, &[("Content-Type", "application/json")]);
    d.body(t, r#"{"jsonrpc":"2.0","#);
    d.fail(t, mcp_sansio::http::client::Failure::Broken);
    assert_eq!(
        d.take_events(),
        [Ev::Lost {
            exchange: t,
            request: Some("1".into()),
            reason: LostReason::Transport(mcp_sansio::http::client::Failure::Broken)
        }]
    );
    let t = d.send(&request(2, "tools/list"));
    d.take();
    d.reply(t, 200, &[("Content-Type", "application/json")], "");
    assert_eq!(d.take_events(), [Ev::Lost { exchange: t, request: Some("2".into()), reason: LostReason::NoResponse }]);
}

#[test]
fn unexpected_content_type_and_202_to_a_request() {
    let mut d = D::new(D::default_config());
    d.handshake(None, "2025-06-18");
    let t = d.send(&request(1, "tools/list"));
    d.take();
    d.reply(t, 200, &[("Content-Type", "text/html")], "<html>");
    assert_eq!(
        d.take_events(),
        [
            Ev::Misbehavior { exchange: t, what: HttpMisbehavior::UnexpectedContentType },
            Ev::Lost { exchange: t, request: Some("1".into()), reason: LostReason::NoResponse }
        ]
    );
    assert_eq!(d.aborts, [t]);
    let t = d.send(&request(2, "tools/list"));
    d.take();
    d.accepted(t);
    assert_eq!(d.take_events(), [Ev::Misbehavior { exchange: t, what: HttpMisbehavior::AcceptedRequest }]);
    // Its answer may still come on the standalone stream; nothing is failed.
    assert_eq!(d.client.exchanges_in_use(), 1);
}

#[test]
fn statuses_that_lose_a_message() {
    for status in [400u16, 403, 404, 405, 406, 409, 413, 415, 429, 500, 503] {
        let mut d = D::new(D::default_config());
        d.handshake(None, "2025-06-18");
        let t = d.send(&request(1, "tools/list"));
        d.take();
        d.respond(t, status, &[("Content-Type", "application/json")]);
        assert_eq!(
            d.take_events(),
            [Ev::Lost { exchange: t, request: Some("1".into()), reason: LostReason::Status(status) }],
            "{status}"
        );
        assert_eq!(d.aborts, [t], "{status}");
        let n = d.send(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9}}"#);
        d.take();
        d.respond(n, status, &[]);
        assert_eq!(d.take_events(), [Ev::Lost { exchange: n, request: None, reason: LostReason::Status(status) }]);
    }
}

#[test]
fn transport_failure_before_the_head() {
    let mut d = D::new(D::default_config());
    d.handshake(None, "2025-06-18");
    let t = d.send(&request(1, "tools/list"));
    d.take();
    d.fail(t, mcp_sansio::http::client::Failure::Connect);
    assert_eq!(
        d.take_events(),
        [Ev::Lost {
            exchange: t,
            request: Some("1".into()),
            reason: LostReason::Transport(mcp_sansio::http::client::Failure::Connect)
        }]
    );
    assert!(d.aborts.is_empty(), "the adapter already ended it");
}

#[test]
fn standalone_stream_405_means_none() {
    let mut d = D::new(D::default_config());
    let g = d.handshake(Some("s"), "2025-06-18");
    d.reply(g.exchange, 405, &[("Allow", "POST")], "");
    assert_eq!(d.take_events(), [Ev::StandaloneUnavailable(Some(405))]);
    assert_eq!(d.client.exchanges_in_use(), 0);
    // Never asked again, even after more traffic.
    let n = d.send(INITIALIZED);
    d.take();
    d.accepted(n);
    d.no_request();
}

#[test]
fn standalone_stream_400_is_also_none() {
    // The conformance suite's `initialize` scenario answers every GET with 400.
    let mut d = D::new(D::default_config());
    let g = d.handshake(None, "2025-06-18");
    d.reply(g.exchange, 400, &[("Content-Type", "application/json")], "{}");
    assert_eq!(d.take_events(), [Ev::StandaloneUnavailable(Some(400))]);
}

#[test]
fn standalone_stream_can_be_turned_off() {
    let mut d = D::new(D::default_config().standalone_stream(false));
    let x = d.send(&init_msg(0));
    d.take();
    d.json(x, &init_result(0, "2025-06-18"));
    let n = d.send(INITIALIZED);
    d.take();
    d.accepted(n);
    d.no_request();
}

#[test]
fn standalone_opening_lasts_from_the_handshake_to_the_streams_head() {
    let mut d = D::new(D::default_config());
    assert!(!d.client.standalone_opening(), "before the handshake");
    let x = d.send(&init_msg(0));
    d.take();
    assert!(!d.client.standalone_opening(), "while initialize is out");
    d.json(x, &init_result(0, "2025-11-25"));
    assert!(d.client.standalone_opening(), "initialized not yet accepted");
    let n = d.send(INITIALIZED);
    d.take();
    d.accepted(n);
    let g = d.take();
    assert_eq!(g.kind, ExchangeKind::Stream);
    assert!(d.client.standalone_opening(), "the GET is out, its head has not come");
    d.respond(g.exchange, 200, &[("Content-Type", "text/event-stream")]);
    assert!(!d.client.standalone_opening(), "open");
    // Refused: settled too.
    let mut d = D::new(D::default_config());
    let g = d.handshake(Some("s"), "2025-06-18");
    assert!(d.client.standalone_opening());
    d.reply(g.exchange, 405, &[], "");
    assert!(!d.client.standalone_opening());
    // Not wanted: never.
    let mut d = D::new(D::default_config().standalone_stream(false));
    let x = d.send(&init_msg(0));
    d.take();
    d.json(x, &init_result(0, "2025-06-18"));
    assert!(!d.client.standalone_opening());
}

#[test]
fn standalone_stream_delivers_server_messages() {
    let mut d = D::new(D::default_config());
    let g = d.handshake(Some("s"), "2025-06-18").exchange;
    d.respond(g, 200, &[("Content-Type", "text/event-stream")]);
    let note = r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#;
    let ping = r#"{"jsonrpc":"2.0","id":"p","method":"ping"}"#;
    d.body(g, &format!("{}{}", sse(Some("g-1"), note), sse(Some("g-2"), ping)));
    assert_eq!(d.messages, [(g, note.to_string()), (g, ping.to_string())]);
    assert!(d.aborts.is_empty(), "the standalone stream stays open");
}

#[test]
fn backpressure_holds_a_message_until_consumed() {
    let config = D::default_config();
    let storage = vec![0u8; config.storage_len(4, 1024)].leak();
    let mut c: HttpClient<'static, 4> = HttpClient::new(config, storage).unwrap();
    let now = mcp_sansio::Instant::ZERO;
    let x = c.send_message(now, init_msg(0).as_bytes()).unwrap();
    loop {
        if let mcp_sansio::http::client::Output::Idle { .. } = c.poll_output() {
            break;
        }
    }
    c.handle_response(now, x, 200, [("content-type", &b"text/event-stream"[..])]);
    let body =
        format!("{}{}", sse(None, r#"{"jsonrpc":"2.0","method":"a"}"#), sse(None, &init_result(0, "2025-06-18")));
    assert_eq!(c.handle_body(now, x, body.as_bytes()), body.len());
    let first = match c.poll_output() {
        mcp_sansio::http::client::Output::Message(m) => m.bytes.to_vec(),
        other => panic!("{other:?}"),
    };
    // Not consumed: the same message again, and no more body is taken meanwhile.
    for _ in 0..3 {
        match c.poll_output() {
            mcp_sansio::http::client::Output::Message(m) => assert_eq!(m.bytes, &first[..]),
            other => panic!("{other:?}"),
        }
        assert_eq!(c.handle_body(now, x, b"data: x\n\n"), 0);
    }
    c.consume_message();
    match c.poll_output() {
        mcp_sansio::http::client::Output::Message(m) => assert!(m.bytes.starts_with(br#"{"jsonrpc":"2.0","id":0"#)),
        other => panic!("{other:?}"),
    }
    c.consume_message();
}

#[test]
fn close_deletes_the_session_with_its_headers() {
    let mut d = D::new(D::default_config());
    let g = d.handshake(Some("s-9"), "2025-06-18").exchange;
    d.respond(g, 200, &[("Content-Type", "text/event-stream")]);
    d.client.set_bearer_token(Some("tok")).unwrap();
    let t = d.send(&request(1, "tools/call"));
    d.take();
    d.client.close(d.at());
    d.drain();
    let mut aborted = d.aborts.clone();
    aborted.sort();
    assert_eq!(aborted, [g, t]);
    let del = d.take();
    assert_eq!(
        (del.kind, del.method, del.url.as_str(), del.body.as_str()),
        (ExchangeKind::Delete, HttpMethod::Delete, URL, "")
    );
    assert_eq!(
        del.headers,
        [
            ("Mcp-Session-Id".to_string(), "s-9".to_string()),
            ("MCP-Protocol-Version".to_string(), "2025-06-18".to_string()),
            ("Authorization".to_string(), "Bearer tok".to_string()),
        ]
    );
    assert!(!d.client.is_closed());
    assert_eq!(d.try_send(&request(2, "ping")), Err(SendError::Closed));
    // 405: the server does not let clients end sessions; closed all the same.
    d.reply(del.exchange, 405, &[], "");
    assert_eq!(d.take_events(), [Ev::Closed]);
    assert!(d.client.is_closed());
    d.client.close(d.at());
    d.drain();
    assert!(d.take_events().is_empty());
}

#[test]
fn close_without_session_or_when_delete_fails() {
    let mut d = D::new(D::default_config());
    d.handshake(None, "2025-06-18");
    d.client.close(d.at());
    d.drain();
    d.no_request();
    assert_eq!(d.take_events(), [Ev::Closed]);

    let mut d = D::new(D::default_config());
    d.handshake(Some("s"), "2025-06-18");
    d.client.close(d.at());
    d.drain();
    let del = d.take();
    d.fail(del.exchange, mcp_sansio::http::client::Failure::Connect);
    assert_eq!(d.take_events(), [Ev::Closed]);

    let mut d = D::new(D::default_config().delete_on_close(false));
    d.handshake(Some("s"), "2025-06-18");
    d.client.close(d.at());
    d.drain();
    d.no_request();
    assert_eq!(d.take_events(), [Ev::Closed]);
}

#[test]
fn cancellation_drops_the_request_stream() {
    let mut d = D::new(D::default_config());
    d.handshake(Some("s"), "2025-06-18");
    let t = d.send(&request(7, "tools/call"));
    d.take();
    d.respond(t, 200, &[("Content-Type", "text/event-stream")]);
    d.body(t, "id: e1\ndata: \n\n");
    let c =
        d.send(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"timeout"}}"#);
    assert_eq!(d.aborts, [t]);
    let r = d.take();
    assert_eq!(r.exchange, c);
    d.accepted(c);
    // The dropped stream is not reconnected.
    d.advance_to(120_000);
    d.no_request();
    assert!(d.take_events().is_empty());
}

#[test]
fn configuration_limits() {
    let config = ClientConfig::new(URL).unwrap();
    let mut small = vec![0u8; config.storage_len(2, 100)];
    assert!(matches!(
        HttpClient::<2>::new(config, &mut small),
        Err(mcp_sansio::http::client::ConfigError::StorageTooSmall { .. })
    ));
    let mut buf = vec![0u8; config.storage_len(2, 4096)];
    assert!(matches!(
        HttpClient::<1>::new(config, &mut buf),
        Err(mcp_sansio::http::client::ConfigError::TooFewExchanges)
    ));
    let c = HttpClient::<2>::new(config, &mut buf).unwrap();
    assert_eq!(c.slot_capacity(), 4096);
    assert!(ClientConfig::new("localhost:3000/mcp").is_err());
    assert!(ClientConfig::new("https://user:pw@h/mcp").is_err());
}

#[test]
fn not_a_message() {
    let mut d = D::new(D::default_config());
    assert_eq!(d.try_send("{}"), Err(SendError::NotAMessage));
    assert_eq!(d.try_send("[1,2"), Err(SendError::NotAMessage));
    d.no_request();
}

/// 2026-07-28: a request whose `_meta` names the stateless version is its own POST, with
/// the standard headers and no session; a refusal's JSON answer to it is read (the
/// session retries on -32022 or tells the era by it), and a refusal that names no
/// request loses it, as a bare status does.
#[test]
fn stateless_requests_and_their_refusals() {
    const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;
    let mut d = D::new(D::default_config());
    let call = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"echo",{META}}}}}"#);
    let x = d.send(&call);
    let r = d.take();
    assert_eq!(r.names(), ["Accept", "Content-Type", "MCP-Protocol-Version", "Mcp-Method", "Mcp-Name"]);
    assert_eq!((r.header("mcp-method"), r.header("mcp-name")), (Some("tools/call"), Some("echo")));
    let refusal = r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"supported":["2026-07-28"],"requested":"2099-01-01"}}}"#;
    d.reply(x, 400, &[("Content-Type", "application/json")], refusal);
    assert_eq!(d.take_messages(), [refusal]);
    assert_eq!(d.take_events(), []);

    let probe = format!(r#"{{"jsonrpc":"2.0","id":2,"method":"server/discover","params":{{{META}}}}}"#);
    let y = d.send(&probe);
    d.take();
    let legacy = r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Bad Request: Mcp-Session-Id header is required"}}"#;
    d.reply(y, 400, &[("Content-Type", "application/json")], legacy);
    assert_eq!(d.take_messages(), Vec::<String>::new());
    assert_eq!(d.take_events(), [Ev::Lost { exchange: y, request: Some("2".into()), reason: LostReason::Status(400) }]);
    // A handshake-era request is refused as before: its status, its body unread.
    let z = d.send(r#"{"jsonrpc":"2.0","id":3,"method":"tools/list"}"#);
    d.take();
    d.reply(z, 400, &[("Content-Type", "application/json")], legacy);
    assert_eq!(d.take_messages(), Vec::<String>::new());
    assert_eq!(d.take_events(), [Ev::Lost { exchange: z, request: Some("3".into()), reason: LostReason::Status(400) }]);
}
