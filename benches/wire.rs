//! Wire-layer throughput and allocation benchmark on a realistic stdio corpus.
//!
//! `cargo bench --bench wire` prints one table: our scan + classify, typed decoding,
//! framing + scan and encoding, side by side with serde_json on the same corpus in the
//! same run. Candidates are measured in interleaved rounds (the order rotates every round)
//! and the median is reported, so machine noise hits every candidate alike. On Linux the
//! clock is the thread's CPU time, so time spent descheduled on a busy machine is not
//! counted. Timings are never asserted; heap allocations are counted and ours must be
//! exactly zero.
//!
//! The corpus is generated in code from a fixed seed: one MCP session over stdio
//! (initialize, a 50-tool `tools/list` with JSON Schemas, `tools/call` with escaped and
//! non-ASCII text, progress notifications, 64 KiB resources, errors, pings). About a third
//! of the messages are written the way Python's `json.dumps` writes them (`", "` and `": "`
//! separators, every non-ASCII character as `\uXXXX`, astral ones as surrogate pairs), the
//! rest compactly with raw UTF-8 as the TypeScript SDK does. A second corpus holds only
//! small messages (pings, progress and log notifications, cancellations, short tool calls),
//! where per-message costs dominate.
//!
//! "Typed by method" rows decode every message the way a peer must: params by method,
//! results by the method of the request they answer (`decode_result`), walking content
//! blocks, tools and resource contents, against serde_json decoding the same fields into
//! typed structs.
//!
//! Environment:
//! * `WIRE_BENCH_QUICK=1`: a few short rounds (about 2 s), for a smoke run;
//! * `WIRE_BENCH_ROUNDS=n`, `WIRE_BENCH_SAMPLE_MS=n`: override rounds and sample length;
//! * `WIRE_BENCH_ONLY=text`: only the candidates whose name contains `text` (`=name`: exactly
//!   that name), for profiling;
//! * `WIRE_BENCH_DUMP=path`: also write the corpus there as a stdio stream, to inspect it;
//! * `WIRE_BENCH_CLASS=text`: only the messages of the classes whose label (first table)
//!   contains `text`, to see where a row's cost goes (`benches/wire_instructions.sh` passes
//!   it on);
//! * `WIRE_BENCH_PASSES=n`: run each candidate exactly `n` times after its two allocation-
//!   counting passes, untimed, to count instructions under `valgrind --tool=callgrind`
//!   (`benches/wire_instructions.sh` does this for every row and prints instructions per
//!   message).

use std::alloc::{GlobalAlloc, Layout, System};
use std::borrow::Cow;
use std::fmt;
use std::hint::black_box;
use std::io;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use mcp_sansio::framing::LineFramer;
use mcp_sansio::mcp::{
    AnyNotification, AnyRequest, AnyResult, Method, ProgressToken, decode_notification, decode_notification_with_spans,
    decode_request, decode_request_with_spans, decode_result, decode_result_with_spans,
};
use mcp_sansio::wire::{ErrorCode, ErrorId, FrameWriter, JsonStr, MemberSpans, Message, RawJson, RequestId};
use serde::de::{Deserializer, IgnoredAny, Visitor};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

// ---------------------------------------------------------------------------------------
// Counting allocator
// ---------------------------------------------------------------------------------------

struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

// SAFETY: every call is forwarded unchanged to the system allocator.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations() -> u64 {
    ALLOCATIONS.load(Ordering::Relaxed)
}

// ---------------------------------------------------------------------------------------
// The MCP model the corpus is generated from (and the encoding benchmark serializes)
// ---------------------------------------------------------------------------------------

#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
enum Id {
    Num(u64),
    Str(String),
}

impl Id {
    fn ours(&self) -> RequestId {
        match self {
            Id::Num(n) => RequestId::from_u64(*n),
            Id::Str(s) => RequestId::string(s).expect("short id"),
        }
    }
}

#[derive(Serialize)]
struct Empty {}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ListChanged {
    list_changed: bool,
}

