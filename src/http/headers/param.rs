//! The value encoding of 2026-07-28's mirrored headers (`Mcp-Param-{Name}`, and the
//! same sentinel in `Mcp-Name`): a value that a header cannot carry as plain text is
//! sent as `=?base64?{base64 of its UTF-8}?=`, markers lowercase and case-sensitive.

use super::base64;
use super::error::{HeaderError, HeaderWriteError};
use super::grammar::{ascii, trim_ows};

const PREFIX: &[u8] = b"=?base64?";
const SUFFIX: &[u8] = b"?=";

/// Whether a client may send `value` as it is: not empty, printable ASCII (spaces
/// inside are fine), no space at either end, and not looking like the sentinel.
fn plain(value: &[u8]) -> bool {
    !value.is_empty()
        && value.iter().all(|b| (0x20..=0x7E).contains(b))
        && value.first() != Some(&b' ')
        && value.last() != Some(&b' ')
        && !(value.starts_with(PREFIX) && value.ends_with(SUFFIX))
}

/// Bytes [`encode_param_value`] writes for `value` (0 when it is sent as it is).
pub fn encoded_param_len(value: &str) -> usize {
    if plain(value.as_bytes()) { 0 } else { PREFIX.len() + base64::encoded_len(value.len()) + SUFFIX.len() }
}

/// The header value a client sends for `value`: `value` itself when a header can carry
/// it, otherwise its `=?base64?…?=` form written into `out`. Values with non-ASCII
/// text, control characters (tab included), spaces at either end, the sentinel's shape,
/// or nothing at all are encoded.
///
/// ```
/// use mcp_sansio::http::headers::encode_param_value;
/// let mut out = [0u8; 64];
/// assert_eq!(encode_param_value("us-west1", &mut out), Ok("us-west1"));
/// assert_eq!(encode_param_value("Hello, 世界", &mut out), Ok("=?base64?SGVsbG8sIOS4lueVjA==?="));
/// assert_eq!(encode_param_value(" padded ", &mut out), Ok("=?base64?IHBhZGRlZCA=?="));
/// assert_eq!(encode_param_value("=?base64?literal?=", &mut out), Ok("=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="));
/// ```
pub fn encode_param_value<'a>(value: &'a str, out: &'a mut [u8]) -> Result<&'a str, HeaderWriteError> {
    let needed = encoded_param_len(value);
    if needed == 0 {
        return Ok(value);
    }
    let available = out.len();
    let Some(out) = out.get_mut(..needed) else {
        return Err(HeaderWriteError::BufferTooSmall { needed, available });
    };
    let body = needed - SUFFIX.len();
    out[..PREFIX.len()].copy_from_slice(PREFIX);
    base64::encode(value.as_bytes(), &mut out[PREFIX.len()..body]);
    out[body..].copy_from_slice(SUFFIX);
    Ok(ascii(out))
}

/// The value a received header stands for: the base64 sentinel decoded into `scratch`,
/// or the plain value as it is. OWS at both ends is ignored. A plain value must be
/// printable ASCII (the server rejects any other with 400 `HeaderMismatch`); the
/// sentinel's base64 must be canonical and decode to UTF-8. `scratch` needs three
/// quarters of the base64's length.
///
/// ```
/// use mcp_sansio::http::headers::decode_param_value;
/// let mut scratch = [0u8; 32];
/// assert_eq!(decode_param_value(b"=?base64?bGluZTEKbGluZTI=?=", &mut scratch), Ok("line1\nline2"));
/// assert_eq!(decode_param_value(b"get_weather", &mut scratch), Ok("get_weather"));
/// assert!(decode_param_value(b"=?base64?%%%?=", &mut scratch).is_err());
/// ```
pub fn decode_param_value<'a>(value: &'a [u8], scratch: &'a mut [u8]) -> Result<&'a str, HeaderError> {
    let value = trim_ows(value);
    if value.len() >= PREFIX.len() + SUFFIX.len() && value.starts_with(PREFIX) && value.ends_with(SUFFIX) {
        let coded = &value[PREFIX.len()..value.len() - SUFFIX.len()];
        let needed = base64::decoded_len(coded).ok_or(HeaderError::BadEncoding)?;
        if scratch.len() < needed {
            return Err(HeaderError::BufferTooSmall { needed, capacity: scratch.len() });
        }
        let n = base64::decode(coded, scratch).ok_or(HeaderError::BadEncoding)?;
        return core::str::from_utf8(&scratch[..n]).map_err(|_| HeaderError::BadEncoding);
    }
    match value.iter().position(|b| !(0x20..=0x7E).contains(b)) {
        Some(at) => Err(HeaderError::Syntax { at }),
        None => Ok(ascii(value)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(s: &str) -> std::string::String {
        let mut out = [0u8; 128];
        let sent = encode_param_value(s, &mut out).unwrap().to_owned();
        let mut scratch = [0u8; 96];
        assert_eq!(decode_param_value(sent.as_bytes(), &mut scratch), Ok(s), "{sent}");
        sent
    }

    #[test]
    fn specification_examples() {
        assert_eq!(round_trip("us-west1"), "us-west1");
        assert_eq!(round_trip("Hello, 世界"), "=?base64?SGVsbG8sIOS4lueVjA==?=");
        assert_eq!(round_trip(" padded "), "=?base64?IHBhZGRlZCA=?=");
        assert_eq!(round_trip("line1\nline2"), "=?base64?bGluZTEKbGluZTI=?=");
        assert_eq!(round_trip("=?base64?literal?="), "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=");
    }

    #[test]
    fn edge_cases() {
        assert_eq!(round_trip(""), "=?base64??=");
        assert_eq!(round_trip("two words"), "two words");
        assert_eq!(round_trip("a\tb"), "=?base64?YQli?=");
        assert_eq!(round_trip("=?base64?="), "=?base64?PT9iYXNlNjQ/PQ==?=");
        // Only the exact sentinel shape is encoded.
        assert_eq!(round_trip("=?base64?x"), "=?base64?x");
        assert_eq!(round_trip("=?BASE64?x?="), "=?BASE64?x?=");
        let mut scratch = [0u8; 8];
        assert_eq!(decode_param_value(b"a\xC3\xA9", &mut scratch), Err(HeaderError::Syntax { at: 1 }));
        assert_eq!(decode_param_value(b"a\tb", &mut scratch), Err(HeaderError::Syntax { at: 1 }));
        assert_eq!(decode_param_value(b"=?base64?//79?=", &mut scratch), Err(HeaderError::BadEncoding));
        assert_eq!(
            decode_param_value(b"=?base64?Zm9v?=", &mut [0u8; 2]),
            Err(HeaderError::BufferTooSmall { needed: 3, capacity: 2 })
        );
        assert_eq!(decode_param_value(b"", &mut scratch), Ok(""));
        let mut small = [0u8; 4];
        assert_eq!(
            encode_param_value("é", &mut small),
            Err(HeaderWriteError::BufferTooSmall { needed: 15, available: 4 })
        );
        assert_eq!(encoded_param_len("é"), 15);
        assert_eq!(encoded_param_len("x"), 0);
    }
}
