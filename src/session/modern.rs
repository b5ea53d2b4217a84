//! What a 2026-07-28 request carries about itself, and the checks it passes before the
//! application sees it.
//!
//! A stateless request names its protocol version and the client's capabilities in
//! `params._meta` (`io.modelcontextprotocol/protocolVersion` and
//! `io.modelcontextprotocol/clientCapabilities`, both required), and may name the client
//! (`clientInfo`) and the lowest log level it wants (`logLevel`). The endpoint reads them
//! once, refuses what the specification refuses (-32602 naming a missing field, -32022
//! with the supported versions), and keeps what later rules need with the request: the
//! version, the capability flags (an input request or a log message must not go beyond
//! them), and whether the client takes tasks.
//!
//! The signal that a request is stateless is the version key alone, as in the Python
//! SDK: its prefix is reserved, so no handshake-era client writes it, and a request that
//! has it but lacks the other fields is a stateless request with a missing field (-32602),
//! not a handshake-era one.

use crate::mcp::{CapabilitySet, LoggingLevel, ProtocolVersion, VersionSet, meta_keys};
use crate::wire::{JsonKind, JsonStr, MetaNote, Noted, ObjectMembers, RawJson};

/// The tasks extension's identifier (`capabilities.extensions` key).
pub const TASKS_EXTENSION: &str = "io.modelcontextprotocol/tasks";

/// The parts of a stateless request's `_meta` the endpoint keeps with it.
///
/// (`pub` in this private module, so that the sealed [`Profile`](super::Profile) can name
/// the storage for it; nothing outside the crate can reach it.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModernCtx {
    pub(crate) version: ProtocolVersion,
    pub(crate) caps: CapabilitySet,
    /// The client declared `extensions["io.modelcontextprotocol/tasks"]`.
    pub(crate) tasks: bool,
    /// The lowest log level the client wants; `None`: no log messages at all.
    pub(crate) log: Option<LoggingLevel>,
    /// A `subscriptions/listen` request: the state of its stream.
    pub(crate) listen: Option<Listen>,
    /// The request's `_meta` object as the walk that read it found it: its address and
    /// length (0: not known), so that the toolkit's readers of the params step over it
    /// rather than walk it again (`wire::fields::each_member_knowing`; an address, not a
    /// borrow: the slot outlives the frame, and a stale one matches nothing).
    pub(crate) meta: (usize, u32),
}

impl ModernCtx {
    /// The public view.
    pub fn view(&self) -> ModernRequest {
        ModernRequest {
            version: self.version,
            client_capabilities: self.caps,
            tasks_extension: self.tasks,
            log_level: self.log,
        }
    }
}

/// A `subscriptions/listen` stream, as the endpoint enforces it: nothing goes on it
/// before its acknowledgement, and then only what was granted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Listen {
    /// `notifications/subscriptions/acknowledged` was sent.
    pub acked: bool,
    /// The granted notification kinds ([`Kinds`] bits).
    pub granted: u8,
    /// The granted resource URIs, as a 64-bit Bloom filter (3 bits per URI).
    pub uris: u64,
}

/// The notification kinds a listen stream can carry, as bits.
pub(crate) struct Kinds;

impl Kinds {
    pub const TOOLS: u8 = 1;
    pub const PROMPTS: u8 = 2;
    pub const RESOURCES: u8 = 4;
    pub const UPDATES: u8 = 8;
    pub const TASKS: u8 = 16;
}

/// What a granted name is: a resource URI, or a task id (tasks extension).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Name {
    Uri,
    Task,
}

impl Listen {
    /// Adds `name` (unescaped text) to the granted names.
    pub fn grant(&mut self, kind: Name, name: JsonStr<'_>) {
        self.uris |= bloom(kind, name);
    }

    /// Whether `name` may be among the granted names: never wrong for a granted one; for
    /// one that was not granted, wrong about 1% of the time with five granted, rising
    /// with more (the price of keeping the list in 8 bytes).
    pub fn may_have(&self, kind: Name, name: JsonStr<'_>) -> bool {
        let bits = bloom(kind, name);
        self.uris & bits == bits
    }
}

/// Three bits of a 64-bit word chosen by a hash of the unescaped `name`.
fn bloom(kind: Name, name: JsonStr<'_>) -> u64 {
    let seed = match kind {
        Name::Uri => 0,
        Name::Task => 0x9e37_79b9_7f4a_7c15,
    };
    let h = super::retry::digest_str(name) ^ seed;
    let h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    (1 << (h >> 58)) | (1 << ((h >> 52) & 63)) | (1 << ((h >> 46) & 63))
}

