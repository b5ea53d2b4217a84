//! The floor for the stdio round-trip benchmark (`benches/stdio_roundtrip.rs`): a bare
//! std loop over serde_json with canned replies. It is not an MCP server: no lifecycle,
//! no validation beyond JSON, no correlation, no timers. It reads a line, parses it with
//! serde_json, and answers `initialize`, `ping` and `tools/call` with fixed results (the
//! request's id spliced in); other requests get -32601 and notifications nothing. Output
//! is buffered and flushed once the input buffer is drained (one write per batch).
//!
//!     cargo run --release --example stdio_floor

use std::io::{self, BufRead, BufReader, BufWriter, Write};

use serde::Deserialize;
use serde_json::value::RawValue;

#[derive(Deserialize)]
struct Message<'a> {
    #[serde(borrow)]
    id: Option<&'a RawValue>,
    #[serde(borrow)]
    method: Option<&'a str>,
}

const INITIALIZE: &str = r#"{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"stdio-floor","version":"0.1.0"}}"#;
const CALL: &str = r#"{"content":[{"type":"text","text":"hello"}]}"#;

fn main() -> io::Result<()> {
    let stdin = io::stdin();
    let mut input = BufReader::with_capacity(64 * 1024, stdin.lock());
    let mut output = BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    let mut line = Vec::with_capacity(4096);
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            break;
        }
        match serde_json::from_slice::<Message<'_>>(&line) {
            Ok(Message { id: Some(id), method: Some(method) }) => {
                let reply = match method {
                    "initialize" => Some(INITIALIZE),
                    "ping" => Some("{}"),
                    "tools/call" => Some(CALL),
                    _ => None,
                };
                output.write_all(br#"{"jsonrpc":"2.0","id":"#)?;
                output.write_all(id.get().as_bytes())?;
                match reply {
                    Some(result) => {
                        output.write_all(br#","result":"#)?;
                        output.write_all(result.as_bytes())?;
                        output.write_all(b"}\n")?;
                    }
                    None => output.write_all(b",\"error\":{\"code\":-32601,\"message\":\"Method not found\"}}\n")?,
                }
            }
            Ok(_) => {}
            Err(_) => output.write_all(
                b"{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}\n",
            )?,
        }
        if input.buffer().is_empty() {
            output.flush()?;
        }
    }
    output.flush()
}
