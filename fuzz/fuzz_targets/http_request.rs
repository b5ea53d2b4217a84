//! The HTTP server core's request classifier on arbitrary requests: no panic, and every
//! refusal is a well-formed response: a status the core uses, field lines without stray
//! CR/LF, and (but for a bare 404) an id-less JSON-RPC error body that parses as one.
//! Accepted POSTs go on to the body classifier, whose refusals are checked the same way.
//!
//! Input: byte 0 picks the configuration (bit 0: any host, bit 1: any origin, bit 2:
//! no GET stream, bit 3: no DELETE, bit 4: a 64-byte body cap, bit 5: no legacy paths,
//! bit 6: batches allowed, bit 7: an auth verdict other than allow); then a request
//! head as text, `METHOD TARGET` and `Name: value` lines separated by `\n`, up to a blank
//! line; the rest is the body.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_sansio::ProtocolVersion;
use mcp_sansio::http::server::{
    AuthVerdict, BadRequest, HostPolicy, MIN_RESPONSE_BUFFER, OriginPolicy, Refusal, RequestHead, RequestKind,
    Response, ServerConfig, classify, classify_body,
};
use mcp_sansio::wire::{DEFAULT_MAX_DEPTH, Message};

const STATUSES: [u16; 11] = [400, 401, 403, 404, 405, 406, 413, 415, 503, 200, 202];

fuzz_target!(|data: &[u8]| {
    let Some((&flags, rest)) = data.split_first() else { return };
    let mut config = ServerConfig::new();
    if flags & 1 != 0 {
        config.hosts = HostPolicy::Any;
    }
    if flags & 2 != 0 {
        config.origins = OriginPolicy::Any;
    }
    config.get_stream = flags & 4 == 0;
    config.delete = flags & 8 == 0;
    if flags & 16 != 0 {
        config.max_body = 64;
    }
    if flags & 32 != 0 {
        config.legacy_sse_path = None;
    }
    config.auth.resource_metadata = Some("https://mcp.example/.well-known/oauth-protected-resource");
    let split = rest.windows(2).position(|w| w == b"\n\n").unwrap_or(rest.len());
    let (head, body) = (&rest[..split], rest.get(split + 2..).unwrap_or(&[]));
    let Ok(head) = core::str::from_utf8(head) else { return };
    let mut lines = head.split('\n');
    let request_line = lines.next().unwrap_or("");
    let (method, target) = request_line.split_once(' ').unwrap_or((request_line, "/"));
    let mut headers: [(&str, &[u8]); 24] = [("", &[]); 24];
    let mut n = 0;
    for line in lines.take(24) {
        let (name, value) = line.split_once(':').unwrap_or((line, ""));
        headers[n] = (name, value.as_bytes());
        n += 1;
    }
    let headers = &headers[..n];
    let head = RequestHead::new(method, target, headers);
    let verdict = if flags & 128 != 0 {
        if body.first().is_some_and(|b| b & 1 != 0) {
            AuthVerdict::InsufficientScope { scope: Some("a b"), description: Some("need \"more\"") }
        } else {
            AuthVerdict::Unauthorized { error: Some("invalid_token"), description: None }
        }
    } else {
        AuthVerdict::Allow
    };
    let version = headers.iter().find_map(|(n, v)| {
        n.eq_ignore_ascii_case("mcp-protocol-version").then(|| mcp_sansio::http::headers::protocol_version(v).ok())?
    });
    match classify(&config, &head, verdict) {
        Err(refusal) => check_refusal(&config, refusal, version),
        Ok(c) => {
            assert!(c.session_id.is_none_or(|s| !s.is_empty() && s.bytes().all(|b| (0x21..=0x7E).contains(&b))));
            assert!(c.content_length.is_none_or(|l| l <= config.max_body as u64));
            if matches!(c.kind, RequestKind::Post | RequestKind::LegacyPost)
                && let Err(bad) = classify_body(body, flags & 64 != 0, DEFAULT_MAX_DEPTH)
            {
                check_refusal(&config, Refusal::BadRequest(bad), c.protocol_version);
                if let BadRequest::InvalidMessage(_) | BadRequest::InvalidJson | BadRequest::InitializeInBatch = bad {
                } else {
                    panic!("body refusal {bad:?}");
                }
            }
        }
    }
});

fn check_refusal(config: &ServerConfig<'_>, refusal: Refusal<'_>, version: Option<ProtocolVersion>) {
    let mut out = [0u8; MIN_RESPONSE_BUFFER];
    let response: Response<'_> = refusal.write(config, version, &mut out).expect("refusals fit the minimum buffer");
    assert!(STATUSES.contains(&response.status), "{}", response.status);
    assert_eq!(response.status, refusal.status());
    let fields = response.field_lines();
    assert!(fields.is_empty() || fields.ends_with(b"\r\n"));
    for line in fields.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        let line = line.strip_suffix(b"\r").expect("CRLF line ends");
        assert!(!line.contains(&b'\r'));
    }
    assert_eq!(response.headers().count(), fields.split(|&b| b == b'\n').filter(|l| !l.is_empty()).count());
    if refusal == Refusal::NoSuchPath {
        assert!(response.body.is_empty());
        return;
    }
    assert_eq!(response.header("content-type"), Some("application/json"));
    match Message::parse(response.body) {
        Ok(Message::Error(e)) => assert!(e.id.is_none()),
        other => panic!("not an id-less error: {other:?}"),
    }
}
