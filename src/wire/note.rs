//! [`MetaNote`]: where a request's `params._meta` and its reserved members are, noted by
//! the envelope pass that validates them, so that the stateless checks read them from
//! the note rather than find `_meta` in the params again and walk it a second time.
//!
//! The envelope pass scans every byte of the params anyway; noting, at their top level,
//! the first member named `_meta` and, inside it, the last of each reserved key
//! (`io.modelcontextprotocol/protocolVersion`, `…/clientCapabilities`, `…/logLevel`,
//! `progressToken`) costs a comparison per name. A note is used only for the very params
//! it was taken from (the same span of the same frame); a name written with escapes at
//! either level, params beyond `u32` offsets, or anything else unusual leaves the note
//! empty, and the readers then search the text as they always did: the answer is the
//! same either way.

use super::raw::RawJson;
use super::scan::{ScanError, ScanErrorKind, Scanner};
use super::walk::{self, after_member, broken};

/// A span as offsets into the noted params; `(0, 0)`: none (no value starts at 0, the
/// params' own brace).
type Span = (u32, u32);

const NONE: Span = (0, 0);

/// What the envelope pass saw of one request's `params._meta`: see the module docs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct MetaNote {
    /// The params object noted, as (address, length); `(0, 0)`: nothing noted.
    object: (usize, usize),
    /// The value of the first member named `_meta`, whatever it is.
    meta: Span,
    version: Span,
    caps: Span,
    log: Span,
    token: Span,
}

/// What a noted `params._meta` holds, for the params the note was taken from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Noted<'a> {
    /// The first `_meta` member's value (`None`: the params have no `_meta`).
    pub meta: Option<RawJson<'a>>,
    /// The last value of each reserved key in it (an object).
    pub version: Option<RawJson<'a>>,
    pub caps: Option<RawJson<'a>>,
    pub log: Option<RawJson<'a>>,
    pub token: Option<RawJson<'a>>,
}

/// The reserved `_meta` keys a note keeps.
#[derive(Clone, Copy)]
enum Slot {
    Version,
    Caps,
    Log,
    Token,
}

impl MetaNote {
    /// A note that knows nothing: every reader searches the text.
    pub(crate) const UNKNOWN: MetaNote =
        MetaNote { object: (0, 0), meta: NONE, version: NONE, caps: NONE, log: NONE, token: NONE };

    /// What the note holds for `params`, if it was taken from these very params.
    #[inline]
    pub(crate) fn of<'a>(&self, params: RawJson<'a>) -> Option<Noted<'a>> {
        let bytes = params.as_bytes();
        if self.object != (bytes.as_ptr() as usize, bytes.len()) || self.object.1 == 0 {
            return None;
        }
        let at = |(start, end): Span| match end {
            0 => None,
            _ => bytes.get(start as usize..end as usize).map(RawJson::from_validated),
        };
        Some(Noted {
            meta: at(self.meta),
            version: at(self.version),
            caps: at(self.caps),
            log: at(self.log),
            token: at(self.token),
        })
    }
}

/// The offsets of `start..end` from `base`, if they fit.
#[inline(always)]
fn span(base: usize, start: usize, end: usize) -> Option<Span> {
    Some((u32::try_from(start - base).ok()?, u32::try_from(end - base).ok()?))
}