#[derive(Serialize)]
struct Implementation {
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<String>,
    version: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct InitializeParams {
    protocol_version: &'static str,
    capabilities: ClientCapabilities,
    client_info: Implementation,
}

#[derive(Serialize)]
struct ClientCapabilities {
    roots: ListChanged,
    sampling: Empty,
    elicitation: Empty,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct InitializeResult {
    protocol_version: &'static str,
    capabilities: ServerCapabilities,
    server_info: Implementation,
    instructions: String,
}

#[derive(Serialize)]
struct ServerCapabilities {
    logging: Empty,
    prompts: ListChanged,
    resources: ResourceCapabilities,
    tools: ListChanged,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ResourceCapabilities {
    subscribe: bool,
    list_changed: bool,
}

#[derive(Serialize)]
#[serde(untagged)]
enum Scalar {
    Int(i64),
    Str(String),
    Bool(bool),
}

/// A JSON Schema, as tool definitions carry them.
#[derive(Serialize, Default)]
#[serde(rename_all = "camelCase")]
struct Schema {
    #[serde(rename = "$schema", skip_serializing_if = "Option::is_none")]
    schema: Option<&'static str>,
    #[serde(rename = "type")]
    ty: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<String>,
    #[serde(rename = "enum", skip_serializing_if = "Option::is_none")]
    one_of: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    default: Option<Scalar>,
    #[serde(skip_serializing_if = "Option::is_none")]
    minimum: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    maximum: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    items: Option<Box<Schema>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    properties: Option<Properties>,
    #[serde(skip_serializing_if = "Option::is_none")]
    required: Option<Vec<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    additional_properties: Option<bool>,
}

/// Schema properties, in definition order.
struct Properties(Vec<(String, Schema)>);

impl Serialize for Properties {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ToolAnnotations {
    read_only_hint: bool,
    open_world_hint: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Tool {
    name: String,
    title: String,
    description: String,
    input_schema: Schema,
    #[serde(skip_serializing_if = "Option::is_none")]
    annotations: Option<ToolAnnotations>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ListToolsResult {
    tools: Vec<Tool>,
}

#[derive(Serialize)]
#[serde(untagged)]
enum Token {
    Int(u64),
    Str(String),
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Meta {
    progress_token: Token,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CallArguments {
    text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    lang: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_results: Option<u32>,
    tags: Vec<String>,
}

#[derive(Serialize)]
struct CallToolParams {
    name: String,
    arguments: CallArguments,
    #[serde(rename = "_meta", skip_serializing_if = "Option::is_none")]
    meta: Option<Meta>,
}

#[derive(Serialize)]
struct TextContent {
    #[serde(rename = "type")]
    ty: &'static str,
    text: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CallToolResult {
    content: Vec<TextContent>,
    is_error: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ProgressParams {
    progress_token: Token,
    progress: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    total: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
}

#[derive(Serialize)]
struct ReadResourceParams {
    uri: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ResourceContents {
    uri: String,
    mime_type: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    text: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    blob: Option<String>,
}

#[derive(Serialize)]
struct ReadResourceResult {
    contents: Vec<ResourceContents>,
}

#[derive(Serialize)]
struct ErrorData {
    detail: String,
    retryable: bool,
}

#[derive(Serialize)]
struct ErrorObject {
    code: i32,
    message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    data: Option<ErrorData>,
}

/// A response the server sends: what the encoding benchmark writes.
enum Response {
    Initialize(Id, InitializeResult),
    ListTools(Id, ListToolsResult),
    CallTool(Id, CallToolResult),
    ReadResource(Id, ReadResourceResult),
    Empty(Id),
    Error(Option<Id>, ErrorObject),
}

// serde_json envelopes used to write the corpus (and as the serde_json encoder's input).

#[derive(Serialize)]
struct RequestEnv<'a, P> {
    jsonrpc: &'static str,
    id: &'a Id,
    method: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    params: Option<&'a P>,
}

#[derive(Serialize)]
struct NotificationEnv<'a, P> {
    jsonrpc: &'static str,
    method: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    params: Option<&'a P>,
}

#[derive(Serialize)]
struct ResultEnv<'a, R> {
    jsonrpc: &'static str,
    id: &'a Id,
    result: &'a R,
}

#[derive(Serialize)]
struct ErrorEnv<'a> {
    jsonrpc: &'static str,
    id: &'a Option<Id>,
    error: &'a ErrorObject,
}

/// serde_json's writing of a response, exactly the frame our writer produces.
fn serde_json_response<W: io::Write>(w: W, r: &Response) -> serde_json::Result<()> {
    fn res<W: io::Write, R: Serialize>(w: W, id: &Id, result: &R) -> serde_json::Result<()> {
        serde_json::to_writer(w, &ResultEnv { jsonrpc: "2.0", id, result })
    }
    match r {
        Response::Initialize(id, x) => res(w, id, x),
        Response::ListTools(id, x) => res(w, id, x),
        Response::CallTool(id, x) => res(w, id, x),
        Response::ReadResource(id, x) => res(w, id, x),
        Response::Empty(id) => res(w, id, &Empty {}),
        Response::Error(id, error) => serde_json::to_writer(w, &ErrorEnv { jsonrpc: "2.0", id, error }),
    }
}

/// Our writing of a response.
fn ours_response(w: &mut FrameWriter<'_>, id: Option<&RequestId>, r: &Response) -> usize {
    let id = id.map(RequestId::as_ref);
    let done = match r {
        Response::Initialize(_, x) => w.result(id.unwrap(), x),
        Response::ListTools(_, x) => w.result(id.unwrap(), x),
        Response::CallTool(_, x) => w.result(id.unwrap(), x),
        Response::ReadResource(_, x) => w.result(id.unwrap(), x),
        Response::Empty(_) => w.result(id.unwrap(), &Empty {}),
        Response::Error(_, e) => {
            let eid = ErrorId::from(id);
            match &e.data {
                Some(d) => w.error_with_data(eid, ErrorCode(e.code), &e.message, d),
                None => w.error(eid, ErrorCode(e.code), &e.message),
            }
        }
    };
    done.expect("frame fits").len()
}

// ---------------------------------------------------------------------------------------
// Python `json.dumps` style: ", " and ": " separators, ensure_ascii with surrogate pairs
// ---------------------------------------------------------------------------------------

struct PythonStyle;

impl serde_json::ser::Formatter for PythonStyle {
    fn begin_array_value<W: ?Sized + io::Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        if first { Ok(()) } else { w.write_all(b", ") }
    }
    fn begin_object_key<W: ?Sized + io::Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        if first { Ok(()) } else { w.write_all(b", ") }
    }
    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(b": ")
    }
    fn write_string_fragment<W: ?Sized + io::Write>(&mut self, w: &mut W, fragment: &str) -> io::Result<()> {
        let mut run = 0;
        for (i, c) in fragment.char_indices() {
            if c.is_ascii() {
                continue;
            }
            w.write_all(&fragment.as_bytes()[run..i])?;
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                write!(w, "\\u{unit:04x}")?;
            }
            run = i + c.len_utf8();
        }
        w.write_all(&fragment.as_bytes()[run..])
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Style {
    Compact,
    Python,
}

fn to_line<T: Serialize>(value: &T, style: Style) -> Vec<u8> {
    let mut out = Vec::new();
    match style {
        Style::Compact => serde_json::to_writer(&mut out, value).unwrap(),
        Style::Python => {
            let mut ser = serde_json::Serializer::with_formatter(&mut out, PythonStyle);
            value.serialize(&mut ser).unwrap();
        }
    }
    out
}

// ---------------------------------------------------------------------------------------
// Corpus generation
// ---------------------------------------------------------------------------------------

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())]
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

const WORDS: &[&str] = &[
    "the",
    "file",
    "search",
    "result",
    "query",
    "repository",
    "function",
    "returns",
    "value",
    "error",
    "config",
    "server",
    "client",
    "request",
    "timeout",
    "index",
    "token",
    "user",
    "document",
    "section",
    "update",
    "build",
    "test",
    "module",
    "stream",
    "buffer",
    "parse",
    "line",
    "column",
    "branch",
    "commit",
    "merge",
    "path",
];
const EXOTIC: &[&str] = &[
    "café",
    "naïve",
    "Grüße",
    "Ångström",
    "東京",
    "日本語のテキスト",
    "Привет",
    "ελληνικά",
    "→",
    "€",
    "½",
    "😀",
    "🚀",
    "👍🏽",
    "𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
    "中文",
    "한국어",
    "עברית",
];
const ESCAPY: &[&str] = &[
    "\"quoted\"",
    "C:\\Users\\dev\\notes.txt",
    "line one\nline two",
    "\tindented",
    "a\\b",
    "say \"hi\"\n",
    "{\"json\": [1, 2]}",
    "</script>",
    "\r\n",
    "bell\u{7}",
];

/// Prose with about `len` bytes: mostly ASCII words, some escapes and non-ASCII.
fn text(rng: &mut Rng, lo: usize, hi: usize) -> String {
    let len = rng.range(lo, hi);
    let mut s = String::with_capacity(len + 32);
    while s.len() < len {
        if !s.is_empty() {
            s.push(' ');
        }
        match rng.below(20) {
            0 | 1 => s.push_str(rng.pick(EXOTIC)),
            2 => s.push_str(rng.pick(ESCAPY)),
            _ => s.push_str(rng.pick(WORDS)),
        }
    }
    s
}

/// About 64 KiB of resource text of one flavour.
fn resource_text(rng: &mut Rng, flavour: usize) -> String {
    const TARGET: usize = 64 * 1024;
    let mut s = String::with_capacity(TARGET + 256);
    let mut n = 0;
    while s.len() < TARGET {
        n += 1;
        match flavour {
            // Markdown with the odd non-ASCII word and quotes.
            0 => {
                if n % 12 == 1 {
                    s.push_str(&format!("\n## Section {n}\n\n"));
                }
                s.push_str(&text(rng, 70, 70));
                s.push_str(".\n");
            }
            // Source code: quotes, backslashes, tabs, newlines.
            1 => {
                let w = rng.pick(WORDS);
                s.push_str(&format!(
                    "\tfn {w}_{n}(x: &str) -> Result<(), Error> {{\n\t\tprintln!(\"{w}: {{}}\\n\", x);\n\t\tOk(())\n\t}}\n"
                ));
            }
            // A log file: mostly plain ASCII.
            _ => {
                let w = rng.pick(WORDS);
                s.push_str(&format!(
                    "2025-06-18T12:{:02}:{:02}.{:03}Z INFO {w} handled request id={n} in {}ms\n",
                    n / 60 % 60,
                    n % 60,
                    n % 1000,
                    rng.range(1, 900)
                ));
            }
        }
    }
    s
}

fn base64ish(rng: &mut Rng, len: usize) -> String {
    const B64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    (0..len).map(|_| B64[rng.below(64)] as char).collect()
}

fn ident(rng: &mut Rng) -> String {
    format!("{}_{}", rng.pick(WORDS), rng.pick(WORDS))
}

fn property(rng: &mut Rng, depth: usize) -> Schema {
    let description = Some(text(rng, 15, 90));
    match rng.below(if depth > 0 { 5 } else { 6 }) {
        0 => Schema { ty: "string", description, ..Default::default() },
        1 => Schema {
            ty: "string",
            description,
            one_of: Some((0..rng.range(2, 6)).map(|_| rng.pick(WORDS).to_string()).collect()),
            default: Some(Scalar::Str(rng.pick(WORDS).to_string())),
            ..Default::default()
        },
        2 => Schema {
            ty: "integer",
            description,
            minimum: Some(0),
            maximum: Some(rng.range(10, 10_000) as i64),
            default: Some(Scalar::Int(rng.range(1, 10) as i64)),
            ..Default::default()
        },
        3 => Schema { ty: "boolean", description, default: Some(Scalar::Bool(rng.chance(50))), ..Default::default() },
        4 => Schema {
            ty: "array",
            description,
            items: Some(Box::new(Schema { ty: "string", ..Default::default() })),
            ..Default::default()
        },
        _ => {
            let props: Vec<_> = (0..rng.range(1, 3)).map(|_| (ident(rng), property(rng, depth + 1))).collect();
            let required = vec![props[0].0.clone()];
            Schema {
                ty: "object",
                description,
                properties: Some(Properties(props)),
                required: Some(required),
                additional_properties: Some(false),
                ..Default::default()
            }
        }
    }
}

/// The argument schema every called tool shares (so the typed decoders can be fixed).
fn call_schema(rng: &mut Rng) -> Schema {
    let mut props = vec![
        ("text".to_string(), Schema { ty: "string", description: Some(text(rng, 40, 40)), ..Default::default() }),
        ("lang".to_string(), Schema { ty: "string", description: Some(text(rng, 30, 30)), ..Default::default() }),
        (
            "maxResults".to_string(),
            Schema { ty: "integer", minimum: Some(1), maximum: Some(100), ..Default::default() },
        ),
        (
            "tags".to_string(),
            Schema {
                ty: "array",
                items: Some(Box::new(Schema { ty: "string", ..Default::default() })),
                ..Default::default()
            },
        ),
    ];
    for _ in 0..rng.range(0, 4) {
        props.push((ident(rng), property(rng, 0)));
    }
    Schema {
        schema: Some("http://json-schema.org/draft-07/schema#"),
        ty: "object",
        properties: Some(Properties(props)),
        required: Some(vec!["text".to_string()]),
        additional_properties: Some(false),
        ..Default::default()
    }
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Class {
    Handshake,
    ListToolsResult,
    CallRequest,
    CallResult,
    Progress,
    ReadResult,
    Error,
    Ping,
    OtherRequest,
    Notification,
}

impl Class {
    const ALL: [Class; 10] = [
        Class::Handshake,
        Class::ListToolsResult,
        Class::CallRequest,
        Class::CallResult,
        Class::Progress,
        Class::ReadResult,
        Class::Error,
        Class::Ping,
        Class::OtherRequest,
        Class::Notification,
    ];

    fn label(self) -> &'static str {
        match self {
            Class::Handshake => "initialize req+result, initialized",
            Class::ListToolsResult => "tools/list result (50 tools)",
            Class::CallRequest => "tools/call request",
            Class::CallResult => "tools/call result",
            Class::Progress => "notifications/progress",
            Class::ReadResult => "resources/read result (64 KiB)",
            Class::Error => "error response",
            Class::Ping => "ping request + result",
            Class::OtherRequest => "tools/list, resources/read req",
            Class::Notification => "log, cancelled, updated, list_changed",
        }
    }
}

struct Corpus {
    lines: Vec<(Class, Style, Vec<u8>)>,
    responses: Vec<Response>,
}

impl Corpus {
    fn push<T: Serialize>(&mut self, class: Class, style: Style, v: &T) {
        self.lines.push((class, style, to_line(v, style)));
    }

