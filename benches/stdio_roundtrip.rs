//! Stdio round trips: a driver spawns each server command and measures, in one run,
//!
//! * cold start: spawn to the `initialize` result (median of several spawns);
//! * `ping` and `tools/call` (`echo`) round trips per second with 1 and with 32 requests
//!   outstanding, and the p50/p99 latency of each (each phase runs three times, a third
//!   of the time each, and the run with the median rate is reported);
//! * the same `tools/call` in the stateless 2026-07-28 era (issue 10, "Targets"): a second
//!   process of the same server that is never sent `initialize` gets `tools/call` requests
//!   whose `params._meta` carries `io.modelcontextprotocol/protocolVersion: "2026-07-28"`
//!   and `io.modelcontextprotocol/clientCapabilities: {}`, at 1 and 32 outstanding. The
//!   legacy and modern runs alternate (legacy, modern, legacy, ...) so both see the same
//!   machine, and a modern/legacy ratio row per server gives what the per-request `_meta`
//!   validation costs. A server whose answer to a first modern request is not a result with
//!   `resultType` (an error, a legacy-shaped result, silence for 5 s, a closed pipe) shows
//!   "n/a" in the modern rows;
//! * errors: answers that are JSON-RPC errors, or results without the echoed "hello", per
//!   tools/call phase (a phase where every answer is an error measures nothing);
//! * server CPU per round trip: utime+stime from `/proc/<pid>/stat` around each phase,
//!   over the round trips of that phase (all of the server's threads);
//! * peak RSS: `VmHWM` from `/proc/<pid>/status` at the end, and `RssAnon` (heap, stacks,
//!   anonymous maps: the process's own memory, without the pages of shared libraries and
//!   of its executable that RSS also counts), and `RssFile` (the file-backed pages: the
//!   executable's and the shared libraries' text and read-only data the process touched,
//!   which the page cache maps in whole fault-around windows, so it follows `.text` size).
//!
//! Usage (benches/stdio_roundtrip.sh builds and installs everything and passes these):
//!
//!     cargo bench --bench stdio_roundtrip -- [--seconds S] NAME=COMMAND [NAME=COMMAND...]
//!
//! COMMAND is split on spaces. The first server is the reference of the ratio table.
//! Nothing is asserted: the figures are reported. Linux only (reads /proc).

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

const WINDOW: usize = 32;
const COLD_STARTS: usize = 7;
const REPEATS: usize = 3;

const INIT: &str = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"stdio-roundtrip","version":"0.1.0"}}}"#;
const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Ping,
    Call,
    /// `tools/call` with the 2026-07-28 `_meta`, to a server never sent `initialize`.
    ModernCall,
}

/// The required `_meta` of a 2026-07-28 request (spec notes §8): the version and the
/// client's capabilities; nothing optional, so the figure is the minimum a modern
/// request costs over a legacy one.
const MODERN_META: &[u8] = br#","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