/// FNV-1a, 64 bits: the digests that tell request parts apart (not a MAC).
pub(crate) fn fnv(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// What a stateless request said about itself, for the application: see
/// [`IncomingRequest::modern`](super::IncomingRequest::modern).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ModernRequest {
    /// The request's protocol version.
    pub version: ProtocolVersion,
    /// The capability flags the client declared for this request.
    pub client_capabilities: CapabilitySet,
    /// Whether the client declared the tasks extension for this request.
    pub tasks_extension: bool,
    /// The lowest log level the client wants; `None`: send no log messages for it.
    pub log_level: Option<LoggingLevel>,
}

/// Why a stateless request's `_meta` was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fault<'a> {
    /// No `io.modelcontextprotocol/protocolVersion` string.
    MissingVersion,
    /// No `io.modelcontextprotocol/clientCapabilities` object.
    MissingCapabilities,
    /// `io.modelcontextprotocol/logLevel` is not a log level.
    BadLogLevel,
    /// A version this server does not speak statelessly: the requested value, as sent.
    Unsupported(RawJson<'a>),
}

/// Whether a request carries the stateless `_meta` (its version key); `note`: what the
/// envelope pass noted of the request's `_meta`, if it is for these params.
pub(crate) fn has_envelope(params: Option<RawJson<'_>>, note: &MetaNote) -> bool {
    if let Some(noted) = params.and_then(|p| note.of(p)) {
        return noted.version.is_some();
    }
    meta_of(params).is_some_and(|mut m| m.any(|(key, _)| key.eq_str(meta_keys::PROTOCOL_VERSION)))
}

/// The members of `params._meta` (none if it is not an object), read in the same walk
/// that finds it: every stateless request is read through here.
fn meta_of(params: Option<RawJson<'_>>) -> Option<ObjectMembers<'_>> {
    params?.members_of("_meta")
}

/// The `_meta` keys [`read_envelope`] looks for.
#[derive(Clone, Copy)]
enum Key {
    Version,
    Capabilities,
    LogLevel,
    ProgressToken,
    /// A key known to matter to no one here (`…/clientInfo`), passed without a search.
    Other,
}

/// Which of the [`Key`]s `rest` (the bytes after a key's opening quote) starts with, and
/// its length, when it is written exactly so, without escapes: the reserved prefix
/// compared once, then what follows it. (Each literal is followed by a quote in the
/// text, which `next_known` checks, so that a longer key is not taken for one of
/// these.) Every client writes these keys on every stateless request, and the reserved
/// ones are 33 to 42 bytes long: compared in place, they cost a few words each, where
/// finding their closing quotes costs a search.
#[inline(always)]
fn literal_key(rest: &[u8]) -> Option<(Key, usize)> {
    const PREFIX: &[u8] = b"io.modelcontextprotocol/";
    let Some(tail) = rest.strip_prefix(PREFIX) else {
        return rest.starts_with(b"progressToken").then_some((Key::ProgressToken, 13));
    };
    let (key, len) = match tail.get(..8)? {
        b"protocol" if tail.starts_with(b"protocolVersion") => (Key::Version, 15),
        b"clientCa" if tail.starts_with(b"clientCapabilities") => (Key::Capabilities, 18),
        b"clientIn" if tail.starts_with(b"clientInfo") => (Key::Other, 10),
        b"logLevel" => (Key::LogLevel, 8),
        _ => return None,
    };
    Some((key, PREFIX.len() + len))
}

/// The [`Key`] a key read the general way is: one the literals missed because it is
/// written with escapes (`io.modelcontextprotocol\/…` is the same key), or none.
fn escaped_key(key: JsonStr<'_>) -> Option<Key> {
    if !key.is_escaped() {
        return None;
    }
    [
        (meta_keys::PROTOCOL_VERSION, Key::Version),
        (meta_keys::CLIENT_CAPABILITIES, Key::Capabilities),
        (meta_keys::LOG_LEVEL, Key::LogLevel),
        (meta_keys::PROGRESS_TOKEN, Key::ProgressToken),
    ]
    .into_iter()
    .find_map(|(name, k)| key.eq_str(name).then_some(k))
}

/// The values of the reserved keys of one `_meta` object, as [`read_envelope`] finds
/// them, and the value of its last member (where the walk ended).
#[derive(Clone, Copy, Default)]
#[cfg_attr(test, derive(Debug, PartialEq))]
struct Reserved<'a> {
    version: Option<RawJson<'a>>,
    caps: Option<RawJson<'a>>,
    log: Option<RawJson<'a>>,
    token: Option<RawJson<'a>>,
    last: Option<RawJson<'a>>,
}