    fn respond(&mut self, class: Class, style: Style, r: Response) {
        let mut line = Vec::new();
        match style {
            Style::Compact => serde_json_response(&mut line, &r).unwrap(),
            Style::Python => {
                // Same value, Python formatting.
                let mut ser = serde_json::Serializer::with_formatter(&mut line, PythonStyle);
                match &r {
                    Response::Initialize(id, x) => ResultEnv { jsonrpc: "2.0", id, result: x }.serialize(&mut ser),
                    Response::ListTools(id, x) => ResultEnv { jsonrpc: "2.0", id, result: x }.serialize(&mut ser),
                    Response::CallTool(id, x) => ResultEnv { jsonrpc: "2.0", id, result: x }.serialize(&mut ser),
                    Response::ReadResource(id, x) => ResultEnv { jsonrpc: "2.0", id, result: x }.serialize(&mut ser),
                    Response::Empty(id) => ResultEnv { jsonrpc: "2.0", id, result: &Empty {} }.serialize(&mut ser),
                    Response::Error(id, error) => ErrorEnv { jsonrpc: "2.0", id, error }.serialize(&mut ser),
                }
                .unwrap();
            }
        }
        self.lines.push((class, style, line));
        self.responses.push(r);
    }
}

fn generate() -> Corpus {
    let mut rng = Rng(0x5EED_1234_ABCD_0001);
    let mut c = Corpus { lines: Vec::new(), responses: Vec::new() };
    let style = |rng: &mut Rng| if rng.chance(33) { Style::Python } else { Style::Compact };

    // Handshake.
    let id = Id::Num(0);
    let init = InitializeParams {
        protocol_version: "2025-06-18",
        capabilities: ClientCapabilities {
            roots: ListChanged { list_changed: true },
            sampling: Empty {},
            elicitation: Empty {},
        },
        client_info: Implementation {
            name: "claude-ai".into(),
            title: Some("Claude Desktop — “MCP” client".into()),
            version: "0.1.0".into(),
        },
    };
    c.push(
        Class::Handshake,
        Style::Compact,
        &RequestEnv { jsonrpc: "2.0", id: &id, method: "initialize", params: Some(&init) },
    );
    let result = InitializeResult {
        protocol_version: "2025-06-18",
        capabilities: ServerCapabilities {
            logging: Empty {},
            prompts: ListChanged { list_changed: false },
            resources: ResourceCapabilities { subscribe: true, list_changed: true },
            tools: ListChanged { list_changed: true },
        },
        server_info: Implementation { name: "bench-server".into(), title: None, version: "1.9.4".into() },
        instructions: text(&mut rng, 400, 400),
    };
    c.respond(Class::Handshake, Style::Python, Response::Initialize(id, result));
    c.push(
        Class::Handshake,
        Style::Compact,
        &NotificationEnv::<Empty> { jsonrpc: "2.0", method: "notifications/initialized", params: None },
    );

    // tools/list.
    let id = Id::Num(1);
    c.push(
        Class::OtherRequest,
        Style::Compact,
        &RequestEnv::<Empty> { jsonrpc: "2.0", id: &id, method: "tools/list", params: None },
    );
    let tools: Vec<Tool> = (0..50)
        .map(|i| {
            let name = format!("{}_{i}", ident(&mut rng));
            let input_schema = if i < 10 {
                call_schema(&mut rng)
            } else {
                let props: Vec<_> = (0..rng.range(1, 7)).map(|_| (ident(&mut rng), property(&mut rng, 0))).collect();
                let required = props.iter().take(rng.range(0, props.len())).map(|(k, _)| k.clone()).collect();
                Schema {
                    schema: Some("http://json-schema.org/draft-07/schema#"),
                    ty: "object",
                    properties: Some(Properties(props)),
                    required: Some(required),
                    additional_properties: Some(false),
                    ..Default::default()
                }
            };
            Tool {
                title: text(&mut rng, 20, 20),
                description: text(&mut rng, 60, 400),
                annotations: rng.chance(40).then_some(ToolAnnotations { read_only_hint: true, open_world_hint: false }),
                name,
                input_schema,
            }
        })
        .collect();
    let callable: Vec<String> = tools[..10].iter().map(|t| t.name.clone()).collect();
    c.respond(Class::ListToolsResult, Style::Compact, Response::ListTools(id, ListToolsResult { tools }));

    // A working session: tool calls with progress, the odd error, pings, resource reads.
    let mut next_id = 2u64;
    let mut fresh_id = |rng: &mut Rng| {
        next_id += 1;
        if rng.chance(25) { Id::Str(format!("req-{next_id}-{:08x}", rng.next() as u32)) } else { Id::Num(next_id) }
    };
    for call in 0..300 {
        let id = fresh_id(&mut rng);
        let token = if rng.chance(50) { Token::Int(call) } else { Token::Str(format!("tok-{call}")) };
        let progress_total = rng.range(0, 3);
        let params = CallToolParams {
            name: callable[rng.below(callable.len())].clone(),
            arguments: CallArguments {
                text: text(&mut rng, 20, 600),
                lang: rng.chance(60).then(|| rng.pick(&["en", "de", "ja", "fr"]).to_string()),
                max_results: rng.chance(50).then(|| rng.range(1, 100) as u32),
                tags: (0..rng.range(0, 4)).map(|_| rng.pick(WORDS).to_string()).collect(),
            },
            meta: (progress_total > 0).then_some(Meta { progress_token: token }),
        };
        let st = style(&mut rng);
        c.push(
            Class::CallRequest,
            st,
            &RequestEnv { jsonrpc: "2.0", id: &id, method: "tools/call", params: Some(&params) },
        );
        for step in 0..progress_total {
            let token = match &params.meta {
                Some(Meta { progress_token: Token::Int(n) }) => Token::Int(*n),
                Some(Meta { progress_token: Token::Str(s) }) => Token::Str(s.clone()),
                None => unreachable!(),
            };
            let p = ProgressParams {
                progress_token: token,
                progress: (step + 1) as f64 * 12.5,
                total: rng.chance(70).then_some(progress_total as f64 * 12.5),
                message: rng.chance(60).then(|| text(&mut rng, 10, 60)),
            };
            c.push(
                Class::Progress,
                st,
                &NotificationEnv { jsonrpc: "2.0", method: "notifications/progress", params: Some(&p) },
            );
        }
        if call % 15 == 7 {
            let error = ErrorObject {
                code: if call % 2 == 0 { -32602 } else { -32603 },
                message: format!("Tool {} failed: {}", params.name, text(&mut rng, 30, 30)),
                data: rng.chance(60).then(|| ErrorData { detail: text(&mut rng, 80, 80), retryable: rng.chance(50) }),
            };
            c.respond(Class::Error, st, Response::Error(Some(id), error));
        } else {
            let content = (0..rng.range(1, 2)).map(|_| TextContent { ty: "text", text: text(&mut rng, 100, 2000) });
            let result = CallToolResult { content: content.collect(), is_error: false };
            c.respond(Class::CallResult, st, Response::CallTool(id, result));
        }
        if call % 8 == 3 {
            let id = fresh_id(&mut rng);
            c.push(
                Class::Ping,
                Style::Compact,
                &RequestEnv::<Empty> { jsonrpc: "2.0", id: &id, method: "ping", params: None },
            );
            c.respond(Class::Ping, Style::Compact, Response::Empty(id));
        }
        if call % 75 == 40 {
            let flavour = (call / 75) as usize;
            let id = fresh_id(&mut rng);
            let uri = format!("file:///workspace/{}/{}.txt", rng.pick(WORDS), ident(&mut rng));
            let st = if flavour % 2 == 1 { Style::Python } else { Style::Compact };
            let params = ReadResourceParams { uri: uri.clone() };
            c.push(
                Class::OtherRequest,
                st,
                &RequestEnv { jsonrpc: "2.0", id: &id, method: "resources/read", params: Some(&params) },
            );
            let contents = if flavour == 3 {
                ResourceContents { uri, mime_type: "image/png", text: None, blob: Some(base64ish(&mut rng, 64 * 1024)) }
            } else {
                let mime_type = ["text/markdown", "text/x-rust", "text/plain"][flavour];
                ResourceContents { uri, mime_type, text: Some(resource_text(&mut rng, flavour)), blob: None }
            };
            c.respond(
                Class::ReadResult,
                st,
                Response::ReadResource(id, ReadResourceResult { contents: vec![contents] }),
            );
        }
    }
    // A few protocol-level errors: unknown method, resource not found, uncorrelated parse error.
    let errors = [
        (Some(Id::Num(9001)), -32601, "Method not found: prompts/get"),
        (Some(Id::Str("req-x".into())), -32002, "Resource not found: file:///missing.txt"),
        (None, -32700, "Parse error"),
    ];
    for (id, code, message) in errors {
        c.respond(
            Class::Error,
            Style::Compact,
            Response::Error(id, ErrorObject { code, message: message.into(), data: None }),
        );
    }
    c
}

/// The chatty side of a session: many small messages (pings, progress and log
/// notifications, cancellations, resource updates, short tool calls and their results),
/// each under about 300 bytes. Per-message costs dominate here, not per-byte ones.
fn generate_small() -> Corpus {
    use serde_json::json;
    let mut rng = Rng(0x5EED_1234_ABCD_0002);
    let mut c = Corpus { lines: Vec::new(), responses: Vec::new() };
    let style = |rng: &mut Rng| if rng.chance(33) { Style::Python } else { Style::Compact };
    let tools = ["get_time", "get_weather", "echo", "add", "lookup_user"];
    let levels = ["debug", "info", "notice", "warning", "error"];
    let mut id = 100u64;
    for round in 0..600u64 {
        id += 1;
        let st = style(&mut rng);
        let rid = if rng.chance(25) { json!(format!("r-{id}")) } else { json!(id) };
        match round % 6 {
            0 | 3 => {
                c.push(Class::Ping, Style::Compact, &json!({"jsonrpc":"2.0","id":rid,"method":"ping"}));
                c.push(Class::Ping, Style::Compact, &json!({"jsonrpc":"2.0","id":rid,"result":{}}));
            }
            1 | 4 => {
                let tool = rng.pick(&tools);
                let tags: Vec<&str> = (0..rng.range(0, 2)).map(|_| rng.pick(WORDS)).collect();
                let mut params = json!({"name": tool, "arguments": {"text": text(&mut rng, 5, 40), "tags": tags}});
                if rng.chance(50) {
                    params["_meta"] = json!({"progressToken": id});
                }
                c.push(
                    Class::CallRequest,
                    st,
                    &json!({"jsonrpc":"2.0","id":rid,"method":"tools/call","params":params}),
                );
                for step in 0..rng.range(0, 2) {
                    let mut p = json!({"progressToken": id, "progress": step * 50, "total": 100});
                    if rng.chance(50) {
                        p["message"] = json!(text(&mut rng, 5, 30));
                    }
                    c.push(Class::Progress, st, &json!({"jsonrpc":"2.0","method":"notifications/progress","params":p}));
                }
                let result =
                    json!({"content":[{"type":"text","text": text(&mut rng, 5, 120)}],"isError": rng.chance(10)});
                c.push(Class::CallResult, st, &json!({"jsonrpc":"2.0","id":rid,"result":result}));
            }
            2 => {
                let p = json!({"level": rng.pick(&levels), "logger": "server", "data": {"msg": text(&mut rng, 10, 80), "seq": round}});
                c.push(Class::Notification, st, &json!({"jsonrpc":"2.0","method":"notifications/message","params":p}));
                let uri = format!("file:///workspace/{}.txt", ident(&mut rng));
                c.push(
                    Class::Notification,
                    st,
                    &json!({"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":uri}}),
                );
            }
            _ => {
                let p = json!({"requestId": id - 1, "reason": text(&mut rng, 5, 30)});
                c.push(
                    Class::Notification,
                    st,
                    &json!({"jsonrpc":"2.0","method":"notifications/cancelled","params":p}),
                );
                c.push(
                    Class::Notification,
                    Style::Compact,
                    &json!({"jsonrpc":"2.0","method":"notifications/tools/list_changed"}),
                );
                let message = format!("Tool {} failed: {}", rng.pick(&tools), text(&mut rng, 10, 40));
                c.push(Class::Error, st, &json!({"jsonrpc":"2.0","id":rid,"error":{"code":-32603,"message":message}}));
            }
        }
    }
    c
}

/// For each line, the method of the request a response answers (the correlation a
/// session keeps): requests are remembered by their id token.
fn answering(lines: &[&[u8]]) -> Vec<Option<Method<'static>>> {
    // A BTreeMap, not a HashMap: its instructions do not depend on a random seed, so
    // `benches/wire_instructions.sh` counts the same in every run.
    let mut pending = std::collections::BTreeMap::new();
    lines
        .iter()
        .map(|l| match Message::parse(l).expect("valid corpus") {
            Message::Request(r) => {
                let method = Method::from_known_name(&r.method.to_string()).expect("known method");
                pending.insert(r.id.as_token().to_vec(), method);
                None
            }
            Message::Response(r) => Some(pending.remove(r.id.as_token()).expect("answers a request")),
            _ => None,
        })
        .collect()
}

// ---------------------------------------------------------------------------------------
// Our typed decoding: serde-json-core through RawJson::decode, JsonStr for text
// ---------------------------------------------------------------------------------------

mod ours {
    use super::*;

