//! A tools-and-resources MCP server loop, written twice: with the vocabulary types and
//! with hand-written structs over the wire layer alone. The probes in `src/bin` link one
//! or the other, so the difference is what the vocabulary costs such a server.
#![no_std]

use core::hint::black_box;

use mcp_sansio::mcp::{
    CallToolParams, CallToolResult, Implementation, InitializeParams, InitializeResult, ListChanged,
    ListResourcesResult, ListToolsResult, Method, ProtocolVersion, ReadResourceParams, ReadResourceResult, Resource,
    ResourceContents, ResourcesCapability, ServerCapabilities, Tool,
};
use mcp_sansio::wire::{ErrorCode, ErrorId, FrameWriter, JsonStr, Message, RawJson, RequestIdRef};
use serde::{Deserialize, Serialize};

/// Stops the program; with `panic = "abort"` and no formatting this stays tiny.
#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    loop {}
}

/// Bytes the compiler cannot see through, as if read from a UART.
pub fn opaque<const N: usize>() -> [u8; N] {
    let mut buf = [0u8; N];
    black_box(&mut buf);
    buf
}

#[derive(Deserialize)]
struct AddArgs {
    a: f64,
    b: f64,
}

const SCHEMA: &[u8] =
    br#"{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}"#;

/// One request in, one response out, with the vocabulary's types.
pub fn serve_vocab(frame: &[u8], out: &mut [u8]) -> usize {
    let Ok(Message::Request(r)) = Message::parse(frame) else { return 0 };
    let mut w = FrameWriter::new(out);
    let id = r.id;
    let written = match Method::parse(r.method) {
        Method::Initialize => {
            let Some(Ok(p)) = r.params.map(|p| p.decode::<InitializeParams<'_>>()) else { return bad(&mut w, id) };
            let version = ProtocolVersion::from_json(p.protocol_version).unwrap_or(ProtocolVersion::LATEST_HANDSHAKE);
            let caps = ServerCapabilities {
                tools: Some(ListChanged::NO),
                resources: Some(ResourcesCapability::default()),
                ..ServerCapabilities::default()
            };
            w.result(id, &InitializeResult::new(version, caps, Implementation::new("probe", "1.0")))
        }
        Method::ToolsList => {
            let Ok(schema) = RawJson::parse(SCHEMA) else { return 0 };
            let tools = [Tool::new("add", schema).with_description("Adds a and b")];
            w.result(id, &ListToolsResult::new(&tools))
        }
        Method::ToolsCall => {
            let Some(Ok(call)) = r.params.map(|p| p.decode::<CallToolParams<'_>>()) else { return bad(&mut w, id) };
            if !call.name.eq_str("add") {
                return bad(&mut w, id);
            }
            match call.arguments.map(|a| a.decode::<AddArgs>()) {
                Some(Ok(args)) => {
                    let sum = args.a + args.b;
                    let text = if sum > 0.0 { "positive" } else { "not positive" };
                    w.result(id, &CallToolResult::text(text))
                }
                _ => w.result(id, &CallToolResult::error("a and b must be numbers")),
            }
        }
        Method::ResourcesList => {
            let resources = [Resource::new("file:///notes.txt", "notes").with_mime_type("text/plain")];
            w.result(id, &ListResourcesResult::new(&resources))
        }
        Method::ResourcesRead => {
            let Some(Ok(read)) = r.params.map(|p| p.decode::<ReadResourceParams<'_>>()) else { return bad(&mut w, id) };
            let contents = [ResourceContents::text("file:///notes.txt", Some("text/plain"), "hello")];
            if !read.uri.eq_str("file:///notes.txt") {
                return bad(&mut w, id);
            }
            w.result(id, &ReadResourceResult::new(&contents))
        }
        _ => w.error(ErrorId::Id(id), ErrorCode::METHOD_NOT_FOUND, "Method not found"),
    };
    written.map_or(0, |r| r.len())
}

fn bad(w: &mut FrameWriter<'_>, id: RequestIdRef<'_>) -> usize {
    w.error(ErrorId::Id(id), ErrorCode::INVALID_PARAMS, "Invalid params").map_or(0, |r| r.len())
}

// ---- the same server with hand-written structs over the wire layer ----

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct HandInit<'a> {
    #[serde(borrow)]
    protocol_version: JsonStr<'a>,
}

#[derive(Deserialize)]
struct HandCall<'a> {
    #[serde(borrow)]
    name: JsonStr<'a>,
    #[serde(borrow)]
    arguments: Option<RawJson<'a>>,
}

#[derive(Deserialize)]
struct HandRead<'a> {
    #[serde(borrow)]
    uri: JsonStr<'a>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct HandInitResult<'a> {
    protocol_version: &'a str,
    capabilities: RawJson<'a>,
    server_info: HandInfo<'a>,
}

#[derive(Serialize)]
struct HandInfo<'a> {
    name: &'a str,
    version: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct HandTool<'a> {
    name: &'a str,
    description: &'a str,
    input_schema: RawJson<'a>,
}