/// Walks `meta` once for its reserved keys. A key given twice: the last one counts,
/// whichever way each is written.
#[inline(always)]
fn reserved<'a>(meta: &mut ObjectMembers<'a>) -> Reserved<'a> {
    let mut found = Reserved::default();
    while let Some((key, value)) = meta.next_known(literal_key) {
        found.last = Some(value);
        let key = match key {
            Ok(known) => Some(known),
            Err(name) => escaped_key(name),
        };
        match key {
            Some(Key::Version) => found.version = Some(value),
            Some(Key::Capabilities) => found.caps = Some(value),
            Some(Key::LogLevel) => found.log = Some(value),
            Some(Key::ProgressToken) => found.token = Some(value),
            Some(Key::Other) | None => {}
        }
    }
    found
}

/// Reads and checks a stateless request's `_meta` against the versions this side speaks
/// statelessly. Its progress token, if any, comes along (read in the same pass).
///
/// `note`: what the envelope pass noted of the request's `_meta` (see [`MetaNote`]); when
/// it is for these params, `_meta` is neither looked for nor walked again.
pub(crate) fn read_envelope<'a>(
    params: Option<RawJson<'a>>,
    supported: VersionSet,
    note: &MetaNote,
) -> Result<(ModernCtx, Option<RawJson<'a>>), Fault<'a>> {
    let (Reserved { version, caps, log, token, .. }, walked) = match params.and_then(|p| note.of(p)) {
        Some(Noted { meta: None, .. }) => return Err(Fault::MissingVersion),
        Some(Noted { meta: Some(meta), version, caps, log, token }) => {
            (Reserved { version, caps, log, token, last: None }, Some(meta).filter(RawJson::is_object))
        }
        None => {
            let mut meta = meta_of(params).ok_or(Fault::MissingVersion)?;
            let found = reserved(&mut meta);
            (found, meta.walked(found.last))
        }
    };
    let version = version.filter(|v| v.kind() == JsonKind::String).ok_or(Fault::MissingVersion)?;
    let caps = caps.filter(RawJson::is_object).ok_or(Fault::MissingCapabilities)?;
    let log = match log {
        None => None,
        Some(level) => Some(level.decode::<LoggingLevel>().map_err(|_| Fault::BadLogLevel)?),
    };
    let known = match version.as_bytes() {
        b"\"2026-07-28\"" => Some(ProtocolVersion::V2026_07_28),
        _ => version.as_str().and_then(ProtocolVersion::from_json),
    };
    let Some(known) = known.filter(|v| supported.contains(*v)) else { return Err(Fault::Unsupported(version)) };
    // `{}`, what most requests declare, names no capability: nothing to walk.
    let flags = if caps.as_bytes() == b"{}" { CapabilitySet::EMPTY } else { CapabilitySet::from_client_json(caps) };
    let tasks = flags.contains(crate::mcp::Capability::Extensions) && declares_tasks(caps);
    let walked = walked.and_then(|m| Some((m.as_bytes().as_ptr() as usize, u32::try_from(m.as_bytes().len()).ok()?)));
    let ctx = ModernCtx { version: known, caps: flags, tasks, log, listen: None, meta: walked.unwrap_or((0, 0)) };
    Ok((ctx, token))
}

/// Whether a capabilities object declares the tasks extension.
pub(crate) fn declares_tasks(caps: RawJson<'_>) -> bool {
    caps.get("extensions").and_then(|e| e.get(TASKS_EXTENSION)).is_some_and(|t| t.is_object())
}

/// The tasks extension's methods (2026-07-28), which the method table does not list:
/// an extension's methods exist only where it was negotiated.
pub(crate) fn is_tasks_method(name: &[u8]) -> bool {
    matches!(name, b"tasks/get" | b"tasks/update" | b"tasks/cancel")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(text: &'static str) -> Option<RawJson<'static>> {
        Some(RawJson::parse(text.as_bytes()).unwrap())
    }

    fn has_envelope_(params: Option<RawJson<'_>>) -> bool {
        has_envelope(params, &MetaNote::UNKNOWN)
    }

    #[test]
    fn the_version_key_alone_marks_a_stateless_request() {
        assert!(has_envelope_(params(r#"{"_meta":{"io.modelcontextprotocol/protocolVersion":"x"}}"#)));
        assert!(!has_envelope_(params(r#"{"_meta":{"progressToken":1}}"#)));
        assert!(!has_envelope_(params(r#"{"name":"x"}"#)));
        assert!(!has_envelope_(None));
    }

    #[test]
    fn envelope_faults_in_order() {
        let modern = VersionSet::only(ProtocolVersion::V2026_07_28);
        let read = |t| read_envelope(params(t), modern, &MetaNote::UNKNOWN).map(|(ctx, _)| ctx);
        assert_eq!(read(r#"{}"#), Err(Fault::MissingVersion));
        assert_eq!(read(r#"{"_meta":{"io.modelcontextprotocol/clientCapabilities":{}}}"#), Err(Fault::MissingVersion));
        assert_eq!(
            read(r#"{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}"#),
            Err(Fault::MissingCapabilities)
        );
        let r = read(
            r#"{"_meta":{"io.modelcontextprotocol/protocolVersion":"v9","io.modelcontextprotocol/clientCapabilities":{}}}"#,
        );
        assert!(matches!(r, Err(Fault::Unsupported(v)) if v.as_bytes() == br#""v9""#));
        let r = read(
            r#"{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"loud"}}"#,
        );
        assert_eq!(r, Err(Fault::BadLogLevel));
        let ok = read(
            r#"{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"sampling":{},"extensions":{"io.modelcontextprotocol/tasks":{}}},"io.modelcontextprotocol/logLevel":"warning"}}"#,
        )
        .unwrap();
        assert!(ok.caps.contains(crate::mcp::Capability::Sampling) && ok.tasks);
        assert_eq!(ok.log, Some(LoggingLevel::Warning));
    }

    /// The `_meta` the toolkit steps over is exactly the one the params hold, whatever the
    /// whitespace around and inside it (the same bytes, where they stand).
    #[test]
    fn the_walked_meta_is_the_params_own() {
        let modern = VersionSet::only(ProtocolVersion::V2026_07_28);
        let v = r#""io.modelcontextprotocol/protocolVersion":"2026-07-28""#;
        let c = r#""io.modelcontextprotocol/clientCapabilities":{"a":{"b":"}"}}"#;
        let texts = [
            std::format!(r#"{{"name":"x","_meta":{{{v},{c}}}}}"#),
            std::format!(r#"{{"_meta" : {{ {v} , {c} , "progressToken" : 5 }} , "name":"x"}}"#),
            std::format!("{{\n\"_meta\":{{\n{c},\r\n\t{v}\n}}\n}}"),
        ];
        for text in &texts {
            let params = RawJson::parse(text.as_bytes()).unwrap();
            let (ctx, _) = read_envelope(Some(params), modern, &MetaNote::UNKNOWN).unwrap();
            let want = params.get("_meta").unwrap().as_bytes();
            assert_eq!(ctx.meta, (want.as_ptr() as usize, want.len() as u32), "{text}");
        }
    }

    /// The reserved keys read in place give what reading every key the general way gives
    /// (compared after unescaping, the last of a repeated key counting), for every
    /// sequence of up to three members from spellings that match, spellings with escapes
    /// (the same keys), and keys that start or end like them but are others.
    #[test]
    fn reserved_keys_read_in_place_as_read_in_full() {
        fn reference(meta: RawJson<'_>) -> Reserved<'_> {
            let mut found = Reserved::default();
            for (key, value) in meta.members() {
                found.last = Some(value);
                if key.eq_str(meta_keys::PROTOCOL_VERSION) {
                    found.version = Some(value);
                } else if key.eq_str(meta_keys::CLIENT_CAPABILITIES) {
                    found.caps = Some(value);
                } else if key.eq_str(meta_keys::LOG_LEVEL) {
                    found.log = Some(value);
                } else if key.eq_str(meta_keys::PROGRESS_TOKEN) {
                    found.token = Some(value);
                }
            }
            found
        }
        let keys = [
            meta_keys::PROTOCOL_VERSION,
            meta_keys::CLIENT_CAPABILITIES,
            meta_keys::LOG_LEVEL,
            meta_keys::PROGRESS_TOKEN,
            meta_keys::CLIENT_INFO,
        ];
        let mut spellings = std::vec::Vec::new();
        for key in keys {
            spellings.push(key.to_string());
            spellings.push(key.replace('/', "\\/"));
            spellings.push(key.replacen('o', "\\u006f", 1));
            spellings.push(key.replacen('o', "\\u006F", 2));
            spellings.push(std::format!("{key}x"));
            spellings.push(key[..key.len() - 1].to_string());
            spellings.push(std::format!("x{key}"));
        }
        spellings.push("io.modelcontextprotocol/".into());
        spellings.push("io.modelcontextprotocol/protocol".into());
        spellings.push("io.modelcontextprotocol/logLeve\\u006c".into());
        spellings.push("".into());
        let values = [r#""2026-07-28""#, "{}", r#"{"a":"}"}"#, "7"];
        let mut members = std::vec::Vec::new();
        for (i, key) in spellings.iter().enumerate() {
            members.push(std::format!(r#""{key}":{}"#, values[i % values.len()]));
        }
        members.push(std::format!(r#" "{}" : "1" "#, meta_keys::PROTOCOL_VERSION));
        let mut cases = 0;
        let n = members.len();
        for count in 0..=3u32 {
            for pick in 0..n.pow(count) {
                let chosen: std::vec::Vec<&str> = (0..count).map(|k| members[pick / n.pow(k) % n].as_str()).collect();
                let text = std::format!(r#"{{"_meta":{{{}}},"name":"x"}}"#, chosen.join(","));
                let params = RawJson::parse(text.as_bytes()).unwrap();
                let mut meta = meta_of(Some(params)).unwrap();
                let fast = reserved(&mut meta);
                assert_eq!(fast, reference(params.get("_meta").unwrap()), "{text}");
                assert!(meta.next().is_none(), "{text}");
                cases += 1;
            }
        }
        assert!(cases > 40_000, "{cases}");
    }

    /// The `_meta` shapes the note tests below read: every reserved key plain, escaped,
    /// or almost the same; values of every kind; `_meta` first, last, twice, escaped,
    /// not an object, only deeper; whitespace.
    fn noted_params() -> std::vec::Vec<std::string::String> {
        let (v, c) = (meta_keys::PROTOCOL_VERSION, meta_keys::CLIENT_CAPABILITIES);
        let keys = [
            v.to_string(),
            c.to_string(),
            meta_keys::LOG_LEVEL.to_string(),
            meta_keys::PROGRESS_TOKEN.to_string(),
            meta_keys::CLIENT_INFO.to_string(),
            v.replace('/', "\\/"),
            c.replacen('o', "\\u006f", 1),
            std::format!("{v}x"),
            c[..c.len() - 1].to_string(),
            "other".to_string(),
        ];
        let values = [
            r#""2026-07-28""#,
            "{}",
            r#"{"sampling":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}"#,
            r#""warning""#,
            "7",
            r#"{"name":"c","version":"1"}"#,
            "[{}]",
            r#""2025-11-25""#,
            "null",
            r#""loud""#,
        ];
        let mut members = std::vec::Vec::new();
        for (i, key) in keys.iter().enumerate() {
            for j in 0..3 {
                members.push(std::format!(r#""{key}":{}"#, values[(i + j * 3) % values.len()]));
            }
        }
        members.push(std::format!(" \"{v}\" :\t\"2026-07-28\" "));
        members.push(std::format!("\"{c}\" : {{ }}"));
        let mut metas = std::vec![std::string::String::from("{}"), "1".into(), r#""x""#.into(), "[]".into()];
        let n = members.len();
        for count in 1..=3u32 {
            for pick in (0..n.pow(count)).step_by(if count == 3 { 97 } else { 1 }) {
                let chosen: std::vec::Vec<&str> = (0..count).map(|k| members[pick / n.pow(k) % n].as_str()).collect();
                metas.push(std::format!("{{{}}}", chosen.join(",")));
            }
        }
        let common = std::format!(r#"{{"{v}":"2026-07-28","{c}":{{}}}}"#);
        let mut texts = std::vec::Vec::new();
        for (i, m) in metas.iter().enumerate() {
            texts.push(std::format!(r#"{{"name":"echo","arguments":{{"message":"hi"}},"_meta":{m}}}"#));
            if i % 7 == 0 {
                texts.push(std::format!(r#"{{"_meta":{m},"name":"echo"}}"#));
                texts.push(std::format!(r#"{{ "_meta" : {m} , "_meta":{common} }}"#));
                texts.push(std::format!(r#"{{"_meta":{common},"_meta":{m}}}"#));
                texts.push(std::format!(r#"{{"_m\u0065ta":{m},"_meta":{common}}}"#));
                texts.push(std::format!(r#"{{"n\u0061me":"x","_meta":{m}}}"#));
                texts.push(std::format!(r#"{{"arguments":{{"_meta":{m}}}}}"#));
            }
        }
        texts.push("{}".into());
        texts
    }

    /// What the envelope pass notes of `_meta` gives `has_envelope` and `read_envelope`
    /// exactly what searching and walking the text gives (the same context, the walked
    /// span included, the same token, the same fault), for every shape of
    /// [`noted_params`], under every version set; and the note is used for most of them.
    #[test]
    fn the_noted_meta_reads_as_the_walked_text() {
        use crate::wire::{Frame, Message, ParseOptions};
        let sets = [
            VersionSet::only(ProtocolVersion::V2026_07_28),
            VersionSet::only(ProtocolVersion::V2025_11_25),
            VersionSet::EMPTY,
        ];
        let (mut noted, mut total, mut stateless) = (0, 0, 0);
        for params in noted_params() {
            let frame = std::format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{params}}}"#);
            let mut note = MetaNote::UNKNOWN;
            let Ok(Frame::Single(Message::Request(r))) =
                Frame::parse_noting(frame.as_bytes(), &ParseOptions::default(), &mut note)
            else {
                panic!("{frame}")
            };
            let params = r.params;
            noted += usize::from(note.of(params.unwrap()).is_some());
            total += 1;
            assert_eq!(has_envelope(params, &note), has_envelope(params, &MetaNote::UNKNOWN), "{frame}");
            for supported in sets {
                let want = read_envelope(params, supported, &MetaNote::UNKNOWN);
                stateless += usize::from(want.is_ok());
                assert_eq!(read_envelope(params, supported, &note), want, "{frame}");
            }
        }
        assert!(noted * 2 > total && stateless > 100, "{noted} of {total} noted, {stateless} read");
    }

    /// A note is used only for the params it was taken from: the same bytes elsewhere, or
    /// a note of other params, change nothing.
    #[test]
    fn a_note_is_for_its_own_params_only() {
        use crate::wire::{Frame, Message, ParseOptions};
        let modern = VersionSet::only(ProtocolVersion::V2026_07_28);
        let frame = br#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
        let mut note = MetaNote::UNKNOWN;
        let Ok(Frame::Single(Message::Request(r))) = Frame::parse_noting(frame, &ParseOptions::default(), &mut note)
        else {
            panic!()
        };
        assert!(note.of(r.params.unwrap()).is_some());
        let copy = *frame;
        let Ok(Message::Request(other)) = Message::parse(&copy) else { panic!() };
        assert!(note.of(other.params.unwrap()).is_none());
        assert_eq!(read_envelope(other.params, modern, &note), read_envelope(other.params, modern, &MetaNote::UNKNOWN));
        let legacy = br#"{"jsonrpc":"2.0","id":1,"method":"m","params":{"name":"x"}}"#;
        let Ok(Message::Request(plain)) = Message::parse(legacy) else { panic!() };
        assert!(!has_envelope(plain.params, &note) && note.of(plain.params.unwrap()).is_none());
    }

    #[test]
    fn granted_names_are_always_recognised() {
        let mut listen = Listen::default();
        let uris = ["file:///a", "file:///b", "test://x", "test://y", "z"];
        for u in uris {
            listen.grant(Name::Uri, JsonStr::from_text(u));
        }
        assert!(uris.iter().all(|u| listen.may_have(Name::Uri, JsonStr::from_text(u))));
        let escaped = RawJson::parse(br#""file:\/\/\/a""#).unwrap().as_str().unwrap();
        assert!(listen.may_have(Name::Uri, escaped), "compared unescaped");
        let strangers =
            (0..1000).filter(|i| listen.may_have(Name::Uri, JsonStr::from_text(&std::format!("other://{i}")))).count();
        assert!(strangers < 30, "{strangers} of 1000 URIs not granted passed");
        assert!(!uris.iter().all(|u| listen.may_have(Name::Task, JsonStr::from_text(u))));
    }
}
