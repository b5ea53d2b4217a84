//! The request-head classifier, check by check: every status it can give, and the
//! requests that must pass.

use mcp_sansio::ProtocolVersion;
use mcp_sansio::http::server::{
    AuthVerdict, BadRequest, Classified, HostPolicy, OriginPolicy, Refusal, RequestHead, RequestKind, ServerConfig,
    classify, classify_with,
};

const POST_OK: [(&str, &str); 4] = [
    ("Host", "localhost:3000"),
    ("Accept", "application/json, text/event-stream"),
    ("Content-Type", "application/json"),
    ("Content-Length", "10"),
];

fn run<'r>(
    config: &ServerConfig<'_>,
    method: &'r str,
    target: &'r str,
    headers: &'r [(&'r str, &'r str)],
) -> Result<Classified<'r>, Refusal<'r>> {
    classify(config, &RequestHead::new(method, target, headers), AuthVerdict::Allow)
}

fn with<'a>(base: &[(&'a str, &'a str)], extra: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    let mut v: Vec<_> =
        base.iter().filter(|(n, _)| !extra.iter().any(|(e, _)| e.eq_ignore_ascii_case(n))).copied().collect();
    v.extend(extra.iter().copied().filter(|(_, val)| !val.is_empty()));
    v
}

fn status(r: Result<Classified<'_>, Refusal<'_>>) -> u16 {
    r.map_or_else(|e| e.status(), |_| 200)
}

#[test]
fn a_good_post_passes_with_its_values() {
    let c = ServerConfig::new();
    let h = with(&POST_OK, &[("Mcp-Session-Id", "abc"), ("MCP-Protocol-Version", "2025-06-18")]);
    let got = run(&c, "POST", "/mcp", &h).unwrap();
    assert_eq!(
        got,
        Classified {
            kind: RequestKind::Post,
            session_id: Some("abc"),
            protocol_version: Some(ProtocolVersion::V2025_06_18),
            last_event_id: None,
            content_length: Some(10),
        }
    );
    // Without a session id (initialize) it passes too: the body decides.
    assert_eq!(run(&c, "POST", "/mcp", &POST_OK).unwrap().session_id, None);
}

#[test]
fn routes() {
    let c = ServerConfig::new();
    assert_eq!(run(&c, "POST", "/other", &POST_OK), Err(Refusal::NoSuchPath));
    assert_eq!(run(&c, "POST", "/mcp/", &POST_OK), Err(Refusal::NoSuchPath));
    assert_eq!(run(&c, "POST", "/mcp?x=1", &POST_OK).unwrap().kind, RequestKind::Post);
    let get = [("Host", "127.0.0.1"), ("Accept", "text/event-stream")];
    assert_eq!(run(&c, "GET", "/sse", &get).unwrap().kind, RequestKind::LegacyGet);
    let legacy = run(&c, "POST", "/messages?sessionId=s1", &POST_OK).unwrap();
    assert_eq!((legacy.kind, legacy.session_id), (RequestKind::LegacyPost, Some("s1")));
    // Python's spelling of the parameter.
    assert_eq!(run(&c, "POST", "/messages?session_id=s2", &POST_OK).unwrap().session_id, Some("s2"));
    assert_eq!(run(&c, "POST", "/messages", &POST_OK), Err(Refusal::BadRequest(BadRequest::MissingSessionId)));
    // Without the legacy transport its paths do not exist.
    let modern = ServerConfig { legacy_sse_path: None, ..ServerConfig::new() };
    assert_eq!(run(&modern, "GET", "/sse", &get), Err(Refusal::NoSuchPath));
    assert_eq!(run(&modern, "POST", "/messages?sessionId=s1", &POST_OK), Err(Refusal::NoSuchPath));
}

