//! The tasks extension over Streamable HTTP (2026-07-28), against a toolkit server in
//! this process with a task store: every POST is its own exchange, so a task made by
//! one is polled by another; `tasks/get`, `tasks/update` and `tasks/cancel` must carry
//! `Mcp-Name: <taskId>` (the extension's routing header), a missing or different one is
//! 400 with -32020 (HeaderMismatch), a matching one is served.

#[allow(dead_code)]
#[path = "http_hostile/support.rs"]
mod support;

use std::net::TcpListener;
use std::time::Duration;

use mcp_sansio::adapters::http::server::{HttpServer, ServerOptions};
use mcp_sansio::toolkit::server::{Job, ServerBuilder, TaskStore, TaskSupport};
use support::{Resp, Target, post};

mcp_sansio::schema! {
    #[derive(serde::Deserialize)]
    pub struct Seconds {
        /// How long
        seconds: u32,
    }
}

const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}"#;

fn request(id: u32, method: &str, params: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{{{params},{META}}}}}"#)
}

fn headers(method: &str, name: Option<&str>) -> String {
    let mut h = format!("MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: {method}\r\n");
    if let Some(n) = name {
        h.push_str(&format!("Mcp-Name: {n}\r\n"));
    }
    h
}

/// A toolkit server with a task tool, on its own thread (left running: the process ends
/// with the test).
fn start() -> Target {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        let server = ServerBuilder::new("http-tasks", "1.0.0")
            .task_store(TaskStore::new(8))
            .blocking_task_tool("wait", "Sleeps", TaskSupport::Optional, |job: Job, Seconds { seconds }| {
                job.sleep(Duration::from_secs(u64::from(seconds))).map(|()| "woke")
            })
            .blocking_task_tool("long", "A long result", TaskSupport::Optional, |_: Job, Seconds { seconds }| {
                "x".repeat(seconds as usize)
            })
            .build();
        let config = server.config();
        let mut handler = server.handler(());
        let mut http: HttpServer<'_, _> =
            HttpServer::with_listener(listener, config, ServerOptions::default()).expect("the server starts");
        http.run(&mut handler).expect("the server runs");
    });
    Target { addr, path: "/mcp".into() }
}

fn send(target: &Target, body: &str, extra: &str) -> Resp {
    let mut raw = target.connect();
    post(&mut raw, target, None, body, extra).expect("an answer")
}

fn code(r: &Resp) -> Option<i64> {
    r.json().and_then(|v| v["error"]["code"].as_i64())
}

#[test]
fn the_tasks_methods_are_routed_by_mcp_name() {
    let target = start();
    let call = request(1, "tools/call", r#""name":"wait","arguments":{"seconds":3600}"#);
    let r = send(&target, &call, &headers("tools/call", Some("wait")));
    assert_eq!(r.status, 200, "{}", r.text());
    let v = r.json().unwrap();
    assert_eq!(v["result"]["resultType"], "task", "{v}");
    let id = v["result"]["taskId"].as_str().unwrap().to_string();

    let get = request(2, "tasks/get", &format!(r#""taskId":"{id}""#));
    for (extra, what) in [
        (headers("tasks/get", None), "Mcp-Name missing"),
        (headers("tasks/get", Some("another-task")), "Mcp-Name different"),
        (headers("tasks/cancel", Some(&id)), "Mcp-Method different"),
    ] {
        let r = send(&target, &get, &extra);
        assert_eq!((r.status, code(&r)), (400, Some(-32020)), "{what}: {}", r.text());
    }
    assert_eq!(mcp_sansio::session::TASKS_EXTENSION, "io.modelcontextprotocol/tasks");
    // Served on another POST (another exchange) than the one that made it.
    let r = send(&target, &get, &headers("tasks/get", Some(&format!("  {id} "))));
    assert_eq!(r.status, 200, "{}", r.text());
    let v = r.json().unwrap();
    assert_eq!((v["result"]["taskId"].as_str(), v["result"]["status"].as_str()), (Some(id.as_str()), Some("working")));

    let cancel = request(3, "tasks/cancel", &format!(r#""taskId":"{id}""#));
    let r = send(&target, &cancel, &headers("tasks/cancel", Some(&id)));
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json().unwrap()["result"]["resultType"], "complete");
    let r = send(&target, &get, &headers("tasks/get", Some(&id)));
    assert_eq!(r.json().unwrap()["result"]["status"], "cancelled", "{}", r.text());

    // An unknown task: -32602, a 400 in this era.
    let unknown = request(4, "tasks/get", r#""taskId":"nope""#);
    let r = send(&target, &unknown, &headers("tasks/get", Some("nope")));
    assert_eq!(code(&r), Some(-32602), "{}", r.text());
}

#[test]
fn a_completed_tasks_result_longer_than_the_sessions_buffer_is_sent_whole() {
    // 40 KB: more than a session's transmit buffer starts at (16 KiB), less than it may
    // grow to; the answer waits for it to grow instead of becoming -32603.
    let target = start();
    let call = request(1, "tools/call", r#""name":"long","arguments":{"seconds":40000}"#);
    let r = send(&target, &call, &headers("tools/call", Some("long")));
    let v = r.json().unwrap();
    let id = v["result"]["taskId"].as_str().unwrap().to_string();
    let get = request(2, "tasks/get", &format!(r#""taskId":"{id}""#));
    for _ in 0..2000 {
        let r = send(&target, &get, &headers("tasks/get", Some(&id)));
        assert_eq!(r.status, 200, "{}", r.text());
        let v = r.json().unwrap();
        if v["result"]["status"] == "working" {
            std::thread::sleep(Duration::from_millis(1));
            continue;
        }
        assert_eq!(v["result"]["status"], "completed", "{}", &r.text()[..r.text().len().min(300)]);
        let text = v["result"]["result"]["content"][0]["text"].as_str().unwrap();
        assert_eq!(text.len(), 40000);
        return;
    }
    panic!("the task never completed");
}
