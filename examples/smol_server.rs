//! The same endpoint, driven from an async loop on smol: the core does not care which
//! runtime (or none) moves its bytes.
//!
//! A small MCP server on this process's stdin/stdout with one tool, `sleep`, that waits
//! asynchronously without blocking the loop: pings and cancellations are handled while it
//! sleeps.
//!
//!     cargo run --example smol_server

use std::collections::HashMap;
use std::time::Duration;

use futures_lite::{AsyncReadExt, AsyncWriteExt, FutureExt};
use mcp_sansio::mcp::{Method, Role};
use mcp_sansio::session::{Config, Endpoint, Event, Output, PendingRequest};
use mcp_sansio::time::Clock;
use mcp_sansio::wire::{ErrorCode, RawJson};

/// What can wake the loop.
enum Wake {
    Input(usize),
    Eof,
    Deadline,
    SleepDone(PendingRequest),
}

fn main() -> std::io::Result<()> {
    smol::block_on(async {
        let config = Config::new(Role::Server, RawJson::parse(br#"{"name":"smol-server","version":"0.1.0"}"#).unwrap())
            .capabilities(RawJson::parse(br#"{"tools":{}}"#).unwrap());
        let clock = Clock::new();
        let (mut rx, mut tx) = (vec![0u8; 64 * 1024], vec![0u8; 64 * 1024]);
        let mut ep: Endpoint<'_, 8, 32> = Endpoint::new(config, &mut rx, &mut tx, clock.now()).unwrap();
        let mut stdin = smol::Unblock::new(std::io::stdin());
        let mut stdout = smol::Unblock::new(std::io::stdout());
        let (done_tx, done_rx) = smol::channel::unbounded::<PendingRequest>();
        let mut sleepers: HashMap<String, smol::Task<()>> = HashMap::new();
        let mut buf = vec![0u8; 64 * 1024];
        let mut pending: Vec<u8> = Vec::new();
        // After the end of input, stdin is not read again (it would report the end at
        // once, every time, and the loop would spin while a sleeper still runs).
        let mut eof = false;

        loop {
            // Drain until idle.
            let next_timeout = loop {
                match ep.poll_output() {
                    Output::Transmit(bytes) => {
                        stdout.write_all(&bytes).await?;
                    }
                    Output::Event(Event::Request(mut req)) => match req.method {
                        Method::ToolsList => {
                            let tools = RawJson::parse(
                                br#"{"tools":[{"name":"sleep","description":"Sleep for ms milliseconds","inputSchema":{"type":"object","properties":{"ms":{"type":"integer"}}}}]}"#,
                            )
                            .unwrap();
                            req.respond(&tools).unwrap();
                        }
                        Method::ToolsCall => {
                            let ms = req
                                .params
                                .and_then(|p| p.get("arguments"))
                                .and_then(|a| a.get("ms"))
                                .and_then(|m| m.as_u64())
                                .unwrap_or(1000);
                            let id = req.pending();
                            let done = done_tx.clone();
                            let key = id.to_string();
                            // The work runs as a task; the loop keeps serving meanwhile.
                            sleepers.insert(
                                key,
                                smol::spawn(async move {
                                    smol::Timer::after(Duration::from_millis(ms)).await;
                                    let _ = done.send(id).await;
                                }),
                            );
                        }
                        _ => {
                            req.respond_error(ErrorCode::METHOD_NOT_FOUND, "Method not found").unwrap();
                        }
                    },
                    Output::Event(Event::Cancelled { request: id, .. }) => {
                        // Dropping a smol task cancels it.
                        sleepers.remove(&id.to_string());
                    }
                    Output::Event(Event::Closed { .. }) => {}
                    Output::Event(_) => {}
                    Output::Idle { next_timeout } => break next_timeout,
                }
            };
            stdout.flush().await?;
            if ep.is_closed() {
                return Ok(());
            }

            // Feed what is left of the last read before reading more.
            if !pending.is_empty() {
                let n = ep.handle_input(clock.now(), &pending);
                pending.drain(..n);
                continue;
            }

            // Wait for one thing: input, a finished task, or the deadline.
            let input = async {
                if eof {
                    return std::future::pending().await;
                }
                match stdin.read(&mut buf).await {
                    Ok(0) | Err(_) => Wake::Eof,
                    Ok(n) => Wake::Input(n),
                }
            };
            let finished = async {
                match done_rx.recv().await {
                    Ok(id) => Wake::SleepDone(id),
                    Err(_) => std::future::pending().await,
                }
            };
            let deadline = async {
                match next_timeout {
                    Some(at) => {
                        smol::Timer::at(clock.to_std(at)).await;
                        Wake::Deadline
                    }
                    None => std::future::pending().await,
                }
            };
            let now = || clock.now();
            match input.or(finished).or(deadline).await {
                Wake::Input(n) => {
                    let taken = ep.handle_input(now(), &buf[..n]);
                    pending.extend_from_slice(&buf[taken..n]);
                }
                Wake::Eof => {
                    eof = true;
                    ep.handle_eof(now())
                }
                Wake::Deadline => ep.handle_timeout(now()),
                Wake::SleepDone(id) => {
                    sleepers.remove(&id.to_string());
                    let result = RawJson::parse(br#"{"content":[{"type":"text","text":"slept"}]}"#).unwrap();
                    // Suppressed (nothing sent) if the client cancelled meanwhile.
                    let _ = ep.respond(&id, &result);
                }
            }
        }
    })
}
