//! One result row per measured server configuration, kept as a line of `key=value` fields
//! (tab-separated) so that several runs of the load generator, one per server, can append
//! to one file and a last run prints them side by side.

use std::collections::BTreeMap;
use std::fmt::Write as _;

/// A measured (or missing) server configuration.
#[derive(Default, Clone)]
pub struct Row {
    fields: BTreeMap<String, String>,
}

impl Row {
    pub fn new(name: &str, config: &str) -> Row {
        let mut r = Row::default();
        r.set("name", name);
        r.set("config", config);
        r
    }

    pub fn set(&mut self, key: &str, value: impl ToString) {
        let v = value.to_string().replace(['\t', '\n', '\r'], " ");
        self.fields.insert(key.to_string(), v);
    }

    pub fn get(&self, key: &str) -> Option<&str> {
        self.fields.get(key).map(String::as_str)
    }

    fn num(&self, key: &str) -> Option<f64> {
        self.get(key)?.parse().ok()
    }

    pub fn to_line(&self) -> String {
        let mut s = String::new();
        for (k, v) in &self.fields {
            if !s.is_empty() {
                s.push('\t');
            }
            let _ = write!(s, "{k}={v}");
        }
        s
    }

    pub fn from_line(line: &str) -> Row {
        let mut r = Row::default();
        for f in line.split('\t') {
            if let Some((k, v)) = f.split_once('=') {
                r.fields.insert(k.to_string(), v.to_string());
            }
        }
        r
    }

    fn label(&self) -> String {
        format!("{}/{}", self.get("name").unwrap_or("?"), self.get("config").unwrap_or("?"))
    }

    fn measured(&self) -> bool {
        self.get("status") == Some("ok")
    }
}

pub fn fmt_rate(v: f64) -> String {
    if v >= 10_000.0 { format!("{:.1}k", v / 1000.0) } else { format!("{v:.0}") }
}

pub fn fmt_us(v: f64) -> String {
    if v >= 10_000.0 {
        format!("{:.0}ms", v / 1000.0)
    } else if v >= 1000.0 {
        format!("{:.1}ms", v / 1000.0)
    } else if v >= 10.0 {
        format!("{v:.0}us")
    } else {
        format!("{v:.1}us")
    }
}

fn fmt_bytes(v: f64) -> String {
    if v >= 1024.0 * 1024.0 {
        format!("{:.1}MiB", v / (1024.0 * 1024.0))
    } else if v >= 1024.0 {
        format!("{:.1}KiB", v / 1024.0)
    } else {
        format!("{v:.0}B")
    }
}

type Cell = fn(&Row) -> String;

/// A table row: its label and how to print a measured server's cell.
type TableRow = (String, Box<dyn Fn(&Row) -> String>);

/// The rows of the table: label, how to print a measured row's cell.
fn table_rows(clients: &[String]) -> Vec<TableRow> {
    let mut rows: Vec<TableRow> = vec![
        ("era".into(), Box::new(|r: &Row| r.get("era").unwrap_or("legacy").to_string())),
        ("response form measured".into(), Box::new(|r: &Row| r.get("form").unwrap_or("?").to_string())),
        ("sessions".into(), Box::new(|r: &Row| r.get("sessions").unwrap_or("?").to_string())),
    ];
    for c in clients {
        let k = c.clone();
        rows.push((
            format!("tools/call/s, {c} client(s)"),
            Box::new(move |r: &Row| r.num(&format!("c{k}.rate")).map(fmt_rate).unwrap_or_default()),
        ));
        let k = c.clone();
        rows.push((
            format!("p50 / p99, {c} client(s)"),
            Box::new(move |r: &Row| match (r.num(&format!("c{k}.p50_us")), r.num(&format!("c{k}.p99_us"))) {
                (Some(a), Some(b)) => format!("{}/{}", fmt_us(a), fmt_us(b)),
                _ => String::new(),
            }),
        ));
        let k = c.clone();
        rows.push((
            format!("server CPU per call, {c} client(s)"),
            Box::new(move |r: &Row| r.num(&format!("c{k}.cpu_us")).map(fmt_us).unwrap_or_default()),
        ));
        let k = c.clone();
        rows.push((
            format!("errors, {c} client(s)"),
            Box::new(move |r: &Row| r.get(&format!("c{k}.errors")).unwrap_or("").to_string()),
        ));
    }
    let fixed: [(&str, Cell); 3] = [
        ("peak RSS after the load (VmHWM)", |r| {
            r.num("peak_rss_kb").map(|v| fmt_bytes(v * 1024.0)).unwrap_or_default()
        }),
        ("memory per idle session", |r| match r.get("idle_per_session_bytes") {
            Some(v) => v.parse().map(fmt_bytes).unwrap_or_else(|_| v.to_string()),
            None => String::new(),
        }),
        ("idle sessions opened", |r| r.get("idle_sessions").unwrap_or("").to_string()),
    ];
    for (label, f) in fixed {
        rows.push((label.to_string(), Box::new(f)));
    }
    rows
}

