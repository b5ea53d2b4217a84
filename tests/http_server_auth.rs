//! Authorization in the std HTTP server, over real sockets: the application's token
//! check is asked about every request (Streamable HTTP POST, GET and DELETE, the legacy
//! transport's GET and POST), its refusals are 401 / 403 with the `WWW-Authenticate`
//! challenge the specification asks for, and the protected resource metadata document
//! (RFC 9728) is served where the challenge and the well-known paths say.

#[path = "http_server_support/mod.rs"]
mod support;

use std::sync::{Arc, Mutex};

use mcp_sansio::adapters::http::server::{Authorizer, ServerOptions};
use mcp_sansio::http::server::{AuthVerdict, RequestKind};
use support::{INITIALIZE, Raw, Resp, Served, Session, open_session, post, post_head};

const TOKEN: &str = "s3cret-token";

fn bearer(token: &str) -> String {
    format!("Authorization: Bearer {token}\r\n")
}

fn metadata_url(addr: std::net::SocketAddr) -> &'static str {
    // The options borrow for the server's life ('static here); one short string per test.
    Box::leak(format!("http://{addr}/.well-known/oauth-protected-resource/mcp").into_boxed_str())
}

fn fixed_token_server() -> Served {
    Served::start(|addr| {
        let mut o = ServerOptions { authorize: Some(Authorizer::bearer(TOKEN)), ..ServerOptions::default() };
        o.config.auth.resource_metadata = Some(metadata_url(addr));
        o.config.auth.scope = Some("mcp:tools");
        o
    })
}

/// A 401 with the challenge, and the id-less JSON-RPC error body every refusal carries.
fn assert_unauthorized(r: &Resp, server: &Served, error: Option<&str>, what: &str) {
    assert_eq!(r.status, 401, "{what}: {}", r.text());
    let mut want = format!(
        "Bearer resource_metadata=\"http://{}/.well-known/oauth-protected-resource/mcp\", scope=\"mcp:tools\"",
        server.addr
    );
    if let Some(e) = error {
        want.push_str(&format!(", error=\"{e}\""));
    }
    let challenge = r.header("www-authenticate").unwrap_or_else(|| panic!("{what}: no WWW-Authenticate"));
    assert!(challenge.starts_with(&want), "{what}: {challenge}");
    let body = r.json().unwrap_or_else(|| panic!("{what}: the body is not JSON: {}", r.text()));
    assert_eq!(body["error"]["code"], -32000, "{what}");
}

fn with_token(raw: &mut Raw, server: &Served, session: Option<&Session>, body: &str) -> Resp {
    post(raw, server, session, body, &bearer(TOKEN)).unwrap()
}

fn get_request(server: &Served, session: &Session, extra: &str) -> String {
    format!(
        "GET /mcp HTTP/1.1\r\nHost: {}\r\nAccept: text/event-stream\r\nMcp-Session-Id: {}\r\nMCP-Protocol-Version: {}\r\n{extra}\r\n",
        server.addr, session.id, session.version
    )
}

fn delete_request(server: &Served, session: &Session, extra: &str) -> String {
    format!(
        "DELETE /mcp HTTP/1.1\r\nHost: {}\r\nMcp-Session-Id: {}\r\nMCP-Protocol-Version: {}\r\n{extra}\r\n",
        server.addr, session.id, session.version
    )
}

const TOOLS_LIST: &str = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;

