//! The HTTP+SSE (2024-11-05) fallback: when it is taken, the `endpoint` event, URL
//! resolution and the same-origin rule, and the transport once it runs.

mod http_client_support;

use http_client_support::*;
use mcp_sansio::http::client::{
    ClientConfig, ExchangeKind, Expiry, Failure, HttpMethod, HttpMisbehavior, LostReason, SendError, Transport,
    TransportMode, UrlError,
};

type D = Driver<4>;
const SSE: (&str, &str) = ("Content-Type", "text/event-stream");

/// Falls back after `status`, opens the legacy stream and feeds it `first`; returns the
/// stream's exchange.
fn fall_back(d: &mut D, status: u16, first: &str) -> mcp_sansio::http::client::ExchangeId {
    let x = d.send(&init_msg(0));
    d.take();
    d.reply(x, status, &[("Content-Type", "text/plain")], "Method Not Allowed");
    assert_eq!(d.take_events(), [Ev::FellBack(status)]);
    assert_eq!(d.aborts, [x], "the refused POST is let go");
    let g = d.take();
    assert_eq!(
        (g.kind, g.method, g.url.as_str(), g.body.as_str()),
        (ExchangeKind::LegacyStream, HttpMethod::Get, URL, "")
    );
    assert_eq!(g.headers, [("Accept".to_string(), "text/event-stream".to_string())]);
    d.respond(g.exchange, 200, &[SSE]);
    d.body(g.exchange, first);
    g.exchange
}

#[test]
fn fallback_on_405_then_everything_over_the_endpoint() {
    let mut d = D::new(D::default_config());
    let g = fall_back(&mut d, 405, ": connected\n\nevent: endpoint\ndata: /messages?sessionId=5b1f\n\n");
    let post = d.take();
    assert_eq!(
        (post.kind, post.method, post.url.as_str(), post.body.clone()),
        (ExchangeKind::LegacyPost, HttpMethod::Post, "http://localhost:3000/messages?sessionId=5b1f", init_msg(0))
    );
    assert_eq!(post.headers, [("Content-Type".to_string(), "application/json".to_string())]);
    assert_eq!(d.client.post_url(), "http://localhost:3000/messages?sessionId=5b1f");
    d.reply(post.exchange, 202, &[("Content-Type", "text/plain")], "Accepted");
    assert!(d.take_events().is_empty());
    // The answer comes on the stream.
    d.body(g, &format!("event: message\ndata: {}\n\n", init_result(0, "2024-11-05")));
    assert_eq!(d.messages, [(g, init_result(0, "2024-11-05"))]);
    assert_eq!(d.take_events(), [Ev::Connected { transport: Transport::Legacy, session: None }]);
    // No standalone stream in this transport; the version header once known.
    let n = d.send(INITIALIZED);
    let r = d.take();
    assert_eq!((r.exchange, r.kind), (n, ExchangeKind::LegacyPost));
    assert_eq!(r.header("MCP-Protocol-Version"), Some("2024-11-05"));
    d.accepted(n);
    d.no_request();
    let t = d.send(&request(1, "tools/list"));
    d.take();
    d.accepted(t);
    assert!(d.take_events().is_empty(), "202 is the answer a legacy POST gets");
    d.body(g, &sse(None, &result(1)));
    assert_eq!(d.take_messages().last(), Some(&result(1)));
    assert_eq!(d.client.exchanges_in_use(), 1);
}

#[test]
fn fallback_statuses_are_400_404_405_only() {
    for status in [400, 404] {
        let mut d = D::new(D::default_config());
        fall_back(&mut d, status, "event: endpoint\ndata: /m\n\n");
        assert_eq!(d.take().url, "http://localhost:3000/m");
    }
    for status in [401, 403, 406, 415, 500, 503] {
        let mut d = D::new(D::default_config());
        let x = d.send(&init_msg(0));
        d.take();
        d.respond(x, status, &[]);
        let ev = d.take_events();
        assert!(!ev.iter().any(|e| matches!(e, Ev::FellBack(_))), "{status}: {ev:?}");
        d.no_request();
    }
}

#[test]
fn no_fallback_once_streamable_http_worked_or_when_configured_off() {
    let mut d = D::new(D::default_config());
    d.handshake(None, "2025-06-18");
    let x = d.send(&init_msg(5));
    d.take();
    d.respond(x, 405, &[]);
    assert_eq!(d.take_events(), [Ev::Lost { exchange: x, request: Some("5".into()), reason: LostReason::Status(405) }]);

    let mut d = D::new(D::default_config().mode(TransportMode::Streamable));
    let x = d.send(&init_msg(0));
    d.take();
    d.respond(x, 404, &[]);
    assert_eq!(d.take_events(), [Ev::Lost { exchange: x, request: Some("0".into()), reason: LostReason::Status(404) }]);
    d.no_request();
}

