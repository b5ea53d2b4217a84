//! Decodes every message the official SDKs exchanged (tests/fixtures/sdk-capture.jsonl,
//! recorded by tests/sdk-capture/capture.sh) with this crate's types: requests and
//! notifications by their method, results by the method of the request they answer
//! (looked up by id among the requests that went the other way).

use std::collections::HashMap;

use mcp_sansio::mcp::*;
use mcp_sansio::wire::{Message, RawJson};

#[test]
fn every_captured_message_decodes_by_method() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sdk-capture.jsonl");
    let text = std::fs::read(&path).unwrap();
    // (source, direction of the request, id token) -> (method, task-augmented)
    let mut pending: HashMap<(String, String, Vec<u8>), (Method<'static>, bool)> = HashMap::new();
    let mut counts: HashMap<String, usize> = HashMap::new();
    let mut failures = Vec::new();
    for (n, line) in text.split(|&b| b == b'\n').filter(|l| !l.is_empty()).enumerate() {
        let record = RawJson::parse(line).unwrap();
        let source = record.get("source").unwrap().as_str().unwrap().to_string();
        let dir = record.get("dir").unwrap().as_str().unwrap().to_string();
        let other = if dir == "c2s" { "s2c" } else { "c2s" }.to_string();
        // The message exactly as the SDK wrote it.
        let frame = record.get("message").unwrap().as_bytes();
        let outcome: Result<String, String> = match Message::parse(frame) {
            Err(e) => Err(format!("envelope: {e:?}")),
            Ok(Message::Request(r)) => {
                let method = Method::parse(r.method);
                let task = r.params.and_then(|p| p.get("task")).is_some();
                if let Some(known) = method.to_known() {
                    pending.insert((source.clone(), dir.clone(), r.id.as_token().to_vec()), (known, task));
                }
                match decode_request(method, r.params) {
                    Ok(AnyRequest::Other(_)) => Err(format!("unknown request method {method}")),
                    Ok(_) => Ok(format!("request {method}")),
                    Err(e) => Err(format!("request {method}: {e}")),
                }
            }
            Ok(Message::Notification(n)) => {
                let method = Method::parse(n.method);
                match decode_notification(method, n.params) {
                    Ok(AnyNotification::Other(_)) => Err(format!("unknown notification method {method}")),
                    Ok(_) => Ok(format!("notification {method}")),
                    Err(e) => Err(format!("notification {method}: {e}")),
                }
            }
            Ok(Message::Response(r)) => match pending.get(&(source.clone(), other.clone(), r.id.as_token().to_vec())) {
                None => Err("result for a request not in the capture".into()),
                Some(&(method, task)) => {
                    let answering = if task { Answering::task(method) } else { Answering::from(method) };
                    match decode_result(answering, r.result) {
                        Ok(AnyResult::Other(_)) => Err(format!("result of unknown method {method}")),
                        Ok(_) => Ok(format!("result {method}")),
                        Err(e) => Err(format!("result {method}: {e}")),
                    }
                }
            },
            Ok(Message::Error(e)) => {
                let answers = e.id.and_then(|id| pending.get(&(source.clone(), other.clone(), id.as_token().to_vec())));
                Ok(format!("error {} ({})", e.error.code.0, answers.map_or("?".into(), |(m, _)| m.to_string())))
            }
        };
        match outcome {
            Ok(kind) => *counts.entry(kind).or_default() += 1,
            Err(e) => failures.push(format!("line {}: {source} {dir}: {e}", n + 1)),
        }
    }
    let mut kinds: Vec<_> = counts.iter().collect();
    kinds.sort();
    for (kind, count) in &kinds {
        println!("{count:4} {kind}");
    }
    let total: usize = counts.values().sum::<usize>() + failures.len();
    assert!(total > 150, "only {total} captured messages");
    assert!(failures.is_empty(), "{} of {total} messages failed:\n{}", failures.len(), failures.join("\n"));
}