#[test]
fn methods_get_405_with_allow() {
    let c = ServerConfig::new();
    let h = [("Host", "localhost")];
    for m in ["PUT", "PATCH", "OPTIONS", "HEAD", "get"] {
        assert_eq!(run(&c, m, "/mcp", &h), Err(Refusal::MethodNotAllowed { allow: "GET, POST, DELETE" }), "{m}");
    }
    let no_get = ServerConfig { get_stream: false, ..ServerConfig::new() };
    let sid = [("Host", "localhost"), ("Mcp-Session-Id", "s")];
    assert_eq!(run(&no_get, "GET", "/mcp", &sid), Err(Refusal::MethodNotAllowed { allow: "POST, DELETE" }));
    let no_delete = ServerConfig { delete: false, ..ServerConfig::new() };
    assert_eq!(run(&no_delete, "DELETE", "/mcp", &sid), Err(Refusal::MethodNotAllowed { allow: "GET, POST" }));
    let neither = ServerConfig { delete: false, get_stream: false, ..ServerConfig::new() };
    assert_eq!(run(&neither, "DELETE", "/mcp", &sid), Err(Refusal::MethodNotAllowed { allow: "POST" }));
    assert_eq!(run(&c, "POST", "/sse", &POST_OK), Err(Refusal::MethodNotAllowed { allow: "GET" }));
    assert_eq!(run(&c, "GET", "/messages?sessionId=1", &h), Err(Refusal::MethodNotAllowed { allow: "POST" }));
}

#[test]
fn dns_rebinding_host_check() {
    let c = ServerConfig::new();
    for host in ["localhost:3000", "127.0.0.1:3000", "[::1]:3000", "LOCALHOST", "mcp.localhost"] {
        assert_eq!(status(run(&c, "POST", "/mcp", &with(&POST_OK, &[("Host", host)]))), 200, "{host}");
    }
    for host in ["evil.example.com", "evil.example.com:3000", "0.0.0.0:3000", "127.0.0.1.nip.io"] {
        let h = with(&POST_OK, &[("Host", host)]);
        let r = run(&c, "POST", "/mcp", &h);
        assert_eq!(r, Err(Refusal::HostNotAllowed), "{host}");
        assert_eq!(status(r), 403);
    }
    assert_eq!(
        run(&c, "POST", "/mcp", &with(&POST_OK, &[("Host", "")])),
        Err(Refusal::BadRequest(BadRequest::MissingHost))
    );
    assert_eq!(
        run(&c, "POST", "/mcp", &with(&POST_OK, &[("Host", "a b")])),
        Err(Refusal::BadRequest(BadRequest::MalformedHost))
    );
    let mut twice = POST_OK.to_vec();
    twice.push(("host", "localhost"));
    assert_eq!(run(&c, "POST", "/mcp", &twice), Err(Refusal::BadRequest(BadRequest::DuplicateField("host"))));
    let listed = ServerConfig { hosts: HostPolicy::Allowed(&["mcp.example.com"]), ..ServerConfig::new() };
    assert_eq!(status(run(&listed, "POST", "/mcp", &with(&POST_OK, &[("Host", "MCP.example.com:443")]))), 200);
    assert_eq!(status(run(&listed, "POST", "/mcp", &with(&POST_OK, &[("Host", "localhost")]))), 200);
    assert_eq!(status(run(&listed, "POST", "/mcp", &with(&POST_OK, &[("Host", "other.example.com")]))), 403);
    let any = ServerConfig { hosts: HostPolicy::Any, ..ServerConfig::new() };
    assert_eq!(status(run(&any, "POST", "/mcp", &with(&POST_OK, &[("Host", "")]))), 200);
}

