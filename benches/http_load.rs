//! An HTTP load generator for MCP servers over Streamable HTTP (issue 9, "Targets"): it
//! drives `tools/call` (`echo {"message":"hello"}`) against any server URL and measures,
//! for 1 and for 64 concurrent clients (each client its own keep-alive connection and its
//! own session: initialize + initialized first, DELETE at the end, one request at a time):
//!
//! * calls per second and p50/p99 latency (request written to its JSON-RPC response
//!   complete: the end of a JSON body, or the end of the SSE event carrying it). Each phase
//!   runs three times, a third of the time each, and the run with the median rate is kept;
//! * server CPU per call: utime+stime of the server process (all threads) from
//!   /proc/<pid>/stat around the phase, over the calls of that phase;
//! * peak RSS (VmHWM) once the load phases are over;
//! * memory per idle session: VmRSS before and after opening 10,000 sessions (initialize
//!   and initialized each, then left alone), the difference over the sessions opened.
//!
//! The server decides whether a POST is answered with JSON or with an SSE stream; the form
//! actually seen is reported (`json`, `sse`, or `mixed`).
//!
//! `--era modern` (issue 10, "Targets"): the same `tools/call` in the stateless 2026-07-28
//! era: no session, no initialize; every POST carries the required `params._meta`
//! (protocolVersion 2026-07-28, clientCapabilities {}) and the `MCP-Protocol-Version`,
//! `Mcp-Method` and `Mcp-Name` headers; an answer counts only if it is a 200 result with
//! `resultType` and the echo (every other answer is an error in the row). No idle-session
//! figure (there are no sessions). `--table` pairs each modern row with the legacy row of the
//! same server (the one with the same response form if there is one) and prints
//! modern/legacy rate and CPU per call.
//!
//! Usage (benches/http_roundtrip.sh starts the servers and passes these):
//!
//!     cargo bench --bench http_load -- --url URL --pid PID --name NAME --config CONFIG
//!         [--server DESCRIPTION] [--seconds S] [--clients 1,64] [--idle-sessions N]
//!         [--era legacy|modern] [--out FILE]
//!                               measure one server; append its row to FILE (or print it)
//!     cargo bench --bench http_load -- --missing NAME --config CONFIG --reason TEXT --out FILE
//!                               a row for a server that could not be started
//!     cargo bench --bench http_load -- --table FILE
//!                               print the rows of FILE side by side
//!
//! std only (threads, blocking sockets, its own minimal HTTP/1.1 client: http_load/client.rs).
//! Nothing is asserted; Linux only (reads /proc).

#[path = "http_load/client.rs"]
mod client;
#[path = "http_load/procfs.rs"]
mod procfs;
#[path = "http_load/report.rs"]
mod report;

use std::io::Write as _;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

use client::{Call, Form, Modern, Session, Url};
use report::Row;

const REPEATS: usize = 3;

struct Options {
    url: Url,
    pid: u32,
    name: String,
    config: String,
    server: String,
    seconds: f64,
    clients: Vec<usize>,
    idle_sessions: usize,
    modern: bool,
    out: Option<String>,
}

/// One client of a phase: a legacy session, or a stateless 2026-07-28 caller.
enum Caller {
    Legacy(Session),
    Modern(Modern),
}

impl Caller {
    fn open(url: &Url, modern: bool) -> std::io::Result<Caller> {
        Ok(if modern { Caller::Modern(Modern::new(url)) } else { Caller::Legacy(Session::open(url)?) })
    }

    fn call_echo(&mut self) -> std::io::Result<Call> {
        match self {
            Caller::Legacy(s) => s.call_echo(),
            Caller::Modern(m) => m.call_echo(),
        }
    }

    fn close(self) {
        if let Caller::Legacy(s) = self {
            s.close();
        }
    }
}

/// What one run of one phase measured.
#[derive(Clone, Default)]
struct Phase {
    rate: f64,
    p50_us: f64,
    p99_us: f64,
    cpu_us: f64,
    calls: u64,
    errors: u64,
    json: u64,
    sse: u64,
    first_error: Option<String>,
}