/// Scans the object at `s.pos` (the value of `params` or `result`, with at most `limit`
/// containers open in it, itself included, `limit >= 2`), noting its `_meta` in `note`;
/// returns its span. The grammar is `Scanner::value`'s, member by member; only what this
/// accepts must agree with it, not how it fails.
#[inline(never)]
pub(crate) fn note_object(s: &mut Scanner<'_>, note: &mut MetaNote, limit: u16) -> Result<(usize, usize), ScanError> {
    let start = s.pos;
    *note = MetaNote::UNKNOWN;
    let mut found = MetaNote::UNKNOWN;
    let mut plain = true;
    walk::members(s, |s, name| {
        let value_start = s.pos;
        plain &= !name.escaped;
        let first_meta =
            found.meta == NONE && matches!(s.buf().get(name.start..name.end), Some([b'_', b'm', b'e', b't', b'a']));
        if first_meta && s.peek() == Some(b'{') {
            plain &= meta_members(s, &mut found, start, limit - 1)?;
        } else {
            s.value(limit - 1)?;
        }
        if first_meta {
            found.meta = span(start, value_start, s.pos).unwrap_or(NONE);
            plain &= found.meta != NONE;
        }
        Ok(())
    })?;
    if plain && let Some((_, len)) = span(start, start, s.pos) {
        found.object = (s.buf().as_ptr() as usize + start, len as usize);
        *note = found;
    }
    Ok((start, s.pos))
}

/// Scans `_meta`'s object at `s.pos` (with at most `limit` containers open in it, itself
/// included, `limit >= 1`), noting the last value of each reserved key as an offset from
/// `base`; `false` if a name has escapes (the note is then not used) or an offset does
/// not fit.
#[inline(always)]
fn meta_members(s: &mut Scanner<'_>, note: &mut MetaNote, base: usize, limit: u16) -> Result<bool, ScanError> {
    let mut plain = true;
    s.pos += 1; // the '{'
    s.skip_ws();
    if s.peek() == Some(b'}') {
        s.pos += 1;
        return Ok(true);
    }
    loop {
        s.skip_ws();
        if s.peek() != Some(b'"') {
            return Err(broken(s));
        }
        // The two keys every request has and `…/clientInfo`, which most send, as literals
        // (a few words each); any other name scanned as the validator scans names.
        let slot = match literal(s.buf(), s.pos + 1) {
            Some((slot, close)) => {
                s.pos = close + 1;
                slot
            }
            None => {
                let name = s.key()?;
                plain &= !name.escaped;
                other(s.buf(), name.start, name.end)
            }
        };
        if s.peek() == Some(b':') {
            s.pos += 1;
        } else {
            s.expect(b':', ScanErrorKind::ExpectedColon)?;
        }
        s.skip_ws();
        let value_start = s.pos;
        // A string (the version) or `{}` (the capabilities most clients declare) without
        // the call `Scanner::value` costs: the same span.
        match s.peek() {
            Some(b'"') => {
                s.string()?;
            }
            Some(b'{') if limit >= 2 && s.buf().get(s.pos + 1) == Some(&b'}') => s.pos += 2,
            _ => {
                s.value(limit - 1)?;
            }
        }
        if let Some(slot) = slot {
            let at = span(base, value_start, s.pos).unwrap_or(NONE);
            plain &= at != NONE;
            *match slot {
                Slot::Version => &mut note.version,
                Slot::Caps => &mut note.caps,
                Slot::Log => &mut note.log,
                Slot::Token => &mut note.token,
            } = at;
        }
        if after_member(s)? {
            return Ok(plain);
        }
    }
}

/// Which of the version, capabilities and client info keys (the last kept nowhere) the
/// string whose body starts at `start` is, written plainly, and the offset of its closing
/// quote (the wide searches; the compact build compares names in [`other`]).
#[inline(always)]
fn literal(buf: &[u8], start: usize) -> Option<(Option<Slot>, usize)> {
    #[cfg(mcp_sansio_wide)]
    {
        use crate::mcp::meta_keys as k;
        let close = super::find::reserved_key(buf, start)?;
        let slot = match close - start {
            n if n == k::PROTOCOL_VERSION.len() => Some(Slot::Version),
            n if n == k::CLIENT_CAPABILITIES.len() => Some(Slot::Caps),
            // `…/clientInfo`: passed over.
            _ => None,
        };
        Some((slot, close))
    }
    #[cfg(not(mcp_sansio_wide))]
    {
        let _ = (buf, start);
        None
    }
}