#[test]
fn origin_check() {
    let c = ServerConfig::new();
    for origin in ["http://localhost:6274", "http://127.0.0.1", "https://[::1]:8443"] {
        assert_eq!(status(run(&c, "POST", "/mcp", &with(&POST_OK, &[("Origin", origin)]))), 200, "{origin}");
    }
    for origin in ["http://evil.example.com", "null", "http://localhost/", "garbage"] {
        let h = with(&POST_OK, &[("Origin", origin)]);
        let r = run(&c, "POST", "/mcp", &h);
        assert_eq!(r, Err(Refusal::OriginNotAllowed), "{origin}");
    }
    let list = ServerConfig {
        origins: OriginPolicy::Allowed { list: &["https://app.example"], loopback: false },
        ..ServerConfig::new()
    };
    assert_eq!(status(run(&list, "POST", "/mcp", &with(&POST_OK, &[("Origin", "https://app.example:443")]))), 200);
    assert_eq!(status(run(&list, "POST", "/mcp", &with(&POST_OK, &[("Origin", "http://localhost")]))), 403);
    assert_eq!(status(run(&list, "POST", "/mcp", &with(&POST_OK, &[("Origin", "http://app.example")]))), 403);
    let any = ServerConfig { origins: OriginPolicy::Any, ..ServerConfig::new() };
    assert_eq!(status(run(&any, "POST", "/mcp", &with(&POST_OK, &[("Origin", "http://evil.example")]))), 200);
    // The legacy endpoints are checked the same way.
    let get = [("Host", "localhost"), ("Origin", "http://evil.example")];
    assert_eq!(run(&c, "GET", "/sse", &get), Err(Refusal::OriginNotAllowed));
    // The conformance suite's rebinding request: both headers name the attacker.
    let rebind = with(&POST_OK, &[("Host", "evil.example.com"), ("Origin", "http://evil.example.com")]);
    assert_eq!(status(run(&c, "POST", "/mcp", &rebind)), 403);
}

#[test]
fn auth_verdicts() {
    let c = ServerConfig::new();
    let head = RequestHead::new("POST", "/mcp", &POST_OK[..]);
    let unauth = AuthVerdict::Unauthorized { error: Some("invalid_token"), description: None };
    assert_eq!(classify(&c, &head, unauth).unwrap_err().status(), 401);
    let scope = AuthVerdict::InsufficientScope { scope: Some("a"), description: None };
    assert_eq!(classify(&c, &head, scope).unwrap_err().status(), 403);
    // Host and Origin are checked before credentials.
    let evil = with(&POST_OK, &[("Host", "evil.example")]);
    assert_eq!(classify(&c, &RequestHead::new("POST", "/mcp", &evil[..]), unauth), Err(Refusal::HostNotAllowed));
}

type Case<'a, T> = (&'a str, &'a str, &'a [(&'a str, &'a str)], T);

#[test]
fn the_verdict_is_asked_only_for_requests_that_reach_it_with_their_kind() {
    let c = ServerConfig::new();
    let get = [("Host", "localhost"), ("Accept", "text/event-stream"), ("Mcp-Session-Id", "abc")];
    let delete = [("Host", "localhost"), ("Mcp-Session-Id", "abc")];
    let legacy_post = [("Host", "localhost"), ("Content-Type", "application/json")];
    let cases: [Case<'_, RequestKind>; 5] = [
        ("POST", "/mcp", &POST_OK[..], RequestKind::Post),
        ("GET", "/mcp", &get[..], RequestKind::Get),
        ("DELETE", "/mcp", &delete[..], RequestKind::Delete),
        ("GET", "/sse", &get[..2], RequestKind::LegacyGet),
        ("POST", "/messages?sessionId=abc", &legacy_post[..], RequestKind::LegacyPost),
    ];
    for (method, target, headers, kind) in cases {
        let mut asked = None;
        let head = RequestHead::new(method, target, headers);
        let r = classify_with(&c, &head, |k| {
            asked = Some(k);
            AuthVerdict::Allow
        });
        assert_eq!(r.map(|c| c.kind), Ok(kind), "{method} {target}");
        assert_eq!(asked, Some(kind), "{method} {target}");
        // A verdict that depends on the kind: only DELETE needs more scope.
        let r = classify_with(&c, &head, |k| match k {
            RequestKind::Delete => AuthVerdict::InsufficientScope { scope: Some("mcp:admin"), description: None },
            _ => AuthVerdict::Allow,
        });
        assert_eq!(status(r), if kind == RequestKind::Delete { 403 } else { 200 }, "{method} {target}");
    }
    // Not asked at all when the path, Host, Origin or method fails first.
    let evil_host = with(&POST_OK, &[("Host", "evil.example")]);
    let evil_origin = with(&POST_OK, &[("Origin", "https://evil.example")]);
    let refused: [Case<'_, u16>; 4] = [
        ("POST", "/elsewhere", &POST_OK[..], 404),
        ("POST", "/mcp", &evil_host[..], 403),
        ("POST", "/mcp", &evil_origin[..], 403),
        ("PUT", "/mcp", &POST_OK[..], 405),
    ];
    for (method, target, headers, want) in refused {
        let mut asked = false;
        let r = classify_with(&c, &RequestHead::new(method, target, headers), |_| {
            asked = true;
            AuthVerdict::Unauthorized { error: None, description: None }
        });
        assert_eq!(status(r), want, "{method} {target}");
        assert!(!asked, "{method} {target}: the token check ran for a request refused before it");
    }
    // And a refusal by the check comes before Accept, Content-Type and the session checks.
    let bare = [("Host", "localhost")];
    let r = classify_with(&c, &RequestHead::new("POST", "/mcp", &bare[..]), |_| AuthVerdict::Unauthorized {
        error: None,
        description: None,
    });
    assert_eq!(status(r), 401);
}