fn request(kind: Kind, id: u64, out: &mut Vec<u8>) {
    match kind {
        Kind::Ping => {
            out.extend_from_slice(br#"{"jsonrpc":"2.0","id":"#);
            out.extend_from_slice(id.to_string().as_bytes());
            out.extend_from_slice(b",\"method\":\"ping\"}\n");
        }
        Kind::Call => {
            out.extend_from_slice(br#"{"jsonrpc":"2.0","id":"#);
            out.extend_from_slice(id.to_string().as_bytes());
            out.extend_from_slice(
                b",\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"message\":\"hello\"}}}\n",
            );
        }
        Kind::ModernCall => {
            out.extend_from_slice(br#"{"jsonrpc":"2.0","id":"#);
            out.extend_from_slice(id.to_string().as_bytes());
            out.extend_from_slice(br#","method":"tools/call","params":{"name":"echo","arguments":{"message":"hello"}"#);
            out.extend_from_slice(MODERN_META);
            out.extend_from_slice(b"}}\n");
        }
    }
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

/// Whether a response line is a good answer: a result (for tools/call, one that echoes
/// "hello": the text ends with the message, "hello" or "Echo: hello"), not an error.
fn answered(kind: Kind, line: &[u8]) -> bool {
    if !contains(line, b"\"result\":") {
        return false;
    }
    match kind {
        Kind::Ping => true,
        Kind::Call => contains(line, b"hello\""),
        Kind::ModernCall => contains(line, b"hello\"") && contains(line, b"\"resultType\""),
    }
}

/// The numeric id of a response line (`"id":N` outside any string we send back), or
/// None for notifications and server requests.
fn response_id(line: &[u8]) -> Option<u64> {
    if line.windows(9).any(|w| w == b"\"method\":") {
        return None;
    }
    let at = line.windows(5).position(|w| w == b"\"id\":")? + 5;
    let digits: &[u8] = &line[at..];
    let digits = &digits[..digits.iter().position(|b| !b.is_ascii_digit()).unwrap_or(digits.len())];
    std::str::from_utf8(digits).ok()?.parse().ok()
}

struct Server {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Server {
    fn spawn(command: &[String]) -> Server {
        let mut child = Command::new(&command[0])
            .args(&command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot spawn {command:?}: {e}"));
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::with_capacity(256 * 1024, child.stdout.take().unwrap());
        Server { child, stdin, stdout }
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends initialize and waits for its result; returns the time taken.
    fn initialize(&mut self) -> Duration {
        let t = Instant::now();
        writeln!(self.stdin, "{INIT}").unwrap();
        self.stdin.flush().unwrap();
        let mut line = Vec::new();
        loop {
            line.clear();
            if self.stdout.read_until(b'\n', &mut line).unwrap() == 0 {
                panic!("server closed its stdout before answering initialize");
            }
            if response_id(&line) == Some(0) {
                break;
            }
        }
        let took = t.elapsed();
        writeln!(self.stdin, "{INITIALIZED}").unwrap();
        self.stdin.flush().unwrap();
        took
    }

    /// Sends one modern `tools/call` (id 0) to a server that was never initialized and
    /// waits up to 5 s for its answer: Ok if it is a 2026-07-28 result, Err with what came
    /// back otherwise (the server is then left to `close`).
    fn probe_modern(&mut self) -> Result<(), String> {
        let mut out = Vec::new();
        request(Kind::ModernCall, 0, &mut out);
        self.stdin.write_all(&out).map_err(|e| format!("cannot write: {e}"))?;
        self.stdin.flush().map_err(|e| format!("cannot write: {e}"))?;
        // A watchdog: a server that ignores the request is killed, which ends the read.
        let (done_tx, done_rx) = std::sync::mpsc::channel::<()>();
        let pid = self.pid() as libc::pid_t;
        let watchdog = std::thread::spawn(move || {
            if done_rx.recv_timeout(Duration::from_secs(5)).is_err() {
                // SAFETY: kill has no memory preconditions; pid is our own child, not yet reaped.
                unsafe { libc::kill(pid, libc::SIGKILL) };
                return true;
            }
            false
        });
        let mut line = Vec::new();
        let answer = loop {
            line.clear();
            match self.stdout.read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => break None,
                Ok(_) if response_id(&line) == Some(0) => break Some(line),
                Ok(_) => {}
            }
        };
        let _ = done_tx.send(());
        let killed = watchdog.join().unwrap_or(false);
        match answer {
            Some(l) if answered(Kind::ModernCall, &l) => Ok(()),
            Some(l) => Err(format!("answered {}", String::from_utf8_lossy(&l).trim_end())),
            None if killed => Err("no answer within 5 s".into()),
            None => Err("closed its stdout without answering".into()),
        }
    }

    fn close(mut self) {
        drop(self.stdin);
        let mut rest = Vec::new();
        let _ = self.stdout.read_to_end(&mut rest);
        let until = Instant::now() + Duration::from_secs(3);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// utime + stime of a process, in seconds.
fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // Fields after the command name, which is in parentheses and may contain spaces.
    let rest = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // rest starts at field 3 (state); utime is field 14, stime 15.
    let ticks: u64 = fields.get(11).and_then(|v| v.parse().ok()).unwrap_or(0)
        + fields.get(12).and_then(|v| v.parse().ok()).unwrap_or(0);
    ticks as f64 / clock_ticks()
}

fn clock_ticks() -> f64 {
    // SAFETY: sysconf has no preconditions.
    let t = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if t > 0 { t as f64 } else { 100.0 }
}

/// A field of /proc/<pid>/status in kB.
fn status_kb(pid: u32, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[derive(Default, Clone)]
struct Phase {
    per_second: f64,
    p50_us: f64,
    p99_us: f64,
    cpu_us: f64,
    /// Answers that were errors, or results without the echo (see `answered`).
    errors: u64,
}

/// Send times of the requests in flight, by id modulo the slot count (ids are
/// sequential, so a slot is reused only after SLOTS newer requests: never while in flight
/// with at most WINDOW outstanding, unless a server sits on one request for that long,
/// which the id check catches).
const SLOTS: usize = 1 << 14;

/// Round trips of `kind` with `window` outstanding for `seconds`.
fn run_phase(server: &mut Server, kind: Kind, window: usize, seconds: f64, next_id: &mut u64) -> Phase {
    let pid = server.pid();
    let mut slots: Vec<(u64, Option<Instant>)> = vec![(0, None); SLOTS];
    let mut in_flight = 0usize;
    let mut latencies: Vec<u32> = Vec::with_capacity(1 << 20);
    let mut out = Vec::with_capacity(WINDOW * 160);
    let mut line = Vec::with_capacity(512);
    let cpu0 = cpu_seconds(pid);
    let start = Instant::now();
    let until = start + Duration::from_secs_f64(seconds);
    let mut done = 0u64;
    let mut errors = 0u64;
    let mut sending = true;
    loop {
        if sending && in_flight < window {
            out.clear();
            let now = Instant::now();
            while in_flight < window {
                *next_id += 1;
                request(kind, *next_id, &mut out);
                let slot = &mut slots[*next_id as usize % SLOTS];
                assert!(slot.1.is_none(), "request {} still in flight after {SLOTS} newer ones", slot.0);
                *slot = (*next_id, Some(now));
                in_flight += 1;
            }
            server.stdin.write_all(&out).unwrap();
            server.stdin.flush().unwrap();
        }
        if in_flight == 0 {
            break;
        }
        // Read every complete line that is already buffered, at least one.
        loop {
            line.clear();
            if server.stdout.read_until(b'\n', &mut line).unwrap() == 0 {
                panic!("server closed its stdout mid-run");
            }
            if let Some(id) = response_id(&line) {
                let slot = &mut slots[id as usize % SLOTS];
                if slot.0 == id
                    && let Some(t) = slot.1.take()
                {
                    latencies.push(t.elapsed().as_micros().min(u32::MAX as u128) as u32);
                    in_flight -= 1;
                    done += 1;
                    if !answered(kind, &line) {
                        errors += 1;
                    }
                }
            }
            if !server.stdout.buffer().contains(&b'\n') {
                break;
            }
        }
        if sending && Instant::now() >= until {
            sending = false;
        }
    }
    let elapsed = start.elapsed().as_secs_f64();
    let cpu = cpu_seconds(pid) - cpu0;
    latencies.sort_unstable();
    let pct = |p: f64| {
        latencies
            .get(((latencies.len() as f64 * p) as usize).min(latencies.len().saturating_sub(1)))
            .copied()
            .unwrap_or(0) as f64
    };
    Phase {
        per_second: done as f64 / elapsed,
        p50_us: pct(0.50),
        p99_us: pct(0.99),
        cpu_us: cpu * 1e6 / done.max(1) as f64,
        errors,
    }
}

/// The run with the median rate, carrying the errors of all the runs.
fn median(mut runs: Vec<Phase>) -> Phase {
    let errors = runs.iter().map(|r| r.errors).sum();
    runs.sort_by(|a, b| a.per_second.total_cmp(&b.per_second));
    let mut m = runs.swap_remove(runs.len() / 2);
    m.errors = errors;
    m
}

/// The phase REPEATS times for seconds / REPEATS each; the run with the median rate.
fn median_phase(server: &mut Server, kind: Kind, window: usize, seconds: f64, next_id: &mut u64) -> Phase {
    median((0..REPEATS).map(|_| run_phase(server, kind, window, seconds / REPEATS as f64, next_id)).collect())
}

/// Legacy and modern `tools/call` at `window` outstanding, their runs alternating (so that
/// a change in the machine's load falls on both); the median run of each.
fn era_phases(
    legacy: &mut Server,
    modern: Option<&mut Server>,
    window: usize,
    seconds: f64,
    ids: (&mut u64, &mut u64),
) -> (Phase, Option<Phase>) {
    let run = seconds / REPEATS as f64;
    let (mut l, mut m) = (Vec::new(), Vec::new());
    let mut modern = modern;
    for _ in 0..REPEATS {
        l.push(run_phase(legacy, Kind::Call, window, run, ids.0));
        if let Some(s) = modern.as_deref_mut() {
            m.push(run_phase(s, Kind::ModernCall, window, run, ids.1));
        }
    }
    (median(l), (!m.is_empty()).then(|| median(m)))
}

/// A table row: label, value (None: not measured, "n/a"), whether higher is better,
/// formatting, and whether the row gets ratio columns (not for ratios themselves).
/// A figure of a report, None where it was not measured.
type Getter = Box<dyn Fn(&Report) -> Option<f64>>;

struct Row {
    label: &'static str,
    get: Getter,
    higher_better: bool,
    fmt: fn(f64) -> String,
    compare: bool,
}

fn row(
    label: &'static str,
    get: impl Fn(&Report) -> Option<f64> + 'static,
    higher_better: bool,
    fmt: fn(f64) -> String,
) -> Row {
    Row { label, get: Box::new(get), higher_better, fmt, compare: true }
}

struct Report {
    name: String,
    cold_ms: f64,
    rss_mib: f64,
    anon_mib: f64,
    file_mib: f64,
    phases: Vec<Phase>, // ping@1, ping@32, call@1, call@32
    /// Modern tools/call @1, @32, or why the server could not be measured in that era.
    modern: Result<[Phase; 2], String>,
}

impl Report {
    fn modern(&self, i: usize) -> Option<&Phase> {
        self.modern.as_ref().ok().map(|m| &m[i])
    }
}

fn measure(name: &str, command: &[String], seconds: f64) -> Report {
    eprintln!("stdio_roundtrip: {name}: {}", command.join(" "));
    let mut colds: Vec<f64> = (0..COLD_STARTS)
        .map(|_| {
            let t = Instant::now();
            let mut s = Server::spawn(command);
            s.initialize();
            let took = t.elapsed().as_secs_f64() * 1e3;
            s.close();
            took
        })
        .collect();
    colds.sort_by(f64::total_cmp);
    let mut server = Server::spawn(command);
    server.initialize();
    // The modern era's process: never initialized, probed with one modern tools/call.
    let mut modern = Server::spawn(command);
    let modern = match modern.probe_modern() {
        Ok(()) => Ok(modern),
        Err(why) => {
            eprintln!("stdio_roundtrip: {name}: no 2026-07-28 tools/call: {why}");
            modern.close();
            Err(why)
        }
    };
    let mut modern = modern;
    let (mut id, mut modern_id) = (0, 0);
    // Warm up (JITs, caches, allocator pools) before the timed phases.
    run_phase(&mut server, Kind::Ping, WINDOW, seconds / 4.0, &mut id);
    run_phase(&mut server, Kind::Call, WINDOW, seconds / 4.0, &mut id);
    if let Ok(m) = modern.as_mut() {
        run_phase(m, Kind::ModernCall, WINDOW, seconds / 4.0, &mut modern_id);
    }
    let ping1 = median_phase(&mut server, Kind::Ping, 1, seconds, &mut id);
    let ping32 = median_phase(&mut server, Kind::Ping, WINDOW, seconds, &mut id);
    let (call1, modern1) = era_phases(&mut server, modern.as_mut().ok(), 1, seconds, (&mut id, &mut modern_id));
    let (call32, modern32) = era_phases(&mut server, modern.as_mut().ok(), WINDOW, seconds, (&mut id, &mut modern_id));
    let rss_mib = status_kb(server.pid(), "VmHWM:").unwrap_or(0) as f64 / 1024.0;
    let anon_mib = status_kb(server.pid(), "RssAnon:").unwrap_or(0) as f64 / 1024.0;
    let file_mib = status_kb(server.pid(), "RssFile:").unwrap_or(0) as f64 / 1024.0;
    server.close();
    let modern = match (modern, modern1, modern32) {
        (Ok(m), Some(a), Some(b)) => {
            m.close();
            Ok([a, b])
        }
        (Ok(m), _, _) => {
            m.close();
            Err("not measured".into())
        }
        (Err(why), _, _) => Err(why),
    };
    Report {
        name: name.to_string(),
        cold_ms: colds[colds.len() / 2],
        rss_mib,
        anon_mib,
        file_mib,
        phases: vec![ping1, ping32, call1, call32],
        modern,
    }
}

fn fmt_rate(v: f64) -> String {
    if v >= 10_000.0 { format!("{:.0}k", v / 1000.0) } else { format!("{v:.0}") }
}

fn fmt_us(v: f64) -> String {
    if v >= 1000.0 {
        format!("{:.1}ms", v / 1000.0)
    } else if v >= 10.0 {
        format!("{v:.0}us")
    } else {
        format!("{v:.1}us")
    }
}

fn fmt_ratio(v: f64) -> String {
    format!("{v:.3}")
}

fn fmt_count(v: f64) -> String {
    format!("{v:.0}")
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).filter(|a| a != "--bench").collect();
    let mut seconds = 2.0;
    if let Some(i) = args.iter().position(|a| a == "--seconds") {
        seconds = args.get(i + 1).and_then(|s| s.parse().ok()).expect("--seconds S");
        args.drain(i..i + 2);
    }
    let servers: Vec<(String, Vec<String>)> = args
        .iter()
        .filter_map(|a| a.split_once('='))
        .map(|(n, c)| (n.to_string(), c.split(' ').filter(|s| !s.is_empty()).map(String::from).collect()))
        .collect();
    if servers.is_empty() {
        eprintln!(
            "stdio_roundtrip: no servers given; run benches/stdio_roundtrip.sh, or\n  \
             cargo bench --bench stdio_roundtrip -- [--seconds S] NAME=COMMAND ..."
        );
        return;
    }
    let reports: Vec<Report> = servers.iter().map(|(n, c)| measure(n, c, seconds)).collect();

    let p = |i: usize, f: fn(&Phase) -> f64| move |r: &Report| Some(f(&r.phases[i]));
    let m = |i: usize, f: fn(&Phase) -> f64| move |r: &Report| r.modern(i).map(f);
    // modern / legacy of one figure of the same server (the legacy call phases are 2, 3).
    let era = |i: usize, f: fn(&Phase) -> f64| move |r: &Report| r.modern(i).map(|m| f(m) / f(&r.phases[2 + i]));
    let ratio = |label, get, higher_better| Row { compare: false, ..row(label, get, higher_better, fmt_ratio) };
    let rate = |p: &Phase| p.per_second;
    let p50 = |p: &Phase| p.p50_us;
    let p99 = |p: &Phase| p.p99_us;
    let cpu = |p: &Phase| p.cpu_us;
    let errors = |p: &Phase| p.errors as f64;
    let rows: Vec<Row> = vec![
        row("cold start (spawn to initialize result)", |r: &Report| Some(r.cold_ms * 1000.0), false, fmt_us),
        row("peak RSS (VmHWM), MiB", |r: &Report| Some(r.rss_mib), false, |v| format!("{v:.2}")),
        row("private memory at the end (RssAnon), MiB", |r: &Report| Some(r.anon_mib), false, |v| format!("{v:.2}")),
        row("file-backed pages at the end (RssFile), MiB", |r: &Report| Some(r.file_mib), false, |v| format!("{v:.2}")),
        row("ping/s, 1 outstanding", p(0, rate), true, fmt_rate),
        row("ping p50 / p99, 1 outstanding", p(0, p50), false, fmt_us),
        row("ping/s, 32 outstanding", p(1, rate), true, fmt_rate),
        row("ping p50, 32 outstanding", p(1, p50), false, fmt_us),
        row("ping p99, 32 outstanding", p(1, p99), false, fmt_us),
        row("server CPU per ping, 32 outstanding", p(1, cpu), false, fmt_us),
        row("server CPU per ping, 1 outstanding", p(0, cpu), false, fmt_us),
        row("tools/call/s, 1 outstanding", p(2, rate), true, fmt_rate),
        row("tools/call p50 / p99, 1 outstanding", p(2, p50), false, fmt_us),
        row("tools/call/s, 32 outstanding", p(3, rate), true, fmt_rate),
        row("tools/call p50, 32 outstanding", p(3, p50), false, fmt_us),
        row("tools/call p99, 32 outstanding", p(3, p99), false, fmt_us),
        row("server CPU per tools/call, 32 outstanding", p(3, cpu), false, fmt_us),
        row("server CPU per tools/call, 1 outstanding", p(2, cpu), false, fmt_us),
        row("tools/call errors, 1 / 32 outstanding", p(2, errors), false, fmt_count),
        row("modern tools/call/s, 1 outstanding", m(0, rate), true, fmt_rate),
        row("modern tools/call p50 / p99, 1 outst.", m(0, p50), false, fmt_us),
        row("modern tools/call/s, 32 outstanding", m(1, rate), true, fmt_rate),
        row("modern tools/call p50, 32 outstanding", m(1, p50), false, fmt_us),
        row("modern tools/call p99, 32 outstanding", m(1, p99), false, fmt_us),
        row("server CPU per modern call, 32 outst.", m(1, cpu), false, fmt_us),
        row("server CPU per modern call, 1 outst.", m(0, cpu), false, fmt_us),
        row("modern tools/call errors, 1 / 32 outst.", m(0, errors), false, fmt_count),
        ratio("modern/legacy calls/s, 1 outstanding", Box::new(era(0, rate)), true),
        ratio("modern/legacy calls/s, 32 outstanding", Box::new(era(1, rate)), true),
        ratio("modern/legacy CPU per call, 1 outst.", Box::new(era(0, cpu)), false),
        ratio("modern/legacy CPU per call, 32 outst.", Box::new(era(1, cpu)), false),
    ];
    let reference = &reports[0];
    let width = 12;
    print!("\n{:<42}", format!("stdio round trips, {seconds} s per phase"));
    for r in &reports {
        print!("{:>w$}", r.name, w = width);
    }
    for r in &reports[1..] {
        print!("{:>w$}", format!("{}/{}", reference.name, r.name), w = width + 4);
    }
    println!();
    for Row { label, get, higher_better, fmt, compare } in &rows {
        print!("{label:<42}");
        for r in &reports {
            let mut cell = get(r).map(fmt).unwrap_or_else(|| "n/a".into());
            // The second figure of a pair: the p99 of the same phase, the errors at 32.
            let second = |phase: Option<&Phase>, f: fn(&Phase) -> String| phase.map(f).unwrap_or_default();
            if label.contains("p50 / p99") {
                let phase = if label.starts_with("ping") {
                    Some(&r.phases[0])
                } else if label.starts_with("modern") {
                    r.modern(0)
                } else {
                    Some(&r.phases[2])
                };
                if phase.is_some() {
                    cell = format!("{}/{}", cell, second(phase, |p| fmt_us(p.p99_us)));
                }
            } else if label.contains("errors") {
                let phase = if label.starts_with("modern") { r.modern(1) } else { Some(&r.phases[3]) };
                if phase.is_some() {
                    cell = format!("{}/{}", cell, second(phase, |p| p.errors.to_string()));
                }
            }
            print!("{cell:>width$}");
        }
        for r in &reports[1..] {
            let cell = match (get(reference), get(r)) {
                // "better by" factor: >1 means the reference is better on this row.
                (Some(a), Some(b)) if *compare && !label.contains("errors") => {
                    format!("{:.2}x", if *higher_better { a / b } else { b / a })
                }
                _ => String::new(),
            };
            print!("{cell:>w$}", w = width + 4);
        }
        println!();
    }
    for r in &reports {
        if let Err(why) = &r.modern {
            println!("  {}: modern rows n/a: {why}", r.name);
        }
    }
    println!(
        "\nratio columns: how many times better the first server is on that row (throughput: \
         its rate / theirs; latency, CPU, memory, start: theirs / its). modern/legacy rows: the \
         same server's stateless 2026-07-28 tools/call (a process never initialized, the \
         required _meta on every request) over its legacy one, runs alternating (calls/s below \
         1 and CPU above 1: the modern path costs more). errors: answers that were errors or \
         lacked the echo (modern: or resultType), over all runs of the phase. CPU: utime+stime \
         of the server process over the phase's round trips (clock tick {:.0} Hz).",
        clock_ticks()
    );
}