#[test]
fn legacy_mode_gets_the_stream_first() {
    let mut d = D::new(D::default_config().mode(TransportMode::Legacy));
    d.client.set_bearer_token(Some("t0k")).unwrap();
    assert_eq!(d.try_send(&request(1, "ping")), Err(SendError::Busy), "no endpoint yet");
    let x = d.send(&init_msg(0));
    let g = d.take();
    assert_eq!(g.kind, ExchangeKind::LegacyStream);
    assert_eq!(g.header("Authorization"), Some("Bearer t0k"));
    assert_eq!(d.try_send(&request(1, "ping")), Err(SendError::Busy), "still connecting");
    d.respond(g.exchange, 200, &[SSE]);
    // Python's SDK: a trailing slash before the query.
    d.body(g.exchange, "event: endpoint\r\ndata: /messages/?session_id=0f3c\r\n\r\n");
    let post = d.take();
    assert_eq!(
        (post.exchange.slot(), post.url.as_str()),
        (x.slot(), "http://localhost:3000/messages/?session_id=0f3c")
    );
    assert_eq!(post.header("Authorization"), Some("Bearer t0k"));
}

#[test]
fn endpoint_urls_absolute_relative_and_refused() {
    for (data, want) in [
        ("http://localhost:3000/other?x=1", Ok("http://localhost:3000/other?x=1")),
        ("HTTP://LOCALHOST:3000/a", Ok("HTTP://LOCALHOST:3000/a")),
        ("message?sessionId=1", Ok("http://localhost:3000/message?sessionId=1")),
        ("../../up", Ok("http://localhost:3000/up")),
        ("//localhost:3000/p", Ok("http://localhost:3000/p")),
        ("http://localhost:3001/m", Err(HttpMisbehavior::CrossOriginEndpoint)),
        ("https://localhost:3000/m", Err(HttpMisbehavior::CrossOriginEndpoint)),
        ("http://evil.example/m", Err(HttpMisbehavior::CrossOriginEndpoint)),
        ("//evil.example/m", Err(HttpMisbehavior::CrossOriginEndpoint)),
        ("javascript:alert(1)", Err(HttpMisbehavior::BadEndpoint(UrlError::Syntax { at: 10 }))),
        ("/a b", Err(HttpMisbehavior::BadEndpoint(UrlError::Syntax { at: 2 }))),
    ] {
        let mut d = D::new(D::default_config());
        let g = fall_back(&mut d, 405, &format!("event: endpoint\ndata: {data}\n\n"));
        match want {
            Ok(url) => assert_eq!(d.take().url, url, "{data}"),
            Err(what) => {
                assert_eq!(
                    d.take_events(),
                    [
                        Ev::Misbehavior { exchange: g, what },
                        Ev::Lost { exchange: d.aborts[0], request: Some("0".into()), reason: LostReason::NoEndpoint }
                    ],
                    "{data}"
                );
                assert_eq!(d.aborts.last(), Some(&g), "{data}: the stream is dropped");
                d.no_request();
                assert_eq!(d.client.exchanges_in_use(), 0, "{data}");
            }
        }
    }
}

#[test]
fn endpoint_too_long_for_its_room() {
    let config = ClientConfig::new(URL).unwrap().endpoint_url_capacity(40);
    let mut d = D::new(config);
    let g = fall_back(&mut d, 405, &format!("event: endpoint\ndata: /messages?sessionId={}\n\n", "a".repeat(20)));
    let ev = d.take_events();
    assert_eq!(
        ev[0],
        Ev::Misbehavior { exchange: g, what: HttpMisbehavior::BadEndpoint(UrlError::TooLong { capacity: 40 }) }
    );
    assert!(matches!(ev[1], Ev::Lost { reason: LostReason::NoEndpoint, .. }));
}

#[test]
fn first_event_must_be_the_endpoint() {
    let mut d = D::new(D::default_config());
    let g = fall_back(&mut d, 404, &sse(None, &result(0)));
    let ev = d.take_events();
    assert_eq!(ev[0], Ev::Misbehavior { exchange: g, what: HttpMisbehavior::NoEndpointEvent });
    assert!(matches!(ev[1], Ev::Lost { reason: LostReason::NoEndpoint, .. }));
    assert!(d.take_messages().is_empty());

    // A stream that ends before any endpoint.
    let mut d = D::new(D::default_config());
    let g = fall_back(&mut d, 404, ": hello\n\n");
    d.end(g);
    let ev = d.take_events();
    assert_eq!(ev[0], Ev::Misbehavior { exchange: g, what: HttpMisbehavior::NoEndpointEvent });
    assert!(matches!(ev[1], Ev::Lost { reason: LostReason::NoEndpoint, .. }));
}

