//! The client core against the server core, in memory, on a virtual clock: the whole
//! of Streamable HTTP and HTTP+SSE between this crate's two halves, with faults
//! injected (dropped streams, a restart, no GET stream, polling, a legacy-only server,
//! credentials).

#[path = "http_client_support/pair.rs"]
mod pair;

use mcp_sansio::http::client::ExchangeKind;
use mcp_sansio::http::server::ServerConfig;
use pair::{Pair, header};

fn handshake(p: &mut Pair) {
    p.settle();
    assert!(p.ready(), "events: {:?} / {:?}", p.session_events, p.transport_events);
}

#[test]
fn streamable_http_end_to_end() {
    let mut p = Pair::new(ServerConfig::new());
    handshake(&mut p);
    assert_eq!(p.http.transport(), Some(mcp_sansio::http::client::Transport::Streamable));
    let session = p.http.session_id().unwrap().to_string();
    assert!(session.starts_with("sess-"));
    // The standalone stream is open.
    assert_eq!(p.made(ExchangeKind::Stream).len(), 1);
    p.call("tools/list", "{}");
    p.call("tools/call", r#"{"name":"echo","arguments":{}}"#);
    p.call_with(
        "tools/call",
        r#"{"name":"progress","arguments":{}}"#,
        mcp_sansio::session::RequestOptions::with_progress(),
    );
    p.call("tools/call", r#"{"name":"sample","arguments":{}}"#);
    let texts = p.response_texts();
    assert_eq!(texts.len(), 4, "{texts:?}\n{:?}", p.transport_events);
    assert!(texts[0].starts_with("2:tools/list {\"tools\""), "{texts:?}");
    assert!(texts[1].contains("echo"));
    assert!(texts[2].contains("done"));
    assert!(texts[3].contains("sampled"));
    assert!(p.session_events.iter().any(|e| e.contains("Progress")), "{:?}", p.session_events);
    assert!(p.session_events.iter().any(|e| e == "request sampling/createMessage"), "{:?}", p.session_events);
    // Every POST after initialize carried the session id and version.
    for h in p.made(ExchangeKind::Post).iter().skip(1) {
        assert_eq!(header(h, "Mcp-Session-Id"), Some(session.as_str()));
        assert_eq!(header(h, "MCP-Protocol-Version"), Some("2025-11-25"));
    }
    assert!(p.transport_events.iter().all(|e| e.starts_with("Connected")), "{:?}", p.transport_events);
    // Close: the session ends on the server too.
    p.ep.close(p.at());
    p.settle();
    assert_eq!(p.server.log.deleted, 1);
    assert!(p.http.is_closed());
    assert!(p.transport_events.iter().any(|e| e == "Closed"));
}

#[test]
fn a_dropped_post_stream_is_resumed_from_the_replay_store() {
    let mut p = Pair::new(ServerConfig::new());
    handshake(&mut p);
    // The call's stream breaks right after its priming event.
    p.ep.send_request(
        p.at(),
        "tools/call",
        Some(&mcp_sansio::wire::RawJson::parse(br#"{"name":"slow","arguments":{}}"#).unwrap()),
        Default::default(),
    )
    .unwrap();
    p.settle();
    let stream = *p.open_exchanges().last().unwrap();
    p.drop_connection(stream);
    assert!(p.transport_events.iter().any(|e| e.starts_with("Reconnecting")), "{:?}", p.transport_events);
    // Meanwhile the server answers; the client reconnects after the server's retry (1 s).
    p.finish_slow();
    assert!(p.responses.is_empty());
    p.run_until(1_000);
    let resumes = p.made(ExchangeKind::Resume);
    assert_eq!(resumes.len(), 1, "{:?}", p.requests);
    assert!(header(resumes[0], "Last-Event-ID").is_some());
    assert_eq!(p.response_texts().len(), 1, "{:?} {:?}", p.responses, p.transport_events);
    assert!(p.response_texts()[0].contains("slow done"));
}

#[test]
fn a_dropped_standalone_stream_is_reconnected() {
    let mut p = Pair::new(ServerConfig::new());
    handshake(&mut p);
    let get = p.open_exchanges()[0];
    p.drop_connection(get);
    p.run_until(1_000);
    assert_eq!(p.made(ExchangeKind::Stream).len(), 2);
    assert!(header(p.made(ExchangeKind::Stream)[1], "Last-Event-ID").is_some(), "the priming id");
}

#[test]
fn a_server_restart_starts_a_new_session() {
    let mut p = Pair::new(ServerConfig::new());
    handshake(&mut p);
    let old = p.http.session_id().unwrap().to_string();
    p.server.restart();
    let _ = p.ep.send_request(p.at(), "tools/list", Some(&mcp_sansio::wire::RawJson::EMPTY_OBJECT), Default::default());
    p.settle();
    assert!(p.transport_events.iter().any(|e| e == "SessionExpired { reason: NotFound }"), "{:?}", p.transport_events);
    // The application starts over: a new endpoint, a new link, the same client.
    p.ep = pair::client_endpoint(None);
    p.link = mcp_sansio::http::client::Link::new();
    p.session_events.clear();
    handshake(&mut p);
    let new = p.http.session_id().unwrap().to_string();
    assert_ne!(old, new);
    p.call("tools/list", "{}");
    assert_eq!(p.responses.len(), 1);
}

#[test]
fn no_standalone_stream_405() {
    let mut p = Pair::new(ServerConfig { get_stream: false, ..ServerConfig::new() });
    handshake(&mut p);
    assert!(
        p.transport_events.iter().any(|e| e == "StandaloneUnavailable { status: Some(405) }"),
        "{:?}",
        p.transport_events
    );
    p.call("tools/call", r#"{"name":"sample","arguments":{}}"#);
    assert!(p.response_texts()[0].contains("sampled"));
}

#[test]
fn a_polling_server_is_followed() {
    let mut p = Pair::new(ServerConfig { close_after_priming: true, retry_ms: 200, ..ServerConfig::new() });
    handshake(&mut p);
    p.ep.send_request(
        p.at(),
        "tools/call",
        Some(&mcp_sansio::wire::RawJson::parse(br#"{"name":"slow","arguments":{}}"#).unwrap()),
        Default::default(),
    )
    .unwrap();
    p.settle();
    p.run_until(1_000);
    p.finish_slow();
    p.run_until(2_000);
    assert_eq!(p.response_texts().len(), 1, "{:?} / {:?}", p.transport_events, p.requests.len());
    assert!(!p.made(ExchangeKind::Resume).is_empty());
}

#[test]
fn a_legacy_only_server_is_reached_by_the_fallback() {
    // HTTP+SSE at the URL the client was given; POSTs there get 405.
    let config = ServerConfig {
        mcp_path: "/unused",
        legacy_sse_path: Some("/mcp"),
        legacy_post_path: "/messages",
        ..ServerConfig::new()
    };
    let mut p = Pair::new(config);
    handshake(&mut p);
    assert_eq!(p.http.transport(), Some(mcp_sansio::http::client::Transport::Legacy));
    assert!(p.transport_events.iter().any(|e| e == "FellBack { status: 405 }"), "{:?}", p.transport_events);
    assert!(p.http.post_url().starts_with("http://localhost:3000/messages?sessionId=sess-"));
    p.call("tools/list", "{}");
    p.call("tools/call", r#"{"name":"sample","arguments":{}}"#);
    let texts = p.response_texts();
    assert_eq!(texts.len(), 2, "{texts:?} {:?}", p.transport_events);
    assert!(texts[1].contains("sampled"));
    assert!(p.made(ExchangeKind::LegacyPost).len() >= 4);
}

#[test]
fn credentials_are_asked_for_and_retried() {
    let mut p = Pair::new(ServerConfig::new());
    p.server.token = Some("s3cret");
    p.settle();
    assert!(p.transport_events.iter().any(|e| e.starts_with("AuthRequired")), "{:?}", p.transport_events);
    let x = *p.auth.last().unwrap();
    p.http.set_bearer_token(Some("s3cret")).unwrap();
    p.http.retry(x).unwrap();
    handshake(&mut p);
    p.call("tools/list", "{}");
    assert_eq!(p.responses.len(), 1);
    for (_, _, h) in p.requests.iter().skip(1) {
        assert_eq!(header(h, "Authorization"), Some("Bearer s3cret"));
    }
}

#[test]
fn an_older_version_has_no_priming_and_still_resumes_nothing() {
    use mcp_sansio::ProtocolVersion;
    use mcp_sansio::mcp::VersionSet;
    let client = mcp_sansio::http::client::ClientConfig::new(pair::URL).unwrap();
    let mut p = Pair::with(ServerConfig::new(), client, Some(VersionSet::only(ProtocolVersion::V2025_06_18)));
    handshake(&mut p);
    assert_eq!(p.http.protocol_version(), Some(ProtocolVersion::V2025_06_18));
    p.call_with(
        "tools/call",
        r#"{"name":"progress","arguments":{}}"#,
        mcp_sansio::session::RequestOptions::with_progress(),
    );
    assert!(p.response_texts()[0].contains("done"));
    assert!(p.session_events.iter().any(|e| e.contains("Progress")));
}