    #[derive(Deserialize)]
    pub struct Implementation<'a> {
        #[serde(borrow)]
        pub name: JsonStr<'a>,
        #[serde(borrow)]
        pub version: JsonStr<'a>,
    }

    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    pub struct InitializeParams<'a> {
        #[serde(borrow)]
        pub protocol_version: JsonStr<'a>,
        #[serde(borrow)]
        pub client_info: Implementation<'a>,
    }

    #[derive(Deserialize)]
    pub struct CallToolParams<'a> {
        #[serde(borrow)]
        pub name: JsonStr<'a>,
    }

    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    pub struct CallArguments<'a> {
        #[serde(borrow)]
        pub text: JsonStr<'a>,
        #[serde(borrow)]
        pub lang: Option<JsonStr<'a>>,
        pub max_results: Option<u32>,
        #[serde(borrow)]
        pub tags: heapless::Vec<JsonStr<'a>, 8>,
    }

    #[derive(Deserialize)]
    pub struct ProgressParams<'a> {
        pub progress: f64,
        pub total: Option<f64>,
        #[serde(borrow)]
        pub message: Option<JsonStr<'a>>,
    }

    #[derive(Deserialize)]
    pub struct ReadResourceParams<'a> {
        #[serde(borrow)]
        pub uri: JsonStr<'a>,
    }

    /// Scan + classify, then decode what a server decodes from each incoming message.
    /// Text fields are unescaped into `scratch`. Returns a checksum.
    pub fn decode(line: &[u8], scratch: &mut [u8]) -> usize {
        let msg = Message::parse(line).expect("valid corpus");
        let mut sum = msg.kind() as usize;
        let (method, params) = match msg {
            Message::Request(r) => (r.method, r.params),
            Message::Notification(n) => (n.method, n.params),
            Message::Response(r) => return sum + r.result.as_bytes().len(),
            Message::Error(e) => return sum + e.error.code.0.unsigned_abs() as usize + e.error.message.unescaped_len(),
        };
        let mut text = |s: JsonStr<'_>| s.to_str(scratch).expect("scratch").len();
        let params = params.unwrap_or(RawJson::EMPTY_OBJECT);
        if method.eq_str("tools/call") {
            let p: CallToolParams<'_> = params.decode().expect("call params");
            sum += text(p.name);
            let args = params.get("arguments").expect("arguments");
            let a: CallArguments<'_> = args.decode().expect("arguments");
            sum += text(a.text) + a.lang.map_or(0, &mut text) + a.max_results.unwrap_or(0) as usize;
            for tag in a.tags {
                sum += text(tag);
            }
            if let Some(token) = params.get("_meta").and_then(|m| m.get("progressToken")) {
                sum += token.as_bytes().len();
            }
        } else if method.eq_str("notifications/progress") {
            let p: ProgressParams<'_> = params.decode().expect("progress");
            let token = params.get("progressToken").expect("token");
            sum += token.as_bytes().len() + p.progress as usize + p.total.unwrap_or(0.0) as usize;
            sum += p.message.map_or(0, text);
        } else if method.eq_str("initialize") {
            let p: InitializeParams<'_> = params.decode().expect("initialize");
            sum += text(p.protocol_version) + text(p.client_info.name) + text(p.client_info.version);
            sum += params.get("capabilities").expect("capabilities").as_bytes().len();
        } else if method.eq_str("resources/read") {
            let p: ReadResourceParams<'_> = params.decode().expect("read");
            sum += text(p.uri);
        }
        sum
    }

    /// The value of a progress token for the checksum (integers as themselves).
    fn token(t: ProgressToken<'_>, text: &mut dyn FnMut(JsonStr<'_>) -> usize) -> usize {
        match t {
            ProgressToken::Integer(n) => n as usize,
            ProgressToken::String(s) => text(s),
        }
    }

    /// Scan + classify, then decode every message by its method as the crate's vocabulary
    /// defines it (`decode_request`, `decode_notification`, and `decode_result` with the
    /// method of the request a response answers), walking the lazy sequences (content
    /// blocks, tools, resource contents) and reading every field a client or server
    /// would. `text` measures a string: its raw length when timed (nothing is unescaped),
    /// its unescaped length when checked against serde_json.
    ///
    /// The envelope pass records where the params' or result's members are
    /// (`Message::parse_with_spans`) and the typed decoding reads them from there
    /// (`decode_*_with_spans`), as a dispatch loop would; see [`typed_text`].
    pub fn typed(line: &[u8], answering: Option<Method<'_>>, text: &mut dyn FnMut(JsonStr<'_>) -> usize) -> usize {
        typed_walk::<true>(line, answering, text, true)
    }

    /// [`typed`] the plain way: `Message::parse`, then `decode_request` and its siblings,
    /// which find every member again in the text.
    pub fn typed_text(line: &[u8], answering: Option<Method<'_>>, text: &mut dyn FnMut(JsonStr<'_>) -> usize) -> usize {
        typed_walk::<false>(line, answering, text, true)
    }

    /// [`typed`] without walking the lazy sequences of results (content blocks, tools,
    /// resource contents are left as the spans `decode_result` found): what a peer that
    /// forwards or stores a result pays. The sequences' bytes are counted instead.
    pub fn dispatched(line: &[u8], answering: Option<Method<'_>>, text: &mut dyn FnMut(JsonStr<'_>) -> usize) -> usize {
        typed_walk::<true>(line, answering, text, false)
    }

    /// [`dispatched`] the plain way (see [`typed_text`]).
    pub fn dispatched_text(
        line: &[u8],
        answering: Option<Method<'_>>,
        text: &mut dyn FnMut(JsonStr<'_>) -> usize,
    ) -> usize {
        typed_walk::<false>(line, answering, text, false)
    }

    fn typed_walk<const SPANS: bool>(
        line: &[u8],
        answering: Option<Method<'_>>,
        text: &mut dyn FnMut(JsonStr<'_>) -> usize,
        walk: bool,
    ) -> usize {
        let raw_len = |r: Option<RawJson<'_>>| r.map_or(0, |r| r.as_bytes().len());
        let mut spans = MemberSpans::<16>::new();
        let msg = if SPANS { Message::parse_with_spans(line, &mut spans) } else { Message::parse(line) };
        let msg = msg.expect("valid corpus");
        let mut sum = msg.kind() as usize;
        let request = |method, params| {
            if SPANS { decode_request_with_spans(method, params, &spans) } else { decode_request(method, params) }
        };
        let notification = |method, params| {
            if SPANS {
                decode_notification_with_spans(method, params, &spans)
            } else {
                decode_notification(method, params)
            }
        };
        let result = |method: Method<'_>, result| {
            if SPANS { decode_result_with_spans(method, result, &spans) } else { decode_result(method, result) }
        };
        match msg {
            Message::Request(r) => match request(Method::parse(r.method), r.params).expect("params") {
                AnyRequest::CallTool(p) => {
                    sum += text(p.name);
                    let a: CallArguments<'_> = p.arguments.expect("arguments").decode().expect("arguments");
                    sum += text(a.text) + a.lang.map_or(0, &mut *text) + a.max_results.unwrap_or(0) as usize;
                    for tag in a.tags {
                        sum += text(tag);
                    }
                    if let Some(t) = p.meta.and_then(|m| m.progress_token()) {
                        sum += token(t, text);
                    }
                }
                AnyRequest::Initialize(p) => {
                    sum += text(p.protocol_version) + text(p.client_info.name) + text(p.client_info.version);
                }
                AnyRequest::ReadResource(p) => sum += text(p.uri),
                AnyRequest::ListTools(p) => sum += p.cursor.map_or(0, text),
                AnyRequest::Ping(_) => {}
                _ => unreachable!("not in the corpus"),
            },
            Message::Notification(n) => match notification(Method::parse(n.method), n.params).expect("params") {
                AnyNotification::Progress(p) => {
                    sum += token(p.progress_token, text) + p.progress as usize + p.total.unwrap_or(0.0) as usize;
                    sum += p.message.map_or(0, text);
                }
                AnyNotification::LogMessage(p) => {
                    sum += p.level.as_str().len() + p.logger.map_or(0, &mut *text);
                    sum += p.data.raw().map_or(0, |d| d.as_bytes().len());
                }
                AnyNotification::Cancelled(p) => {
                    sum += p.request_id.map_or(0, |id| id.as_token().len()) + p.reason.map_or(0, text);
                }
                AnyNotification::ResourceUpdated(p) => sum += text(p.uri),
                AnyNotification::Initialized(_) | AnyNotification::ToolsListChanged(_) => {}
                _ => unreachable!("not in the corpus"),
            },
            Message::Response(r) => {
                let method = answering.expect("a response answers a request");
                match result(method, r.result).expect("result") {
                    AnyResult::CallTool(res) if !walk => sum += raw_len(res.content.items().and_then(|i| i.raw())),
                    AnyResult::ListTools(res) if !walk => sum += raw_len(res.items.raw()),
                    AnyResult::ReadResource(res) if !walk => sum += raw_len(res.contents.raw()),
                    AnyResult::CallTool(res) => {
                        for block in res.content.iter() {
                            sum += block.expect("content block").as_text().map_or(0, &mut *text);
                        }
                        sum += res.is_error.unwrap_or(false) as usize;
                    }
                    AnyResult::ListTools(res) => {
                        for tool in res.items.iter() {
                            let tool = tool.expect("tool");
                            sum += text(tool.name) + tool.title.map_or(0, &mut *text);
                            sum += tool.description.map_or(0, &mut *text) + tool.input_schema.as_bytes().len();
                            let hints = tool.annotations.map(|a| (a.read_only_hint, a.open_world_hint));
                            sum +=
                                hints.map_or(0, |(r, o)| r.unwrap_or(false) as usize + 2 * o.unwrap_or(false) as usize);
                        }
                        sum += res.next_cursor.map_or(0, &mut *text);
                    }
                    AnyResult::ReadResource(res) => {
                        for contents in res.contents.iter() {
                            sum += match contents.expect("contents") {
                                mcp_sansio::mcp::ResourceContents::Text(t) => {
                                    text(t.uri) + t.mime_type.map_or(0, &mut *text) + text(t.text)
                                }
                                mcp_sansio::mcp::ResourceContents::Blob(b) => {
                                    text(b.uri) + b.mime_type.map_or(0, &mut *text) + text(b.blob)
                                }
                            };
                        }
                    }
                    AnyResult::Initialize(res) => {
                        sum += text(res.protocol_version) + text(res.server_info.name) + text(res.server_info.version);
                        sum += res.instructions.map_or(0, text);
                    }
                    AnyResult::Empty(_) => {}
                    _ => unreachable!("not in the corpus"),
                }
            }
            Message::Error(e) => {
                sum += e.error.code.0.unsigned_abs() as usize + text(e.error.message);
                sum += e.error.data.map_or(0, |d| d.as_bytes().len());
            }
        }
        sum
    }
}

