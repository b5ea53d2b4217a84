//! Session throughput: request/response round trips between a client and a server endpoint
//! in memory, through the real newline framing, plus the endpoints' sizes and heap
//! allocations per message (which must be zero). No timing assertions.
//!
//! `cargo bench --bench session`

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicU64, Ordering};

use mcp_sansio::mcp::Role;
use mcp_sansio::session::{Config, Endpoint, Era, Event, Output, RequestOptions, State};
use mcp_sansio::time::Instant;
use mcp_sansio::wire::RawJson;

// ---- counting allocator ------------------------------------------------------------------

static ALLOCS: AtomicU64 = AtomicU64::new(0);

struct Counting;

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

// ---- the clock ------------------------------------------------------------------------------

/// The thread's CPU time on Linux (time spent descheduled excluded: the build machines
/// are shared); wall time elsewhere.
#[cfg(target_os = "linux")]
fn cpu_now() -> std::time::Duration {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid, writable timespec.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
    std::time::Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

#[cfg(not(target_os = "linux"))]
fn cpu_now() -> std::time::Duration {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START.get_or_init(std::time::Instant::now).elapsed()
}

// ---- an in-memory pair ---------------------------------------------------------------------

const PIPE: usize = 1 << 16;

struct Pipe {
    buf: Box<[u8; PIPE]>,
    len: usize,
}

impl Pipe {
    fn new() -> Self {
        Pipe { buf: Box::new([0; PIPE]), len: 0 }
    }
    fn push(&mut self, bytes: &[u8]) {
        self.buf[self.len..self.len + bytes.len()].copy_from_slice(bytes);
        self.len += bytes.len();
    }
}

type Ep<'a, const N: usize> = Endpoint<'a, N, N>;

/// Drains an endpoint; the server answers every request at once. Returns the responses
/// seen.
fn pump<const N: usize>(ep: &mut Ep<'_, N>, out: &mut Pipe, result: &RawJson<'_>) -> u64 {
    let mut responses = 0;
    loop {
        match ep.poll_output() {
            Output::Transmit(bytes) => out.push(&bytes),
            Output::Event(Event::Request(mut r)) => {
                r.respond(result).unwrap();
            }
            Output::Event(Event::Response { .. }) => responses += 1,
            Output::Event(Event::Negotiated { .. } | Event::Ready { .. }) => {}
            Output::Event(other) => panic!("unexpected {other:?}"),
            Output::Idle { .. } => return responses,
        }
    }
}

/// Feeds `from` into `to` in chunks of `chunk` bytes.
fn deliver<const N: usize>(
    from: &mut Pipe,
    to: &mut Ep<'_, N>,
    to_out: &mut Pipe,
    chunk: usize,
    result: &RawJson<'_>,
) -> u64 {
    let mut seen = 0;
    let mut at = 0;
    while at < from.len {
        let end = (at + chunk).min(from.len);
        at += to.handle_input(Instant::ZERO, &from.buf[at..end]);
        seen += pump(to, to_out, result);
    }
    from.len = 0;
    seen
}

struct Scenario {
    name: &'static str,
    /// The era both sides speak: the handshake's (`initialize` once), or the stateless
    /// one (2026-07-28: every request carries its `_meta`, which the server validates,
    /// and every result is completed with `resultType` and `serverInfo`).
    era: Era,
    in_flight: usize,
    chunk: usize,
    params: &'static [u8],
    result: &'static [u8],
}

struct Outcome {
    round_trips: u64,
    seconds: f64,
    bytes: u64,
    allocs: u64,
}

fn run<const N: usize>(s: &Scenario, round_trips: u64) -> Outcome {
    let mut bufs = vec![[0u8; 64 * 1024]; 4];
    let [crx, ctx, srx, stx] = &mut bufs[..] else { unreachable!() };
    let client_config =
        Config::new(Role::Client, RawJson::parse(br#"{"name":"bench","version":"1"}"#).unwrap()).era(s.era);
    let server_config = Config::new(Role::Server, RawJson::parse(br#"{"name":"bench","version":"1"}"#).unwrap())
        .capabilities(RawJson::parse(br#"{"tools":{}}"#).unwrap())
        .era(s.era);
    let result = RawJson::parse(s.result).unwrap();
    let params = (!s.params.is_empty()).then(|| RawJson::parse(s.params).unwrap());
    let method = if params.is_some() { "tools/call" } else { "tools/list" };
    let mut client = Ep::<N>::new(client_config, crx, ctx, Instant::ZERO).unwrap();
    let mut server = Ep::<N>::new(server_config, srx, stx, Instant::ZERO).unwrap();
    let (mut c2s, mut s2c) = (Pipe::new(), Pipe::new());
    // Handshake (or the stateless era's probe).
    pump(&mut client, &mut c2s, &result);
    for _ in 0..2 {
        deliver(&mut c2s, &mut server, &mut s2c, 4096, &result);
        deliver(&mut s2c, &mut client, &mut c2s, 4096, &result);
    }
    let want = if s.era == Era::Modern { State::Stateless } else { State::Ready };
    assert_eq!(client.state(), want);
    let allocs_before = ALLOCS.load(Ordering::Relaxed);
    let start = cpu_now();
    let (mut sent, mut done, mut bytes) = (0u64, 0u64, 0u64);
    while done < round_trips {
        while sent < round_trips && client.requests_in_flight() < s.in_flight {
            client.send_request(Instant::ZERO, method, params.as_ref(), RequestOptions::default()).unwrap();
            sent += 1;
        }
        pump(&mut client, &mut c2s, &result);
        bytes += c2s.len as u64;
        deliver(&mut c2s, &mut server, &mut s2c, s.chunk, &result);
        bytes += s2c.len as u64;
        done += deliver(&mut s2c, &mut client, &mut c2s, s.chunk, &result);
    }
    let seconds = (cpu_now() - start).as_secs_f64();
    let allocs = ALLOCS.load(Ordering::Relaxed) - allocs_before;
    black_box((&client, &server));
    Outcome { round_trips: done, seconds, bytes, allocs }
}

const SMALL_RESULT: &[u8] = br#"{"tools":[]}"#;
/// A handshake-era call with the same bytes on the wire as a stateless one: the
/// stateless `_meta` and result completion, under keys of the same length that mean
/// nothing to the endpoint (`io.xxxxxxxxxxxxxxxxxxxx/…` is not a reserved prefix). Set
/// against the stateless scenario, it isolates what the era's rules cost (validation,
/// completion, the `_meta` written) from what its larger messages cost to move.
const CALL_SAME_BYTES: &[u8] = br#"{"_meta":{"io.xxxxxxxxxxxxxxxxxxxx/protocolVersion":"2026-07-28","io.xxxxxxxxxxxxxxxxxxxx/clientCapabilities":{},"io.xxxxxxxxxxxxxxxxxxxx/clientInfo":{"name":"bench","version":"1"}},"name":"echo","arguments":{"text":"hello world"}}"#;
const CALL_RESULT_SAME_BYTES: &[u8] = br#"{"resultType":"complete","_meta":{"io.xxxxxxxxxxxxxxxxxxxx/serverInfo":{"name":"bench","version":"1"}},"content":[{"type":"text","text":"hello world"}],"isError":false}"#;
const CALL: &[u8] = br#"{"name":"echo","arguments":{"text":"hello world"}}"#;
const CALL_RESULT: &[u8] = br#"{"content":[{"type":"text","text":"hello world"}],"isError":false}"#;

fn main() {
    // `cargo bench` passes `--bench`; anything else (`cargo test --benches`) runs briefly.
    let quick = !std::env::args().any(|a| a == "--bench");
    // For benches/session_instructions.sh: a fixed count and one scenario under callgrind.
    let round_trips: u64 = std::env::var("SESSION_BENCH_ROUND_TRIPS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if quick { 2_000 } else { 200_000 });
    let only_exact = std::env::var("SESSION_BENCH_ONLY").ok();
    // Any other argument keeps only the scenarios whose name contains it (for profiling).
    let only: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();

    println!("## Endpoint size (bytes), OUT = IN = N");
    println!();
    println!("| N | size_of::<Endpoint<N, N>> |");
    println!("|---|---|");
    println!("| 0 | {} |", std::mem::size_of::<Endpoint<'static, 0, 0>>());
    println!("| 1 | {} |", std::mem::size_of::<Endpoint<'static, 1, 1>>());
    println!("| 4 | {} |", std::mem::size_of::<Endpoint<'static, 4, 4>>());
    println!("| 8 (default) | {} |", std::mem::size_of::<Endpoint<'static>>());
    println!("| 16 | {} |", std::mem::size_of::<Endpoint<'static, 16, 16>>());
    println!("| 64 | {} |", std::mem::size_of::<Endpoint<'static, 64, 64>>());
    println!();
    let base = std::mem::size_of::<Endpoint<'static, 0, 0>>();
    println!(
        "per OUT slot: {} bytes, per IN slot: {} bytes",
        std::mem::size_of::<Endpoint<'static, 1, 0>>() - base,
        std::mem::size_of::<Endpoint<'static, 0, 1>>() - base
    );
    println!("(plus the caller's receive and transmit buffers)");
    println!();

    let legacy = Era::Legacy;
    let scenarios = [
        Scenario {
            name: "tools/list, 1 in flight",
            era: legacy,
            in_flight: 1,
            chunk: 4096,
            params: b"",
            result: SMALL_RESULT,
        },
        Scenario {
            name: "tools/list, 8 in flight",
            era: legacy,
            in_flight: 8,
            chunk: 4096,
            params: b"",
            result: SMALL_RESULT,
        },
        Scenario {
            name: "tools/call, 8 in flight",
            era: legacy,
            in_flight: 8,
            chunk: 4096,
            params: CALL,
            result: CALL_RESULT,
        },
        // The same call in the stateless era, side by side with the line above (issue 10's
        // target: the per-request `_meta` costs at most 10% more).
        Scenario {
            name: "tools/call, 8 in flight, stateless (2026-07-28)",
            era: Era::Modern,
            in_flight: 8,
            chunk: 4096,
            params: CALL,
            result: CALL_RESULT,
        },
        Scenario {
            name: "tools/call, 8 in flight, handshake era, the stateless bytes",
            era: legacy,
            in_flight: 8,
            chunk: 4096,
            params: CALL_SAME_BYTES,
            result: CALL_RESULT_SAME_BYTES,
        },
        Scenario {
            name: "tools/call, 8 in flight, 64-byte reads",
            era: legacy,
            in_flight: 8,
            chunk: 64,
            params: CALL,
            result: CALL_RESULT,
        },
        Scenario {
            name: "tools/call, 8 in flight, 1-byte reads",
            era: legacy,
            in_flight: 8,
            chunk: 1,
            params: CALL,
            result: CALL_RESULT,
        },
    ];
    println!("## Round trips through a client and a server, {round_trips} each (thread CPU time on Linux)");
    println!();
    println!("| scenario | round trips/s | messages/s | MB/s on the wire | ns per message | allocations per message |");
    println!("|---|---|---|---|---|---|");
    let mut per_message = Vec::new();
    for s in &scenarios {
        let kept = only_exact.as_deref().is_none_or(|o| o == s.name)
            && (only.is_empty() || only.iter().any(|o| s.name.contains(o.as_str())));
        if !kept {
            per_message.push(f64::NAN);
            continue;
        }
        let n = if s.chunk == 1 { round_trips / 10 } else { round_trips };
        let o = run::<8>(s, n);
        let messages = 2 * o.round_trips;
        per_message.push(o.seconds * 1e9 / messages as f64);
        println!(
            "| {} | {:.0} | {:.0} | {:.1} | {:.0} | {} |",
            s.name,
            o.round_trips as f64 / o.seconds,
            messages as f64 / o.seconds,
            o.bytes as f64 / o.seconds / 1e6,
            o.seconds * 1e9 / messages as f64,
            o.allocs as f64 / messages as f64,
        );
        assert_eq!(o.allocs, 0, "{}: the session allocated", s.name);
    }
    println!();
    println!(
        "stateless / handshake tools/call (8 in flight), ns per message in the same run: {:.3}; \
         against the handshake era moving the same bytes: {:.3}",
        per_message[3] / per_message[2],
        per_message[3] / per_message[4]
    );
}
