//! The example server (`examples/server`) as a real child process over stdio: every
//! conformance fixture's exact answer, pagination, progress and cancellation, logging
//! levels, subscriptions, list changes, server→client requests, exit at end of input,
//! and bad input that must not hurt anyone else's requests.
#![cfg(feature = "stdio")]

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::OnceLock;
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// How long any one expected message may take.
const WAIT: Duration = Duration::from_secs(20);

/// The executables of the `server` and `client` examples, built (or found up to date) by
/// cargo itself, with the features this test was built with.
fn examples() -> &'static [(String, PathBuf)] {
    static EXES: OnceLock<Vec<(String, PathBuf)>> = OnceLock::new();
    EXES.get_or_init(|| {
        let mut features = vec!["stdio"];
        if cfg!(feature = "defmt") {
            features.push("defmt");
        }
        let out = Command::new(env!("CARGO"))
            .args(["build", "--example", "server", "--example", "client", "--message-format=json", "--features"])
            .arg(features.join(","))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stderr(Stdio::inherit())
            .output()
            .expect("cargo runs");
        assert!(out.status.success(), "building the examples failed");
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .filter(|m| m["reason"] == "compiler-artifact")
            .filter_map(|m| Some((m["target"]["name"].as_str()?.to_string(), PathBuf::from(m["executable"].as_str()?))))
            .collect()
    })
}

fn example_exe(name: &str) -> &'static PathBuf {
    examples().iter().find(|(n, _)| n == name).map(|(_, p)| p).unwrap_or_else(|| panic!("cargo built no {name}"))
}

fn server_exe() -> &'static PathBuf {
    example_exe("server")
}

/// The client side of a connection to a spawned server: raw lines out, parsed lines in.
struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Value>,
    /// Messages received but not yet asked for, in order.
    backlog: VecDeque<Value>,
    next_id: u64,
}