/// Which reserved key the name `buf[start..end]` (its body, without escapes) is, among
/// those [`literal`] did not find.
#[inline(always)]
fn other(buf: &[u8], start: usize, end: usize) -> Option<Slot> {
    use crate::mcp::meta_keys as k;
    let name = buf.get(start..end)?;
    match name.len() {
        13 if name == k::PROGRESS_TOKEN.as_bytes() => Some(Slot::Token),
        32 if name == k::LOG_LEVEL.as_bytes() => Some(Slot::Log),
        39 if name == k::PROTOCOL_VERSION.as_bytes() => Some(Slot::Version),
        42 if name == k::CLIENT_CAPABILITIES.as_bytes() => Some(Slot::Caps),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::{Frame, ParseOptions};

    /// `Frame::parse_noting` answers exactly as `Frame::parse` does (the same message, or
    /// the same error with the same offset), for frames with and without `_meta`, cut
    /// short at every length, with bytes changed, under every depth cap and batch
    /// setting; and a note it leaves is for that message's params.
    #[test]
    fn noting_parses_as_the_plain_parse() {
        let (v, c) = ("io.modelcontextprotocol/protocolVersion", "io.modelcontextprotocol/clientCapabilities");
        let params = [
            std::format!(
                r#"{{"name":"echo","arguments":{{"message":"hi"}},"_meta":{{"{v}":"2026-07-28","{c}":{{}}}}}}"#
            ),
            std::format!(
                r#"{{ "_meta" : {{ "{c}" : {{"a":[1,{{}}]}} , "{v}" : "x" , "progressToken" : 3 }} , "n":1 }}"#
            ),
            std::format!(
                r#"{{"_meta":{{"{v}\u0041":1,"{c}":{{ }},"io.modelcontextprotocol/logLevel":"info"}},"_meta":[]}}"#
            ),
            std::format!(r#"{{"_m\u0065ta":{{"{v}":"2026-07-28"}},"x":{{"_meta":{{}}}}}}"#),
            r#"{"name":"echo","arguments":{}}"#.to_string(),
            r#"{"_meta":{}}"#.to_string(),
            r#"{"_meta":5,"_meta":{"progressToken":"t"}}"#.to_string(),
            "{}".to_string(),
        ];
        let mut frames = std::vec::Vec::new();
        for p in &params {
            frames.push(std::format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{p}}}"#));
            frames.push(std::format!(r#"{{"params":{p},"method":"m","jsonrpc":"2.0"}}"#));
            frames.push(std::format!(r#"{{"jsonrpc":"2.0","id":2,"result":{p}}}"#));
            frames.push(std::format!(r#"[{{"jsonrpc":"2.0","method":"m","params":{p}}}]"#));
        }
        let mut checked = 0;
        for frame in &frames {
            let frame = frame.as_bytes();
            let mut variants = std::vec![frame.to_vec()];
            for cut in 0..frame.len() {
                variants.push(frame[..cut].to_vec());
            }
            for at in (0..frame.len()).step_by(2) {
                for flip in [0x01, 0x20] {
                    let mut changed = frame.to_vec();
                    changed[at] ^= flip;
                    variants.push(changed);
                }
            }
            for text in &variants {
                for max_depth in 1..7 {
                    for allow_batch in [false, true] {
                        let options = ParseOptions { max_depth, allow_batch };
                        let mut note = MetaNote::UNKNOWN;
                        let noted = Frame::parse_noting(text, &options, &mut note);
                        let plain = Frame::parse(text, &options);
                        let shown = String::from_utf8_lossy(text);
                        assert_eq!(std::format!("{noted:?}"), std::format!("{plain:?}"), "{shown}");
                        let params = match noted {
                            Ok(Frame::Single(crate::wire::Message::Request(r))) => r.params,
                            Ok(Frame::Single(crate::wire::Message::Notification(n))) => n.params,
                            Ok(Frame::Single(crate::wire::Message::Response(r))) => Some(r.result),
                            _ => None,
                        };
                        if note != MetaNote::UNKNOWN {
                            assert!(params.is_some_and(|p| note.of(p).is_some()), "{shown}");
                        }
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 50_000, "{checked}");
    }
}
