//! What the size probes exercise: each piece of the wire layer an MCU server needs.
//!
//! Every `src/bin/*.rs` is a `no_std`, `no_main` binary whose `_start` calls some of these
//! with opaque inputs, so the linker keeps exactly the code those pieces need.
#![no_std]

use core::hint::black_box;

use mcp_sansio::framing::LineFramer;
use mcp_sansio::framing::sse::{SseDecoder, SseWriter};
use mcp_sansio::http::headers::{
    Accept, HostPort, MediaType, Origin, WwwAuthenticate, decode_param_value, protocol_version, session_id,
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

/// Validate + classify one frame, and look at what a server dispatches on.
pub fn classify(frame: &[u8]) -> Option<Message<'_>> {
    match Message::parse(frame) {
        Ok(m) => {
            black_box(m.kind());
            Some(m)
        }
        Err(e) => {
            // The reply a broken frame needs: its code, and whether to send one at all.
            black_box((e.code().0, e.should_reply(), e.id.map(|id| id.as_token())));
            None
        }
    }
}

#[derive(Deserialize)]
struct CallToolParams<'a> {
    #[serde(borrow)]
    name: JsonStr<'a>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Arguments<'a> {
    #[serde(borrow)]
    text: JsonStr<'a>,
    max_results: Option<u32>,
}

