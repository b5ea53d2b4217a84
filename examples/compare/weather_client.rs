//! A client of the weather server on mcp-sansio's toolkit, the same code whichever the
//! transport: it spawns the server over stdio, or connects to one at a URL over
//! Streamable HTTP (falling back to HTTP+SSE). A typed call, a refused one, `slow_sum`
//! with its progress, a cancelled `slow_sum`, the resources page by page, the prompt.
//!
//!     cargo run --features stdio,http --example weather_client -- SERVER-COMMAND...
//!     cargo run --features stdio,http --example weather_client -- --http http://127.0.0.1:8080/mcp
use std::process::Command;

use mcp_sansio::toolkit::client::BlockingClient;
use serde_json::json;

#[derive(serde::Serialize)]
struct Forecast<'a> {
    city: &'a str,
    days: u8,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let client = match args.as_slice() {
        [flag, url] if flag == "--http" => BlockingClient::connect(url)?,
        [program, rest @ ..] => BlockingClient::spawn({
            let mut command = Command::new(program);
            command.args(rest);
            command
        })?,
        [] => return Err("usage: weather_client (--http URL | SERVER-COMMAND...)".into()),
    };
    println!("connected, protocol {:?}", client.protocol_version());

    println!("{}", client.call_tool("get_forecast", &Forecast { city: "Oslo", days: 2 })?.text());
    let refused = client.call_tool("get_forecast", &Forecast { city: "Oslo", days: 9 })?;
    println!("refused ({}): {}", refused.is_error(), refused.text());

    let sum = client
        .call("slow_sum", &json!({"numbers": [1, 2, 3], "delay_ms": 50}))
        .progress(|done, total, message| println!("  progress {done}/{total:?} {message:?}"))
        .send()?;
    println!("slow_sum: {}", sum.text());
    let slow = client.call("slow_sum", &json!({"numbers": vec![1; 50], "delay_ms": 100})).start()?;
    println!("cancelled: {}", slow.cancel().unwrap_err());

    for (i, page) in client.resources().enumerate() {
        println!(
            "resources page {}: {} items",
            i + 1,
            page?.json().get("resources").map_or(0, |r| r.elements().count())
        );
    }
    println!("{}", client.get_prompt("forecast_request", &json!({"city": "Bergen"}))?);
    println!("closed: {:?}", client.close()?);
    Ok(())
}
