//! Every header parser in `http::headers` on the same fuzzer bytes: none panics, what is
//! accepted is consistent with itself, and what can be written back reads back the same:
//! a `WWW-Authenticate` challenge rewritten with `write_challenge`, a `Host` or `Origin`
//! printed with `Display`, an `Mcp-Param` value through `encode_param_value`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_sansio::http::headers::{
    Accept, HeaderError, HostPort, LAST_EVENT_ID_MAX_LEN, MediaType, Origin, ParamValue, QValue, SESSION_ID_MAX_LEN,
    WwwAuthenticate, decode_param_value, encode_param_value, encoded_param_len, last_event_id, protocol_version,
    session_id, write_challenge,
};

fuzz_target!(|data: &[u8]| {
    accept(data);
    media_type(data);
    www_authenticate(data);
    mcp_headers(data);
    hosts(data);
    params(data);
});

fn trimmed(data: &[u8]) -> &[u8] {
    let start = data.iter().position(|b| !matches!(b, b' ' | b'\t')).unwrap_or(data.len());
    let end = data.iter().rposition(|b| !matches!(b, b' ' | b'\t')).map_or(start, |i| i + 1);
    &data[start..end]
}

fn error_in_range(e: HeaderError, data: &[u8]) {
    if let HeaderError::Syntax { at } = e {
        assert!(at <= data.len());
    }
}

/// The unescaped value three ways: fragments, scratch, and the comparisons.
fn unescaped(v: ParamValue<'_>) -> Vec<u8> {
    let pieces: Vec<u8> = v.fragments().flatten().copied().collect();
    assert_eq!(pieces.len(), v.unescaped_len());
    let mut scratch = vec![0u8; pieces.len()];
    assert_eq!(v.unescape(&mut scratch).unwrap(), &pieces[..]);
    if !pieces.is_empty() {
        assert!(v.unescape(&mut vec![0u8; pieces.len() - 1]).is_err());
    }
    assert!(v.eq_bytes(&pieces) && v.eq_ignore_ascii_case(&pieces.to_ascii_uppercase()));
    let mut longer = pieces.clone();
    longer.push(b'x');
    assert!(!v.eq_bytes(&longer));
    if let Some(s) = v.as_str() {
        assert_eq!(s.as_bytes(), &pieces[..]);
    }
    if !v.has_escapes() {
        assert_eq!(v.raw(), &pieces[..]);
    }
    pieces
}

fn accept(data: &[u8]) {
    match Accept::parse(data) {
        Ok(a) => {
            for r in a.ranges() {
                assert!(r.q() <= QValue::ONE && !r.type_().is_empty() && !r.subtype().is_empty());
                assert!(r.type_() != "*" || r.subtype() == "*");
                for (_, v) in r.params() {
                    unescaped(v);
                }
            }
            for (t, s) in [("application", "json"), ("text", "event-stream"), ("x", "y")] {
                let q = a.quality(t, s);
                assert!(q <= QValue::ONE);
                assert_eq!(a.allows(t, s), q > QValue::ZERO);
                if a.ranges().next().is_none() {
                    assert_eq!(q, QValue::ZERO);
                }
            }
            assert_eq!(
                a.allows_json_and_event_stream(),
                a.allows("application", "json") && a.allows("text", "event-stream")
            );
        }
        Err(e) => error_in_range(e, data),
    }
}

fn media_type(data: &[u8]) {
    match MediaType::parse(data) {
        Ok(m) => {
            assert!(m.is(&m.type_().to_ascii_uppercase(), m.subtype()));
            for (name, v) in m.params() {
                unescaped(v);
                assert!(m.param(name).is_some());
            }
            let _ = m.charset();
        }
        Err(e) => error_in_range(e, data),
    }
}