#[test]
fn accept() {
    let c = ServerConfig::new();
    for ok in [
        "application/json, text/event-stream",
        "*/*",
        "application/*, text/*",
        "text/event-stream,application/json;q=0.5",
    ] {
        assert_eq!(status(run(&c, "POST", "/mcp", &with(&POST_OK, &[("Accept", ok)]))), 200, "{ok}");
    }
    // Absent: everything is acceptable.
    assert_eq!(status(run(&c, "POST", "/mcp", &with(&POST_OK, &[("Accept", "")]))), 200);
    for bad in ["application/json", "text/event-stream", "*/*, text/event-stream;q=0", "text/html", "bad header"] {
        let h = with(&POST_OK, &[("Accept", bad)]);
        let r = run(&c, "POST", "/mcp", &h);
        assert_eq!(r, Err(Refusal::NotAcceptable), "{bad}");
        assert_eq!(status(r), 406);
    }
    // Two lines: each can allow one type.
    let mut two = with(&POST_OK, &[("Accept", "application/json")]);
    two.push(("accept", "text/event-stream"));
    assert_eq!(status(run(&c, "POST", "/mcp", &two)), 200);
    let get = |accept: &'static str| vec![("Host", "localhost"), ("Mcp-Session-Id", "s"), ("Accept", accept)];
    assert_eq!(status(run(&c, "GET", "/mcp", &get("text/event-stream"))), 200);
    assert_eq!(status(run(&c, "GET", "/mcp", &get("application/json"))), 406);
    assert_eq!(status(run(&c, "GET", "/sse", &get("application/json"))), 406);
    // DELETE and legacy POSTs get no body to negotiate.
    assert_eq!(status(run(&c, "DELETE", "/mcp", &get("application/json"))), 200);
    assert_eq!(status(run(&c, "POST", "/messages?sessionId=s", &with(&POST_OK, &[("Accept", "text/plain")]))), 200);
}

#[test]
fn content_type() {
    let c = ServerConfig::new();
    for ok in ["application/json", "Application/JSON; charset=UTF-8", "application/json;charset=\"utf-8\""] {
        assert_eq!(status(run(&c, "POST", "/mcp", &with(&POST_OK, &[("Content-Type", ok)]))), 200, "{ok}");
    }
    for bad in ["", "text/plain", "application/json; charset=latin1", "application/jsonl", "json"] {
        let h = with(&POST_OK, &[("Content-Type", bad)]);
        let r = run(&c, "POST", "/mcp", &h);
        assert_eq!(r, Err(Refusal::UnsupportedMediaType), "{bad:?}");
        assert_eq!(status(r), 415);
    }
    assert_eq!(
        status(run(&c, "POST", "/messages?sessionId=a", &with(&POST_OK, &[("Content-Type", "text/plain")]))),
        415
    );
    // GET and DELETE carry no body and need no type.
    assert_eq!(status(run(&c, "DELETE", "/mcp", &[("Host", "localhost"), ("Mcp-Session-Id", "s")])), 200);
}