#[derive(Serialize)]
struct HandTools<'a> {
    tools: [HandTool<'a>; 1],
}

#[derive(Serialize)]
struct HandText<'a> {
    #[serde(rename = "type")]
    ty: &'a str,
    text: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct HandCallResult<'a> {
    content: [HandText<'a>; 1],
    #[serde(skip_serializing_if = "Option::is_none")]
    is_error: Option<bool>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct HandResource<'a> {
    uri: &'a str,
    name: &'a str,
    mime_type: &'a str,
}

#[derive(Serialize)]
struct HandResources<'a> {
    resources: [HandResource<'a>; 1],
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct HandContents<'a> {
    uri: &'a str,
    mime_type: &'a str,
    text: &'a str,
}

#[derive(Serialize)]
struct HandRead2<'a> {
    contents: [HandContents<'a>; 1],
}

/// One request in, one response out, with hand-written structs and string matching.
pub fn serve_hand(frame: &[u8], out: &mut [u8]) -> usize {
    let Ok(Message::Request(r)) = Message::parse(frame) else { return 0 };
    let mut w = FrameWriter::new(out);
    let id = r.id;
    let m = r.method;
    let written = if m.eq_str("initialize") {
        let Some(Ok(p)) = r.params.map(|p| p.decode::<HandInit<'_>>()) else { return bad(&mut w, id) };
        let v = if p.protocol_version.eq_str("2025-06-18") { "2025-06-18" } else { "2025-11-25" };
        let Ok(caps) = RawJson::parse(br#"{"tools":{},"resources":{}}"#) else { return 0 };
        w.result(
            id,
            &HandInitResult {
                protocol_version: v,
                capabilities: caps,
                server_info: HandInfo { name: "probe", version: "1.0" },
            },
        )
    } else if m.eq_str("tools/list") {
        let Ok(schema) = RawJson::parse(SCHEMA) else { return 0 };
        w.result(
            id,
            &HandTools { tools: [HandTool { name: "add", description: "Adds a and b", input_schema: schema }] },
        )
    } else if m.eq_str("tools/call") {
        let Some(Ok(call)) = r.params.map(|p| p.decode::<HandCall<'_>>()) else { return bad(&mut w, id) };
        if !call.name.eq_str("add") {
            return bad(&mut w, id);
        }
        match call.arguments.map(|a| a.decode::<AddArgs>()) {
            Some(Ok(args)) => {
                let text = if args.a + args.b > 0.0 { "positive" } else { "not positive" };
                w.result(id, &HandCallResult { content: [HandText { ty: "text", text }], is_error: None })
            }
            _ => w.result(
                id,
                &HandCallResult {
                    content: [HandText { ty: "text", text: "a and b must be numbers" }],
                    is_error: Some(true),
                },
            ),
        }
    } else if m.eq_str("resources/list") {
        w.result(
            id,
            &HandResources {
                resources: [HandResource { uri: "file:///notes.txt", name: "notes", mime_type: "text/plain" }],
            },
        )
    } else if m.eq_str("resources/read") {
        let Some(Ok(read)) = r.params.map(|p| p.decode::<HandRead<'_>>()) else { return bad(&mut w, id) };
        if !read.uri.eq_str("file:///notes.txt") {
            return bad(&mut w, id);
        }
        w.result(
            id,
            &HandRead2 {
                contents: [HandContents { uri: "file:///notes.txt", mime_type: "text/plain", text: "hello" }],
            },
        )
    } else {
        w.error(ErrorId::Id(id), ErrorCode::METHOD_NOT_FOUND, "Method not found")
    };
    written.map_or(0, |r| r.len())
}

/// Every request's params decoded by method (the whole request vocabulary).
pub fn dispatch_all(frame: &[u8]) -> usize {
    match Message::parse(frame) {
        Ok(Message::Request(r)) => {
            mcp_sansio::mcp::decode_request(Method::parse(r.method), r.params).map_or(0, |p| core::mem::size_of_val(&p))
        }
        Ok(Message::Notification(n)) => mcp_sansio::mcp::decode_notification(Method::parse(n.method), n.params)
            .map_or(0, |p| core::mem::size_of_val(&p)),
        _ => 0,
    }
}

/// Every result decoded by the method it answers (the whole result vocabulary).
pub fn decode_all_results(frame: &[u8], method: u8) -> usize {
    let Ok(Message::Response(r)) = Message::parse(frame) else { return 0 };
    let m = mcp_sansio::mcp::all_methods().nth(method as usize).map_or(Method::Ping, |(m, _)| m);
    mcp_sansio::mcp::decode_result(m, r.result).map_or(0, |p| core::mem::size_of_val(&p))
}