// ---------------------------------------------------------------------------------------
// serde_json baselines
// ---------------------------------------------------------------------------------------

mod sj {
    use super::*;

    /// A string borrowed when it has no escapes, unescaped into a `String` otherwise.
    pub struct Text<'a>(pub Cow<'a, str>);

    impl<'de: 'a, 'a> Deserialize<'de> for Text<'a> {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct V;
            impl<'de> Visitor<'de> for V {
                type Value = Text<'de>;
                fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str("a string")
                }
                fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Text<'de>, E> {
                    Ok(Text(Cow::Borrowed(v)))
                }
                fn visit_str<E>(self, v: &str) -> Result<Text<'de>, E> {
                    Ok(Text(Cow::Owned(v.to_owned())))
                }
            }
            d.deserialize_str(V)
        }
    }

    /// The zero-copy envelope: members kept as raw spans.
    #[derive(Deserialize)]
    pub struct Envelope<'a> {
        pub jsonrpc: &'a str,
        #[serde(borrow)]
        pub id: Option<&'a RawValue>,
        #[serde(borrow)]
        pub method: Option<Text<'a>>,
        #[serde(borrow)]
        pub params: Option<&'a RawValue>,
        #[serde(borrow)]
        pub result: Option<&'a RawValue>,
        #[serde(borrow)]
        pub error: Option<&'a RawValue>,
    }

    /// Decodes the envelope and classifies it as our parser does at the top level
    /// (version check, which members are present).
    pub fn envelope(line: &[u8]) -> Envelope<'_> {
        let env: Envelope<'_> = serde_json::from_slice(line).expect("valid corpus");
        assert!(env.jsonrpc == "2.0");
        env
    }

    pub fn kind(env: &Envelope<'_>) -> usize {
        match (&env.method, &env.id, &env.result, &env.error) {
            (Some(_), Some(_), _, _) => 0,
            (Some(_), None, _, _) => 1,
            (None, _, Some(_), None) => 2,
            (None, _, None, Some(_)) => 3,
            _ => panic!("not a message"),
        }
    }

    #[derive(Deserialize)]
    pub struct Implementation<'a> {
        #[serde(borrow)]
        pub name: Text<'a>,
        #[serde(borrow)]
        pub version: Text<'a>,
    }

    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    pub struct InitializeParams<'a> {
        #[serde(borrow)]
        pub protocol_version: Text<'a>,
        #[serde(borrow)]
        pub client_info: Implementation<'a>,
        #[serde(borrow)]
        pub capabilities: &'a RawValue,
    }

    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    pub struct Meta<'a> {
        #[serde(borrow)]
        pub progress_token: &'a RawValue,
    }

    #[derive(Deserialize)]
    pub struct CallToolParams<'a> {
        #[serde(borrow)]
        pub name: Text<'a>,
        #[serde(borrow)]
        pub arguments: &'a RawValue,
        #[serde(borrow, rename = "_meta")]
        pub meta: Option<Meta<'a>>,
    }

    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    pub struct CallArguments<'a> {
        #[serde(borrow)]
        pub text: Text<'a>,
        #[serde(borrow)]
        pub lang: Option<Text<'a>>,
        pub max_results: Option<u32>,
        #[serde(borrow)]
        pub tags: Vec<Text<'a>>,
    }

    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    pub struct ProgressParams<'a> {
        #[serde(borrow)]
        pub progress_token: &'a RawValue,
        pub progress: f64,
        pub total: Option<f64>,
        #[serde(borrow)]
        pub message: Option<Text<'a>>,
    }

    #[derive(Deserialize)]
    pub struct ReadResourceParams<'a> {
        #[serde(borrow)]
        pub uri: Text<'a>,
    }

    /// The serde_json counterpart of `ours::decode`: same fields, same result.
    pub fn decode(line: &[u8]) -> usize {
        let env = envelope(line);
        let mut sum = kind(&env);
        let (Some(method), params) = (&env.method, env.params) else {
            if let Some(r) = env.result {
                return sum + r.get().len();
            }
            #[derive(Deserialize)]
            struct Error<'a> {
                code: i32,
                #[serde(borrow)]
                message: Text<'a>,
            }
            let e: Error<'_> = serde_json::from_str(env.error.expect("error").get()).expect("error");
            return sum + e.code.unsigned_abs() as usize + e.message.0.len();
        };
        let params = params.map_or("{}", RawValue::get);
        let text = |t: &Text<'_>| t.0.len();
        match &*method.0 {
            "tools/call" => {
                let p: CallToolParams<'_> = serde_json::from_str(params).expect("call params");
                sum += text(&p.name);
                let a: CallArguments<'_> = serde_json::from_str(p.arguments.get()).expect("arguments");
                sum += text(&a.text) + a.lang.as_ref().map_or(0, text) + a.max_results.unwrap_or(0) as usize;
                sum += a.tags.iter().map(text).sum::<usize>();
                if let Some(m) = p.meta {
                    sum += m.progress_token.get().len();
                }
            }
            "notifications/progress" => {
                let p: ProgressParams<'_> = serde_json::from_str(params).expect("progress");
                sum += p.progress_token.get().len() + p.progress as usize + p.total.unwrap_or(0.0) as usize;
                sum += p.message.as_ref().map_or(0, text);
            }
            "initialize" => {
                let p: InitializeParams<'_> = serde_json::from_str(params).expect("initialize");
                sum += text(&p.protocol_version) + text(&p.client_info.name) + text(&p.client_info.version);
                sum += p.capabilities.get().len();
            }
            "resources/read" => {
                let p: ReadResourceParams<'_> = serde_json::from_str(params).expect("read");
                sum += text(&p.uri);
            }
            _ => {}
        }
        sum
    }

    /// A progress token's checksum value: the integer, or the string's length.
    pub struct Token(pub usize);

    impl<'de> Deserialize<'de> for Token {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct V;
            impl<'de> Visitor<'de> for V {
                type Value = Token;
                fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str("a string or an integer")
                }
                fn visit_u64<E>(self, v: u64) -> Result<Token, E> {
                    Ok(Token(v as usize))
                }
                fn visit_i64<E>(self, v: i64) -> Result<Token, E> {
                    Ok(Token(v as usize))
                }
                fn visit_str<E>(self, v: &str) -> Result<Token, E> {
                    Ok(Token(v.len()))
                }
            }
            d.deserialize_any(V)
        }
    }

    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    pub struct TypedMeta {
        pub progress_token: Option<Token>,
    }

    #[derive(Deserialize)]
    pub struct TypedCall<'a> {
        #[serde(borrow)]
        pub name: Text<'a>,
        #[serde(borrow)]
        pub arguments: &'a RawValue,
        #[serde(rename = "_meta")]
        pub meta: Option<TypedMeta>,
    }

    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    pub struct TypedProgress<'a> {
        pub progress_token: Token,
        pub progress: f64,
        pub total: Option<f64>,
        #[serde(borrow)]
        pub message: Option<Text<'a>>,
    }

    #[derive(Deserialize)]
    pub struct LogParams<'a> {
        #[serde(borrow)]
        pub level: Text<'a>,
        #[serde(borrow)]
        pub logger: Option<Text<'a>>,
        #[serde(borrow)]
        pub data: &'a RawValue,
    }

    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    pub struct CancelledParams<'a> {
        #[serde(borrow)]
        pub request_id: Option<&'a RawValue>,
        #[serde(borrow)]
        pub reason: Option<Text<'a>>,
    }

    #[derive(Deserialize)]
    pub struct Content<'a> {
        #[serde(borrow, rename = "type")]
        pub ty: Text<'a>,
        #[serde(borrow)]
        pub text: Option<Text<'a>>,
    }

    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    pub struct CallToolResult<'a> {
        #[serde(borrow)]
        pub content: Vec<Content<'a>>,
        pub is_error: Option<bool>,
    }

    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    pub struct ToolAnnotations {
        pub read_only_hint: Option<bool>,
        pub open_world_hint: Option<bool>,
    }

    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    pub struct Tool<'a> {
        #[serde(borrow)]
        pub name: Text<'a>,
        #[serde(borrow)]
        pub title: Option<Text<'a>>,
        #[serde(borrow)]
        pub description: Option<Text<'a>>,
        #[serde(borrow)]
        pub input_schema: &'a RawValue,
        pub annotations: Option<ToolAnnotations>,
    }

    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    pub struct ListToolsResult<'a> {
        #[serde(borrow)]
        pub tools: Vec<Tool<'a>>,
        #[serde(borrow)]
        pub next_cursor: Option<Text<'a>>,
    }

    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    pub struct ResourceContents<'a> {
        #[serde(borrow)]
        pub uri: Text<'a>,
        #[serde(borrow)]
        pub mime_type: Option<Text<'a>>,
        #[serde(borrow)]
        pub text: Option<Text<'a>>,
        #[serde(borrow)]
        pub blob: Option<Text<'a>>,
    }

    #[derive(Deserialize)]
    pub struct ReadResourceResult<'a> {
        #[serde(borrow)]
        pub contents: Vec<ResourceContents<'a>>,
    }

    #[derive(Deserialize)]
    #[serde(rename_all = "camelCase")]
    pub struct InitializeResult<'a> {
        #[serde(borrow)]
        pub protocol_version: Text<'a>,
        /// Decoded for parity (ours decodes it into `ServerCapabilities`), not summed.
        #[allow(dead_code)]
        #[serde(borrow)]
        pub capabilities: &'a RawValue,
        #[serde(borrow)]
        pub server_info: Implementation<'a>,
        #[serde(borrow)]
        pub instructions: Option<Text<'a>>,
    }

    #[derive(Deserialize)]
    pub struct Empty {}

    #[derive(Deserialize)]
    pub struct ErrorObject<'a> {
        pub code: i32,
        #[serde(borrow)]
        pub message: Text<'a>,
        #[serde(borrow)]
        pub data: Option<&'a RawValue>,
    }

    /// The serde_json counterpart of `ours::typed`: the envelope, then params and results
    /// by method into typed structs (text as `Cow`, schemas and capabilities as
    /// `&RawValue`), with the same checksum.
    pub fn typed(line: &[u8], answering: Option<Method<'_>>) -> usize {
        let env = envelope(line);
        let mut sum = kind(&env);
        let text = |t: &Text<'_>| t.0.len();
        let opt = |t: &Option<Text<'_>>| t.as_ref().map_or(0, text);
        let params = env.params.map_or("{}", RawValue::get);
        if let Some(method) = &env.method {
            match (&*method.0, env.id.is_some()) {
                ("tools/call", true) => {
                    let p: TypedCall<'_> = serde_json::from_str(params).expect("call params");
                    sum += text(&p.name);
                    let a: CallArguments<'_> = serde_json::from_str(p.arguments.get()).expect("arguments");
                    sum += text(&a.text) + opt(&a.lang) + a.max_results.unwrap_or(0) as usize;
                    sum += a.tags.iter().map(text).sum::<usize>();
                    sum += p.meta.and_then(|m| m.progress_token).map_or(0, |t| t.0);
                }
                ("initialize", true) => {
                    let p: InitializeParams<'_> = serde_json::from_str(params).expect("initialize");
                    sum += text(&p.protocol_version) + text(&p.client_info.name) + text(&p.client_info.version);
                }
                ("resources/read", true) => {
                    let p: ReadResourceParams<'_> = serde_json::from_str(params).expect("read");
                    sum += text(&p.uri);
                }
                ("tools/list", true) => {
                    #[derive(Deserialize)]
                    struct Paginated<'a> {
                        #[serde(borrow)]
                        cursor: Option<Text<'a>>,
                    }
                    let p: Paginated<'_> = serde_json::from_str(params).expect("list");
                    sum += opt(&p.cursor);
                }
                ("ping", true) => {
                    let _: Empty = serde_json::from_str(params).expect("ping");
                }
                ("notifications/progress", false) => {
                    let p: TypedProgress<'_> = serde_json::from_str(params).expect("progress");
                    sum += p.progress_token.0 + p.progress as usize + p.total.unwrap_or(0.0) as usize;
                    sum += opt(&p.message);
                }
                ("notifications/message", false) => {
                    let p: LogParams<'_> = serde_json::from_str(params).expect("log");
                    sum += text(&p.level) + opt(&p.logger) + p.data.get().len();
                }
                ("notifications/cancelled", false) => {
                    let p: CancelledParams<'_> = serde_json::from_str(params).expect("cancelled");
                    sum += p.request_id.map_or(0, |r| r.get().len()) + opt(&p.reason);
                }
                ("notifications/resources/updated", false) => {
                    let p: ReadResourceParams<'_> = serde_json::from_str(params).expect("updated");
                    sum += text(&p.uri);
                }
                ("notifications/initialized" | "notifications/tools/list_changed", false) => {
                    let _: Empty = serde_json::from_str(params).expect("empty");
                }
                other => unreachable!("not in the corpus: {other:?}"),
            }
            return sum;
        }
        if let Some(result) = env.result {
            let result = result.get();
            match answering.expect("a response answers a request") {
                Method::ToolsCall => {
                    let r: CallToolResult<'_> = serde_json::from_str(result).expect("call result");
                    sum += r.content.iter().map(|c| if &*c.ty.0 == "text" { opt(&c.text) } else { 0 }).sum::<usize>();
                    sum += r.is_error.unwrap_or(false) as usize;
                }
                Method::ToolsList => {
                    let r: ListToolsResult<'_> = serde_json::from_str(result).expect("list result");
                    for t in &r.tools {
                        sum += text(&t.name) + opt(&t.title) + opt(&t.description) + t.input_schema.get().len();
                        let hints = t.annotations.as_ref().map(|a| (a.read_only_hint, a.open_world_hint));
                        sum += hints.map_or(0, |(r, o)| r.unwrap_or(false) as usize + 2 * o.unwrap_or(false) as usize);
                    }
                    sum += opt(&r.next_cursor);
                }
                Method::ResourcesRead => {
                    let r: ReadResourceResult<'_> = serde_json::from_str(result).expect("read result");
                    for c in &r.contents {
                        sum += text(&c.uri) + opt(&c.mime_type) + opt(&c.text).max(opt(&c.blob));
                    }
                }
                Method::Initialize => {
                    let r: InitializeResult<'_> = serde_json::from_str(result).expect("initialize result");
                    sum += text(&r.protocol_version) + text(&r.server_info.name) + text(&r.server_info.version);
                    sum += opt(&r.instructions);
                }
                Method::Ping => {
                    let _: Empty = serde_json::from_str(result).expect("empty result");
                }
                other => unreachable!("not in the corpus: {other:?}"),
            }
            return sum;
        }
        let e: ErrorObject<'_> = serde_json::from_str(env.error.expect("error").get()).expect("error");
        sum + e.code.unsigned_abs() as usize + text(&e.message) + e.data.map_or(0, |d| d.get().len())
    }
}

