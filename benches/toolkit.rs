//! What the toolkit costs per request, in memory: the same `tools/call` (`echo`, text
//! decoded from the arguments and sent back) answered by a bare endpoint with the
//! application's own decoding, and by the toolkit's server from a `static` table; plus a
//! canned answer (no decoding at all) and `tools/list`. Thread CPU time per round trip
//! through a client and a server endpoint. No timing assertions.
//!
//! `cargo bench --bench toolkit`

use std::hint::black_box;

use mcp_sansio::mcp::{CallToolParams, CallToolResult, ContentBlock, Role, TextContent};
use mcp_sansio::session::{Config, Endpoint, Event, Output, RequestOptions, State};
use mcp_sansio::time::Instant;
use mcp_sansio::toolkit::server::{Server, Table, ToolCallFn};
use mcp_sansio::wire::{ErrorCode, JsonStr, RawJson};

mcp_sansio::schema! {
    #[derive(serde::Deserialize)]
    pub struct Echo<'a> {
        #[serde(borrow)]
        text: JsonStr<'a>,
    }
}

static ECHO: ToolCallFn<Echo<'static>, ()> = ToolCallFn::new("echo", |_, Echo { text }, call| call.respond(&text));
static TABLE: Table<'static, ()> = Table::new().tools(&[&ECHO]);

#[cfg(target_os = "linux")]
fn cpu_now() -> std::time::Duration {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid, writable timespec.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0);
    std::time::Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

#[cfg(not(target_os = "linux"))]
fn cpu_now() -> std::time::Duration {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START.get_or_init(std::time::Instant::now).elapsed()
}

type Ep<'a> = Endpoint<'a, 8, 8>;

#[derive(Clone, Copy, PartialEq)]
enum Answer {
    /// A canned result, no decoding.
    Canned,
    /// The application decodes the params and the arguments and answers.
    Bare,
    /// The toolkit's server.
    Toolkit,
}

const CANNED: &[u8] = br#"{"content":[{"type":"text","text":"hello world"}]}"#;

fn bare(req: &mut mcp_sansio::session::IncomingRequest<'_>) {
    let call = req.params.and_then(|p| p.decode::<CallToolParams<'_>>().ok());
    let Some(call) = call.filter(|c| c.name == "echo") else {
        let _ = req.respond_error(ErrorCode::INVALID_PARAMS, "Unknown tool");
        return;
    };
    match call.arguments.unwrap_or(RawJson::EMPTY_OBJECT).decode::<Echo<'_>>() {
        Ok(Echo { text }) => {
            let result = CallToolResult::one(ContentBlock::Text(TextContent { text, annotations: None, meta: None }));
            let _ = req.respond(&result);
        }
        Err(_) => {
            let _ = req.respond(&CallToolResult::error("bad arguments"));
        }
    }
}

struct Pipe(Vec<u8>);

fn pump(ep: &mut Ep<'_>, out: &mut Pipe, answer: Answer, server: &mut Server<'static, ()>) -> u64 {
    let mut responses = 0;
    loop {
        match ep.poll_output() {
            Output::Transmit(bytes) => out.0.extend_from_slice(&bytes),
            Output::Event(Event::Request(mut r)) if answer == Answer::Canned => {
                let _ = r.respond(&RawJson::parse(CANNED).unwrap());
            }
            Output::Event(Event::Request(mut r)) if answer == Answer::Bare => bare(&mut r),
            Output::Event(Event::Response { .. }) => responses += 1,
            Output::Event(e) => {
                if let Some(Event::Request(_)) = server.handle(&mut (), e) {
                    panic!("unanswered");
                }
            }
            Output::Idle { .. } => return responses,
        }
    }
}

fn deliver(
    from: &mut Pipe,
    to: &mut Ep<'_>,
    to_out: &mut Pipe,
    answer: Answer,
    server: &mut Server<'static, ()>,
) -> u64 {
    let mut seen = 0;
    let mut at = 0;
    while at < from.0.len() {
        at += to.handle_input(Instant::ZERO, &from.0[at..]);
        seen += pump(to, to_out, answer, server);
    }
    from.0.clear();
    seen
}

fn run(answer: Answer, method: &str, params: Option<&RawJson<'_>>, round_trips: u64) -> f64 {
    let mut bufs = vec![[0u8; 64 * 1024]; 4];
    let [crx, ctx, srx, stx] = &mut bufs[..] else { unreachable!() };
    let mut server: Server<'static, ()> = Server::new(TABLE);
    let client_config = Config::new(Role::Client, RawJson::parse(br#"{"name":"bench","version":"1"}"#).unwrap());
    let mut client = Ep::new(client_config, crx, ctx, Instant::ZERO).unwrap();
    let mut srv = Ep::new(server.config(), srx, stx, Instant::ZERO).unwrap();
    let (mut c2s, mut s2c) = (Pipe(Vec::with_capacity(1 << 16)), Pipe(Vec::with_capacity(1 << 16)));
    pump(&mut client, &mut c2s, answer, &mut server);
    for _ in 0..2 {
        deliver(&mut c2s, &mut srv, &mut s2c, answer, &mut server);
        deliver(&mut s2c, &mut client, &mut c2s, answer, &mut server);
    }
    assert_eq!(client.state(), State::Ready);
    let start = cpu_now();
    let (mut sent, mut done) = (0, 0);
    while done < round_trips {
        while sent < round_trips && client.requests_in_flight() < 8 {
            client.send_request(Instant::ZERO, method, params, RequestOptions::default()).unwrap();
            sent += 1;
        }
        pump(&mut client, &mut c2s, answer, &mut server);
        deliver(&mut c2s, &mut srv, &mut s2c, answer, &mut server);
        let _ = server.poll(&mut (), &mut srv, Instant::ZERO);
        pump(&mut srv, &mut s2c, answer, &mut server);
        done += deliver(&mut s2c, &mut client, &mut c2s, answer, &mut server);
    }
    black_box((&client, &srv));
    (cpu_now() - start).as_secs_f64() * 1e9 / done as f64
}

fn main() {
    let quick = !std::env::args().any(|a| a == "--bench");
    let n: u64 = if quick { 2_000 } else { 300_000 };
    let call = RawJson::parse(br#"{"name":"echo","arguments":{"text":"hello world"}}"#).unwrap();
    println!("## tools/call echo, 8 in flight, {n} round trips (ns per round trip, client and server, thread CPU)");
    println!();
    println!("| server | ns per round trip | vs bare |");
    println!("|---|---|---|");
    let runs = [
        ("canned result (no decoding)", Answer::Canned),
        ("bare endpoint, typed decoding", Answer::Bare),
        ("toolkit", Answer::Toolkit),
    ];
    // Interleaved, best of five each: the machines are shared.
    let mut best = [f64::MAX; 3];
    for _ in 0..5 {
        for (i, (_, answer)) in runs.iter().enumerate() {
            best[i] = best[i].min(run(*answer, "tools/call", Some(&call), n));
        }
    }
    for (i, (name, _)) in runs.iter().enumerate() {
        println!("| {name} | {:.0} | {:.3}x |", best[i], best[i] / best[1]);
    }
}
