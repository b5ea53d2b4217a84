//! Stdio round trips: a driver spawns each server command and measures, in one run,
//!
//! * cold start: spawn to the `initialize` result (median of several spawns);
//! * `ping` and `tools/call` (`echo`) round trips per second with 1 and with 32 requests
//!   outstanding, and the p50/p99 latency of each (each phase runs three times, a third
//!   of the time each, and the run with the median rate is reported);
//! * server CPU per round trip: utime+stime from `/proc/<pid>/stat` around each phase,
//!   over the round trips of that phase (all of the server's threads);
//! * peak RSS: `VmHWM` from `/proc/<pid>/status` at the end, and `RssAnon` (heap, stacks,
//!   anonymous maps: the process's own memory, without the pages of shared libraries and
//!   of its executable that RSS also counts).
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
}

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
    }
}

/// The phase REPEATS times for seconds / REPEATS each; the run with the median rate.
fn median_phase(server: &mut Server, kind: Kind, window: usize, seconds: f64, next_id: &mut u64) -> Phase {
    let mut runs: Vec<Phase> =
        (0..REPEATS).map(|_| run_phase(server, kind, window, seconds / REPEATS as f64, next_id)).collect();
    runs.sort_by(|a, b| a.per_second.total_cmp(&b.per_second));
    runs.swap_remove(REPEATS / 2)
}

/// A table row: label, value, whether higher is better, formatting.
type Row = (&'static str, Box<dyn Fn(&Report) -> f64>, bool, fn(f64) -> String);

struct Report {
    name: String,
    cold_ms: f64,
    rss_mib: f64,
    anon_mib: f64,
    phases: Vec<Phase>, // ping@1, ping@32, call@1, call@32
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
    let mut id = 0;
    // Warm up (JITs, caches, allocator pools) before the timed phases.
    run_phase(&mut server, Kind::Ping, WINDOW, seconds / 4.0, &mut id);
    run_phase(&mut server, Kind::Call, WINDOW, seconds / 4.0, &mut id);
    let phases = vec![
        median_phase(&mut server, Kind::Ping, 1, seconds, &mut id),
        median_phase(&mut server, Kind::Ping, WINDOW, seconds, &mut id),
        median_phase(&mut server, Kind::Call, 1, seconds, &mut id),
        median_phase(&mut server, Kind::Call, WINDOW, seconds, &mut id),
    ];
    let rss_mib = status_kb(server.pid(), "VmHWM:").unwrap_or(0) as f64 / 1024.0;
    let anon_mib = status_kb(server.pid(), "RssAnon:").unwrap_or(0) as f64 / 1024.0;
    server.close();
    Report { name: name.to_string(), cold_ms: colds[colds.len() / 2], rss_mib, anon_mib, phases }
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

    let rows: Vec<Row> = vec![
        ("cold start (spawn to initialize result)", Box::new(|r: &Report| r.cold_ms * 1000.0), false, fmt_us),
        ("peak RSS (VmHWM), MiB", Box::new(|r: &Report| r.rss_mib), false, |v| format!("{v:.2}")),
        ("private memory at the end (RssAnon), MiB", Box::new(|r: &Report| r.anon_mib), false, |v| format!("{v:.2}")),
        ("ping/s, 1 outstanding", Box::new(|r: &Report| r.phases[0].per_second), true, fmt_rate),
        ("ping p50 / p99, 1 outstanding", Box::new(|r: &Report| r.phases[0].p50_us), false, fmt_us),
        ("ping/s, 32 outstanding", Box::new(|r: &Report| r.phases[1].per_second), true, fmt_rate),
        ("ping p50, 32 outstanding", Box::new(|r: &Report| r.phases[1].p50_us), false, fmt_us),
        ("ping p99, 32 outstanding", Box::new(|r: &Report| r.phases[1].p99_us), false, fmt_us),
        ("server CPU per ping, 32 outstanding", Box::new(|r: &Report| r.phases[1].cpu_us), false, fmt_us),
        ("server CPU per ping, 1 outstanding", Box::new(|r: &Report| r.phases[0].cpu_us), false, fmt_us),
        ("tools/call/s, 1 outstanding", Box::new(|r: &Report| r.phases[2].per_second), true, fmt_rate),
        ("tools/call p50 / p99, 1 outstanding", Box::new(|r: &Report| r.phases[2].p50_us), false, fmt_us),
        ("tools/call/s, 32 outstanding", Box::new(|r: &Report| r.phases[3].per_second), true, fmt_rate),
        ("tools/call p50, 32 outstanding", Box::new(|r: &Report| r.phases[3].p50_us), false, fmt_us),
        ("tools/call p99, 32 outstanding", Box::new(|r: &Report| r.phases[3].p99_us), false, fmt_us),
        ("server CPU per tools/call, 32 outstanding", Box::new(|r: &Report| r.phases[3].cpu_us), false, fmt_us),
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
    for (label, get, higher_better, fmt) in &rows {
        print!("{label:<42}");
        for r in &reports {
            let mut cell = fmt(get(r));
            if label.contains("p50 / p99") {
                let p99 = if label.starts_with("ping") { r.phases[0].p99_us } else { r.phases[2].p99_us };
                cell = format!("{}/{}", cell, fmt_us(p99));
            }
            print!("{cell:>width$}");
        }
        for r in &reports[1..] {
            let (a, b) = (get(reference), get(r));
            // "better by" factor: >1 means the reference is better on this row.
            let factor = if *higher_better { a / b } else { b / a };
            print!("{:>w$}", format!("{factor:.2}x"), w = width + 4);
        }
        println!();
    }
    println!(
        "\nratio columns: how many times better the first server is on that row (throughput: \
         its rate / theirs; latency, CPU, memory, start: theirs / its). CPU: utime+stime of the \
         server process over the phase's round trips (clock tick {:.0} Hz).",
        clock_ticks()
    );
}