/// `clients` sessions (or modern callers) calling echo back to back for `seconds`.
fn run_phase(url: &Url, pid: u32, clients: usize, seconds: f64, modern: bool) -> Phase {
    let barrier = Arc::new(Barrier::new(clients + 1));
    let stop = Arc::new(AtomicBool::new(false));
    let ready = Arc::new(AtomicUsize::new(0));
    let threads: Vec<_> = (0..clients)
        .map(|_| {
            let (url, barrier, stop, ready) = (url.clone(), barrier.clone(), stop.clone(), ready.clone());
            std::thread::spawn(move || {
                let mut lat: Vec<u32> = Vec::with_capacity(1 << 16);
                let (mut errors, mut json, mut sse) = (0u64, 0u64, 0u64);
                let mut first_error = None;
                let mut session = match Caller::open(&url, modern) {
                    Ok(s) => {
                        ready.fetch_add(1, Ordering::SeqCst);
                        Some(s)
                    }
                    Err(e) => {
                        first_error = Some(format!("opening a session: {e}"));
                        errors += 1;
                        None
                    }
                };
                barrier.wait();
                while !stop.load(Ordering::Relaxed) {
                    let Some(s) = session.as_mut() else {
                        // Retry the session rather than spin on a dead one.
                        std::thread::sleep(Duration::from_millis(50));
                        match Caller::open(&url, modern) {
                            Ok(s) => session = Some(s),
                            Err(e) => {
                                errors += 1;
                                first_error.get_or_insert(format!("opening a session: {e}"));
                            }
                        }
                        continue;
                    };
                    match s.call_echo() {
                        Ok(c) => {
                            lat.push(c.latency.as_micros().min(u32::MAX as u128) as u32);
                            match c.form {
                                Form::Json => json += 1,
                                Form::Sse => sse += 1,
                                Form::Empty => {}
                            }
                        }
                        Err(e) => {
                            errors += 1;
                            first_error.get_or_insert(format!("tools/call: {e}"));
                        }
                    }
                }
                if let Some(s) = session {
                    s.close();
                }
                (lat, errors, json, sse, first_error)
            })
        })
        .collect();
    barrier.wait();
    let cpu0 = procfs::cpu_seconds(pid);
    let start = Instant::now();
    std::thread::sleep(Duration::from_secs_f64(seconds));
    stop.store(true, Ordering::Relaxed);
    let mut lat = Vec::new();
    let mut p = Phase::default();
    let mut elapsed = None;
    for t in threads {
        let (l, e, j, s, fe) = t.join().expect("a client thread panicked");
        // The phase ends when the last in-flight call of the first client returns.
        elapsed.get_or_insert_with(|| start.elapsed());
        lat.extend(l);
        p.errors += e;
        p.json += j;
        p.sse += s;
        if p.first_error.is_none() {
            p.first_error = fe;
        }
    }
    let elapsed = elapsed.unwrap_or_else(|| start.elapsed()).as_secs_f64();
    let cpu = procfs::cpu_seconds(pid) - cpu0;
    lat.sort_unstable();
    let pct = |q: f64| {
        lat.get(((lat.len() as f64 * q) as usize).min(lat.len().saturating_sub(1))).copied().unwrap_or(0) as f64
    };
    p.calls = lat.len() as u64;
    p.rate = p.calls as f64 / elapsed;
    p.p50_us = pct(0.50);
    p.p99_us = pct(0.99);
    // The sessions' opening and DELETE fall outside the window; the CPU window includes
    // the DELETEs (a few per phase), which is noise next to thousands of calls.
    p.cpu_us = cpu * 1e6 / p.calls.max(1) as f64;
    p
}