/// Typed decoding of `tools/call` params: the name and the arguments, text unescaped.
pub fn decode_call(params: RawJson<'_>, scratch: &mut [u8]) -> usize {
    let Ok(p) = params.decode::<CallToolParams<'_>>() else { return 0 };
    if !p.name.eq_str("echo") {
        return 1;
    }
    let Some(Ok(args)) = params.get("arguments").map(|a| a.decode::<Arguments<'_>>()) else { return 2 };
    let max = args.max_results.unwrap_or(10) as usize;
    args.text.to_str(scratch).map_or(3, |t| t.len() + max)
}

#[derive(Deserialize)]
struct ProgressParams {
    progress: f64,
    total: Option<f64>,
}

/// Typed decoding with floating-point fields (`notifications/progress`).
pub fn decode_progress(params: RawJson<'_>) -> u32 {
    match params.decode::<ProgressParams>() {
        Ok(p) => (p.progress * 100.0 / p.total.unwrap_or(1.0)) as u32,
        Err(_) => 0,
    }
}

#[derive(Serialize)]
struct TextContent<'a> {
    #[serde(rename = "type")]
    ty: &'static str,
    text: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CallToolResult<'a> {
    content: [TextContent<'a>; 1],
    is_error: bool,
}

/// Encoding a result and an error response.
pub fn encode(out: &mut [u8], id: RequestIdRef<'_>, text: &str) -> usize {
    let mut w = FrameWriter::new(out);
    let result = CallToolResult { content: [TextContent { ty: "text", text }], is_error: false };
    let a = w.result(id, &result).map_or(0, |r| r.len());
    let b = w.error(ErrorId::Id(id), ErrorCode::INVALID_PARAMS, "Unknown tool").map_or(0, |r| r.len());
    a + b
}

/// Cutting a byte stream into lines; `on_line` gets each complete one.
pub fn frame_lines(buf: &mut [u8], mut input: &[u8], mut on_line: impl FnMut(&[u8])) {
    let mut framer = LineFramer::new(buf);
    while !input.is_empty() {
        let n = framer.feed(input);
        input = &input[n..];
        while let Some(line) = framer.next_line() {
            match line {
                Ok(line) => on_line(line),
                Err(e) => {
                    black_box(e);
                }
            }
        }
    }
}

/// Decoding an event stream (an HTTP client's response body); `on_message` gets each
/// JSON-RPC message, and the last event id and retry are read as a reconnect would.
pub fn sse_decode(buf: &mut [u8], mut input: &[u8], mut on_message: impl FnMut(&[u8])) -> usize {
    let mut sse = SseDecoder::new(buf);
    while !input.is_empty() {
        let n = sse.feed(input);
        input = &input[n..];
        while let Some(event) = sse.next_event() {
            match event {
                Ok(event) => {
                    if let Some(message) = event.message() {
                        on_message(message);
                    }
                }
                Err(e) => {
                    black_box(e);
                }
            }
        }
    }
    sse.close();
    while let Some(event) = sse.next_event() {
        black_box(event.is_ok());
    }
    black_box(sse.retry());
    sse.last_event_id().len()
}

/// Writing what a Streamable HTTP server sends on a stream: the priming event, a
/// message, a keep-alive comment and a retry.
pub fn sse_encode(out: &mut [u8], id: &str, json: &[u8]) -> usize {
    let mut w = SseWriter::new(out);
    let _ = w.priming(id, Some(1000));
    let _ = w.message(None, Some(id), json);
    let _ = w.comment("keep-alive");
    let _ = w.retry(5000);
    w.len()
}

/// The header checks a Streamable HTTP server makes on a POST, and the challenge a
/// client reads from a 401.
pub fn http_headers(values: &[&[u8]; 8], scratch: &mut [u8]) -> u32 {
    let mut ok = 0u32;
    ok += u32::from(Accept::parse(values[0]).is_ok_and(|a| a.allows_json_and_event_stream()));
    ok += u32::from(MediaType::parse(values[1]).is_ok_and(|m| m.is("application", "json")));
    ok += u32::from(session_id(values[2]).is_ok());
    ok += u32::from(protocol_version(values[3]).is_ok());
    ok += u32::from(Origin::parse(values[4]).is_ok_and(|o| o.is_loopback()));
    ok += u32::from(HostPort::parse(values[5]).is_ok_and(|h| h.host.is_loopback()));
    ok += decode_param_value(values[6], scratch).map_or(0, |v| v.len() as u32);
    if let Some(bearer) = WwwAuthenticate::parse(values[7]).ok().and_then(|w| w.bearer()) {
        if let Some(url) = bearer.resource_metadata {
            ok += url.unescape(scratch).map_or(0, |u| u.len() as u32);
        }
        ok += u32::from(bearer.error.is_some_and(|e| e.eq_bytes(b"insufficient_scope")));
    }
    ok
}

/// The HTTP server core: a request head classified and refused or accepted, its body
/// classified, a session id minted and signed and checked, the session table, and one
/// POST's stream from message to SSE bytes.
pub fn http_server(raw: &[u8; 512], out: &mut [u8; 1536]) -> usize {
    use mcp_sansio::http::server::{
        AuthVerdict, IdMinter, RequestHead, ServerConfig, SessionKey, SessionTable, SessionTicket, Slots, StreamConfig,
        Streams, classify, classify_body,
    };
    use mcp_sansio::mcp::CapabilitySet;
    use mcp_sansio::{Instant, ProtocolVersion};

    let text = |r: core::ops::Range<usize>| core::str::from_utf8(&raw[r]).unwrap_or("");
    let headers: [(&str, &[u8]); 6] = [
        (text(0..8), &raw[8..40]),
        (text(40..48), &raw[48..80]),
        (text(80..88), &raw[88..120]),
        (text(120..128), &raw[128..160]),
        (text(160..168), &raw[168..200]),
        (text(200..208), &raw[208..240]),
    ];
    let config = ServerConfig::new();
    let head = RequestHead::new(text(240..244), text(244..256), &headers[..]);
    let mut written = 0;
    match classify(&config, &head, AuthVerdict::Allow) {
        Err(refusal) => {
            if let Ok(r) = refusal.write(&config, None, out) {
                written += r.body.len() + r.field_lines().len();
            }
        }
        Ok(c) => {
            let body = &raw[256..512];
            if let Err(bad) = classify_body(body, false, 64) {
                let refusal = mcp_sansio::http::server::Refusal::BadRequest(bad);
                if let Ok(r) = refusal.write(&config, c.protocol_version, out) {
                    written += r.body.len();
                }
                return written;
            }
            let mut minter = IdMinter::new([raw[0]; 16]);
            let key = SessionKey::new([raw[1]; 16]);
            let ticket =
                SessionTicket { version: ProtocolVersion::V2025_11_25, client_capabilities: CapabilitySet::EMPTY };
            let id = key.sign(ticket, &mut minter);
            written += usize::from(key.verify(c.session_id.unwrap_or("")).is_some());
            let mut table: SessionTable<Streams<[u8; 1024], 2, 2>, Slots<Streams<[u8; 1024], 2, 2>, 2>> =
                SessionTable::new(Slots::new(), config.idle_timeout);
            let streams = Streams::new([0u8; 1024], StreamConfig::default(), 7, Some(ProtocolVersion::V2025_11_25));
            let now = Instant::from_millis(u64::from(raw[2]));
            if let Ok(h) = table.open(now, id, streams)
                && let Some(s) = table.get_mut(h)
            {
                if let Ok(origin) = s.open_post(now, 1, 1) {
                    let _ = s.push(now, Some(origin), body, true);
                }
                while let Some(o) = s.poll() {
                    black_box(o);
                }
                written += s.read(now, 1, out).n;
                s.handle_timeout(now);
                black_box(s.poll_timeout());
            }
            while let Some(expired) = table.expire(now) {
                black_box(expired.0);
            }
        }
    }
    written
}

/// The session probes' server (`session`, `session_full`), generic over the endpoint's
/// profile so that each binary links exactly one: an `Endpoint<'_, 4, 4, &mut [u8], E>`
/// server fed opaque bytes. It answers `initialize` and `ping` itself, refuses what is not
/// allowed, and the application answers `tools/call` with a text result and everything
/// else with an error; timeouts and end of input are handled.
pub fn serve_tools<E: mcp_sansio::session::Profile>() -> ! {
    use mcp_sansio::mcp::{Method, Role};
    use mcp_sansio::session::{Config, Endpoint, Event, Output};
    use mcp_sansio::time::Instant;

    let input = opaque::<512>();
    let mut rx = [0u8; 1024];
    let mut tx = [0u8; 2048];
    let info = RawJson::parse(br#"{"name":"mcu","version":"1"}"#).unwrap_or(RawJson::EMPTY_OBJECT);
    let caps = RawJson::parse(br#"{"tools":{}}"#).unwrap_or(RawJson::EMPTY_OBJECT);
    let config = Config::new(Role::Server, info).capabilities(caps);
    let Ok(mut ep) = Endpoint::<'_, 4, 4, &mut [u8], E>::new(config, &mut rx, &mut tx, Instant::ZERO) else { loop {} };
    let result = RawJson::parse(br#"{"content":[{"type":"text","text":"ok"}]}"#).unwrap_or(RawJson::EMPTY_OBJECT);
    let mut now = 0u64;
    loop {
        now += black_box(1);
        let t = Instant::from_millis(now);
        let n = ep.handle_input(t, &input);
        if n == 0 {
            ep.handle_timeout(t);
        }
        if black_box(now) == 0 {
            ep.handle_eof(t);
        }
        loop {
            match ep.poll_output() {
                Output::Transmit(bytes) => {
                    black_box(&bytes);
                }
                Output::Event(Event::Request(mut req)) => {
                    let _ = if req.method == Method::ToolsCall {
                        req.respond(&result)
                    } else {
                        req.respond_error(ErrorCode::METHOD_NOT_FOUND, "Method not found")
                    };
                }
                Output::Event(e) => {
                    black_box(&e);
                }
                Output::Idle { next_timeout } => {
                    black_box(next_timeout);
                    break;
                }
            }
        }
    }
}
