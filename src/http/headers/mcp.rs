//! The MCP headers of Streamable HTTP: `Mcp-Session-Id`, `MCP-Protocol-Version` and
//! `Last-Event-ID`. Each validator ignores OWS at both ends (HTTP parsers strip it) and
//! says precisely what is wrong, so the server can answer 400 and the client can refuse a
//! value before it puts it on the wire.

use super::error::HeaderError;
use super::grammar::{ascii, trim_ows};
use crate::mcp::ProtocolVersion;

/// The longest `Mcp-Session-Id` accepted. The specification sets no limit; 256 bytes
/// holds a UUID, 128 random bits in any encoding, or a token that carries a version and
/// capabilities with a MAC, and keeps a hostile header from costing more.
pub const SESSION_ID_MAX_LEN: usize = 256;

/// The longest `Last-Event-ID` accepted: event ids are minted by the server, which keeps
/// them short; anything longer names no event it sent.
pub const LAST_EVENT_ID_MAX_LEN: usize = 256;

/// Checks an `Mcp-Session-Id` value: 1 to [`SESSION_ID_MAX_LEN`] visible ASCII bytes
/// (0x21 to 0x7E), as the specification requires of session ids.
///
/// ```
/// use mcp_sansio::http::headers::{session_id, HeaderError};
/// assert_eq!(session_id(b" 1868a90c-5c4f-4b4e-bd4b-8f0b9e3c4a41 "), Ok("1868a90c-5c4f-4b4e-bd4b-8f0b9e3c4a41"));
/// assert_eq!(session_id(b"a b"), Err(HeaderError::Syntax { at: 1 }));
/// ```
pub fn session_id(value: &[u8]) -> Result<&str, HeaderError> {
    visible_ascii(value, SESSION_ID_MAX_LEN, |b| (0x21..=0x7E).contains(&b))
}

/// The version an `MCP-Protocol-Version` value names. Values are case-sensitive; one
/// that names no published version is [`HeaderError::UnknownVersion`] (400 for the
/// server, whether the version is unknown or merely not offered).
///
/// ```
/// use mcp_sansio::http::headers::protocol_version;
/// use mcp_sansio::ProtocolVersion;
/// assert_eq!(protocol_version(b"2025-06-18"), Ok(ProtocolVersion::V2025_06_18));
/// assert!(protocol_version(b"2025-06-19").is_err());
/// ```
pub fn protocol_version(value: &[u8]) -> Result<ProtocolVersion, HeaderError> {
    core::str::from_utf8(trim_ows(value)).ok().and_then(ProtocolVersion::from_name).ok_or(HeaderError::UnknownVersion)
}

/// Checks a `Last-Event-ID` value: up to [`LAST_EVENT_ID_MAX_LEN`] bytes of visible
/// ASCII and spaces. Empty means "no last event" (browsers send no header then). The
/// client can check with it too before sending the decoder's last event id, which may
/// hold bytes a header cannot.
pub fn last_event_id(value: &[u8]) -> Result<&str, HeaderError> {
    if trim_ows(value).is_empty() {
        return Ok("");
    }
    visible_ascii(value, LAST_EVENT_ID_MAX_LEN, |b| (0x20..=0x7E).contains(&b))
}

fn visible_ascii(value: &[u8], max: usize, allowed: impl Fn(u8) -> bool) -> Result<&str, HeaderError> {
    let trimmed = trim_ows(value);
    let lead = value.iter().take_while(|&&b| b == b' ' || b == b'\t').count();
    if trimmed.is_empty() {
        return Err(HeaderError::Syntax { at: lead });
    }
    if trimmed.len() > max {
        return Err(HeaderError::TooLong { max });
    }
    match trimmed.iter().position(|&b| !allowed(b)) {
        Some(i) => Err(HeaderError::Syntax { at: lead + i }),
        None => Ok(ascii(trimmed)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn session_ids() {
        assert_eq!(session_id(b"!~"), Ok("!~"));
        assert_eq!(session_id(b""), Err(HeaderError::Syntax { at: 0 }));
        assert_eq!(session_id(b"  "), Err(HeaderError::Syntax { at: 2 }));
        assert_eq!(session_id(b"ab\x7f"), Err(HeaderError::Syntax { at: 2 }));
        assert_eq!(session_id(b"\tab\xC3\xA9"), Err(HeaderError::Syntax { at: 3 }));
        assert_eq!(session_id(&[b'a'; SESSION_ID_MAX_LEN]).map(str::len), Ok(SESSION_ID_MAX_LEN));
        assert_eq!(session_id(&[b'a'; SESSION_ID_MAX_LEN + 1]), Err(HeaderError::TooLong { max: SESSION_ID_MAX_LEN }));
    }

    #[test]
    fn versions() {
        for v in ProtocolVersion::ALL {
            assert_eq!(protocol_version(v.as_str().as_bytes()), Ok(v));
        }
        assert_eq!(protocol_version(b" 2025-03-26\t"), Ok(ProtocolVersion::V2025_03_26));
        for bad in [&b""[..], b"2025-3-26", b"2025-03-26, 2025-06-18", b"\xFF", b"draft"] {
            assert_eq!(protocol_version(bad), Err(HeaderError::UnknownVersion));
        }
    }

    #[test]
    fn last_event_ids() {
        assert_eq!(last_event_id(b"s1-42"), Ok("s1-42"));
        assert_eq!(last_event_id(b" a b "), Ok("a b"));
        assert_eq!(last_event_id(b""), Ok(""));
        assert_eq!(last_event_id(b"a\x01"), Err(HeaderError::Syntax { at: 1 }));
        assert_eq!(last_event_id(&[b'1'; 257]), Err(HeaderError::TooLong { max: 256 }));
    }
}
