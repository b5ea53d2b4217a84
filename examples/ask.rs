//! A tool that asks the user a question while it works, on the toolkit: the same handler
//! in both eras. A handshake client (2024-11-05 to 2025-11-25) gets an
//! `elicitation/create` request of the server's own; a stateless one (2026-07-28) gets an
//! `input_required` result and calls again with the answer, the handler being run again
//! from the start (see `mcp_sansio::toolkit::server::Input`).
//!
//!     cargo run --features stdio --example ask

use mcp_sansio::toolkit::server::{Job, ServerBuilder};
use serde_json::{Value, json};

mcp_sansio::schema! {
    #[derive(serde::Deserialize)]
    struct Greeting {
        /// How to greet
        greeting: String,
    }
}

/// Asks the user's name, then greets them; a refusal or a client that cannot be asked
/// is the tool's error, for the model to read.
fn greet(job: Job, Greeting { greeting }: Greeting) -> Result<String, String> {
    let schema = json!({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]});
    let answer = job.elicit(&json!({"message": "What is your name?", "requestedSchema": schema}));
    let answer = answer.map_err(|e| format!("no name: {e}"))?;
    let answer: Value = serde_json::from_slice(answer.json().as_bytes()).map_err(|e| e.to_string())?;
    match answer["content"]["name"].as_str() {
        Some(name) if answer["action"] == "accept" => Ok(format!("{greeting}, {name}!")),
        _ => Err("the user did not say".into()),
    }
}

fn main() -> std::io::Result<()> {
    ServerBuilder::new("ask", "1.0.0").blocking_tool("greet", "Greets the user by name", greet).serve_stdio().map(drop)
}