// ---------------------------------------------------------------------------------------
// Measurement
// ---------------------------------------------------------------------------------------

struct Settings {
    only: Option<String>,
    passes: Option<usize>,
    rounds: usize,
    sample: Duration,
    class_sample: Duration,
}

impl Settings {
    fn from_env() -> Self {
        let num = |k: &str| std::env::var(k).ok().and_then(|v| v.parse::<u64>().ok());
        let quick = std::env::var("WIRE_BENCH_QUICK").is_ok_and(|v| !v.is_empty() && v != "0");
        let rounds = num("WIRE_BENCH_ROUNDS").unwrap_or(if quick { 3 } else { 15 }) as usize;
        let ms = num("WIRE_BENCH_SAMPLE_MS").unwrap_or(if quick { 10 } else { 80 });
        let only = std::env::var("WIRE_BENCH_ONLY").ok().filter(|v| !v.is_empty());
        let passes = num("WIRE_BENCH_PASSES").map(|n| n as usize);
        Settings {
            only,
            passes,
            rounds: rounds.max(1),
            sample: Duration::from_millis(ms),
            class_sample: Duration::from_millis(ms / 3 + 1),
        }
    }
}

type Pass<'a> = Box<dyn FnMut() -> usize + 'a>;

struct Candidate<'a> {
    name: &'static str,
    /// Messages and bytes one pass handles.
    messages: usize,
    bytes: usize,
    pass: Pass<'a>,
    /// Must allocate nothing (ours).
    zero_alloc: bool,
}

struct Measured {
    name: &'static str,
    messages: usize,
    bytes: usize,
    /// Median seconds per pass.
    seconds: f64,
    /// (min, max) seconds per pass over the rounds.
    spread: (f64, f64),
    allocs_per_message: f64,
}

/// The thread's CPU time on Linux (descheduled time excluded); wall time elsewhere.
#[cfg(target_os = "linux")]
fn now() -> Duration {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid, writable timespec.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

#[cfg(not(target_os = "linux"))]
fn now() -> Duration {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START.get_or_init(std::time::Instant::now).elapsed()
}

const CLOCK: &str = if cfg!(target_os = "linux") { "thread CPU time" } else { "wall time" };

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 { v[n / 2] } else { (v[n / 2 - 1] + v[n / 2]) / 2.0 }
}

/// Runs every candidate in interleaved, rotating rounds; returns median time per pass.
fn measure(cands: &mut Vec<Candidate<'_>>, settings: &Settings, sample: Duration) -> Vec<Measured> {
    let rounds = settings.rounds;
    if let Some(only) = &settings.only {
        match only.strip_prefix('=') {
            Some(exact) => cands.retain(|c| c.name == exact),
            None => cands.retain(|c| c.name.contains(only.as_str())),
        }
    }
    // Allocation count over exactly one pass (after one warm-up pass, so lazily grown
    // buffers are not counted against a steady state).
    let mut allocs = Vec::new();
    for c in cands.iter_mut() {
        black_box((c.pass)());
        let before = allocations();
        black_box((c.pass)());
        let n = allocations() - before;
        if c.zero_alloc {
            assert_eq!(n, 0, "{}: {n} heap allocations in one pass; ours must allocate nothing", c.name);
        }
        allocs.push(n as f64 / c.messages as f64);
    }
    if let Some(passes) = settings.passes {
        for c in cands.iter_mut() {
            for _ in 0..passes {
                black_box((c.pass)());
            }
            // For benches/wire_instructions.sh, which divides instruction counts by these.
            println!("passes\t{}\t{}\t{}\t{}", c.name, passes, c.messages, c.bytes);
        }
        let untimed = |(c, allocs_per_message): (&Candidate<'_>, f64)| Measured {
            name: c.name,
            messages: c.messages,
            bytes: c.bytes,
            seconds: f64::NAN,
            spread: (f64::NAN, f64::NAN),
            allocs_per_message,
        };
        return cands.iter().zip(allocs).map(untimed).collect();
    }
    // Calibrate: passes per sample so a sample lasts about `sample`.
    let mut reps = Vec::new();
    for c in cands.iter_mut() {
        let t = now();
        let mut n = 0;
        while (now() - t) < sample / 4 || n == 0 {
            black_box((c.pass)());
            n += 1;
        }
        let per = (now() - t).as_secs_f64() / n as f64;
        reps.push(((sample.as_secs_f64() / per).ceil() as usize).max(1));
    }
    let mut times = vec![Vec::with_capacity(rounds); cands.len()];
    for round in 0..rounds {
        for k in 0..cands.len() {
            let i = (k + round) % cands.len();
            let c = &mut cands[i];
            let t = now();
            for _ in 0..reps[i] {
                black_box((c.pass)());
            }
            times[i].push((now() - t).as_secs_f64() / reps[i] as f64);
        }
    }
    cands
        .iter()
        .zip(times.iter_mut())
        .zip(allocs)
        .map(|((c, t), allocs_per_message)| {
            let spread = (t.iter().copied().fold(f64::MAX, f64::min), t.iter().copied().fold(0.0, f64::max));
            Measured {
                name: c.name,
                messages: c.messages,
                bytes: c.bytes,
                seconds: median(t),
                spread,
                allocs_per_message,
            }
        })
        .collect()
}

