//! Differential testing against serde_json (issue 2, "Checks it ships with").
//!
//! A deterministic, seeded generator writes JSON texts, JSON-RPC-like messages and batches
//! (with whitespace, escapes, odd number forms, duplicate and escaped member names, deep
//! nesting), then mutates most of them: bit flips, byte edits, insertions, deletions,
//! duplicated ranges, truncation, and splices of tricky tokens (`\ud83d`, `01`, `1.`, `,]`,
//! control characters, invalid UTF-8, a BOM…).
//!
//! (a) `validate` must accept exactly what `serde_json::from_slice::<Value>` accepts.
//! (b) For every accepted frame, `Frame::parse` must classify it exactly as an oracle built
//!     on serde_json does: kind, id token (and its integer/string meaning), method after
//!     unescaping, params/result object-ness and bytes, error code/message/data, and for
//!     rejections the rule, the readable id and the shape. Duplicate envelope members are
//!     found by a streaming serde_json map visitor (a `Value` keeps only the last one).
//!     Rejected frames must be reported as `Rule::Json` with the scanner's exact error.
//!     Every accepted text is also rebuilt through `RawJson`'s navigation (`members`,
//!     `get`, `elements`, `as_str`) and must equal serde_json's `Value`.
//!
//! Known, legitimate differences, handled explicitly (see `serde_verdict`):
//! * serde_json's `Value` rejects numbers outside f64's range (`1e400`, 400-digit integers)
//!   with "number out of range"; RFC 8259 allows them and so does the scanner. When
//!   serde_json says so, the test checks that the token at the reported position is a
//!   well-formed JSON number whose f64 value is infinite, replaces it with `null`, and asks
//!   serde_json again. Such inputs are counted ("f64-range substitutions").
//! * serde_json's recursion limit lets 127 arrays/objects be open and refuses the 128th
//!   (checked in `serde_json_behaves_as_assumed`); the scanner's cap is configurable, so
//!   the comparison runs with `ScanConfig::with_max_depth(127)`. Nothing is excluded for
//!   depth; inputs reaching the limit are counted.
//!
//! Everything else about serde_json that the comparison relies on (it rejects lone
//! surrogates, control characters, invalid UTF-8 in strings, a BOM) is asserted below.
//!
//! `MCP_DIFF_CASES` sets the number of inputs (default 300000), `MCP_DIFF_SEED` the seed.

use std::collections::BTreeMap;

use mcp_sansio::wire::{
    EnvelopeError, Frame, IdKind, Member, Message, ParseOptions, Rule, ScanConfig, ScanError, ScanErrorKind, Shape,
    validate,
};
use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::Value;
use serde_json::value::RawValue;

/// serde_json allows this many open arrays and objects.
const SERDE_DEPTH: u16 = 127;

// ---------------------------------------------------------------------------------------
// Deterministic generation.
// ---------------------------------------------------------------------------------------

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // splitmix64
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    /// True with probability `percent`/100.
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

struct Gen {
    rng: Rng,
}

const WORDS: &[&str] = &["a", "id", "name", "tools", "x y", "Ünï", "ping", "_meta", "0", ""];
const METHODS: &[&str] = &[
    r#""initialize""#,
    r#""tools/call""#,
    r#""tools\/call""#,
    r#""\u0074ools/list""#,
    r#""notifications/progress""#,
    r#""ping""#,
    r#""""#,
    r#""caf\u00e9 \ud83d\ude00""#,
];

impl Gen {
    fn ws(&mut self, out: &mut Vec<u8>) {
        if self.rng.chance(12) {
            for _ in 0..=self.rng.below(3) {
                out.push(*self.rng.pick(b" \t\n\r"));
            }
        }
    }

    fn string(&mut self, out: &mut Vec<u8>) {
        if self.rng.chance(20) {
            return self.long_string(out);
        }
        out.push(b'"');
        for _ in 0..self.rng.below(6) {
            match self.rng.below(10) {
                0 => {
                    out.extend(*self.rng.pick(&[&b"\\\""[..], b"\\\\", b"\\/", b"\\b", b"\\f", b"\\n", b"\\r", b"\\t"]))
                }
                1 => {
                    // A BMP escape that is not a surrogate, in either case.
                    let mut unit = self.rng.below(0x1_0000) as u32;
                    if (0xD800..0xE000).contains(&unit) {
                        unit = self.rng.below(0x80) as u32;
                    }
                    let esc = if self.rng.chance(50) { format!("\\u{unit:04x}") } else { format!("\\u{unit:04X}") };
                    out.extend(esc.as_bytes());
                }
                2 => {
                    let c = char::from_u32(0x1_0000 + self.rng.below(0x10_0000) as u32).unwrap();
                    let mut units = [0u16; 2];
                    for u in c.encode_utf16(&mut units) {
                        out.extend(format!("\\u{u:04x}").as_bytes());
                    }
                }
                3 => out.extend(
                    self.rng.pick(&["é", "€", "😀", "\u{7f}", "\u{ffff}", "\u{10ffff}", "\u{2028}"]).as_bytes(),
                ),
                _ => out.extend(self.rng.pick(WORDS).as_bytes()),
            }
        }
        out.push(b'"');
    }

    /// A string long enough for the scanner's 8- and 16-byte steps: plain runs whose
    /// lengths straddle those widths, with escapes (quotes and runs of backslashes among
    /// them), multi-byte characters and surrogate pairs placed across the boundaries.
    fn long_string(&mut self, out: &mut Vec<u8>) {
        const SPECIAL: &[&[u8]] = &[
            b"\\\"",
            b"\\\\",
            b"\\\\\\\"",
            b"\\\\\\\\",
            b"\\n",
            b"\\/",
            b"\\u00e9",
            b"\\ud83d\\ude00",
            "é".as_bytes(),
            "東京".as_bytes(),
            "😀".as_bytes(),
            "\u{7ff}\u{800}\u{ffff}\u{10000}".as_bytes(),
        ];
        out.push(b'"');
        for _ in 0..=self.rng.below(6) {
            let width = *self.rng.pick(&[7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65]);
            let run = width - self.rng.below(3);
            for k in 0..run {
                out.push(b"abcdefghijklmnopqrstuvwxyz 0123456789"[(k * 7 + run) % 37]);
            }
            if self.rng.chance(80) {
                out.extend(*self.rng.pick(SPECIAL));
            }
        }
        out.push(b'"');
    }