impl Server {
    fn spawn(args: &[&str]) -> Server {
        let mut child = Command::new(server_exe())
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the server starts");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let value =
                    serde_json::from_str(&line).unwrap_or_else(|e| panic!("server wrote non-JSON ({e}): {line}"));
                if tx.send(value).is_err() {
                    break;
                }
            }
        });
        Server { stdin: child.stdin.take(), child, lines, backlog: VecDeque::new(), next_id: 1 }
    }

    /// A server after the handshake, offering `capabilities` as the client's.
    fn ready(args: &[&str], capabilities: Value) -> Server {
        let mut s = Server::spawn(args);
        let init = s.request(
            "initialize",
            json!({"protocolVersion":"2025-06-18","capabilities":capabilities,"clientInfo":{"name":"examples-test","version":"1"}}),
        );
        assert_eq!(init["result"]["protocolVersion"], "2025-06-18", "{init}");
        s.send(json!({"jsonrpc":"2.0","method":"notifications/initialized"}));
        s
    }

    fn write(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    fn send(&mut self, message: Value) {
        let mut line = serde_json::to_vec(&message).unwrap();
        line.push(b'\n');
        self.write(&line);
    }

    fn send_request(&mut self, method: &str, params: Value) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc":"2.0","id":id,"method":method,"params":params}));
        id
    }

    /// Sends a request and waits for its response (the whole message).
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.send_request(method, params);
        self.response(id)
    }

    /// The `result` of a request, which must succeed.
    fn result(&mut self, method: &str, params: Value) -> Value {
        let response = self.request(method, params);
        assert!(response.get("result").is_some(), "{method} failed: {response}");
        response["result"].clone()
    }

    fn response(&mut self, id: u64) -> Value {
        self.wait_for(|m| m["id"] == id && m.get("method").is_none(), &format!("the response to {id}"))
    }

    /// The first message (received already or to come) that `matches`.
    fn wait_for(&mut self, matches: impl Fn(&Value) -> bool, what: &str) -> Value {
        if let Some(i) = self.backlog.iter().position(&matches) {
            return self.backlog.remove(i).unwrap();
        }
        let until = Instant::now() + WAIT;
        loop {
            let left = until.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(m) if matches(&m) => return m,
                Ok(m) => self.backlog.push_back(m),
                Err(RecvTimeoutError::Timeout) => panic!("no {what} within {WAIT:?}; backlog: {:?}", self.backlog),
                Err(RecvTimeoutError::Disconnected) => panic!("the server closed its output before {what}"),
            }
        }
    }

    /// Everything that arrives within `d`, besides the backlog.
    fn collect_for(&mut self, d: Duration) -> Vec<Value> {
        let until = Instant::now() + d;
        let mut all: Vec<Value> = self.backlog.drain(..).collect();
        while let Ok(m) = self.lines.recv_timeout(until.saturating_duration_since(Instant::now())) {
            all.push(m);
        }
        all
    }

    /// Notifications of `method` received so far (taken from the backlog).
    fn take_notifications(&mut self, method: &str) -> Vec<Value> {
        let (taken, kept): (Vec<Value>, Vec<Value>) = self.backlog.drain(..).partition(|m| m["method"] == method);
        self.backlog = kept.into();
        taken
    }

    /// A ping round trip: everything the server wrote before its answer is in the backlog.
    fn sync(&mut self) {
        let pong = self.request("ping", json!({}));
        assert_eq!(pong["result"], json!({}));
    }

    /// Closes stdin and waits for the process to exit by itself.
    fn finish(mut self, limit: Duration) -> std::process::ExitStatus {
        drop(self.stdin.take());
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            if started.elapsed() > limit {
                let _ = self.child.kill();
                panic!("the server did not exit within {limit:?} of end of input");
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if self.child.try_wait().ok().flatten().is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

const IMAGE: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
const AUDIO: &str = "UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=";

fn text(t: &str) -> Value {
    json!({"content":[{"type":"text","text":t}]})
}

fn call(s: &mut Server, name: &str, args: Value) -> Value {
    s.result("tools/call", json!({"name":name,"arguments":args}))
}

#[test]
fn content_fixtures_answer_exactly() {
    let mut s = Server::ready(&[], json!({}));
    assert_eq!(call(&mut s, "test_simple_text", json!({})), text("This is a simple text response for testing."));
    // `arguments` may be omitted.
    assert_eq!(
        s.result("tools/call", json!({"name":"test_simple_text"})),
        text("This is a simple text response for testing.")
    );
    assert_eq!(
        call(&mut s, "test_image_content", json!({})),
        json!({"content":[{"type":"image","data":IMAGE,"mimeType":"image/png"}]})
    );
    assert_eq!(
        call(&mut s, "test_audio_content", json!({})),
        json!({"content":[{"type":"audio","data":AUDIO,"mimeType":"audio/wav"}]})
    );
    assert_eq!(
        call(&mut s, "test_embedded_resource", json!({})),
        json!({"content":[{"type":"resource","resource":{"uri":"test://embedded-resource","mimeType":"text/plain","text":"This is an embedded resource content."}}]})
    );
    assert_eq!(
        call(&mut s, "test_multiple_content_types", json!({})),
        json!({"content":[
            {"type":"text","text":"Multiple content types test:"},
            {"type":"image","data":IMAGE,"mimeType":"image/png"},
            {"type":"resource","resource":{"uri":"test://mixed-content-resource","mimeType":"application/json","text":"{\"test\":\"data\",\"value\":123}"}}
        ]})
    );
    assert_eq!(
        call(&mut s, "test_error_handling", json!({})),
        json!({"content":[{"type":"text","text":"This tool intentionally returns an error for testing"}],"isError":true})
    );
    assert_eq!(
        call(&mut s, "json_schema_2020_12_tool", json!({"name":"n","address":{"city":"c"}})),
        // (serde_json's `json!` sorts members; the server keeps the client's order.)
        text(r#"JSON Schema 2020-12 tool called with: {"address":{"city":"c"},"name":"n"}"#)
    );
    assert_eq!(call(&mut s, "echo", json!({"message":"h\u{e9} \u{1f600}"})), text("Echo: h\u{e9} \u{1f600}"));
    let unknown = s.request("tools/call", json!({"name":"no_such_tool"}));
    assert_eq!(unknown["error"]["code"], -32602, "{unknown}");

    // The tool list: every fixture, each with a description and an object schema, and the
    // JSON Schema 2020-12 one untouched.
    let tools = s.result("tools/list", json!({}));
    assert!(tools.get("nextCursor").is_none(), "one page by default");
    let tools = tools["tools"].as_array().unwrap().clone();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    for fixture in [
        "test_simple_text",
        "test_image_content",
        "test_audio_content",
        "test_embedded_resource",
        "test_multiple_content_types",
        "test_tool_with_logging",
        "test_tool_with_progress",
        "test_error_handling",
        "test_sampling",
        "test_elicitation",
        "test_elicitation_sep1034_defaults",
        "test_elicitation_sep1330_enums",
        "json_schema_2020_12_tool",
        "test_long_running",
        "test_reconnection",
    ] {
        assert!(names.contains(&fixture), "{fixture} is not listed: {names:?}");
    }
    for t in &tools {
        assert!(t["description"].is_string() && t["inputSchema"]["type"] == "object", "{t}");
    }
    let schema = &tools.iter().find(|t| t["name"] == "json_schema_2020_12_tool").unwrap()["inputSchema"];
    assert_eq!(
        *schema,
        json!({
            "$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",
            "$defs":{"address":{"$anchor":"addressDef","type":"object","properties":{"street":{"type":"string"},"city":{"type":"string"}}}},
            "properties":{"name":{"type":"string"},"address":{"$ref":"#/$defs/address"},"contactMethod":{"type":"string","enum":["phone","email"]},"phone":{"type":"string"},"email":{"type":"string"}},
            "allOf":[{"anyOf":[{"required":["phone"]},{"required":["email"]}]}],
            "if":{"properties":{"contactMethod":{"const":"phone"}},"required":["contactMethod"]},
            "then":{"required":["phone"]},"else":{"required":["email"]},
            "additionalProperties":false
        })
    );
    assert_eq!(s.finish(WAIT).code(), Some(0));
}

#[test]
fn resources_prompts_and_completion_answer_exactly() {
    let mut s = Server::ready(&[], json!({}));
    let read = |s: &mut Server, uri: &str| s.result("resources/read", json!({"uri":uri}));
    assert_eq!(
        read(&mut s, "test://static-text"),
        json!({"contents":[{"uri":"test://static-text","mimeType":"text/plain","text":"This is the content of the static text resource."}]})
    );
    assert_eq!(
        read(&mut s, "test://static-binary"),
        json!({"contents":[{"uri":"test://static-binary","mimeType":"image/png","blob":IMAGE}]})
    );
    assert_eq!(
        read(&mut s, "test://template/123/data"),
        json!({"contents":[{"uri":"test://template/123/data","mimeType":"application/json","text":"{\"id\":\"123\",\"templateTest\":true,\"data\":\"Data for ID: 123\"}"}]})
    );
    assert_eq!(
        read(&mut s, "test://watched-resource"),
        json!({"contents":[{"uri":"test://watched-resource","mimeType":"text/plain","text":"Watched resource content"}]})
    );
    let missing = s.request("resources/read", json!({"uri":"test://nonexistent-resource-for-conformance-testing"}));
    assert_eq!(
        missing["error"],
        json!({"code":-32602,"message":"Resource not found","data":{"uri":"test://nonexistent-resource-for-conformance-testing"}})
    );
    let resources = s.result("resources/list", json!({}));
    let uris: Vec<&str> =
        resources["resources"].as_array().unwrap().iter().map(|r| r["uri"].as_str().unwrap()).collect();
    assert_eq!(uris, ["test://static-text", "test://static-binary", "test://watched-resource"]);
    assert_eq!(
        s.result("resources/templates/list", json!({})),
        json!({"resourceTemplates":[{"uriTemplate":"test://template/{id}/data","name":"template","title":"Resource Template","description":"A resource template with parameter substitution","mimeType":"application/json"}]})
    );

    let get = |s: &mut Server, name: &str, args: Value| s.result("prompts/get", json!({"name":name,"arguments":args}));
    assert_eq!(
        get(&mut s, "test_simple_prompt", json!({})),
        json!({"messages":[{"role":"user","content":{"type":"text","text":"This is a simple prompt for testing."}}]})
    );
    assert_eq!(
        get(&mut s, "test_prompt_with_arguments", json!({"arg1":"hello","arg2":"world"})),
        json!({"messages":[{"role":"user","content":{"type":"text","text":"Prompt with arguments: arg1='hello', arg2='world'"}}]})
    );
    assert_eq!(
        get(&mut s, "test_prompt_with_embedded_resource", json!({"resourceUri":"test://example-resource"})),
        json!({"messages":[
            {"role":"user","content":{"type":"resource","resource":{"uri":"test://example-resource","mimeType":"text/plain","text":"Embedded resource content for testing."}}},
            {"role":"user","content":{"type":"text","text":"Please process the embedded resource above."}}
        ]})
    );
    assert_eq!(
        get(&mut s, "test_prompt_with_image", json!({})),
        json!({"messages":[
            {"role":"user","content":{"type":"image","data":IMAGE,"mimeType":"image/png"}},
            {"role":"user","content":{"type":"text","text":"Please analyze the image above."}}
        ]})
    );
    let no_args = s.request("prompts/get", json!({"name":"test_prompt_with_arguments"}));
    assert_eq!(no_args["error"]["code"], -32602, "{no_args}");
    let prompts = s.result("prompts/list", json!({}));
    let names: Vec<&str> = prompts["prompts"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "test_simple_prompt",
            "test_prompt_with_arguments",
            "test_prompt_with_embedded_resource",
            "test_prompt_with_image"
        ]
    );
    assert_eq!(
        prompts["prompts"][1]["arguments"],
        json!([{"name":"arg1","description":"First test argument","required":true},{"name":"arg2","description":"Second test argument","required":true}])
    );

    let complete = |s: &mut Server, reference: Value, name: &str, value: &str| {
        s.result("completion/complete", json!({"ref":reference,"argument":{"name":name,"value":value}}))
    };
    assert_eq!(
        complete(&mut s, json!({"type":"ref/prompt","name":"test_prompt_with_arguments"}), "arg1", "pa"),
        json!({"completion":{"values":["paris","park","party"],"total":3,"hasMore":false}})
    );
    assert_eq!(
        complete(&mut s, json!({"type":"ref/prompt","name":"test_prompt_with_arguments"}), "arg1", "test"),
        json!({"completion":{"values":[],"total":0,"hasMore":false}})
    );
    assert_eq!(
        complete(&mut s, json!({"type":"ref/resource","uri":"test://template/{id}/data"}), "id", "1"),
        json!({"completion":{"values":["1","123"],"total":2,"hasMore":false}})
    );
    assert_eq!(s.result("ping", json!({})), json!({}));
    assert_eq!(s.finish(WAIT).code(), Some(0));
}

/// Walks a list through every page; returns the items' `key` values and the page count.
fn walk(s: &mut Server, method: &str, field: &str, key: &str) -> (Vec<String>, usize) {
    let (mut items, mut pages, mut cursor) = (Vec::new(), 0, None::<String>);
    loop {
        let params = match &cursor {
            Some(c) => json!({"cursor":c}),
            None => json!({}),
        };
        let page = s.result(method, params);
        pages += 1;
        items.extend(page[field].as_array().unwrap().iter().map(|i| i[key].as_str().unwrap().to_string()));
        match page.get("nextCursor").and_then(Value::as_str) {
            Some(next) => {
                assert_ne!(cursor.as_deref(), Some(next), "a cursor came back");
                cursor = Some(next.into());
            }
            None => return (items, pages),
        }
        assert!(pages < 100, "too many pages");
    }
}

#[test]
fn pagination_walks_every_list_with_page_size_2() {
    let mut whole = Server::ready(&[], json!({}));
    let mut paged = Server::ready(&["--page-size", "2"], json!({}));
    for (method, field, key) in [
        ("tools/list", "tools", "name"),
        ("resources/list", "resources", "uri"),
        ("resources/templates/list", "resourceTemplates", "uriTemplate"),
        ("prompts/list", "prompts", "name"),
    ] {
        let (all, one) = walk(&mut whole, method, field, key);
        assert_eq!(one, 1, "{method}: the default page holds everything");
        let (items, pages) = walk(&mut paged, method, field, key);
        assert_eq!(items, all, "{method}: the pages together are the whole list, in order");
        assert_eq!(pages, all.len().div_ceil(2), "{method}: two per page");
    }
    // A cursor is opaque and signed: a forged one, or one of another list, is refused.
    let first = paged.result("tools/list", json!({}));
    let cursor = first["nextCursor"].as_str().unwrap().to_string();
    let mut forged = cursor.clone().into_bytes();
    forged[7] = if forged[7] == b'0' { b'1' } else { b'0' };
    let forged = String::from_utf8(forged).unwrap();
    for (method, c) in [("tools/list", forged.as_str()), ("prompts/list", cursor.as_str()), ("tools/list", "nope")] {
        let refused = paged.request(method, json!({"cursor":c}));
        assert_eq!(refused["error"]["code"], -32602, "{method} with {c}: {refused}");
    }
    // The list changes: the old cursor is stale, and the client is told to start over.
    assert_eq!(call(&mut paged, "toggle_extra_tool", json!({})), text("extra_tool is now listed"));
    paged.wait_for(|m| m["method"] == "notifications/tools/list_changed", "tools/list_changed");
    let stale = paged.request("tools/list", json!({"cursor":cursor}));
    assert_eq!(stale["error"]["code"], -32602, "{stale}");
    assert!(stale["error"]["message"].as_str().unwrap().contains("Stale"), "{stale}");
    let (tools, _) = walk(&mut paged, "tools/list", "tools", "name");
    assert_eq!(tools.last().map(String::as_str), Some("extra_tool"));
    assert_eq!(call(&mut paged, "extra_tool", json!({})), text("extra_tool was called"));
    assert_eq!(call(&mut paged, "toggle_extra_tool", json!({})), text("extra_tool is no longer listed"));
    paged.wait_for(|m| m["method"] == "notifications/tools/list_changed", "tools/list_changed");
    let gone = paged.request("tools/call", json!({"name":"extra_tool"}));
    assert_eq!(gone["error"]["code"], -32602, "{gone}");
    drop(whole);
    assert_eq!(paged.finish(WAIT).code(), Some(0));
}

#[test]
fn progress_reports_and_cancellation_stops_the_work() {
    let mut s = Server::ready(&[], json!({}));
    // The fixture: progress 0, 50, 100 of 100 for the request's token, which is the answer.
    let id = s.send_request(
        "tools/call",
        json!({"name":"test_tool_with_progress","_meta":{"progressToken":"progress-test-1"}}),
    );
    let response = s.response(id);
    assert_eq!(response["result"], text("progress-test-1"));
    let progress: Vec<Value> =
        s.take_notifications("notifications/progress").into_iter().map(|n| n["params"].clone()).collect();
    assert_eq!(
        progress,
        [
            json!({"progressToken":"progress-test-1","progress":0.0,"total":100.0,"message":"Completed step 0 of 100"}),
            json!({"progressToken":"progress-test-1","progress":50.0,"total":100.0,"message":"Completed step 50 of 100"}),
            json!({"progressToken":"progress-test-1","progress":100.0,"total":100.0,"message":"Completed step 100 of 100"}),
        ]
    );
    // A numeric token, and no token at all.
    let id = s.send_request("tools/call", json!({"name":"test_tool_with_progress","_meta":{"progressToken":7}}));
    assert_eq!(s.response(id)["result"], text("7"));
    assert_eq!(s.take_notifications("notifications/progress").len(), 3);
    assert_eq!(call(&mut s, "test_tool_with_progress", json!({})), text("0"));
    assert!(s.take_notifications("notifications/progress").is_empty());

    // A long call (50 x 40 ms) with progress; cancelled after two reports.
    let long = s.send_request(
        "tools/call",
        json!({"name":"test_long_running","arguments":{"steps":50,"stepMs":40},"_meta":{"progressToken":"long"}}),
    );
    // A short one beside it finishes: the pool runs both, and the loop is not blocked.
    let short = s.send_request(
        "tools/call",
        json!({"name":"test_long_running","arguments":{"steps":3,"stepMs":10},"_meta":{"progressToken":"short"}}),
    );
    for n in 1..=2 {
        let p = s.wait_for(
            |m| m["method"] == "notifications/progress" && m["params"]["progressToken"] == "long",
            "progress",
        );
        assert_eq!(p["params"]["progress"], n as f64);
        assert_eq!(p["params"]["total"], 50.0);
    }
    let started = Instant::now();
    s.send(json!({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":long,"reason":"test"}}));
    s.sync();
    assert!(started.elapsed() < Duration::from_millis(500), "a ping waited {:?} behind slow work", started.elapsed());
    assert_eq!(s.response(short)["result"], text("finished 3 steps of 10 ms"));
    // After the cancellation was read (the ping behind it is answered), nothing more
    // about the long call: no progress, no response.
    s.backlog.retain(|m| m["method"] != "notifications/progress");
    let later = s.collect_for(Duration::from_millis(400));
    assert!(
        later.iter().all(|m| m["id"] != long && m["params"]["progressToken"] != "long"),
        "the cancelled call went on: {later:?}"
    );
    assert_eq!(s.finish(WAIT).code(), Some(0));
}

/// Slow calls beyond the session's inbound slots (16) wait in the receive buffer until
/// a slot frees instead of being refused: 200 at once, in one write, are all answered.
#[test]
fn two_hundred_slow_calls_at_once_are_all_answered() {
    let mut s = Server::ready(&[], json!({}));
    let mut burst = Vec::new();
    let first = s.next_id;
    for id in first..first + 200 {
        let call = json!({"jsonrpc":"2.0","id":id,"method":"tools/call",
            "params":{"name":"test_long_running","arguments":{"steps":1,"stepMs":5}}});
        burst.extend(serde_json::to_vec(&call).unwrap());
        burst.push(b'\n');
    }
    s.next_id += 200;
    s.write(&burst);
    for id in first..first + 200 {
        let response = s.response(id);
        assert_eq!(response["result"], text("finished 1 steps of 5 ms"), "{response}");
    }
    assert_eq!(s.finish(WAIT).code(), Some(0));
}

#[test]
fn logging_respects_the_level() {
    let mut s = Server::ready(&[], json!({}));
    // No level set: everything is sent.
    assert_eq!(call(&mut s, "test_tool_with_logging", json!({})), text("Tool with logging executed successfully"));
    let logs: Vec<Value> =
        s.take_notifications("notifications/message").into_iter().map(|n| n["params"].clone()).collect();
    assert_eq!(
        logs,
        [
            json!({"level":"info","data":"Tool execution started"}),
            json!({"level":"info","data":"Tool processing data"}),
            json!({"level":"info","data":"Tool execution completed"}),
        ]
    );
    // warning: the info messages are dropped.
    assert_eq!(s.result("logging/setLevel", json!({"level":"warning"})), json!({}));
    assert_eq!(call(&mut s, "test_tool_with_logging", json!({})), text("Tool with logging executed successfully"));
    s.sync();
    assert!(s.take_notifications("notifications/message").is_empty(), "{:?}", s.backlog);
    // debug: everything again.
    assert_eq!(s.result("logging/setLevel", json!({"level":"debug"})), json!({}));
    call(&mut s, "test_tool_with_logging", json!({}));
    s.sync();
    let logs = s.take_notifications("notifications/message");
    assert_eq!(logs.len(), 3, "{logs:?}");
    assert_eq!(logs[0]["params"], json!({"level":"info","data":"Tool execution started"}));
    let bad = s.request("logging/setLevel", json!({"level":"verbose"}));
    assert_eq!(bad["error"]["code"], -32602, "{bad}");
    assert_eq!(s.finish(WAIT).code(), Some(0));
}

#[test]
fn subscriptions_get_update_notifications() {
    let mut s = Server::ready(&[], json!({}));
    let updated = |m: &Value| m["method"] == "notifications/resources/updated";
    // Not subscribed: no notification.
    call(&mut s, "update_watched_resource", json!({"text":"first"}));
    s.sync();
    assert!(s.backlog.iter().all(|m| !updated(m)));
    assert_eq!(s.result("resources/subscribe", json!({"uri":"test://watched-resource"})), json!({}));
    assert_eq!(
        call(&mut s, "update_watched_resource", json!({"text":"second"})),
        text("test://watched-resource is now at revision 2; 1 subscriber(s) notified")
    );
    let n = s.wait_for(updated, "resources/updated");
    assert_eq!(n["params"], json!({"uri":"test://watched-resource"}));
    assert_eq!(s.result("resources/read", json!({"uri":"test://watched-resource"}))["contents"][0]["text"], "second");
    assert_eq!(s.result("resources/unsubscribe", json!({"uri":"test://watched-resource"})), json!({}));
    call(&mut s, "update_watched_resource", json!({}));
    s.sync();
    assert!(s.backlog.iter().all(|m| !updated(m)), "{:?}", s.backlog);
    assert_eq!(
        s.result("resources/read", json!({"uri":"test://watched-resource"}))["contents"][0]["text"],
        "Watched resource content (revision 3)"
    );
    assert_eq!(s.finish(WAIT).code(), Some(0));
}

#[test]
fn the_watched_resource_also_changes_on_a_timer() {
    let mut s = Server::ready(&["--watch-interval-ms", "30"], json!({}));
    s.result("resources/subscribe", json!({"uri":"test://watched-resource"}));
    for _ in 0..3 {
        s.wait_for(|m| m["method"] == "notifications/resources/updated", "a timed update");
    }
    assert_eq!(s.finish(WAIT).code(), Some(0));
}

/// Answers the server's next request of `method` with `answer` (raw JSON: member order
/// is the client's), returning the request.
fn answer(s: &mut Server, method: &str, answer: &str) -> Value {
    let request = s.wait_for(|m| m["method"] == method && m.get("id").is_some(), method);
    let line = format!(r#"{{"jsonrpc":"2.0","id":{},"result":{answer}}}"#, request["id"]);
    s.write(format!("{line}\n").as_bytes());
    request
}

#[test]
fn sampling_and_elicitation_go_through_the_client() {
    let mut s = Server::ready(&[], json!({"sampling":{},"elicitation":{}}));
    let id =
        s.send_request("tools/call", json!({"name":"test_sampling","arguments":{"prompt":"Test prompt for sampling"}}));
    let request = answer(
        &mut s,
        "sampling/createMessage",
        r#"{"role":"assistant","content":{"type":"text","text":"This is a test response from the client"},"model":"test-model","stopReason":"endTurn"}"#,
    );
    assert_eq!(
        request["params"],
        json!({"messages":[{"role":"user","content":{"type":"text","text":"Test prompt for sampling"}}],"maxTokens":100})
    );
    assert_eq!(s.response(id)["result"], text("LLM response: This is a test response from the client"));

    let id = s.send_request(
        "tools/call",
        json!({"name":"test_elicitation","arguments":{"message":"Please provide your information"}}),
    );
    let request = answer(
        &mut s,
        "elicitation/create",
        r#"{"action":"accept","content":{"username":"testuser","email":"test@example.com"}}"#,
    );
    assert_eq!(request["params"]["message"], "Please provide your information");
    assert_eq!(request["params"]["requestedSchema"]["required"], json!(["username", "email"]));
    assert_eq!(
        s.response(id)["result"],
        text(r#"User response: action=accept, content={"username":"testuser","email":"test@example.com"}"#)
    );

    let id = s.send_request("tools/call", json!({"name":"test_elicitation_sep1034_defaults","arguments":{}}));
    let request = answer(
        &mut s,
        "elicitation/create",
        r#"{"action":"accept","content":{"name":"Jane Smith","age":25,"score":88.0,"status":"inactive","verified":false}}"#,
    );
    let props = &request["params"]["requestedSchema"]["properties"];
    assert_eq!(
        [
            &props["name"]["default"],
            &props["age"]["default"],
            &props["score"]["default"],
            &props["status"]["default"],
            &props["verified"]["default"]
        ],
        [&json!("John Doe"), &json!(30), &json!(95.5), &json!("active"), &json!(true)]
    );
    assert_eq!(
        s.response(id)["result"],
        text(
            r#"Elicitation completed: action=accept, content={"name":"Jane Smith","age":25,"score":88.0,"status":"inactive","verified":false}"#
        )
    );

    let id = s.send_request("tools/call", json!({"name":"test_elicitation_sep1330_enums","arguments":{}}));
    let request = answer(&mut s, "elicitation/create", r#"{"action":"decline"}"#);
    let props = &request["params"]["requestedSchema"]["properties"];
    assert_eq!(props["untitledSingle"]["enum"], json!(["option1", "option2", "option3"]));
    assert_eq!(props["titledSingle"]["oneOf"][0], json!({"const":"value1","title":"First Option"}));
    assert_eq!(props["legacyEnum"]["enumNames"], json!(["Option One", "Option Two", "Option Three"]));
    assert_eq!(props["untitledMulti"]["items"]["enum"], json!(["option1", "option2", "option3"]));
    assert_eq!(props["titledMulti"]["items"]["anyOf"][2], json!({"const":"value3","title":"Third Choice"}));
    assert_eq!(s.response(id)["result"], text("Elicitation completed: action=decline, content={}"));

    // The client answers with an error: the tool says so.
    let id = s.send_request("tools/call", json!({"name":"test_sampling","arguments":{"prompt":"p"}}));
    let request = s.wait_for(|m| m["method"] == "sampling/createMessage", "sampling");
    s.send(json!({"jsonrpc":"2.0","id":request["id"],"error":{"code":-1,"message":"User rejected sampling request"}}));
    assert_eq!(
        s.response(id)["result"],
        json!({"content":[{"type":"text","text":"Sampling not supported or error: User rejected sampling request (-1)"}],"isError":true})
    );

    // The client cancels a tool call that waits for it: the server withdraws its own
    // request and never answers the call.
    let id = s.send_request("tools/call", json!({"name":"test_elicitation","arguments":{"message":"m"}}));
    let request = s.wait_for(|m| m["method"] == "elicitation/create", "elicitation");
    s.send(json!({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":id}}));
    let withdrawn = s.wait_for(|m| m["method"] == "notifications/cancelled", "the server's cancellation");
    assert_eq!(withdrawn["params"]["requestId"], request["id"]);
    // A late answer to the withdrawn request changes nothing.
    s.send(json!({"jsonrpc":"2.0","id":request["id"],"result":{"action":"cancel"}}));
    s.sync();
    assert!(s.collect_for(Duration::from_millis(200)).iter().all(|m| m["id"] != id));
    assert_eq!(s.finish(WAIT).code(), Some(0));
}

#[test]
fn tools_that_need_a_capability_the_client_lacks_say_so() {
    let mut s = Server::ready(&[], json!({}));
    let result = call(&mut s, "test_sampling", json!({"prompt":"p"}));
    assert_eq!(result["isError"], true);
    assert_eq!(result["content"][0]["text"], "Sampling not supported or error: capability `sampling` was not declared");
    let result = call(&mut s, "test_elicitation", json!({"message":"m"}));
    assert_eq!(result["isError"], true, "{result}");
    let result = call(&mut s, "test_sampling", json!({}));
    assert_eq!(result["isError"], true, "missing argument: {result}");
    assert_eq!(s.finish(WAIT).code(), Some(0));
}

#[test]
fn end_of_input_ends_the_server_after_it_answers_what_it_owes() {
    let mut s = Server::ready(&[], json!({}));
    // A call still running when the input ends is answered before the exit.
    let id = s.send_request("tools/call", json!({"name":"test_tool_with_progress","_meta":{"progressToken":1}}));
    drop(s.stdin.take());
    assert_eq!(s.response(id)["result"], text("1"));
    let started = Instant::now();
    let status = s.finish(Duration::from_secs(5));
    assert_eq!(status.code(), Some(0));
    assert!(started.elapsed() < Duration::from_secs(1), "exit took {:?}", started.elapsed());

    // An idle server exits at once.
    let s = Server::ready(&[], json!({}));
    let started = Instant::now();
    assert_eq!(s.finish(Duration::from_secs(5)).code(), Some(0));
    assert!(started.elapsed() < Duration::from_millis(500), "exit took {:?}", started.elapsed());
}

#[test]
fn bad_input_is_answered_as_json_rpc_says_and_hurts_no_valid_request() {
    let mut s = Server::ready(&[], json!({}));
    let mut input: Vec<u8> = Vec::new();
    let mut expected: Vec<(u64, Value)> = Vec::new();
    let line = |input: &mut Vec<u8>, bytes: &[u8]| {
        input.extend_from_slice(bytes);
        input.push(b'\n');
    };
    let mut valid = |input: &mut Vec<u8>, id: u64, method: &str, params: Value, result: Value| {
        line(input, &serde_json::to_vec(&json!({"jsonrpc":"2.0","id":id,"method":method,"params":params})).unwrap());
        expected.push((id, result));
    };
    valid(&mut input, 100, "ping", json!({}), json!({}));
    line(&mut input, b"{not json");
    valid(
        &mut input,
        101,
        "tools/call",
        json!({"name":"test_simple_text"}),
        text("This is a simple text response for testing."),
    );
    line(&mut input, b"{\"jsonrpc\":\"2.0\",\"id\":90,\"method\":\"ping\",\"params\":{\"x\":\"\xff\xfe\"}}");
    line(&mut input, b"\xc3\x28\xa0\xa1");
    valid(
        &mut input,
        102,
        "tools/call",
        json!({"name":"echo","arguments":{"message":"caf\u{e9}"}}),
        text("Echo: caf\u{e9}"),
    );
    // 20 MiB in one line: far beyond the receive buffer, skipped whole.
    let mut huge =
        br#"{"jsonrpc":"2.0","id":91,"method":"tools/call","params":{"name":"echo","arguments":{"message":""#.to_vec();
    huge.resize(huge.len() + 20 * 1024 * 1024, b'a');
    huge.extend_from_slice(br#""}}}"#);
    line(&mut input, &huge);
    valid(
        &mut input,
        103,
        "resources/read",
        json!({"uri":"test://static-text"}),
        json!({"contents":[{"uri":"test://static-text","mimeType":"text/plain","text":"This is the content of the static text resource."}]}),
    );
    // Wrong envelopes.
    for bad in [
        &br#"{"jsonrpc":"2.0","id":92}"#[..],
        br#"{"jsonrpc":"2.0","id":93,"method":"ping","result":{}}"#,
        br#"{"jsonrpc":"1.0","id":94,"method":"ping"}"#,
        br#"{"id":95,"method":"ping"}"#,
        br#"{"jsonrpc":"2.0","id":96,"method":7}"#,
        br#"{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}"#,
        br#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#,
        br#"[]"#,
        br#"[{"jsonrpc":"2.0","id":97,"method":"ping"}]"#,
        br#""hello""#,
        b"42",
        b"null",
        b"",
        b"   ",
        br#"{"jsonrpc":"2.0","id":999,"result":{}}"#,
        br#"{"jsonrpc":"2.0","id":998,"error":{"code":1,"message":"?"}}"#,
        br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"nobody"}}"#,
        br#"{"jsonrpc":"2.0","method":"notifications/progress","params":{}}"#,
        br#"{"jsonrpc":"2.0","id":98,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"again","version":"1"}}}"#,
        br#"{"jsonrpc":"2.0","id":99,"method":"no/such/method"}"#,
    ] {
        line(&mut input, bad);
    }
    valid(
        &mut input,
        104,
        "prompts/get",
        json!({"name":"test_simple_prompt"}),
        json!({"messages":[{"role":"user","content":{"type":"text","text":"This is a simple prompt for testing."}}]}),
    );
    // A flood of requests in one write.
    for i in 0..3000u64 {
        let id = 10_000 + i;
        match i % 3 {
            0 => valid(&mut input, id, "ping", json!({}), json!({})),
            1 => valid(
                &mut input,
                id,
                "tools/call",
                json!({"name":"test_simple_text"}),
                text("This is a simple text response for testing."),
            ),
            _ => valid(&mut input, id, "tools/list", json!({}), Value::Null),
        }
    }
    // Written from a thread: the server answers while it reads.
    let stdin = s.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let mut stdin = stdin;
        stdin.write_all(&input).unwrap();
        stdin.flush().unwrap();
        stdin
    });
    for (id, result) in &expected {
        let response = s.response(*id);
        if result.is_null() {
            assert!(response["result"]["tools"].as_array().is_some_and(|t| t.len() >= 14), "{id}: {response}");
        } else {
            assert_eq!(response["result"], *result, "request {id}: {response}");
        }
    }
    s.stdin = Some(writer.join().unwrap());
    s.sync();

    // The broken requests whose id could be read got -32600 (or -32601, -32602 for an
    // unknown method or a second initialize); the rest got -32700 / -32600 with a null id.
    let errors: Vec<Value> = s.backlog.drain(..).filter(|m| m.get("error").is_some()).collect();
    let code_of = |id: u64| errors.iter().find(|e| e["id"] == id).map(|e| e["error"]["code"].clone());
    for id in [92, 94, 95, 96] {
        assert_eq!(code_of(id), Some(json!(-32600)), "envelope {id}: {errors:?}");
    }
    assert_eq!(code_of(98), Some(json!(-32600)), "second initialize");
    assert_eq!(code_of(99), Some(json!(-32601)), "unknown method");
    // Invalid UTF-8 makes the line invalid JSON: a parse error, whose id is null because
    // nothing in a broken frame can be trusted.
    assert!(code_of(90).is_none(), "{errors:?}");
    let utf8 = errors.iter().filter(|e| e["error"]["message"].as_str().unwrap_or("").contains("UTF-8")).count();
    assert!(utf8 >= 1 && errors.iter().all(|e| e["error"]["code"] != -32700 || e["id"].is_null()), "{errors:?}");
    // A skipped line is answered when its first bytes show a request's id (91); a broken
    // *response* (93: `method` with `result`) is never answered, as JSON-RPC says.
    assert_eq!(code_of(91), Some(json!(-32600)), "{errors:?}");
    assert!(code_of(93).is_none(), "{errors:?}");
    assert!(code_of(97).is_none_or(|c| c == -32600), "{errors:?}");
    let null_ids = errors.iter().filter(|e| e["id"].is_null()).count();
    assert!(null_ids >= 8, "unreadable frames are answered with a null id: {errors:?}");
    assert!(errors.iter().all(|e| e["id"] != 999 && e["id"] != 998), "responses are never answered: {errors:?}");

    // Still up, still serving, and it still ends cleanly.
    assert!(s.child.try_wait().unwrap().is_none(), "the server died");
    assert_eq!(call(&mut s, "echo", json!({"message":"still here"})), text("Echo: still here"));
    assert_eq!(s.finish(WAIT).code(), Some(0));
}

#[test]
fn the_example_client_runs_its_whole_script_against_the_example_server() {
    let out = Command::new(example_exe("client"))
        .args(["--era", "legacy"])
        .args(["--malformed", "--timeout-tool", r#"test_long_running={"steps":20,"stepMs":50}"#])
        .args(["--timeout-after-ms", "150", "--cancel-after-ms", "200", "--root", "file:///tmp", "--"])
        .arg(server_exe())
        .args(["--page-size", "2"])
        .stderr(Stdio::inherit())
        .output()
        .expect("the client runs");
    let transcript = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{transcript}");
    for expected in [
        "negotiated protocol version 2025-11-25",
        "pong after",
        "no nextCursor: that was the last page (18 items in 9 page(s))",
        "test_sampling answered: \"LLM response: A scripted answer to: Say hello\"",
        "progress on request",
        "no answer will come",
        "timed out",
        "error -32700",
        "the server exited by itself after its stdin closed: exit status: 0",
        "== Summary: every step behaved",
    ] {
        assert!(transcript.contains(expected), "missing {expected:?} in:\n{transcript}");
    }
}

/// The same script in the stateless era, which both examples choose by default: the
/// probe, no ping, the server's requests as `input_required` results answered and
/// retried, a listen stream with its notifications.
#[test]
fn the_example_client_speaks_2026_07_28_with_the_example_server_by_default() {
    let out = Command::new(example_exe("client"))
        .args(["--malformed", "--timeout-tool", r#"test_long_running={"steps":20,"stepMs":50}"#])
        .args(["--timeout-after-ms", "150", "--cancel-after-ms", "200", "--root", "file:///tmp", "--"])
        .arg(server_exe())
        .args(["--page-size", "2"])
        .stderr(Stdio::inherit())
        .output()
        .expect("the client runs");
    let transcript = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{transcript}");
    for expected in [
        "server/discover found a 2026-07-28 server: protocol version 2026-07-28",
        "Ping: not in 2026-07-28",
        "no nextCursor: that was the last page (32 items in 16 page(s))",
        // (the round's key is the toolkit's to choose)
        "the server asks our model (sampling/createMessage): \"Say hello\"",
        "test_sampling answered: \"LLM response: A scripted answer to: Say hello\"",
        "test_elicitation answered: \"User response: action=accept",
        "progress on request",
        "no answer will come",
        "timed out",
        "acknowledged; granted {\"toolsListChanged\":true}",
        "notification notifications/tools/list_changed on listen stream",
        "error -32700",
        "the server exited by itself after its stdin closed: exit status: 0",
        "== Summary: every step behaved",
    ] {
        assert!(transcript.contains(expected), "missing {expected:?} in:\n{transcript}");
    }
    assert!(!transcript.contains("pong after"), "{transcript}");
}

/// A field of `/proc/<pid>/status`, in KiB (Linux).
fn status_kib(pid: u32, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// A client that writes without reading the replies must meet backpressure from the
/// pipe, not grow the server's memory: the server stops reading once its buffers are
/// full and the pipe stops taking its replies. Once the client reads, every request is
/// answered, in order.
#[test]
#[cfg(target_os = "linux")]
fn a_flood_that_is_not_read_back_meets_backpressure_and_is_answered_in_full() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicU64, Ordering};

    const PINGS: u64 = 400_000;
    let mut child = Command::new(server_exe())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the server starts");
    let pid = child.id();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::with_capacity(1 << 16, child.stdout.take().unwrap());
    writeln!(
        stdin,
        r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"2025-06-18","capabilities":{{}},"clientInfo":{{"name":"flood","version":"1"}}}}}}"#
    )
    .unwrap();
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    assert!(line.contains(r#""id":0"#), "{line}");
    writeln!(stdin, r#"{{"jsonrpc":"2.0","method":"notifications/initialized"}}"#).unwrap();
    let before = status_kib(pid, "VmRSS:").expect("/proc/<pid>/status");

    // The flood, from a thread that counts what the pipe took.
    let written = Arc::new(AtomicU64::new(0));
    let counter = Arc::clone(&written);
    let writer = std::thread::spawn(move || {
        let mut batch = Vec::with_capacity(1 << 16);
        for id in 1..=PINGS {
            batch.extend_from_slice(format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"ping\"}}\n").as_bytes());
            if batch.len() >= 60_000 || id == PINGS {
                stdin.write_all(&batch).unwrap();
                counter.fetch_add(batch.len() as u64, Ordering::Relaxed);
                batch.clear();
            }
        }
        stdin
    });
    let total: u64 = (1..=PINGS).map(|id| 41 + id.to_string().len() as u64).sum();
    // Wait until the writer is stuck (or done): nothing taken for 300 ms.
    let (mut last, mut still_since) = (0, Instant::now());
    let started = Instant::now();
    while still_since.elapsed() < Duration::from_millis(300) && started.elapsed() < WAIT {
        std::thread::sleep(Duration::from_millis(20));
        let now = written.load(Ordering::Relaxed);
        if now != last {
            (last, still_since) = (now, Instant::now());
        }
    }
    let peak = status_kib(pid, "VmHWM:").unwrap();
    let taken = written.load(Ordering::Relaxed);
    assert!(taken < total / 2, "the server took {taken} of {total} bytes without its replies being read");
    // Its buffers (512 KiB in, 256 KiB out) and the loop's own, not the flood.
    assert!(peak < before + 4 * 1024, "peak RSS {peak} KiB, {before} KiB before the flood");

    // Now read: every ping is answered, in order, and the writer finishes.
    for id in 1..=PINGS {
        line.clear();
        assert!(stdout.read_line(&mut line).unwrap() > 0, "the server closed its output before ping {id}");
        assert_eq!(line.trim_end(), format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{}}}}"#));
    }
    drop(writer.join().unwrap());
    line.clear();
    assert_eq!(stdout.read_line(&mut line).unwrap(), 0, "nothing after the last answer: {line}");
    assert_eq!(child.wait().unwrap().code(), Some(0));
}

// --- The 2026-07-28 fixtures (multi round-trip requests), which write their JSON as text.

/// The `_meta` every 2026-07-28 request carries (no handshake in that era).
const MODERN_META: &str = r#"{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{},"sampling":{},"roots":{}},"io.modelcontextprotocol/clientInfo":{"name":"examples-test","version":"1"}}"#;

/// A 2026-07-28 request: `params` is the JSON text of its params' members besides
/// `_meta` (written as text, to send what a JSON value would not keep: escapes, spaces).
fn modern(s: &mut Server, method: &str, params: &str) -> Value {
    let id = s.next_id;
    s.next_id += 1;
    let line =
        format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{{{params},"_meta":{MODERN_META}}}}}"#);
    s.write(format!("{line}\n").as_bytes());
    s.response(id)
}

/// A 2026-07-28 `tools/call` of `name`; `more` is more members of its params, as text.
fn modern_call(s: &mut Server, name: &str, more: &str) -> Value {
    modern(s, "tools/call", &format!(r#""name":"{name}","arguments":{{}}{more}"#))
}

/// An `inputResponses` member holding one accepted elicitation, `field` = `value` (text).
fn accepted(key: &str, field: &str, value: &str) -> String {
    format!(r#","inputResponses":{{"{key}":{{"action":"accept","content":{{"{field}":{value}}}}}}}"#)
}

/// A sealed `requestState` is a JSON string like any other: sent back with a character
/// written as a `\u` escape (as a client's JSON library may write it), it is the same
/// state, as it was when the fixtures read it through serde_json.
#[test]
fn a_request_state_sent_back_with_escapes_is_the_same_state() {
    const TOOL: &str = "test_input_required_result_request_state";
    let mut s = Server::spawn(&[]);
    let first = modern_call(&mut s, TOOL, "");
    assert_eq!(first["result"]["resultType"], "input_required", "{first}");
    let state = first["result"]["requestState"].as_str().expect("a sealed state").to_string();
    let mut chars = state.chars();
    let head = chars.next().unwrap();
    let confirm = accepted("confirm", "ok", "true");
    for sent in [format!("\"{state}\""), format!(r#""\u{:04x}{}""#, head as u32, chars.as_str())] {
        let again = modern_call(&mut s, TOOL, &format!(r#"{confirm},"requestState":{sent}"#));
        assert_eq!(again["result"]["content"], text("state-ok: the requestState was verified")["content"], "{again}");
    }
    // A state that is not the sealed one, escaped or not, is still refused.
    let tampered = format!(r#""\u{:04x}{}x""#, head as u32, chars.as_str());
    let refused = modern_call(&mut s, TOOL, &format!(r#"{confirm},"requestState":{tampered}"#));
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    assert_eq!(s.finish(WAIT).code(), Some(0));
}

/// An accepted answer that is not a string is echoed as compact JSON, whatever spaces
/// (or, over HTTP, line breaks) the client wrote between its tokens.
#[test]
fn an_answer_that_is_not_a_string_is_echoed_compact() {
    let mut s = Server::spawn(&[]);
    let answer = accepted("user_name", "name", "{ \"first\" : \"Ada\",\t\"n\" : [1, 2] }");
    let r = modern_call(&mut s, "test_input_required_result_elicitation", &answer);
    assert_eq!(r["result"]["content"], text(r#"Hello, {"first":"Ada","n":[1,2]}!"#)["content"], "{r}");
    assert_eq!(s.finish(WAIT).code(), Some(0));
}

/// What the client sent, echoed in a reply the fixtures write as text, is escaped there:
/// quotes, backslashes, control characters and non-ASCII text come back as they were
/// sent, in every fixture that echoes the client's words (the sealed multi-round state
/// included), and the reply is one valid line of JSON.
#[test]
fn the_clients_words_come_back_escaped_from_every_fixture() {
    let mut s = Server::spawn(&[]);
    // As sent (JSON text) and as the client meant it.
    let (sent, meant) =
        (r#""a \"q\" \\ \/ \n\t\u0001\u001f\b\f é 😀 </x>""#, "a \"q\" \\ / \n\t\u{1}\u{1f}\u{8}\u{c} é 😀 </x>");
    let elicited = modern_call(&mut s, "test_input_required_result_elicitation", &accepted("user_name", "name", sent));
    assert_eq!(elicited["result"]["content"], text(&format!("Hello, {meant}!"))["content"], "{elicited}");

    let sampled = format!(
        r#","inputResponses":{{"capital_question":{{"role":"assistant","content":{{"type":"text","text":{sent}}},"model":"m"}}}}"#
    );
    let r = modern_call(&mut s, "test_input_required_result_sampling", &sampled);
    assert_eq!(r["result"]["content"], text(&format!("LLM response: {meant}"))["content"], "{r}");

    let roots = format!(r#","inputResponses":{{"client_roots":{{"roots":[{{"uri":{sent}}},{{"uri":"file:///b"}}]}}}}"#);
    let r = modern_call(&mut s, "test_input_required_result_list_roots", &roots);
    assert_eq!(r["result"]["content"], text(&format!("Roots: {meant}, file:///b"))["content"], "{r}");

    // Round 1 seals nothing of the client's; round 2 seals the name, round 3 echoes it.
    const ROUNDS: &str = "test_input_required_result_multi_round";
    let one = modern_call(&mut s, ROUNDS, "");
    let state = one["result"]["requestState"].clone();
    let two = modern_call(&mut s, ROUNDS, &format!(r#"{},"requestState":{state}"#, accepted("step1", "name", sent)));
    let state = two["result"]["requestState"].clone();
    assert!(state.is_string(), "{two}");
    let three = modern_call(&mut s, ROUNDS, &format!(r#"{},"requestState":{state}"#, accepted("step2", "color", sent)));
    assert_eq!(three["result"]["content"], text(&format!("{meant} likes {meant}"))["content"], "{three}");

    let prompt = format!(r#""name":"test_input_required_result_prompt"{}"#, accepted("user_context", "context", sent));
    let r = modern(&mut s, "prompts/get", &prompt);
    assert_eq!(r["result"]["messages"][0]["content"]["text"], format!("Use this context: {meant}"), "{r}");

    let args = format!(r#""name":"test_header_param","arguments":{{"region":{sent}}}"#);
    let r = modern(&mut s, "tools/call", &args);
    assert_eq!(r["result"]["content"], text(&format!("Region: {meant}"))["content"], "{r}");

    // The template resource's id, from the URI: its JSON text names it, escaped.
    let uri = r#"test://template/q\"b\\s\u0001é/data"#;
    let r = modern(&mut s, "resources/read", &format!(r#""uri":"{uri}""#));
    let contents = r["result"]["contents"][0]["text"].as_str().unwrap_or_else(|| panic!("{r}"));
    let data: Value = serde_json::from_str(contents).unwrap_or_else(|e| panic!("{e}: {contents}"));
    let id = "q\"b\\s\u{1}é";
    assert_eq!(data, json!({"id":id,"templateTest":true,"data":format!("Data for ID: {id}")}));
    assert_eq!(s.finish(WAIT).code(), Some(0));
}