fn www_authenticate(data: &[u8]) {
    let Ok(www) = WwwAuthenticate::parse(data) else { return };
    assert!(www.challenges().next().is_some());
    for c in www.challenges() {
        let params: Vec<(String, Vec<u8>)> = c.params().map(|(n, v)| (n.to_owned(), unescaped(v))).collect();
        if c.token68().is_some() {
            assert!(params.is_empty());
            continue;
        }
        let b = c.bearer();
        for (name, v) in [("resource_metadata", b.resource_metadata), ("scope", b.scope), ("error", b.error)] {
            assert_eq!(v, c.param(name));
        }
        // Written back with every value quoted, it reads back the same.
        let Ok(texts) = params.iter().map(|(_, v)| std::str::from_utf8(v)).collect::<Result<Vec<&str>, _>>() else {
            continue;
        };
        let pairs: Vec<(&str, &str)> = params.iter().zip(&texts).map(|((n, _), t)| (n.as_str(), *t)).collect();
        let mut out = vec![0u8; 4 * data.len() + 16];
        let n = write_challenge(&mut out, c.scheme(), &pairs).expect("a parsed challenge can be written");
        assert!(write_challenge(&mut vec![0u8; n - 1], c.scheme(), &pairs).is_err());
        let again = WwwAuthenticate::parse(&out[..n]).expect("a written challenge parses");
        let mut cs = again.challenges();
        let back = cs.next().unwrap();
        assert!(cs.next().is_none());
        assert_eq!(back.scheme(), c.scheme());
        let back_params: Vec<(String, Vec<u8>)> = back.params().map(|(n, v)| (n.to_owned(), unescaped(v))).collect();
        assert_eq!(back_params, params);
    }
}

fn mcp_headers(data: &[u8]) {
    match session_id(data) {
        Ok(id) => {
            assert!(!id.is_empty() && id.len() <= SESSION_ID_MAX_LEN && id.bytes().all(|b| (0x21..=0x7E).contains(&b)));
            assert_eq!(id.as_bytes(), trimmed(data));
        }
        Err(e) => error_in_range(e, data),
    }
    match last_event_id(data) {
        Ok(id) => {
            assert!(id.len() <= LAST_EVENT_ID_MAX_LEN && id.bytes().all(|b| (0x20..=0x7E).contains(&b)));
            assert_eq!(id.as_bytes(), trimmed(data));
        }
        Err(e) => error_in_range(e, data),
    }
    if let Ok(v) = protocol_version(data) {
        assert_eq!(v.as_str().as_bytes(), trimmed(data));
    }
}

fn hosts(data: &[u8]) {
    match HostPort::parse(data) {
        Ok(hp) => {
            let shown = hp.to_string();
            let again = HostPort::parse(shown.as_bytes()).expect("a printed host parses");
            assert!(again.host.same_as(&hp.host) && again.port == hp.port, "{shown}");
            assert_eq!(again.host.is_loopback(), hp.host.is_loopback());
        }
        Err(e) => error_in_range(e, data),
    }
    match Origin::parse(data) {
        Ok(Origin::Null) => assert!(!Origin::Null.is_loopback()),
        Ok(o) => {
            let shown = o.to_string();
            let again = Origin::parse(shown.as_bytes()).expect("a printed origin parses");
            assert!(again.same_origin(&o) && o.same_origin(&again), "{shown}");
            assert_eq!(again.is_loopback(), o.is_loopback());
        }
        Err(e) => error_in_range(e, data),
    }
}

fn params(data: &[u8]) {
    let mut scratch = vec![0u8; data.len()];
    if let Ok(value) = decode_param_value(data, &mut scratch) {
        let value = value.to_owned();
        round_trip(&value);
    }
    round_trip(&String::from_utf8_lossy(data));
}

/// What a client sends for `value`, a server reads back as `value`.
fn round_trip(value: &str) {
    let len = encoded_param_len(value);
    let mut out = vec![0u8; len];
    if len > 0 {
        assert!(encode_param_value(value, &mut out[..len - 1]).is_err());
    }
    let sent = encode_param_value(value, &mut out).expect("room for the encoding").to_owned();
    assert!(len == 0 && sent == value || sent.len() == len);
    assert!(sent.bytes().all(|b| (0x20..=0x7E).contains(&b)) && !sent.starts_with(' ') && !sent.ends_with(' '));
    let mut scratch = vec![0u8; sent.len()];
    assert_eq!(decode_param_value(sent.as_bytes(), &mut scratch), Ok(value));
}