    fn number(&mut self, out: &mut Vec<u8>) {
        let text = match self.rng.below(12) {
            0 => "0".to_string(),
            1 => "-0".to_string(),
            2 => (self.rng.next() as i64).to_string(),
            3 => self.rng.next().to_string(),
            4 => (self.rng.below(1000) as i64 - 500).to_string(),
            5 => {
                // Far past 64 bits, sometimes past f64's range.
                let spread = if self.rng.chance(10) { 400 } else { 40 };
                let digits = 20 + self.rng.below(spread);
                let mut s = if self.rng.chance(50) { "-".to_string() } else { String::new() };
                s.push((b'1' + self.rng.below(9) as u8) as char);
                for _ in 1..digits {
                    s.push((b'0' + self.rng.below(10) as u8) as char);
                }
                s
            }
            6 => format!("{}.{}", self.rng.below(100), self.rng.below(1000)),
            7 => {
                let e = *self.rng.pick(&["e", "E", "e+", "E-", "e-"]);
                let spread = if self.rng.chance(10) { 500 } else { 30 };
                format!("{}{e}{}", self.rng.below(10), self.rng.below(spread))
            }
            8 => format!("-{}.{:03}e{}", self.rng.below(10), self.rng.below(1000), self.rng.below(320)),
            9 => self.rng.pick(&["1.7976931348623157e308", "1.7976931348623159e308", "5e-324", "1e-400"]).to_string(),
            _ => self.rng.below(100).to_string(),
        };
        out.extend(text.as_bytes());
    }

    fn value(&mut self, out: &mut Vec<u8>, depth: usize) {
        let choice = if depth == 0 { self.rng.below(6) } else { self.rng.below(9) };
        match choice {
            0 | 1 => self.string(out),
            2 | 3 => self.number(out),
            4 => out.extend(*self.rng.pick(&[&b"true"[..], b"false"])),
            5 => out.extend(b"null"),
            6 | 7 => self.object(out, depth - 1),
            _ => self.array(out, depth - 1),
        }
    }

    fn array(&mut self, out: &mut Vec<u8>, depth: usize) {
        out.push(b'[');
        self.ws(out);
        for i in 0..self.rng.below(5) {
            if i > 0 {
                out.push(b',');
            }
            self.ws(out);
            self.value(out, depth);
            self.ws(out);
        }
        out.push(b']');
    }

    fn object(&mut self, out: &mut Vec<u8>, depth: usize) {
        out.push(b'{');
        self.ws(out);
        for i in 0..self.rng.below(5) {
            if i > 0 {
                out.push(b',');
            }
            self.ws(out);
            if self.rng.chance(30) {
                let name = self.rng.pick(&["code", "message", "data", "id", "method"]).to_string();
                self.key(out, name);
            } else {
                self.string(out);
            }
            self.ws(out);
            out.push(b':');
            self.ws(out);
            self.value(out, depth);
            self.ws(out);
        }
        out.push(b'}');
    }

    /// A member name, sometimes with one character written as a `\u` escape.
    fn key(&mut self, out: &mut Vec<u8>, name: String) {
        out.push(b'"');
        let chars: Vec<char> = name.chars().collect();
        let escaped = if self.rng.chance(8) && !chars.is_empty() { Some(self.rng.below(chars.len())) } else { None };
        for (i, c) in chars.iter().enumerate() {
            if Some(i) == escaped {
                out.extend(format!("\\u{:04x}", *c as u32).as_bytes());
            } else {
                out.extend(c.to_string().as_bytes());
            }
        }
        out.push(b'"');
    }

    fn id(&mut self, out: &mut Vec<u8>) {
        match self.rng.below(14) {
            0..=3 => out.extend(self.rng.below(1000).to_string().as_bytes()),
            4 | 5 => self.string(out),
            6 => out.extend(b"null"),
            7 => out.extend(*self.rng.pick(&[&b"1.5"[..], b"1.0", b"1e2", b"-0.0"])),
            8 => out.extend(*self.rng.pick(&[&b"true"[..], b"{}", b"[1]", b"-0"])),
            _ => self.number(out),
        }
    }

    fn error_object(&mut self, out: &mut Vec<u8>) {
        let mut members: Vec<Vec<u8>> = Vec::new();
        let mut add = |g: &mut Gen, name: &str, value: &mut dyn FnMut(&mut Gen, &mut Vec<u8>)| {
            let mut m = Vec::new();
            g.key(&mut m, name.to_string());
            m.push(b':');
            g.ws(&mut m);
            value(g, &mut m);
            members.push(m);
        };
        if self.rng.chance(92) {
            add(self, "code", &mut |g, m| match g.rng.below(8) {
                0 => g.number(m),
                1 => m.extend(*g.rng.pick(&[&b"\"1\""[..], b"null", b"2147483648", b"-2147483649", b"1.0"])),
                _ => m.extend((g.rng.below(70000) as i64 - 35000).to_string().as_bytes()),
            });
        }
        if self.rng.chance(92) {
            add(self, "message", &mut |g, m| if g.rng.chance(90) { g.string(m) } else { g.value(m, 1) });
        }
        if self.rng.chance(40) {
            add(self, "data", &mut |g, m| g.value(m, 3));
        }
        if self.rng.chance(15) {
            add(self, "extra", &mut |g, m| g.value(m, 2));
        }
        if self.rng.chance(6) && !members.is_empty() {
            let dup = members[self.rng.below(members.len())].clone();
            members.push(dup);
        }
        self.shuffle(&mut members);
        self.join_object(out, members);
    }

    fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.rng.below(i + 1));
        }
    }

    fn join_object(&mut self, out: &mut Vec<u8>, members: Vec<Vec<u8>>) {
        out.push(b'{');
        for (i, m) in members.into_iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            self.ws(out);
            out.extend(m);
            self.ws(out);
        }
        out.push(b'}');
    }

    /// A JSON-RPC-like message: mostly well-formed, with every member sometimes wrong,
    /// missing, duplicated, escaped or accompanied by unknown members.
    fn message(&mut self, out: &mut Vec<u8>) {
        // The intended kind decides which members are likely.
        let kind = self.rng.below(4); // request, notification, result, error
        let p = |want: bool, yes: u64, no: u64| if want { yes } else { no };
        let mut members: Vec<Vec<u8>> = Vec::new();
        let mut add = |g: &mut Gen, name: &str, value: &mut dyn FnMut(&mut Gen, &mut Vec<u8>)| {
            let mut m = Vec::new();
            g.key(&mut m, name.to_string());
            g.ws(&mut m);
            m.push(b':');
            g.ws(&mut m);
            value(g, &mut m);
            members.push(m);
        };
        if self.rng.chance(95) {
            add(self, "jsonrpc", &mut |g, m| {
                const ODD: [&[u8]; 5] = [b"\"2\\u002e0\"", b"\"1.0\"", b"2.0", b"null", b"\"2.0 \""];
                if g.rng.chance(92) {
                    m.extend(b"\"2.0\"");
                } else {
                    m.extend(ODD[g.rng.below(ODD.len())]);
                }
            });
        }
        // Errors often have no usable id (the peer could not read ours).
        if self.rng.chance(match kind {
            1 => 8,
            3 => 75,
            _ => 95,
        }) {
            add(self, "id", &mut |g, m| if kind == 3 && g.rng.chance(25) { m.extend(b"null") } else { g.id(m) });
        }
        if self.rng.chance(p(kind <= 1, 97, 4)) {
            add(self, "method", &mut |g, m| {
                if g.rng.chance(90) {
                    m.extend(g.rng.pick(METHODS).as_bytes());
                } else if g.rng.chance(50) {
                    g.string(m);
                } else {
                    g.value(m, 1);
                }
            });
        }
        if self.rng.chance(p(kind <= 1, 60, 4)) {
            add(self, "params", &mut |g, m| if g.rng.chance(88) { g.object(m, 3) } else { g.value(m, 2) });
        }
        if self.rng.chance(p(kind == 2, 96, 4)) {
            add(self, "result", &mut |g, m| if g.rng.chance(90) { g.object(m, 3) } else { g.value(m, 2) });
        }
        if self.rng.chance(p(kind == 3, 96, 3)) {
            add(self, "error", &mut |g, m| if g.rng.chance(90) { g.error_object(m) } else { g.value(m, 1) });
        }
        for _ in 0..self.rng.below(3) {
            if self.rng.chance(40) {
                let name = self.rng.pick(&["_meta", "x", "ID", "id ", "Method", "paramsX", "extra"]).to_string();
                add(self, &name, &mut |g, m| g.value(m, 2));
            }
        }
        if self.rng.chance(5) && !members.is_empty() {
            let dup = members[self.rng.below(members.len())].clone();
            members.push(dup);
        }
        self.shuffle(&mut members);
        self.join_object(out, members);
    }

    /// Arrays and objects nested around the serde_json limit.
    fn deep(&mut self, out: &mut Vec<u8>) {
        let depth = 100 + self.rng.below(40);
        let mut closers = Vec::new();
        for _ in 0..depth {
            if self.rng.chance(50) {
                out.push(b'[');
                closers.push(b']');
            } else {
                out.extend(b"{\"k\":");
                closers.push(b'}');
            }
        }
        self.value(out, 0);
        while let Some(c) = closers.pop() {
            out.push(c);
        }
    }

    fn input(&mut self) -> Vec<u8> {
        let mut out = Vec::new();
        self.ws(&mut out);
        match self.rng.below(100) {
            0..=54 => self.message(&mut out),
            55..=66 => {
                out.push(b'[');
                for i in 0..self.rng.below(4) {
                    if i > 0 {
                        out.push(b',');
                    }
                    self.ws(&mut out);
                    if self.rng.chance(85) {
                        self.message(&mut out);
                    } else {
                        self.value(&mut out, 1);
                    }
                }
                out.push(b']');
            }
            67..=94 => self.value(&mut out, 4),
            _ => self.deep(&mut out),
        }
        self.ws(&mut out);
        if self.rng.chance(65) {
            for _ in 0..=self.rng.below(4) {
                self.mutate(&mut out);
            }
        }
        out
    }

    fn mutate(&mut self, v: &mut Vec<u8>) {
        const TRICKY: &[&[u8]] = &[
            b"\\ud83d",
            b"\\ude00",
            b"\\u",
            b"\\uDFFF",
            b"\\u00",
            b"01",
            b"-01",
            b"1.",
            b".5",
            b"-",
            b"1e",
            b"1e400",
            b"-1e400",
            b"1e-400",
            b",]",
            b",}",
            b"]",
            b"}",
            b"[",
            b"{",
            b"\"",
            b"\\",
            b":",
            b",",
            b"\x00",
            b"\x1f",
            b"\x7f",
            b"\n",
            b"\r",
            b"\t",
            b"\x0c",
            b"\xff",
            b"\xc0\xaf",
            b"\xed\xa0\x80",
            b"\xe2\x82",
            b"\xf4\x90\x80\x80",
            b"\xef\xbb\xbf",
            b"NaN",
            b"Infinity",
            b"true",
            b"nul",
            b"\"id\":",
            b"\"id\":null,",
            b"\"method\":",
            b"\"jsonrpc\":\"2.0\",",
            b"\"i\\u0064\":1,",
            b"[]",
            b"{}",
            b"\"\\u0000\"",
        ];
        let len = v.len();
        let at = self.rng.below(len + 1);
        match self.rng.below(9) {
            0 if len > 0 => {
                let i = self.rng.below(len);
                v[i] ^= 1 << self.rng.below(8);
            }
            1 if len > 0 => {
                let i = self.rng.below(len);
                v[i] = self.rng.next() as u8;
            }
            2 => v.insert(at, self.rng.next() as u8),
            3 if len > 0 => {
                v.remove(self.rng.below(len));
            }
            4 if len > 0 => {
                let end = (at + 1 + self.rng.below(8)).min(len);
                v.drain(at.min(len - 1)..end);
            }
            5 if len > 0 => {
                let start = self.rng.below(len);
                let end = (start + 1 + self.rng.below(16)).min(len);
                let piece = v[start..end].to_vec();
                let at = self.rng.below(v.len() + 1);
                v.splice(at..at, piece);
            }
            6 => v.truncate(at),
            _ => {
                let token = self.rng.pick(TRICKY);
                v.splice(at..at, token.iter().copied());
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// (a) serde_json's verdict on the JSON.
// ---------------------------------------------------------------------------------------

/// A JSON number per RFC 8259's grammar, written out independently of the scanner.
fn is_json_number(t: &[u8]) -> bool {
    let mut i = 0;
    let digits = |i: &mut usize| {
        let s = *i;
        while t.get(*i).is_some_and(u8::is_ascii_digit) {
            *i += 1;
        }
        *i > s
    };
    if t.get(i) == Some(&b'-') {
        i += 1;
    }
    match t.get(i) {
        Some(b'0') => i += 1,
        Some(b'1'..=b'9') => {
            digits(&mut i);
        }
        _ => return false,
    }
    if t.get(i) == Some(&b'.') {
        i += 1;
        if !digits(&mut i) {
            return false;
        }
    }
    if matches!(t.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(t.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if !digits(&mut i) {
            return false;
        }
    }
    i == t.len()
}

/// serde_json's verdict, with numbers outside f64's range accepted (see the module docs).
struct Verdict {
    accepts: bool,
    /// Numbers serde_json called out of range that are (Rust's `f64` parse says so).
    out_of_range: usize,
    /// Numbers serde_json called out of range that Rust's exact parse rounds to a finite
    /// value at the edge of the range (at least `f64::MAX` with its last digit dropped):
    /// serde_json without its `float_roundtrip` feature rounds these up to infinity.
    at_the_edge: usize,
    /// What serde_json read, when it accepted the text as it was.
    value: Option<Value>,
}

fn serde_verdict(input: &[u8]) -> Verdict {
    let mut text = input.to_vec();
    let mut v = Verdict { accepts: false, out_of_range: 0, at_the_edge: 0, value: None };
    loop {
        match serde_json::from_slice::<Value>(&text) {
            Ok(value) => {
                let unchanged = v.out_of_range + v.at_the_edge == 0;
                return Verdict { accepts: true, value: unchanged.then_some(value), ..v };
            }
            Err(e) if e.to_string().starts_with("number out of range") => {
                // serde_json's column counts bytes from the line start, 1-based, and
                // points at the number's last byte, or, for an exponent too large for
                // it, at the digit where it gave up: the token runs on over digits.
                let line_start = if e.line() == 1 {
                    0
                } else {
                    text.iter().enumerate().filter(|&(_, &b)| b == b'\n').nth(e.line() - 2).unwrap().0 + 1
                };
                let mut end = line_start + e.column();
                while text.get(end).is_some_and(u8::is_ascii_digit) {
                    end += 1;
                }
                let mut start = end;
                while start > 0 && matches!(text[start - 1], b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E') {
                    start -= 1;
                }
                let token = &text[start..end];
                let value: f64 = std::str::from_utf8(token).unwrap().parse().unwrap();
                if value.is_infinite() {
                    v.out_of_range += 1;
                } else if value.abs() >= 1.797_693_134_862_315e308 {
                    v.at_the_edge += 1;
                }
                assert!(
                    is_json_number(token) && value.abs() >= 1.797_693_134_862_315e308,
                    "serde_json called {:?} out of range in {:?}",
                    String::from_utf8_lossy(token),
                    String::from_utf8_lossy(input)
                );
                // `null` takes the number's place in the grammar and, unlike `0`, cannot
                // merge with what follows into a valid token (`1e400e7` must stay invalid).
                text.splice(start..end, *b"null");
            }
            Err(_) => return v,
        }
    }
}

// ---------------------------------------------------------------------------------------
// (b) The envelope oracle, on serde_json.
// ---------------------------------------------------------------------------------------

/// Every member of an object, in order, duplicates included: serde_json's streaming map
/// access sees them all, where a `Value` keeps only the last.
struct Members(Vec<(String, Box<RawValue>)>);

impl<'de> Deserialize<'de> for Members {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Members;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Members, A::Error> {
                let mut members = Vec::new();
                while let Some(name) = map.next_key::<String>()? {
                    members.push((name, map.next_value::<Box<RawValue>>()?));
                }
                Ok(Members(members))
            }
        }
        d.deserialize_map(V)
    }
}

#[derive(Clone, Debug, PartialEq)]
enum OracleId {
    Str(String),
    Int(String),
    Null,
    Invalid,
}

fn oracle_id(raw: &RawValue) -> OracleId {
    let t = raw.get();
    match t.as_bytes()[0] {
        b'"' => OracleId::Str(serde_json::from_str(t).unwrap()),
        b'-' | b'0'..=b'9' if !t.contains(['.', 'e', 'E']) => OracleId::Int(t.to_string()),
        b'n' => OracleId::Null,
        _ => OracleId::Invalid,
    }
}

fn is_object(raw: &RawValue) -> bool {
    // A RawValue is exactly one value without surrounding whitespace.
    raw.get().starts_with('{')
}

fn as_string(raw: &RawValue) -> Option<String> {
    raw.get().starts_with('"').then(|| serde_json::from_str(raw.get()).unwrap())
}

/// The outcome, with everything owned.
#[derive(Debug, PartialEq)]
enum Outcome {
    Request { id: String, method: String, params: Option<String> },
    Notification { method: String, params: Option<String> },
    Response { id: String, result: String },
    Error { id: Option<String>, code: i32, message: String, data: Option<String> },
    Reject { rule: Rule, id: Option<String>, shape: Shape },
}

/// Classifies one object as MCP's JSON-RPC rules say, in the documented order: duplicate
/// envelope members first, then `jsonrpc`, then `result`+`error`, then the kind's rules.
fn oracle(object: &[u8]) -> Outcome {
    let Members(members) = serde_json::from_slice(object).unwrap();
    const ENVELOPE: [(&str, Member); 6] = [
        ("jsonrpc", Member::Jsonrpc),
        ("id", Member::Id),
        ("method", Member::Method),
        ("params", Member::Params),
        ("result", Member::Result),
        ("error", Member::Error),
    ];
    let mut seen: BTreeMap<&str, &RawValue> = BTreeMap::new();
    let mut duplicate = None;
    for (name, value) in &members {
        if let Some(&(n, m)) = ENVELOPE.iter().find(|(n, _)| n == name)
            && seen.insert(n, value).is_some()
            && duplicate.is_none()
        {
            duplicate = Some(m);
        }
    }
    let id = seen.get("id").map(|v| oracle_id(v));
    let readable = match (&id, duplicate) {
        (Some(OracleId::Str(_) | OracleId::Int(_)), d) if d != Some(Member::Id) => Some(seen["id"].get().to_string()),
        _ => None,
    };
    let (has_method, has_result, has_error) =
        (seen.contains_key("method"), seen.contains_key("result"), seen.contains_key("error"));
    let shape = if has_result || has_error {
        Shape::Response
    } else if has_method {
        if id.is_some() { Shape::Request } else { Shape::Notification }
    } else {
        Shape::Unknown
    };
    let reject = |rule| Outcome::Reject { rule, id: readable.clone(), shape };
    if let Some(m) = duplicate {
        return reject(Rule::DuplicateMember(m));
    }
    match seen.get("jsonrpc") {
        None => return reject(Rule::MissingJsonrpc),
        Some(v) if as_string(v).as_deref() != Some("2.0") => return reject(Rule::WrongJsonrpcVersion),
        Some(_) => {}
    }
    if has_result && has_error {
        return reject(Rule::ResultAndError);
    }
    let token = || seen["id"].get().to_string();
    if has_method {
        if has_result || has_error {
            return reject(Rule::MethodInResponse);
        }
        let Some(method) = as_string(seen["method"]) else { return reject(Rule::MethodNotString) };
        let params = seen.get("params");
        if params.is_some_and(|p| !is_object(p)) {
            return reject(Rule::ParamsNotObject);
        }
        let params = params.map(|p| p.get().to_string());
        return match id {
            None => Outcome::Notification { method, params },
            Some(OracleId::Str(_) | OracleId::Int(_)) => Outcome::Request { id: token(), method, params },
            Some(OracleId::Null) => reject(Rule::NullRequestId),
            Some(OracleId::Invalid) => reject(Rule::InvalidId),
        };
    }
    if has_result {
        match id {
            Some(OracleId::Str(_) | OracleId::Int(_)) => {}
            Some(OracleId::Invalid) => return reject(Rule::InvalidId),
            None | Some(OracleId::Null) => return reject(Rule::ResultWithoutId),
        }
        let result = seen["result"];
        if !is_object(result) {
            return reject(Rule::ResultNotObject);
        }
        return Outcome::Response { id: token(), result: result.get().to_string() };
    }
    if has_error {
        let id = match id {
            Some(OracleId::Str(_) | OracleId::Int(_)) => Some(token()),
            Some(OracleId::Invalid) => return reject(Rule::InvalidId),
            None | Some(OracleId::Null) => None,
        };
        let error = seen["error"];
        if !is_object(error) {
            return reject(Rule::ErrorNotObject);
        }
        let Members(fields) = serde_json::from_str(error.get()).unwrap();
        let mut found: BTreeMap<&str, &RawValue> = BTreeMap::new();
        for (name, value) in &fields {
            if ["code", "message", "data"].contains(&name.as_str()) && found.insert(name, value).is_some() {
                return reject(Rule::DuplicateErrorMember);
            }
        }
        let Some(code) = found.get("code") else { return reject(Rule::MissingErrorCode) };
        let Ok(code) = code.get().parse::<i32>() else { return reject(Rule::InvalidErrorCode) };
        let Some(message) = found.get("message") else { return reject(Rule::MissingErrorMessage) };
        let Some(message) = as_string(message) else { return reject(Rule::ErrorMessageNotString) };
        let data = found.get("data").map(|d| d.get().to_string());
        return Outcome::Error { id, code, message, data };
    }
    reject(Rule::NotAMessage)
}

/// Rebuilds a validated value through the navigation API alone (`members`, `get`,
/// `elements`, `as_str`, …), as serde_json would read it; `None` when a number is beyond
/// what serde_json's `Value` holds.
fn rebuild(r: mcp_sansio::wire::RawJson<'_>) -> Option<Value> {
    use mcp_sansio::wire::JsonKind;
    Some(match r.kind() {
        JsonKind::Object => {
            let mut map = serde_json::Map::new();
            for (k, v) in r.members() {
                let k = k.to_string();
                if !map.contains_key(&k) {
                    assert_eq!(r.get(&k), Some(v), "get finds the first member named {k:?}");
                }
                // Later duplicates win, as in serde_json's Value.
                map.insert(k, rebuild(v)?);
            }
            Value::Object(map)
        }
        JsonKind::Array => Value::Array(r.elements().map(rebuild).collect::<Option<_>>()?),
        JsonKind::String => Value::String(r.as_str().unwrap().to_string()),
        JsonKind::Number => serde_json::from_str(r.as_text()).ok()?,
        JsonKind::Bool => Value::Bool(r.as_bool().unwrap()),
        JsonKind::Null => Value::Null,
    })
}

/// A JSON value as a deserializer hands it over, member order and duplicates kept: decoded
/// once by the crate's span decoder and once by serde_json, the two must agree.
#[derive(Debug)]
enum J {
    Null,
    Bool(bool),
    U(u64),
    I(i64),
    F(f64),
    Str(String),
    Arr(Vec<J>),
    Obj(Vec<(String, J)>),
}

impl<'de> Deserialize<'de> for J {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = J;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_unit<E>(self) -> Result<J, E> {
                Ok(J::Null)
            }
            fn visit_bool<E>(self, v: bool) -> Result<J, E> {
                Ok(J::Bool(v))
            }
            fn visit_u64<E>(self, v: u64) -> Result<J, E> {
                Ok(J::U(v))
            }
            fn visit_i64<E>(self, v: i64) -> Result<J, E> {
                Ok(J::I(v))
            }
            fn visit_f64<E>(self, v: f64) -> Result<J, E> {
                Ok(J::F(v))
            }
            fn visit_str<E>(self, v: &str) -> Result<J, E> {
                Ok(J::Str(v.to_owned()))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<J, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element()? {
                    items.push(item);
                }
                Ok(J::Arr(items))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<J, A::Error> {
                let mut members = Vec::new();
                while let Some(member) = map.next_entry()? {
                    members.push(member);
                }
                Ok(J::Obj(members))
            }
        }
        d.deserialize_any(V)
    }
}

/// The tree `J` the span decoder must produce for `raw`, built from the navigation API
/// (which `rebuild` checks against serde_json) with numbers read by `str::parse`, which
/// rounds correctly: serde_json without its `float_roundtrip` feature (as here) does not
/// always, so its floats are not the reference. (The fuzz target `differential` turns that
/// feature on and compares with serde_json directly.)
fn reference(raw: mcp_sansio::wire::RawJson<'_>) -> J {
    use mcp_sansio::wire::JsonKind;
    match raw.kind() {
        JsonKind::Null => J::Null,
        JsonKind::Bool => J::Bool(raw.as_bool().unwrap()),
        JsonKind::String => J::Str(raw.as_str().unwrap().to_string()),
        JsonKind::Number => match (raw.as_u64(), raw.as_i64()) {
            (Some(u), _) => J::U(u),
            (None, Some(i)) => J::I(i),
            _ => J::F(raw.as_text().parse().unwrap()),
        },
        JsonKind::Array => J::Arr(raw.elements().map(reference).collect()),
        JsonKind::Object => J::Obj(raw.members().map(|(k, v)| (k.to_string(), reference(v))).collect()),
    }
}

/// Equal trees, floats to the bit.
fn same_j(ours: &J, theirs: &J, input: &[u8]) {
    match (ours, theirs) {
        (J::Null, J::Null) => {}
        (J::Bool(a), J::Bool(b)) => assert_eq!(a, b),
        (J::U(a), J::U(b)) => assert_eq!(a, b),
        (J::I(a), J::I(b)) => assert_eq!(a, b),
        (J::F(a), J::F(b)) => {
            assert_eq!(a.to_bits(), b.to_bits(), "{a} vs {b} in {:?}", String::from_utf8_lossy(input))
        }
        (J::Str(a), J::Str(b)) => assert_eq!(a, b),
        (J::Arr(a), J::Arr(b)) => {
            assert_eq!(a.len(), b.len());
            a.iter().zip(b).for_each(|(x, y)| same_j(x, y, input));
        }
        (J::Obj(a), J::Obj(b)) => {
            assert_eq!(a.len(), b.len());
            for ((ka, va), (kb, vb)) in a.iter().zip(b) {
                assert_eq!(ka, kb);
                same_j(va, vb, input);
            }
        }
        _ => panic!("decoded {ours:?}, serde_json read {theirs:?} in {:?}", String::from_utf8_lossy(input)),
    }
}

fn text(b: &[u8]) -> String {
    String::from_utf8(b.to_vec()).unwrap()
}

/// Our outcome in the oracle's terms, checking the id's meaning on the way.
fn ours(r: Result<Message<'_>, EnvelopeError<'_>>) -> Outcome {
    let id_token = |id: mcp_sansio::wire::RequestIdRef<'_>| {
        let token = text(id.as_token());
        match oracle_id(&RawValue::from_string(token.clone()).unwrap()) {
            OracleId::Str(s) => {
                assert_eq!(id.kind(), IdKind::String);
                assert_eq!(id.as_str().unwrap().to_string(), s);
                assert!(id.as_str().unwrap().eq_str(&s));
                assert_eq!((id.as_i64(), id.as_u64()), (None, None));
            }
            OracleId::Int(t) => {
                assert_eq!(id.kind(), IdKind::Integer);
                assert_eq!(id.as_i64(), t.parse::<i64>().ok(), "{t}");
                assert_eq!(id.as_u64(), t.parse::<u64>().ok(), "{t}");
                assert!(id.as_str().is_none());
            }
            other => panic!("id {token} is {other:?}"),
        }
        token
    };
    let raw = |r: mcp_sansio::wire::RawJson<'_>| text(r.as_bytes());
    match r {
        Ok(Message::Request(r)) => {
            let method = r.method.to_string();
            assert!(r.method.eq_str(&method));
            Outcome::Request { id: id_token(r.id), method, params: r.params.map(raw) }
        }
        Ok(Message::Notification(n)) => {
            Outcome::Notification { method: n.method.to_string(), params: n.params.map(raw) }
        }
        Ok(Message::Response(r)) => Outcome::Response { id: id_token(r.id), result: raw(r.result) },
        Ok(Message::Error(e)) => Outcome::Error {
            id: e.id.map(id_token),
            code: e.error.code.0,
            message: e.error.message.to_string(),
            data: e.error.data.map(raw),
        },
        Err(e) => Outcome::Reject { rule: e.rule, id: e.id.map(id_token), shape: e.shape },
    }
}