#[test]
fn a_fixed_token_guards_every_kind_of_request() {
    let server = fixed_token_server();
    let init = |extra: &str| format!("{}{INITIALIZE}", post_head(&server, None, INITIALIZE.len(), extra));

    // POST initialize: no token (no `error`: the client did not try), a wrong one, the
    // right one, each on a fresh connection (a refused POST's body is not read, so its
    // connection closes).
    assert_unauthorized(&server.once(&init("")), &server, None, "initialize without a token");
    assert_unauthorized(&server.once(&init(&bearer("guess"))), &server, Some("invalid_token"), "a wrong token");
    assert_unauthorized(&server.once(&init("Authorization: Basic czNjcmV0\r\n")), &server, None, "another scheme");
    let mut raw = server.connect();
    let r = with_token(&mut raw, &server, None, INITIALIZE);
    assert_eq!(r.status, 200, "{}", r.text());
    let session = Session { id: r.header("mcp-session-id").unwrap().to_string(), version: "2025-11-25".into() };
    let r = with_token(&mut raw, &server, Some(&session), r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    assert_eq!(r.status, 202);

    // A POST in the session: the session id alone does not let anyone in.
    let mut other = server.connect();
    let r = post(&mut other, &server, Some(&session), TOOLS_LIST, "").unwrap();
    assert_unauthorized(&r, &server, None, "a POST with a session id and no token");
    let r = with_token(&mut raw, &server, Some(&session), TOOLS_LIST);
    assert_eq!(r.status, 200);
    assert_eq!(r.json().unwrap()["result"]["tools"][0]["name"], "echo");

    // GET: refused without the token, the stream opens with it.
    assert_unauthorized(&server.once(&get_request(&server, &session, "")), &server, None, "GET without a token");
    let mut stream = server.connect();
    stream.send(get_request(&server, &session, &bearer(TOKEN)).as_bytes()).unwrap();
    let r = stream.response().unwrap();
    assert_eq!((r.status, r.streaming), (200, true));

    // DELETE with a wrong token ends nothing; with the token it ends the session.
    let r = server.once(&delete_request(&server, &session, &bearer("guess")));
    assert_unauthorized(&r, &server, Some("invalid_token"), "DELETE with a wrong token");
    assert_eq!(with_token(&mut raw, &server, Some(&session), TOOLS_LIST).status, 200);
    assert_eq!(server.once(&delete_request(&server, &session, &bearer(TOKEN))).status, 200);
    assert_eq!(with_token(&mut raw, &server, Some(&session), TOOLS_LIST).status, 404);

    // Legacy HTTP+SSE: the GET that opens a session, and the POSTs to its endpoint.
    let legacy_get =
        |extra: &str| format!("GET /sse HTTP/1.1\r\nHost: {}\r\nAccept: text/event-stream\r\n{extra}\r\n", server.addr);
    assert_unauthorized(&server.once(&legacy_get("")), &server, None, "legacy GET without a token");
    let mut sse = server.connect();
    sse.send(legacy_get(&bearer(TOKEN)).as_bytes()).unwrap();
    assert_eq!(sse.response().unwrap().status, 200);
    let text = sse.stream_until("\n\n").unwrap();
    let endpoint = text.lines().find_map(|l| l.strip_prefix("data: ")).expect("an endpoint event").to_string();
    let legacy_post = |extra: &str| {
        format!(
            "POST {endpoint} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n{extra}\r\n{INITIALIZE}",
            server.addr,
            INITIALIZE.len()
        )
    };
    assert_unauthorized(&server.once(&legacy_post(&bearer("guess"))), &server, Some("invalid_token"), "legacy POST");
    assert_eq!(server.once(&legacy_post(&bearer(TOKEN))).status, 202);
    let text = sse.stream_until("\"result\"").unwrap();
    assert!(text.contains("event: message"), "{text}");

    // The open GET stream was not disturbed by any of it (it ended with its session).
    drop(stream);
}

/// What the check saw of one request.
#[derive(Clone, Debug, PartialEq)]
struct Seen {
    kind: RequestKind,
    token: Option<String>,
    session: Option<String>,
    header: Option<String>,
}

#[test]
fn the_check_sees_each_request_and_can_ask_for_more_scope() {
    let seen: Arc<Mutex<Vec<Seen>>> = Arc::default();
    let log = Arc::clone(&seen);
    let server = Served::start(move |addr| {
        let mut o = ServerOptions::default();
        o.config.auth.resource_metadata = Some(metadata_url(addr));
        o.authorize = Some(Authorizer::new(move |r| {
            log.lock().unwrap().push(Seen {
                kind: r.kind,
                token: r.token.map(str::to_string),
                session: r.session_id.map(str::to_string),
                header: r.header("x-tenant").map(|v| String::from_utf8_lossy(v).into_owned()),
            });
            match (r.token, r.kind) {
                (Some("reader"), RequestKind::Delete) => AuthVerdict::InsufficientScope {
                    scope: Some("mcp:admin"),
                    description: Some("deleting a session needs mcp:admin"),
                },
                (Some("reader" | "admin"), _) => AuthVerdict::Allow,
                _ => AuthVerdict::Unauthorized { error: Some("invalid_token"), description: None },
            }
        }));
        o
    });
    let mut raw = server.connect();
    let reader = "Authorization: Bearer reader\r\nX-Tenant: t1\r\n";
    let session = {
        let r = post(&mut raw, &server, None, INITIALIZE, reader).unwrap();
        assert_eq!(r.status, 200, "{}", r.text());
        Session { id: r.header("mcp-session-id").unwrap().to_string(), version: "2025-11-25".into() }
    };
    let r = server.once(&delete_request(&server, &session, reader));
    assert_eq!(r.status, 403, "{}", r.text());
    assert_eq!(
        r.header("www-authenticate").unwrap(),
        format!(
            "Bearer error=\"insufficient_scope\", scope=\"mcp:admin\", resource_metadata=\"{}\", \
             error_description=\"deleting a session needs mcp:admin\"",
            metadata_url(server.addr)
        )
    );
    assert_eq!(r.json().unwrap()["error"]["message"], "Forbidden: insufficient scope");
    assert_eq!(server.once(&delete_request(&server, &session, "Authorization: Bearer admin\r\n")).status, 200);

    // Requests refused before the check (another path, a hostile Origin, a method not
    // served) never reach it.
    let before = seen.lock().unwrap().len();
    let host = server.addr;
    for request in [
        format!("GET /elsewhere HTTP/1.1\r\nHost: {host}\r\n{reader}\r\n"),
        format!("GET /mcp HTTP/1.1\r\nHost: {host}\r\nOrigin: https://evil.example\r\n{reader}\r\n"),
        format!("PUT /mcp HTTP/1.1\r\nHost: {host}\r\nContent-Length: 0\r\n{reader}\r\n"),
    ] {
        let r = server.once(&request);
        assert!(matches!(r.status, 403..=405), "{request:?}: {}", r.status);
    }
    let seen = seen.lock().unwrap().clone();
    assert_eq!(seen.len(), before, "the check ran for requests refused before it: {seen:?}");
    let kinds: Vec<RequestKind> = seen.iter().map(|s| s.kind).collect();
    assert_eq!(kinds, [RequestKind::Post, RequestKind::Delete, RequestKind::Delete]);
    assert_eq!(
        seen[0],
        Seen { kind: RequestKind::Post, token: Some("reader".into()), session: None, header: Some("t1".into()) }
    );
    assert_eq!(seen[1].session.as_deref(), Some(session.id.as_str()));
    assert_eq!(seen[2].token.as_deref(), Some("admin"));
}

const DOCUMENT: &str = r#"{"resource":"http://127.0.0.1/mcp","authorization_servers":["https://auth.example"],"scopes_supported":["mcp:tools"],"bearer_methods_supported":["header"]}"#;

#[test]
fn the_protected_resource_metadata_is_served_where_clients_look() {
    let server = Served::start(|_| {
        let mut o = ServerOptions {
            authorize: Some(Authorizer::bearer(TOKEN)),
            metadata_document: Some(DOCUMENT),
            ..ServerOptions::default()
        };
        o.config.auth.resource_metadata = Some("https://mcp.example/meta/resource.json");
        o
    });
    let get = |path: &str| server.once(&format!("GET {path} HTTP/1.1\r\nHost: {}\r\n\r\n", server.addr));
    // No token needed: the document is how a client learns where to get one.
    for path in
        ["/meta/resource.json", "/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"]
    {
        let r = get(path);
        assert_eq!(r.status, 200, "{path}");
        assert_eq!(r.header("content-type"), Some("application/json"), "{path}");
        assert_eq!(r.header("access-control-allow-origin"), Some("*"), "{path}");
        assert_eq!(r.text(), DOCUMENT, "{path}");
    }
    assert_eq!(get("/.well-known/oauth-protected-resource/other").status, 404);
    let r = server.once(&format!(
        "POST /.well-known/oauth-protected-resource HTTP/1.1\r\nHost: {}\r\nContent-Length: 0\r\n\r\n",
        server.addr
    ));
    assert_eq!((r.status, r.header("allow")), (405, Some("GET")));
    // Kept-alive connections serve the document and then MCP requests.
    let mut raw = server.connect();
    raw.send(format!("GET /.well-known/oauth-protected-resource HTTP/1.1\r\nHost: {}\r\n\r\n", server.addr).as_bytes())
        .unwrap();
    assert_eq!(raw.response().unwrap().status, 200);
    assert_eq!(with_token_on(&mut raw, &server).status, 200);

    // Without a document there is nothing at the well-known path.
    let bare = Served::start(|_| ServerOptions::default());
    let r = bare.once(&format!("GET /.well-known/oauth-protected-resource HTTP/1.1\r\nHost: {}\r\n\r\n", bare.addr));
    assert_eq!(r.status, 404);
    // Nor any check: every request is let in.
    let mut raw = bare.connect();
    assert!(open_session(&mut raw, &bare).is_ok());
}

fn with_token_on(raw: &mut Raw, server: &Served) -> Resp {
    post(raw, server, None, INITIALIZE, &bearer(TOKEN)).unwrap()
}