#[test]
fn content_length_cap() {
    let c = ServerConfig { max_body: 100, ..ServerConfig::new() };
    let len = |v: &'static str| with(&POST_OK, &[("Content-Length", v)]);
    assert_eq!(run(&c, "POST", "/mcp", &len("100")).unwrap().content_length, Some(100));
    assert_eq!(run(&c, "POST", "/mcp", &len("")).unwrap().content_length, None);
    for big in ["101", "99999999999999999999999", "18446744073709551616"] {
        let h = len(big);
        let r = run(&c, "POST", "/mcp", &h);
        assert_eq!(r, Err(Refusal::BodyTooLarge), "{big}");
        assert_eq!(status(r), 413);
        assert!(r.unwrap_err().closes_connection());
    }
    for bad in ["-1", "1e3", "0x10", "1 0", "abc"] {
        assert_eq!(
            run(&c, "POST", "/mcp", &len(bad)),
            Err(Refusal::BadRequest(BadRequest::MalformedContentLength)),
            "{bad}"
        );
    }
    assert_eq!(run(&c, "POST", "/mcp", &len(" 42 ")).unwrap().content_length, Some(42));
}

#[test]
fn session_and_version_headers() {
    let c = ServerConfig::new();
    let post = |extra: &[(&'static str, &'static str)]| with(&POST_OK, extra);
    let bad = |b| Err(Refusal::BadRequest(b));
    assert_eq!(run(&c, "POST", "/mcp", &post(&[("Mcp-Session-Id", "a b")])), bad(BadRequest::MalformedSessionId));
    let long = "x".repeat(257);
    let h = with(&POST_OK, &[("Mcp-Session-Id", &long)]);
    assert_eq!(run(&c, "POST", "/mcp", &h), bad(BadRequest::MalformedSessionId));
    assert_eq!(run(&c, "POST", "/messages?sessionId=", &POST_OK), bad(BadRequest::MalformedSessionId));
    let mut twice = post(&[("Mcp-Session-Id", "a")]);
    twice.push(("MCP-SESSION-ID", "b"));
    assert_eq!(run(&c, "POST", "/mcp", &twice), bad(BadRequest::DuplicateField("mcp-session-id")));
    // GET and DELETE need a session.
    assert_eq!(run(&c, "GET", "/mcp", &[("Host", "localhost")]), bad(BadRequest::MissingSessionId));
    assert_eq!(run(&c, "DELETE", "/mcp", &[("Host", "localhost")]), bad(BadRequest::MissingSessionId));
    for v in ["2025-03-26", "2025-06-18", "2025-11-25", "2024-11-05", " 2025-11-25 "] {
        assert!(run(&c, "POST", "/mcp", &post(&[("MCP-Protocol-Version", v)])).is_ok(), "{v}");
    }
    for v in ["2025-13-01", "latest", "2025-06-18,2025-03-26"] {
        assert_eq!(
            run(&c, "POST", "/mcp", &post(&[("MCP-Protocol-Version", v)])),
            bad(BadRequest::UnknownProtocolVersion)
        );
    }
    // The stateless version is served by default (its POSTs carry no session id); a
    // configuration without it refuses it, as any version it leaves off.
    assert!(run(&c, "POST", "/mcp", &post(&[("MCP-Protocol-Version", "2026-07-28")])).is_ok());
    let handshake_only = ServerConfig { versions: mcp_sansio::mcp::VersionSet::HANDSHAKE, ..ServerConfig::new() };
    assert_eq!(
        run(&handshake_only, "POST", "/mcp", &post(&[("MCP-Protocol-Version", "2026-07-28")])),
        bad(BadRequest::UnsupportedProtocolVersion)
    );
    let only_new = ServerConfig {
        versions: mcp_sansio::mcp::VersionSet::since(ProtocolVersion::V2025_06_18),
        ..ServerConfig::new()
    };
    assert_eq!(
        run(&only_new, "POST", "/mcp", &post(&[("MCP-Protocol-Version", "2025-03-26")])),
        bad(BadRequest::UnsupportedProtocolVersion)
    );
}