fn median_phase(o: &Options, clients: usize) -> Phase {
    let mut runs: Vec<Phase> =
        (0..REPEATS).map(|_| run_phase(&o.url, o.pid, clients, o.seconds / REPEATS as f64, o.modern)).collect();
    let errors: u64 = runs.iter().map(|r| r.errors).sum();
    let first_error = runs.iter().find_map(|r| r.first_error.clone());
    runs.sort_by(|a, b| a.rate.total_cmp(&b.rate));
    let mut m = runs.swap_remove(REPEATS / 2);
    m.errors = errors;
    m.first_error = first_error;
    m
}

/// Opens `n` sessions from a few threads (each on one keep-alive connection) and leaves
/// them open; returns how many opened, whether the server kept sessions, and the first error.
fn open_idle_sessions(url: &Url, n: usize) -> (usize, bool, Option<String>) {
    const THREADS: usize = 8;
    let opened = Arc::new(AtomicUsize::new(0));
    let stateful = Arc::new(AtomicBool::new(false));
    let threads: Vec<_> = (0..THREADS)
        .map(|t| {
            let (url, opened, stateful) = (url.clone(), opened.clone(), stateful.clone());
            std::thread::spawn(move || {
                let mut first_error = None;
                let mut conn = Some(client::Conn::new(&url));
                for _ in (t..n).step_by(THREADS) {
                    match Session::open_on(conn.take().unwrap_or_else(|| client::Conn::new(&url))) {
                        Ok(s) => {
                            if s.stateful() {
                                stateful.store(true, Ordering::Relaxed);
                            }
                            opened.fetch_add(1, Ordering::Relaxed);
                            conn = Some(s.into_conn());
                        }
                        Err(e) => {
                            first_error.get_or_insert(e.to_string());
                        }
                    }
                }
                first_error
            })
        })
        .collect();
    let errors: Vec<Option<String>> = threads.into_iter().map(|t| t.join().unwrap_or(None)).collect();
    (opened.load(Ordering::Relaxed), stateful.load(Ordering::Relaxed), errors.into_iter().flatten().next())
}

fn measure(o: &Options) -> Row {
    let mut row = Row::new(&o.name, &o.config);
    row.set("server", &o.server);
    row.set("era", if o.modern { "modern" } else { "legacy" });
    row.set("clients", o.clients.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(","));
    row.set(
        "conditions",
        format!(
            "load generator and server on the same machine ({} CPUs, shared), loopback TCP; each client \
             one thread, one keep-alive connection, one session, one call at a time; {} s per phase \
             (median of {REPEATS} runs of a third each, after a warm-up); memory per idle session over \
             {} sessions",
            std::thread::available_parallelism().map(|n| n.get()).unwrap_or(0),
            o.seconds,
            o.idle_sessions
        ),
    );
    if !procfs::alive(o.pid) {
        row.set("status", format!("failed: no process {}", o.pid));
        return row;
    }
    // Warm up (JITs, allocator pools, connection setup paths).
    let max = o.clients.iter().copied().max().unwrap_or(1);
    let warm = run_phase(&o.url, o.pid, max, o.seconds / 4.0, o.modern);
    if warm.calls == 0 {
        row.set("status", format!("failed: no call succeeded ({})", warm.first_error.unwrap_or_default()));
        return row;
    }
    let (mut json, mut sse) = (0, 0);
    for &c in &o.clients {
        eprintln!("http_load: {}/{}: {c} client(s)", o.name, o.config);
        let p = median_phase(o, c);
        json += p.json;
        sse += p.sse;
        row.set(&format!("c{c}.rate"), format!("{:.1}", p.rate));
        row.set(&format!("c{c}.p50_us"), p.p50_us);
        row.set(&format!("c{c}.p99_us"), p.p99_us);
        row.set(&format!("c{c}.cpu_us"), format!("{:.2}", p.cpu_us));
        row.set(&format!("c{c}.errors"), p.errors);
        if let Some(e) = p.first_error {
            row.set(&format!("c{c}.first_error"), e);
        }
    }
    row.set(
        "form",
        match (json, sse) {
            (_, 0) => "json".to_string(),
            (0, _) => "sse".to_string(),
            (j, s) => format!("mixed: {j} json, {s} sse"),
        },
    );
    if let Some(kb) = procfs::status_kb(o.pid, "VmHWM") {
        row.set("peak_rss_kb", kb);
    }
    if o.modern {
        row.set("sessions", "none (2026-07-28)");
        row.set("idle_per_session_bytes", "n/a (stateless)");
    } else if o.idle_sessions > 0 {
        eprintln!("http_load: {}/{}: {} idle sessions", o.name, o.config, o.idle_sessions);
        let before = procfs::status_kb(o.pid, "VmRSS").unwrap_or(0);
        let (opened, stateful, err) = open_idle_sessions(&o.url, o.idle_sessions);
        std::thread::sleep(Duration::from_millis(500)); // let the server settle its writes
        let after = procfs::status_kb(o.pid, "VmRSS").unwrap_or(0);
        row.set("idle_sessions", format!("{opened}/{}", o.idle_sessions));
        row.set("sessions", if stateful { "stateful" } else { "stateless" });
        if let Some(e) = err {
            row.set("idle_first_error", e);
        }
        if !stateful {
            row.set("idle_per_session_bytes", "n/a (stateless)");
        } else if opened > 0 {
            row.set(
                "idle_per_session_bytes",
                format!("{:.0}", after.saturating_sub(before) as f64 * 1024.0 / opened as f64),
            );
        }
    }
    row.set("status", "ok");
    row
}

