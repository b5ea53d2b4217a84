//! Base64 (RFC 4648 §4: standard alphabet, `=` padding) without allocation, for the
//! `=?base64?…?=` header values. Decoding accepts only the canonical form (length a
//! multiple of four, padding only at the end, unused bits zero), so every value has
//! exactly one encoding and a header can be compared with what it stands for.

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Bytes of the encoding of `n` bytes.
pub(crate) const fn encoded_len(n: usize) -> usize {
    n.div_ceil(3) * 4
}

/// Encodes `input` into the start of `out`, which must hold [`encoded_len`] bytes.
pub(crate) fn encode(input: &[u8], out: &mut [u8]) {
    for (chunk, dst) in input.chunks(3).zip(out.chunks_mut(4)) {
        let b = [chunk[0], chunk.get(1).copied().unwrap_or(0), chunk.get(2).copied().unwrap_or(0)];
        let n = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for (k, d) in dst.iter_mut().enumerate() {
            *d = if k <= chunk.len() { ALPHABET[(n >> (18 - 6 * k) & 63) as usize] } else { b'=' };
        }
    }
}

fn sextet(c: u8) -> Option<u32> {
    let v = match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => return None,
    };
    Some(u32::from(v))
}

/// Bytes `input` decodes to, if it is canonical base64.
pub(crate) fn decoded_len(input: &[u8]) -> Option<usize> {
    if !input.len().is_multiple_of(4) {
        return None;
    }
    let pad = input.iter().rev().take_while(|&&c| c == b'=').count();
    if pad > 2 {
        return None;
    }
    Some(input.len() / 4 * 3 - pad)
}

/// Decodes canonical base64 `input` into the start of `out` (which must hold
/// [`decoded_len`] bytes); `None` if it is not canonical.
pub(crate) fn decode(input: &[u8], out: &mut [u8]) -> Option<usize> {
    let len = decoded_len(input)?;
    if out.len() < len {
        return None;
    }
    let quads = input.len() / 4;
    for (q, chunk) in input.chunks(4).enumerate() {
        let pad = if q + 1 == quads { chunk.iter().filter(|&&c| c == b'=').count() } else { 0 };
        let mut n = 0u32;
        for (k, &c) in chunk.iter().enumerate() {
            let v = if k >= 4 - pad { if c == b'=' { 0 } else { return None } } else { sextet(c)? };
            n = n << 6 | v;
        }
        // The bits the padding leaves over must be zero.
        if (pad == 1 && n & 0xFF != 0) || (pad == 2 && n & 0xFFFF != 0) {
            return None;
        }
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        let at = q * 3;
        let take = 3 - pad;
        out[at..at + take].copy_from_slice(&bytes[..take]);
    }
    Some(len)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn enc(input: &[u8]) -> std::vec::Vec<u8> {
        let mut out = std::vec![0u8; encoded_len(input.len())];
        encode(input, &mut out);
        out
    }

    fn dec(input: &[u8]) -> Option<std::vec::Vec<u8>> {
        let mut out = std::vec![0u8; input.len()];
        decode(input, &mut out).map(|n| out[..n].to_vec())
    }

    #[test]
    fn rfc_4648_vectors() {
        for (plain, coded) in [
            (&b""[..], &b""[..]),
            (b"f", b"Zg=="),
            (b"fo", b"Zm8="),
            (b"foo", b"Zm9v"),
            (b"foob", b"Zm9vYg=="),
            (b"fooba", b"Zm9vYmE="),
            (b"foobar", b"Zm9vYmFy"),
            (b"\xFF\xFE\xFD", b"//79"),
        ] {
            assert_eq!(enc(plain), coded);
            assert_eq!(dec(coded).as_deref(), Some(plain));
        }
    }

    #[test]
    fn only_canonical_input_decodes() {
        for bad in
            [&b"Zg"[..], b"Zg=", b"Zh==", b"Zm9=", b"Z===", b"Zg==Zg==", b"Zm9v=", b"Zm-v", b"Zm9v\n", b"Zg=a", b"===="]
        {
            assert_eq!(dec(bad), None, "{:?}", core::str::from_utf8(bad));
        }
    }
}
