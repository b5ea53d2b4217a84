//! Answers longer than a session's transmit buffer as it starts (16 KiB, growing to
//! `tx_buffer`) over real sockets: a result and an error with a long `data` both reach
//! the client whole; only an answer longer than the bound is replaced by -32603.

#[path = "http_server_support/mod.rs"]
#[allow(dead_code, unused_imports)]
mod support;

use mcp_sansio::adapters::http::server::ServerOptions;
use support::{Served, open_session, post};

fn call(server: &Served, args: &str) -> serde_json::Value {
    let mut raw = server.connect();
    let session = open_session(&mut raw, server).expect("a session");
    let body =
        format!(r#"{{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{{"name":"echo","arguments":{args}}}}}"#);
    let r = post(&mut raw, server, Some(&session), &body, "").expect("an answer");
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    let text = String::from_utf8(r.body).unwrap();
    // JSON or one SSE event: the message is the JSON object in it.
    let json = text.find('{').map(|i| &text[i..]).expect("a JSON message");
    let end = json.rfind('}').unwrap();
    serde_json::from_str(&json[..=end]).expect("valid JSON")
}

fn server() -> Served {
    Served::start(|_| ServerOptions { initial_buffer: 16 * 1024, tx_buffer: 128 * 1024, ..ServerOptions::default() })
}

#[test]
fn a_result_longer_than_the_starting_buffer_is_sent_whole() {
    let server = server();
    let v = call(&server, r#"{"size":60000}"#);
    assert_eq!(v["id"], 7);
    assert_eq!(v["result"]["content"][0]["text"].as_str().map(str::len), Some(60000));
}

#[test]
fn an_error_with_data_longer_than_the_starting_buffer_is_sent_whole() {
    let server = server();
    let v = call(&server, r#"{"fail_size":60000}"#);
    assert_eq!(v["id"], 7);
    assert_eq!(v["error"]["code"], -32602, "{}", v["error"]["message"]);
    assert_eq!(v["error"]["data"].as_str().map(str::len), Some(60000));
}

#[test]
fn an_error_longer_than_the_bound_is_replaced_by_an_internal_error() {
    let server = server();
    let v = call(&server, r#"{"fail_size":200000}"#);
    assert_eq!(v["id"], 7);
    assert_eq!(v["error"]["code"], -32603);
}