#[test]
fn the_legacy_get_refused_or_failing() {
    let mut d = D::new(D::default_config());
    let x = d.send(&init_msg(0));
    d.take();
    d.respond(x, 404, &[]);
    d.take_events();
    let g = d.take();
    d.respond(g.exchange, 404, &[]);
    assert_eq!(d.take_events(), [Ev::Lost { exchange: x, request: Some("0".into()), reason: LostReason::Status(404) }]);
    assert_eq!(d.client.exchanges_in_use(), 0);

    let mut d = D::new(D::default_config());
    let x = d.send(&init_msg(0));
    d.take();
    d.respond(x, 405, &[]);
    d.take_events();
    let g = d.take();
    d.fail(g.exchange, Failure::Connect);
    assert_eq!(
        d.take_events(),
        [Ev::Lost { exchange: x, request: Some("0".into()), reason: LostReason::Transport(Failure::Connect) }]
    );
    let mut d = D::new(D::default_config());
    let x = d.send(&init_msg(0));
    d.take();
    d.respond(x, 405, &[]);
    d.take_events();
    let g = d.take();
    d.reply(g.exchange, 200, &[("Content-Type", "application/json")], "{}");
    assert_eq!(
        d.take_events(),
        [
            Ev::Misbehavior { exchange: g.exchange, what: HttpMisbehavior::UnexpectedContentType },
            Ev::Lost { exchange: x, request: Some("0".into()), reason: LostReason::NoEndpoint }
        ]
    );
}

#[test]
fn the_stream_ending_ends_the_session() {
    let mut d = D::new(D::default_config());
    let g = fall_back(&mut d, 405, "event: endpoint\ndata: /m?s=1\n\n");
    let post = d.take();
    d.accepted(post.exchange);
    d.body(g, &sse(None, &init_result(0, "2024-11-05")));
    d.take_events();
    let t = d.send(&request(1, "tools/call"));
    d.take();
    d.end(g);
    assert_eq!(d.take_events(), [Ev::SessionExpired(Expiry::StreamClosed)]);
    assert!(d.aborts.contains(&t));
    assert_eq!(d.client.exchanges_in_use(), 0);
    // The next session goes straight to the stream: no probe POST.
    let _ = d.send(&init_msg(0));
    let g2 = d.take();
    assert_eq!(g2.kind, ExchangeKind::LegacyStream);
    d.respond(g2.exchange, 200, &[SSE]);
    d.body(g2.exchange, "event: endpoint\ndata: /m?s=2\n\n");
    assert_eq!(d.take().url, "http://localhost:3000/m?s=2");
}

#[test]
fn a_legacy_post_404_is_an_expired_session() {
    let mut d = D::new(D::default_config());
    let g = fall_back(&mut d, 405, "event: endpoint\ndata: /m?s=1\n\n");
    let post = d.take();
    d.respond(post.exchange, 404, &[]);
    assert_eq!(d.take_events(), [Ev::SessionExpired(Expiry::NotFound)]);
    assert!(d.aborts.contains(&g));
}

#[test]
fn auth_on_the_legacy_stream() {
    let mut d = D::new(D::default_config().mode(TransportMode::Legacy));
    d.send(&init_msg(0));
    let g = d.take();
    d.respond(
        g.exchange,
        401,
        &[(
            "WWW-Authenticate",
            r#"Bearer resource_metadata="http://localhost:3000/.well-known/oauth-protected-resource""#,
        )],
    );
    let ev = d.take_events();
    let [Ev::Auth { exchange, status: 401, bearer: Some(ref b), retries_left: 2, .. }] = ev[..] else {
        panic!("{ev:?}")
    };
    assert_eq!(exchange, g.exchange);
    assert_eq!(b.resource_metadata.as_deref(), Some("http://localhost:3000/.well-known/oauth-protected-resource"));
    d.client.set_bearer_token(Some("new")).unwrap();
    let again = d.client.retry(exchange).unwrap();
    d.drain();
    let g2 = d.take();
    assert_eq!(
        (g2.exchange, g2.kind, g2.header("Authorization")),
        (again, ExchangeKind::LegacyStream, Some("Bearer new"))
    );
}
