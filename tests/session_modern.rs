//! The stateless era (2026-07-28) on the server side: per-request `_meta`, discovery,
//! result decoration, the era's methods, the era per opening. Exact bytes.

mod common;

use common::*;
use mcp_sansio::Instant;
use mcp_sansio::session::{Era, State};

/// The `_meta` a modern client puts on every request.
const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"}}"#;

fn req(id: u32, method: &str, params: &str) -> String {
    let sep = if params.is_empty() { "" } else { "," };
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{{{params}{sep}{META}}}}}"#) + "\n"
}

#[test]
fn discover_is_answered_from_the_configuration() {
    let mut server = Side::lone(server_config());
    server.feed(Instant::ZERO, req(1, "server/discover", "").as_bytes());
    assert_eq!(
        server.new_lines(),
        vec![concat!(
            r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","supportedVersions":["2026-07-28"],"#,
            r#""capabilities":{"tools":{"listChanged":true},"resources":{"subscribe":true},"prompts":{},"logging":{},"completions":{}},"#,
            r#""ttlMs":0,"cacheScope":"private","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"test-server","version":"2.0.0"}}}}"#
        )]
    );
    assert!(server.take().is_empty());
    assert_eq!(server.ep.state(), State::Stateless);
}

#[test]
fn a_tools_call_is_delivered_and_its_result_completed() {
    let mut server = Side::lone(server_config());
    server.feed(Instant::ZERO, req(7, "tools/call", r#""name":"echo","arguments":{}"#).as_bytes());
    let events = server.take();
    assert!(matches!(&events[..], [Ev::Request { method, .. }] if method == "tools/call"), "{events:?}");
    let id = mcp_sansio::wire::RequestId::from_u64(7);
    server.respond(&id, &raw(br#"{"content":[{"type":"text","text":"hi"}]}"#)).unwrap();
    server.drain();
    assert_eq!(
        server.new_lines(),
        vec![concat!(
            r#"{"jsonrpc":"2.0","id":7,"result":{"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"test-server","version":"2.0.0"}},"#,
            r#""content":[{"type":"text","text":"hi"}]}}"#
        )]
    );
}

#[test]
fn a_legacy_only_server_still_answers_discover_with_method_not_found() {
    let mut server = Side::lone(server_config().era(Era::Legacy));
    server.feed(Instant::ZERO, req(1, "server/discover", "").as_bytes());
    assert_eq!(
        server.new_lines(),
        vec![
            r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found: not in this protocol version"}}"#
        ]
    );
}