// ---------------------------------------------------------------------------------------
// The run.
// ---------------------------------------------------------------------------------------

#[derive(Default, Debug)]
struct Counts {
    total: usize,
    valid_json: usize,
    invalid_json: usize,
    range_substituted: usize,
    edge_substituted: usize,
    depth_limited: usize,
    decoded: usize,
    objects: usize,
    batches: usize,
    batch_elements: usize,
    empty_batches: usize,
    other_json: usize,
    outcomes: BTreeMap<String, usize>,
    scan_errors: BTreeMap<String, usize>,
}

fn outcome_label(o: &Outcome) -> String {
    match o {
        Outcome::Request { .. } => "ok request".into(),
        Outcome::Notification { .. } => "ok notification".into(),
        Outcome::Response { .. } => "ok result response".into(),
        Outcome::Error { id: Some(_), .. } => "ok error response".into(),
        Outcome::Error { id: None, .. } => "ok error response, uncorrelated".into(),
        Outcome::Reject { rule, .. } => format!("rejected {rule:?}"),
    }
}

fn check(input: &[u8], counts: &mut Counts) {
    counts.total += 1;
    let config = ScanConfig::with_max_depth(SERDE_DEPTH);
    let verdict = validate(input, config);
    let serde = serde_verdict(input);
    let serde_ok = serde.accepts;
    if serde.out_of_range > 0 {
        counts.range_substituted += 1;
    }
    if serde.at_the_edge > 0 {
        counts.edge_substituted += 1;
    }
    assert_eq!(
        verdict.is_ok(),
        serde_ok,
        "validate says {verdict:?}, serde_json {}: {:?}",
        if serde_ok { "accepts" } else { "rejects" },
        String::from_utf8_lossy(input)
    );

    let batches = ParseOptions { max_depth: SERDE_DEPTH, allow_batch: true };
    let single = ParseOptions { max_depth: SERDE_DEPTH, allow_batch: false };
    let frame = Frame::parse(input, &batches);
    let message = Message::parse_with(input, &single);
    let Ok(()) = verdict else {
        let err = verdict.unwrap_err();
        counts.invalid_json += 1;
        if err.kind == ScanErrorKind::TooDeep {
            counts.depth_limited += 1;
        }
        *counts.scan_errors.entry(format!("{:?}", err.kind)).or_default() += 1;
        // Exactly the scanner's error, from every entry point.
        for e in [frame.err().unwrap(), message.unwrap_err()] {
            assert_eq!(
                (e.rule, e.id, e.shape),
                (Rule::Json(err), None, Shape::Unknown),
                "{:?}",
                String::from_utf8_lossy(input)
            );
        }
        return;
    };
    counts.valid_json += 1;
    // Navigation finds the same structure serde_json reads.
    let raw = mcp_sansio::wire::RawJson::parse_with(input, config).unwrap();
    match (rebuild(raw), &serde.value) {
        (Some(ours), Some(theirs)) => assert_eq!(&ours, theirs, "{:?}", String::from_utf8_lossy(input)),
        (None, None) => {}
        (ours, theirs) => panic!("{ours:?} vs {theirs:?}: {:?}", String::from_utf8_lossy(input)),
    }
    // The span decoder (skipping, lending, unescaping) reads what serde_json reads.
    if serde.value.is_some() {
        let theirs = reference(raw);
        let mut scratch = vec![0u8; input.len()];
        let ours: J = raw
            .decode_with(&mut scratch)
            .unwrap_or_else(|e| panic!("decode_with: {e} in {:?}", String::from_utf8_lossy(input)));
        same_j(&ours, &theirs, input);
        counts.decoded += 1;
    }
    let start = input.iter().position(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r')).unwrap();
    match input[start] {
        b'{' => {
            counts.objects += 1;
            let want = oracle(input);
            assert_eq!(ours(message), want, "{:?}", String::from_utf8_lossy(input));
            let Ok(Frame::Single(m)) = frame else {
                assert_eq!(ours(frame.map(|_| unreachable!())), want);
                *counts.outcomes.entry(outcome_label(&want)).or_default() += 1;
                return;
            };
            assert_eq!(ours(Ok(m)), want);
            *counts.outcomes.entry(outcome_label(&want)).or_default() += 1;
        }
        b'[' => {
            counts.batches += 1;
            let elements: Vec<Box<RawValue>> = serde_json::from_slice(input).unwrap();
            assert_eq!(message.unwrap_err().rule, Rule::BatchNotAllowed);
            if elements.is_empty() {
                counts.empty_batches += 1;
                let e = frame.err().unwrap();
                assert_eq!((e.rule, e.id, e.shape), (Rule::EmptyBatch, None, Shape::Unknown));
                return;
            }
            let Ok(Frame::Batch(batch)) = frame else { panic!("not a batch: {:?}", String::from_utf8_lossy(input)) };
            assert_eq!(batch.len(), elements.len());
            for (element, raw) in batch.iter().zip(&elements) {
                counts.batch_elements += 1;
                let want = if is_object(raw) {
                    oracle(raw.get().as_bytes())
                } else {
                    Outcome::Reject { rule: Rule::NotAnObject, id: None, shape: Shape::Unknown }
                };
                assert_eq!(ours(element), want, "{:?}", String::from_utf8_lossy(input));
            }
        }
        _ => {
            counts.other_json += 1;
            let e = frame.err().unwrap();
            assert_eq!((e.rule, e.id, e.shape), (Rule::NotAnObject, None, Shape::Unknown));
            assert_eq!(message.unwrap_err().rule, Rule::NotAnObject);
        }
    }
}

fn env_usize(name: &str, default: usize) -> usize {
    std::env::var(name).ok().map_or(default, |v| v.replace('_', "").parse().expect(name))
}

#[test]
fn validate_and_classify_agree_with_serde_json() {
    let cases = env_usize("MCP_DIFF_CASES", 300_000);
    let seed = env_usize("MCP_DIFF_SEED", 0x6D63_7032) as u64;
    let started = std::time::Instant::now();
    let mut generator = Gen { rng: Rng(seed) };
    let mut counts = Counts::default();
    for _ in 0..cases {
        let input = generator.input();
        check(&input, &mut counts);
    }
    let elapsed = started.elapsed();
    eprintln!("differential: seed {seed:#x}, {cases} inputs in {:.1} s", elapsed.as_secs_f64());
    eprintln!(
        "  total {}, valid JSON {}, invalid JSON {}; at the depth limit {}; decoded into a tree {}",
        counts.total, counts.valid_json, counts.invalid_json, counts.depth_limited, counts.decoded
    );
    eprintln!(
        "  inputs with numbers serde_json refused: {} beyond f64, {} at f64's edge (serde_json rounding)",
        counts.range_substituted, counts.edge_substituted
    );
    eprintln!(
        "  valid JSON: {} objects, {} batches ({} empty, {} elements), {} other values",
        counts.objects, counts.batches, counts.empty_batches, counts.batch_elements, counts.other_json
    );
    eprintln!("  object outcomes:");
    for (label, n) in &counts.outcomes {
        eprintln!("    {n:>8}  {label}");
    }
    eprintln!("  scan errors:");
    for (label, n) in &counts.scan_errors {
        eprintln!("    {n:>8}  {label}");
    }
    assert_eq!(counts.valid_json + counts.invalid_json, counts.total);
    // The generator must keep reaching every region that matters, or the comparison is
    // hollow: demand a fair share of each (these hold for the default seed and count).
    if cases >= 100_000 {
        assert!(counts.valid_json * 5 > counts.total, "too few valid inputs");
        assert!(counts.invalid_json * 5 > counts.total, "too few invalid inputs");
        assert!(counts.range_substituted > 0 && counts.depth_limited > 0);
        for label in [
            "ok request",
            "ok notification",
            "ok result response",
            "ok error response",
            "ok error response, uncorrelated",
        ] {
            assert!(counts.outcomes.get(label).copied().unwrap_or(0) * 100 > counts.objects, "too few {label}");
        }
        assert!(counts.outcomes.keys().filter(|l| l.starts_with("rejected")).count() >= 20, "too few rules reached");
        assert!(counts.scan_errors.len() >= 15, "too few scan error kinds: {:?}", counts.scan_errors.keys());
    }
}

fn counts_of(text: &[u8]) -> (bool, usize, usize) {
    let v = serde_verdict(text);
    (v.accepts, v.out_of_range, v.at_the_edge)
}

/// The facts about serde_json the comparison relies on.
#[test]
fn serde_json_behaves_as_assumed() {
    let accepts = |t: &[u8]| serde_json::from_slice::<Value>(t).is_ok();
    // Rejected by serde_json's Value, as RFC 8259 requires.
    for bad in [
        &b"\"\\ud83d\""[..],
        b"\"\\ude00\"",
        b"\"\\ud83d\\u0041\"",
        b"{\"\\ud83d\":1}",
        b"\"a\x01\"",
        b"\"\x1f\"",
        b"\"\xff\"",
        b"\"\xed\xa0\x80\"",
        b"\"\xc0\xaf\"",
        b"\xef\xbb\xbf{}",
        b"01",
        b"1.",
        b"[1,]",
        b"{\"a\":1,}",
        b"NaN",
    ] {
        assert!(!accepts(bad), "{:?}", String::from_utf8_lossy(bad));
        assert!(validate(bad, ScanConfig::default()).is_err());
    }
    for good in [&b"\"\x7f\""[..], b"\"\\u0000\"", b"\"\\ud83d\\ude00\"", b"1e-400", b"-0", b" [] "] {
        assert!(accepts(good), "{:?}", String::from_utf8_lossy(good));
    }
    // Out of f64's range: rejected by serde_json, allowed by RFC 8259 (and the scanner).
    for big in [&b"1e400"[..], b"-1e400", b"1.7976931348623159e308"] {
        let e = serde_json::from_slice::<Value>(big).unwrap_err();
        assert!(e.to_string().starts_with("number out of range"));
        assert_eq!((e.line(), e.column()), (1, big.len()), "column points at the last byte");
        assert_eq!(validate(big, ScanConfig::default()), Ok(()));
        assert_eq!(counts_of(big), (true, 1, 0));
    }
    let huge = format!("[{}]", "9".repeat(400));
    assert_eq!(counts_of(huge.as_bytes()), (true, 1, 0));
    assert_eq!(counts_of(b"[1e400x]"), (false, 1, 0));
    // An exponent past i32: serde_json stops reading it early.
    let e = serde_json::from_slice::<Value>(b"1e4233192172916").unwrap_err();
    assert_eq!((e.line(), e.column()), (1, 12));
    assert_eq!(counts_of(b"1e4233192172916"), (true, 1, 0));
    assert_eq!(counts_of(b"[1e4233192172916,1e400]"), (true, 2, 0));
    assert_eq!(counts_of(b"0e4233192172916"), (true, 0, 0));
    assert_eq!(counts_of(b"[-5.57e777e77]"), (false, 1, 0));
    // Just below f64::MAX with many digits: finite (f64::MAX) in Rust, "out of range" to
    // serde_json without `float_roundtrip`.
    let edge = b"1.797693134862315762308e308";
    assert_eq!("1.797693134862315762308e308".parse::<f64>(), Ok(f64::MAX));
    assert!(serde_json::from_slice::<Value>(edge).unwrap_err().to_string().starts_with("number out of range"));
    assert_eq!(counts_of(edge), (true, 0, 1));
    // Depth: 127 open containers pass, 128 do not.
    let nest = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    assert!(accepts(nest(127).as_bytes()));
    assert!(!accepts(nest(128).as_bytes()));
    let cfg = ScanConfig::with_max_depth(SERDE_DEPTH);
    assert_eq!(validate(nest(127).as_bytes(), cfg), Ok(()));
    assert_eq!(validate(nest(128).as_bytes(), cfg), Err(ScanError { kind: ScanErrorKind::TooDeep, offset: 127 }));
    // Value keeps the last of duplicate keys; the streaming visitor sees both.
    let dup = br#"{"id":1,"id":2}"#;
    assert_eq!(serde_json::from_slice::<Value>(dup).unwrap()["id"], 2);
    let Members(m) = serde_json::from_slice(dup).unwrap();
    assert_eq!(m.len(), 2);
}

/// The pieces string bodies are made of in `strings_at_every_offset_agree_with_serde_json`:
/// escapes valid and not, control characters, multi-byte characters, broken UTF-8.
const STRING_PIECES: [&[u8]; 22] = [
    b"\\\"",
    b"\\\\",
    b"\\n",
    b"\\u00e9",
    b"\\ud83d\\ude00",
    b"\\x",
    b"\\u12G4",
    b"\\ud83d",
    b"\\ude00",
    b"\\",
    b"\x00",
    b"\x1f",
    b"\t",
    b"\x7f",
    "é".as_bytes(),
    "€".as_bytes(),
    "😀".as_bytes(),
    b"\x80",
    b"\xe2\x82",
    b"\xc0\xaf",
    b"\xed\xa0\x80",
    b"\xf4\x90\x80\x80",
];

/// The scanner's string paths (the bulk one of the wide searches and the byte-at-a-time
/// one, see src/wire/scan.rs) against serde_json: every piece at every offset of bodies up
/// to 112 bytes (every position modulo 32, before and after the scanner's switch to its
/// bulk path at 64 bytes, across every word and block boundary), next to
/// a multi-byte character or an escape, whole and cut short. Accepted strings must also
/// unescape to serde_json's text.
#[test]
fn strings_at_every_offset_agree_with_serde_json() {
    let mut scratch = vec![0u8; 256];
    let mut checked = 0;
    for len in 0..112 {
        for piece in STRING_PIECES {
            for at in 0..=len {
                for neighbour in [&b""[..], "ü".as_bytes(), "日本".as_bytes(), b"\\t", b"\\u0041"] {
                    let mut body: Vec<u8> = (0..len).map(|k| b'a' + (k % 26) as u8).collect();
                    let tail = body.split_off(at);
                    body.extend_from_slice(neighbour);
                    body.extend_from_slice(piece);
                    body.extend_from_slice(&tail);
                    let mut text = b"[\"".to_vec();
                    text.extend_from_slice(&body);
                    text.extend_from_slice(b"\",1]");
                    let ours = validate(&text, ScanConfig::default()).is_ok();
                    let theirs = serde_json::from_slice::<(String, u8)>(&text);
                    assert_eq!(ours, theirs.is_ok(), "{:?}: {theirs:?}", String::from_utf8_lossy(&text));
                    if let Ok((want, _)) = theirs {
                        let raw = mcp_sansio::wire::RawJson::parse(&text).unwrap();
                        let first = raw.elements().next().unwrap();
                        let got = first.as_str().unwrap().to_str(&mut scratch).unwrap().to_string();
                        assert_eq!(got, want, "{:?}", String::from_utf8_lossy(&text));
                    }
                    if at % 5 == 0 {
                        for cut in 2..text.len() {
                            let short = &text[..cut];
                            assert!(validate(short, ScanConfig::default()).is_err(), "{short:02x?}");
                            assert!(serde_json::from_slice::<Value>(short).is_err());
                        }
                    }
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 300_000);
}