/// Prints the rows side by side, then ratios of the first server against the others
/// measured with the same configuration, then what could not be measured and why.
pub fn print_table(rows: &[Row]) {
    let clients: Vec<String> =
        rows.iter().find_map(|r| r.get("clients")).unwrap_or("1,64").split(',').map(str::to_string).collect();
    let width = 16;
    let first = 38;
    print!("\n{:<first$}", "Streamable HTTP, tools/call echo");
    for r in rows {
        print!("{:>width$}", r.label());
    }
    println!();
    for (label, cell) in table_rows(&clients) {
        print!("{label:<first$}");
        for r in rows {
            let c = if r.measured() {
                cell(r)
            } else if r.get("status").is_some_and(|s| s.starts_with("not built yet")) {
                "not built yet".to_string()
            } else {
                "FAILED".to_string()
            };
            print!("{c:>width$}");
        }
        println!();
    }

    // Ratios: the first server (the reference) against each other one, same config.
    if let Some(reference) = rows.first() {
        let name = reference.get("name").unwrap_or("");
        let mine: Vec<&Row> = rows.iter().filter(|r| r.get("name") == Some(name)).collect();
        let mut printed = false;
        for m in &mine {
            for o in rows.iter().filter(|r| r.get("name") != Some(name) && r.get("config") == m.get("config")) {
                if !printed {
                    println!(
                        "\nratios, how many times better {name} is (rate: its / theirs; CPU, memory: theirs / its):"
                    );
                    printed = true;
                }
                let mut line = format!("  {} vs {}:", m.label(), o.label());
                if !(m.measured() && o.measured()) {
                    line.push_str(" not available (one of them was not measured)");
                    println!("{line}");
                    continue;
                }
                for c in &clients {
                    if let (Some(a), Some(b)) = (m.num(&format!("c{c}.rate")), o.num(&format!("c{c}.rate"))) {
                        let _ = write!(line, " rate@{c} {:.2}x,", a / b);
                    }
                    if let (Some(a), Some(b)) = (m.num(&format!("c{c}.cpu_us")), o.num(&format!("c{c}.cpu_us"))) {
                        let _ = write!(line, " cpu@{c} {:.2}x,", b / a);
                    }
                }
                if let (Some(a), Some(b)) = (m.num("idle_per_session_bytes"), o.num("idle_per_session_bytes")) {
                    let _ = write!(line, " idle session {:.1}x", b / a);
                }
                println!("{}", line.trim_end_matches(','));
            }
        }
    }

    print_eras(rows, &clients);

    println!();
    for r in rows {
        let status = r.get("status").unwrap_or("?");
        let server = r.get("server").unwrap_or("");
        if r.measured() {
            println!("  {}: {server}", r.label());
        } else {
            println!(
                "  {}: {status}{}",
                r.label(),
                if server.is_empty() { String::new() } else { format!(" ({server})") }
            );
        }
    }
    if let Some(c) = rows.iter().find_map(|r| r.get("conditions")) {
        println!("\nconditions: {c}");
    }
}

/// Each server's 2026-07-28 row against its own legacy row (the one with the same
/// response form, else the first): what the stateless path costs over the handshake one.
fn print_eras(rows: &[Row], clients: &[String]) {
    let mut printed = false;
    for m in rows.iter().filter(|r| r.get("era") == Some("modern")) {
        let legacy: Vec<&Row> =
            rows.iter().filter(|r| r.get("name") == m.get("name") && r.get("era") != Some("modern")).collect();
        let Some(l) = legacy.iter().find(|l| l.get("form") == m.get("form")).or(legacy.first()) else {
            continue;
        };
        if !printed {
            println!(
                "\nmodern/legacy, same server (rate: modern / legacy, below 1: the modern path is slower; \
                 CPU per call: modern / legacy, above 1: it costs more):"
            );
            printed = true;
        }
        let mut line = format!("  {} / {}:", m.label(), l.label());
        if !(m.measured() && l.measured()) {
            line.push_str(" not available (one of them was not measured)");
            println!("{line}");
            continue;
        }
        for c in clients {
            if let (Some(a), Some(b)) = (m.num(&format!("c{c}.rate")), l.num(&format!("c{c}.rate"))) {
                let _ = write!(line, " rate@{c} {:.3},", a / b);
            }
            if let (Some(a), Some(b)) = (m.num(&format!("c{c}.cpu_us")), l.num(&format!("c{c}.cpu_us"))) {
                let _ = write!(line, " cpu@{c} {:.3},", a / b);
            }
        }
        if m.get("form") != l.get("form") {
            let _ =
                write!(line, " (forms differ: {} vs {})", m.get("form").unwrap_or("?"), l.get("form").unwrap_or("?"));
        }
        println!("{}", line.trim_end_matches(','));
    }
}