#[test]
fn last_event_id() {
    let c = ServerConfig::new();
    let get = |id: &'static str| vec![("Host", "localhost"), ("Mcp-Session-Id", "s"), ("Last-Event-ID", id)];
    assert_eq!(run(&c, "GET", "/mcp", &get("3-17")).unwrap().last_event_id, Some("3-17"));
    assert_eq!(run(&c, "GET", "/mcp", &get("")).unwrap().last_event_id, None);
    assert_eq!(run(&c, "GET", "/mcp", &get("a\u{1}")), Err(Refusal::BadRequest(BadRequest::MalformedLastEventId)));
    // Only a GET resumes; elsewhere the header is ignored.
    let h = with(&POST_OK, &[("Last-Event-ID", "3-17")]);
    assert_eq!(run(&c, "POST", "/mcp", &h).unwrap().last_event_id, None);
}

#[test]
fn protocol_version_rule_once_the_session_is_known() {
    use ProtocolVersion::*;
    use mcp_sansio::http::server::check_session_version as check;
    // 2025-03-26 sessions (and legacy ones) may omit it.
    assert_eq!(check(None, V2025_03_26), Ok(V2025_03_26));
    assert_eq!(check(None, V2024_11_05), Ok(V2024_11_05));
    assert_eq!(check(Some(V2025_03_26), V2025_03_26), Ok(V2025_03_26));
    for v in [V2025_06_18, V2025_11_25] {
        assert_eq!(check(None, v), Err(BadRequest::MissingProtocolVersion));
        assert_eq!(check(Some(v), v), Ok(v));
        assert_eq!(check(Some(V2025_03_26), v), Err(BadRequest::ProtocolVersionMismatch));
    }
    assert_eq!(Refusal::BadRequest(BadRequest::MissingProtocolVersion).status(), 400);
}

#[test]
fn every_refusal_writes_a_well_formed_response_version_by_version() {
    use mcp_sansio::http::server::MIN_RESPONSE_BUFFER;
    use mcp_sansio::wire::Message;
    let c = ServerConfig::new();
    let refusals = [
        (Refusal::MethodNotAllowed { allow: "GET, POST, DELETE" }, 405),
        (Refusal::BadRequest(BadRequest::MissingSessionId), 400),
        (Refusal::BadRequest(BadRequest::InvalidJson), 400),
        (Refusal::HostNotAllowed, 403),
        (Refusal::OriginNotAllowed, 403),
        (Refusal::Auth(AuthVerdict::Unauthorized { error: None, description: None }), 401),
        (Refusal::Auth(AuthVerdict::InsufficientScope { scope: Some("s"), description: None }), 403),
        (Refusal::NotAcceptable, 406),
        (Refusal::UnsupportedMediaType, 415),
        (Refusal::BodyTooLarge, 413),
        (Refusal::SessionNotFound, 404),
        (Refusal::Busy, 503),
    ];
    for version in [
        None,
        Some(ProtocolVersion::V2025_03_26),
        Some(ProtocolVersion::V2025_06_18),
        Some(ProtocolVersion::V2025_11_25),
    ] {
        for (refusal, status) in refusals {
            let mut out = [0u8; MIN_RESPONSE_BUFFER];
            let r = refusal.write(&c, version, &mut out).unwrap();
            assert_eq!(r.status, status);
            assert_eq!(r.header("content-type"), Some("application/json"));
            let Ok(Message::Error(e)) = Message::parse(r.body) else { panic!("{refusal:?}") };
            assert_eq!(e.id, None);
            let body = core::str::from_utf8(r.body).unwrap();
            // 2025-11-25 omits the id; earlier versions (and unknown) use null.
            assert_eq!(body.contains(r#""id":null"#), version != Some(ProtocolVersion::V2025_11_25), "{body}");
        }
    }
}