fn print_table(title: &str, rows: &[Measured]) {
    println!("\n{title}");
    println!(
        "{:<52} {:>9} {:>12} {:>8} {:>9} {:>13}",
        "candidate", "MB/s", "messages/s", "ratio", "spread", "allocs/msg"
    );
    println!("{}", "-".repeat(108));
    let base = rows.iter().find(|r| r.name.contains("[baseline]")).map(|r| r.seconds);
    for r in rows {
        let mbs = r.bytes as f64 / r.seconds / 1e6;
        let mps = r.messages as f64 / r.seconds;
        let spread = (r.spread.1 - r.spread.0) / r.seconds * 100.0;
        let ratio = base.map_or("-".into(), |b| format!("{:.2}x", b / r.seconds));
        println!(
            "{:<52} {:>9.1} {:>12.0} {:>8} {:>8.0}% {:>13}",
            r.name,
            mbs,
            mps,
            ratio,
            spread,
            fmt_allocs(r.allocs_per_message)
        );
    }
}

fn fmt_allocs(a: f64) -> String {
    if a == 0.0 { "0".into() } else { format!("{a:.2}") }
}

const TYPED_SJ: &str = "serde_json typed by method (Cow text, RawValue)";
const TYPED_OURS: &str = "ours: typed by method (dispatch, items walked)";

type TypedFn = fn(&[u8], Option<Method<'_>>, &mut dyn FnMut(JsonStr<'_>) -> usize) -> usize;