fn value(args: &[String], flag: &str) -> Option<String> {
    args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1)).cloned()
}

fn write_row(row: &Row, out: Option<&str>) {
    match out {
        Some(path) => {
            let mut f = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .unwrap_or_else(|e| panic!("cannot open {path}: {e}"));
            writeln!(f, "{}", row.to_line()).expect("cannot write the result row");
        }
        None => println!("{}", row.to_line()),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    if let Some(path) = value(&args, "--table") {
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
        let rows: Vec<Row> = text.lines().filter(|l| !l.trim().is_empty()).map(Row::from_line).collect();
        report::print_table(&rows);
        return;
    }
    let config = value(&args, "--config").unwrap_or_else(|| "default".into());
    if let Some(name) = value(&args, "--missing") {
        let mut row = Row::new(&name, &config);
        row.set("status", value(&args, "--reason").unwrap_or_else(|| "not built yet".into()));
        if let Some(s) = value(&args, "--server") {
            row.set("server", s);
        }
        write_row(&row, value(&args, "--out").as_deref());
        return;
    }
    let Some(url) = value(&args, "--url") else {
        eprintln!(
            "http_load: nothing to do; run benches/http_roundtrip.sh, or\n  cargo bench --bench http_load -- \
             --url http://127.0.0.1:PORT/mcp --pid PID --name NAME [--config C] [--seconds S] [--clients 1,64] \
             [--idle-sessions N] [--out FILE]\n  cargo bench --bench http_load -- --table FILE"
        );
        return;
    };
    let o = Options {
        url: Url::parse(&url).unwrap_or_else(|e| panic!("{e}")),
        pid: value(&args, "--pid").and_then(|p| p.parse().ok()).expect("--pid PID of the server process"),
        name: value(&args, "--name").unwrap_or_else(|| "server".into()),
        config,
        server: value(&args, "--server").unwrap_or_default(),
        seconds: value(&args, "--seconds").and_then(|s| s.parse().ok()).unwrap_or(6.0),
        clients: value(&args, "--clients")
            .unwrap_or_else(|| "1,64".into())
            .split(',')
            .map(|c| c.trim().parse().expect("--clients: numbers separated by commas"))
            .collect(),
        idle_sessions: value(&args, "--idle-sessions").and_then(|s| s.parse().ok()).unwrap_or(10_000),
        modern: match value(&args, "--era").as_deref() {
            None | Some("legacy") => false,
            Some("modern") => true,
            Some(e) => panic!("--era {e}: legacy or modern"),
        },
        out: value(&args, "--out"),
    };
    let row = measure(&o);
    write_row(&row, o.out.as_deref());
    if o.out.is_some() {
        report::print_table(&[row]);
    }
}