/// A pass of `decode` (`ours::typed` or `ours::dispatched`) over `lines`, strings measured
/// without unescaping them.
fn typed_ours<'a>(lines: &'a [&'a [u8]], answers: &'a [Option<Method<'static>>], decode: TypedFn) -> Pass<'a> {
    Box::new(move || {
        let mut raw_len = |s: JsonStr<'_>| s.raw().len();
        lines.iter().zip(answers).map(|(l, m)| decode(black_box(l), *m, &mut raw_len)).sum()
    })
}

/// A pass of `sj::typed` over `lines`.
fn typed_sj<'a>(lines: &'a [&'a [u8]], answers: &'a [Option<Method<'static>>]) -> Pass<'a> {
    Box::new(move || lines.iter().zip(answers).map(|(l, m)| sj::typed(black_box(l), *m)).sum())
}

const CLASS_RAW: &str = "class: serde_json &RawValue envelope";
const CLASS_IGNORED: &str = "class: serde_json IgnoredAny";
const CLASS_OURS: &str = "class: ours Message::parse";

fn main() {
    let settings = Settings::from_env();
    let corpus = generate();
    let all_lines: Vec<&[u8]> = corpus.lines.iter().map(|(_, _, l)| l.as_slice()).collect();
    // The responses' methods come from the whole corpus, so that a class of responses can
    // be kept without the requests they answer.
    let all_answers = answering(&all_lines);
    let class = std::env::var("WIRE_BENCH_CLASS").ok().filter(|v| !v.is_empty());
    let keep = |i: usize| class.as_deref().is_none_or(|c| corpus.lines[i].0.label().contains(c));
    let lines: Vec<&[u8]> = (0..all_lines.len()).filter(|&i| keep(i)).map(|i| all_lines[i]).collect();
    let answers: Vec<Option<Method<'static>>> =
        (0..all_lines.len()).filter(|&i| keep(i)).map(|i| all_answers[i]).collect();
    let mut stream = Vec::new();
    for l in &lines {
        stream.extend_from_slice(l);
        stream.push(b'\n');
    }
    let line_bytes: usize = lines.iter().map(|l| l.len()).sum();
    let n = lines.len();
    if let Ok(path) = std::env::var("WIRE_BENCH_DUMP") {
        std::fs::write(&path, &stream).expect("WIRE_BENCH_DUMP: cannot write");
    }

    // ---- Corpus description and a correctness check of every candidate's view.
    println!("mcp-sansio wire benchmark");
    println!(
        "corpus: {n} messages, {line_bytes} bytes of JSON ({} with newlines), largest {} bytes; {} in json.dumps style",
        stream.len(),
        lines.iter().map(|l| l.len()).max().unwrap_or(0),
        corpus.lines.iter().filter(|(_, s, _)| *s == Style::Python).count()
    );
    println!("{:<36} {:>8} {:>10} {:>7} {:>9}", "class", "messages", "bytes", "share", "avg bytes");
    for class in Class::ALL {
        let (count, bytes) =
            corpus.lines.iter().filter(|(c, _, _)| *c == class).fold((0, 0), |(n, b), (_, _, l)| (n + 1, b + l.len()));
        if count == 0 {
            continue;
        }
        println!(
            "{:<36} {count:>8} {bytes:>10} {:>6.1}% {:>9}",
            class.label(),
            bytes as f64 / line_bytes as f64 * 100.0,
            bytes / count.max(1)
        );
    }
    let small = generate_small();
    let small_lines: Vec<&[u8]> = small.lines.iter().map(|(_, _, l)| l.as_slice()).collect();
    let small_bytes: usize = small_lines.iter().map(|l| l.len()).sum();
    let small_answers = answering(&small_lines);
    println!(
        "small-message corpus: {} messages, {small_bytes} bytes, largest {} bytes",
        small_lines.len(),
        small_lines.iter().map(|l| l.len()).max().unwrap_or(0)
    );
    let mut scratch = vec![0u8; 1 << 17];
    let mut unescaped = |s: JsonStr<'_>| s.unescaped_len();
    for (l, method) in lines.iter().zip(&answers).chain(small_lines.iter().zip(&small_answers)) {
        let ours = Message::parse(l).unwrap_or_else(|e| panic!("ours rejects {}: {e}", String::from_utf8_lossy(l)));
        let theirs = sj::envelope(l);
        assert_eq!(ours.kind() as usize, sj::kind(&theirs), "kinds differ");
        let (a, b) = (ours::decode(l, &mut scratch), sj::decode(l));
        assert_eq!(a, b, "typed decoders disagree on {}", String::from_utf8_lossy(l));
        let (a, b) = (ours::typed(l, *method, &mut unescaped), sj::typed(l, *method));
        assert_eq!(a, b, "typed-by-method decoders disagree on {}", String::from_utf8_lossy(l));
        assert_eq!(a, ours::typed_text(l, *method, &mut unescaped), "with and without spans");
        let mut len = |s: JsonStr<'_>| s.raw().len();
        let (a, b) = (ours::dispatched(l, *method, &mut len), ours::dispatched_text(l, *method, &mut len));
        assert_eq!(a, b, "with and without spans, items not walked");
    }
    println!(
        "settings: {} interleaved rounds of ~{} ms per candidate, clock: {CLOCK}; medians; MB = 10^6 bytes; \
         ratio = speed / baseline",
        settings.rounds,
        settings.sample.as_millis()
    );

    // ---- Decoding.
    let framer_cap = (lines.iter().map(|l| l.len()).max().unwrap() + 1).next_power_of_two().max(256 * 1024);
    const CHUNK: usize = 64 * 1024;
    let lines_ref = &lines;
    let stream_ref = &stream;
    let mut cands = vec![
        Candidate {
            name: "serde_json envelope, &RawValue members  [baseline]",
            messages: n,
            bytes: line_bytes,
            zero_alloc: false,
            pass: Box::new(move || lines_ref.iter().map(|l| sj::kind(&black_box(sj::envelope(black_box(l))))).sum()),
        },
        Candidate {
            name: "serde_json into IgnoredAny (validate only)",
            messages: n,
            bytes: line_bytes,
            zero_alloc: false,
            pass: Box::new(move || {
                lines_ref
                    .iter()
                    .map(|l| {
                        let v: IgnoredAny = serde_json::from_slice(black_box(l)).unwrap();
                        black_box(v);
                        1
                    })
                    .sum()
            }),
        },
        Candidate {
            name: "serde_json IgnoredAny + str::from_utf8 (strict)",
            messages: n,
            bytes: line_bytes,
            zero_alloc: false,
            pass: Box::new(move || {
                lines_ref
                    .iter()
                    .map(|l| {
                        // IgnoredAny skips strings without checking their UTF-8; we check it.
                        let v: IgnoredAny = serde_json::from_slice(black_box(l)).unwrap();
                        black_box(v);
                        std::str::from_utf8(l).is_ok() as usize
                    })
                    .sum()
            }),
        },
        Candidate {
            name: "serde_json into serde_json::Value",
            messages: n,
            bytes: line_bytes,
            zero_alloc: false,
            pass: Box::new(move || {
                lines_ref
                    .iter()
                    .map(|l| {
                        let v: serde_json::Value = serde_json::from_slice(black_box(l)).unwrap();
                        black_box(v).is_object() as usize
                    })
                    .sum()
            }),
        },
        Candidate {
            name: "ours: Message::parse (scan + classify)",
            messages: n,
            bytes: line_bytes,
            zero_alloc: true,
            pass: Box::new(move || {
                lines_ref.iter().map(|l| black_box(Message::parse(black_box(l)).unwrap()).kind() as usize).sum()
            }),
        },
        Candidate {
            name: "ours: LineFramer + Message::parse (64 KiB reads)",
            messages: n,
            bytes: stream.len(),
            zero_alloc: true,
            pass: {
                let mut buf = vec![0u8; framer_cap];
                Box::new(move || {
                    let mut framer = LineFramer::new(&mut buf);
                    let mut sum = 0;
                    for mut chunk in stream_ref.chunks(CHUNK) {
                        while !chunk.is_empty() {
                            let k = framer.feed(chunk);
                            chunk = &chunk[k..];
                            while let Some(line) = framer.next_line() {
                                let m = Message::parse(black_box(line.unwrap())).unwrap();
                                sum += black_box(m).kind() as usize;
                            }
                        }
                    }
                    framer.close();
                    assert!(framer.next_line().is_none());
                    sum
                })
            },
        },
        Candidate {
            name: "serde_json envelope + typed params (Cow text)",
            messages: n,
            bytes: line_bytes,
            zero_alloc: false,
            pass: Box::new(move || lines_ref.iter().map(|l| sj::decode(black_box(l))).sum()),
        },
        Candidate {
            name: "ours: parse + typed params (span decoder, JsonStr)",
            messages: n,
            bytes: line_bytes,
            zero_alloc: true,
            pass: {
                let mut scratch = vec![0u8; 1 << 17];
                Box::new(move || lines_ref.iter().map(|l| ours::decode(black_box(l), &mut scratch)).sum())
            },
        },
        Candidate {
            name: TYPED_SJ,
            messages: n,
            bytes: line_bytes,
            zero_alloc: false,
            pass: typed_sj(lines_ref, &answers),
        },
        Candidate {
            name: TYPED_OURS,
            messages: n,
            bytes: line_bytes,
            zero_alloc: true,
            pass: typed_ours(lines_ref, &answers, ours::typed),
        },
        Candidate {
            name: "ours: typed by method (dispatch, items not walked)",
            messages: n,
            bytes: line_bytes,
            zero_alloc: true,
            pass: typed_ours(lines_ref, &answers, ours::dispatched),
        },
        Candidate {
            name: "ours: typed by method, no spans (items walked)",
            messages: n,
            bytes: line_bytes,
            zero_alloc: true,
            pass: typed_ours(lines_ref, &answers, ours::typed_text),
        },
        Candidate {
            name: "ours: typed by method, no spans (items not walked)",
            messages: n,
            bytes: line_bytes,
            zero_alloc: true,
            pass: typed_ours(lines_ref, &answers, ours::dispatched_text),
        },
    ];
    let decoding = measure(&mut cands, &settings, settings.sample);
    drop(cands);

    // ---- The small-message corpus.
    let small_ref = &small_lines;
    let sn = small_lines.len();
    let mut cands = vec![
        Candidate {
            name: "small: serde_json envelope, &RawValue  [baseline]",
            messages: sn,
            bytes: small_bytes,
            zero_alloc: false,
            pass: Box::new(move || small_ref.iter().map(|l| sj::kind(&black_box(sj::envelope(black_box(l))))).sum()),
        },
        Candidate {
            name: "small: serde_json into IgnoredAny",
            messages: sn,
            bytes: small_bytes,
            zero_alloc: false,
            pass: Box::new(move || {
                small_ref
                    .iter()
                    .map(|l| black_box(serde_json::from_slice::<IgnoredAny>(black_box(l)).is_ok()) as usize)
                    .sum()
            }),
        },
        Candidate {
            name: "small: ours Message::parse",
            messages: sn,
            bytes: small_bytes,
            zero_alloc: true,
            pass: Box::new(move || {
                small_ref.iter().map(|l| black_box(Message::parse(black_box(l)).unwrap()).kind() as usize).sum()
            }),
        },
        Candidate {
            name: "small: serde_json typed by method",
            messages: sn,
            bytes: small_bytes,
            zero_alloc: false,
            pass: typed_sj(small_ref, &small_answers),
        },
        Candidate {
            name: "small: ours typed by method",
            messages: sn,
            bytes: small_bytes,
            zero_alloc: true,
            pass: typed_ours(small_ref, &small_answers, ours::typed),
        },
        Candidate {
            name: "small: ours typed by method, items not walked",
            messages: sn,
            bytes: small_bytes,
            zero_alloc: true,
            pass: typed_ours(small_ref, &small_answers, ours::dispatched),
        },
        Candidate {
            name: "small: ours typed by method, no spans",
            messages: sn,
            bytes: small_bytes,
            zero_alloc: true,
            pass: typed_ours(small_ref, &small_answers, ours::typed_text),
        },
        Candidate {
            name: "small: ours typed by method, no spans, items not walked",
            messages: sn,
            bytes: small_bytes,
            zero_alloc: true,
            pass: typed_ours(small_ref, &small_answers, ours::dispatched_text),
        },
    ];
    let small_decoding = measure(&mut cands, &settings, settings.sample);
    drop(cands);

    // ---- Encoding the server's responses.
    let ids: Vec<Option<RequestId>> = corpus
        .responses
        .iter()
        .map(|r| match r {
            Response::Initialize(id, _)
            | Response::ListTools(id, _)
            | Response::CallTool(id, _)
            | Response::ReadResource(id, _)
            | Response::Empty(id) => Some(id.ours()),
            Response::Error(id, _) => id.as_ref().map(Id::ours),
        })
        .collect();
    let responses = &corpus.responses;
    let mut out_bytes = 0;
    let mut max_frame = 0;
    {
        let mut theirs = Vec::new();
        let mut buf = vec![0u8; 1 << 20];
        for (r, id) in responses.iter().zip(&ids) {
            theirs.clear();
            serde_json_response(&mut theirs, r).unwrap();
            theirs.push(b'\n');
            let mut w = FrameWriter::new(&mut buf);
            ours_response(&mut w, id.as_ref(), r);
            assert_eq!(w.as_bytes(), &theirs[..], "encoders disagree");
            out_bytes += theirs.len();
            max_frame = max_frame.max(theirs.len());
        }
    }
    let ids_ref = &ids;
    let mut cands = vec![
        Candidate {
            name: "serde_json::to_writer into a reused Vec  [baseline]",
            messages: responses.len(),
            bytes: out_bytes,
            zero_alloc: false,
            pass: {
                let mut out = Vec::with_capacity(max_frame);
                Box::new(move || {
                    let mut sum = 0;
                    for r in responses {
                        out.clear();
                        serde_json_response(&mut out, r).unwrap();
                        out.push(b'\n');
                        sum += black_box(&out).len();
                    }
                    sum
                })
            },
        },
        Candidate {
            name: "ours: FrameWriter into a reused buffer",
            messages: responses.len(),
            bytes: out_bytes,
            zero_alloc: true,
            pass: {
                let mut buf = vec![0u8; max_frame];
                Box::new(move || {
                    let mut sum = 0;
                    for (r, id) in responses.iter().zip(ids_ref) {
                        let mut w = FrameWriter::new(&mut buf);
                        sum += ours_response(&mut w, id.as_ref(), r);
                        black_box(w.as_bytes());
                    }
                    sum
                })
            },
        },
    ];
    let encoding = measure(&mut cands, &settings, settings.sample);
    drop(cands);

    // ---- Per message class: where scan + classify stands against serde_json.
    let mut by_class = Vec::new();
    for class in Class::ALL {
        let subset: Vec<&[u8]> =
            corpus.lines.iter().filter(|(c, _, _)| *c == class).map(|(_, _, l)| l.as_slice()).collect();
        if subset.is_empty() {
            continue;
        }
        let bytes = subset.iter().map(|l| l.len()).sum();
        let subset = &subset;
        let mut cands = vec![
            Candidate {
                name: CLASS_RAW,
                messages: subset.len(),
                bytes,
                zero_alloc: false,
                pass: Box::new(move || subset.iter().map(|l| sj::kind(&black_box(sj::envelope(black_box(l))))).sum()),
            },
            Candidate {
                name: CLASS_IGNORED,
                messages: subset.len(),
                bytes,
                zero_alloc: false,
                pass: Box::new(move || {
                    subset
                        .iter()
                        .map(|l| black_box(serde_json::from_slice::<IgnoredAny>(black_box(l)).is_ok()) as usize)
                        .sum()
                }),
            },
            Candidate {
                name: CLASS_OURS,
                messages: subset.len(),
                bytes,
                zero_alloc: true,
                pass: Box::new(move || {
                    subset.iter().map(|l| black_box(Message::parse(black_box(l)).unwrap()).kind() as usize).sum()
                }),
            },
        ];
        by_class.push((class, measure(&mut cands, &settings, settings.class_sample)));
    }

    // ---- Report.
    print_table(
        &format!("DECODING {n} messages / {line_bytes} bytes per pass (framing row: {} bytes of stream)", stream.len()),
        &decoding,
    );
    print_table(
        &format!("DECODING THE SMALL-MESSAGE CORPUS, {sn} messages / {small_bytes} bytes per pass"),
        &small_decoding,
    );
    print_table(
        &format!(
            "ENCODING {} responses / {out_bytes} bytes per pass (byte-identical output, checked)",
            responses.len()
        ),
        &encoding,
    );
    println!("\nSCAN + CLASSIFY BY MESSAGE CLASS (MB/s; ratio = ours / serde_json &RawValue envelope)");
    println!(
        "{:<36} {:>10} {:>10} {:>10} {:>8} {:>10}",
        "class", "RawValue", "IgnoredAny", "ours", "ratio", "ours/Ign."
    );
    println!("{}", "-".repeat(90));
    for (class, rows) in &by_class {
        let speed = |name: &str| rows.iter().find(|r| r.name == name).map(|r| r.bytes as f64 / r.seconds / 1e6);
        let (raw, ign, ours) = (speed(CLASS_RAW), speed(CLASS_IGNORED), speed(CLASS_OURS));
        let mbs = |v: Option<f64>| v.map_or("-".into(), |v| format!("{v:.1}"));
        let ratio = |a: Option<f64>, b: Option<f64>| a.zip(b).map_or("-".into(), |(a, b)| format!("{:.2}x", a / b));
        println!(
            "{:<36} {:>10} {:>10} {:>10} {:>8} {:>10}",
            class.label(),
            mbs(raw),
            mbs(ign),
            mbs(ours),
            ratio(ours, raw),
            ratio(ours, ign)
        );
    }
    println!(
        "\nallocations are counted over one full pass (after a warm-up pass); ours are asserted to be 0.\n\
         spread = (slowest - fastest sample) / median. Timings are never asserted."
    );
}
