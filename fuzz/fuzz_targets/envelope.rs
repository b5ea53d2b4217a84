//! Frames into `Frame::parse`, with and without batches. Every message that parses is
//! written back with `FrameWriter` (batched responses with `BatchWriter`), and what is
//! written must be one line that parses to the same message. The span path
//! (`Message::parse_with_spans`, `decode_*_with_spans`) answers exactly as the plain one.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_sansio::wire::{
    EncodeError, ErrorId, Frame, FrameWriter, MemberSpans, Message, MessageKind, ParseOptions, RawJson, Rule,
    ScanConfig, validate,
};

fuzz_target!(|data: &[u8]| {
    let single = ParseOptions::default();
    let batched = ParseOptions { allow_batch: true, ..single };

    // JSON errors are exactly the scanner's, at the same depth.
    let json = validate(data, ScanConfig::with_max_depth(single.max_depth));
    for options in [&single, &batched] {
        match Frame::parse(data, options) {
            Err(e) => match e.rule {
                Rule::Json(scan) => {
                    assert_eq!(json, Err(scan), "envelope and scanner report different JSON errors");
                    assert!(e.id.is_none());
                }
                rule => {
                    assert!(json.is_ok(), "{rule:?} reported for invalid JSON ({json:?})");
                    if !options.allow_batch {
                        assert_eq!(rule == Rule::BatchNotAllowed, trim_ws(data).first() == Some(&b'['));
                    }
                }
            },
            Ok(_) => assert!(json.is_ok(), "accepted invalid JSON"),
        }
    }

    let message = Message::parse(data);
    // Two capacities: one that holds every member of most inputs, one that overflows.
    let mut spans = MemberSpans::<16>::new();
    assert_eq!(Message::parse_with_spans(data, &mut spans), message, "the span path parses differently");
    let mut small = MemberSpans::<1>::new();
    assert_eq!(Message::parse_with_spans(data, &mut small), message, "the span path parses differently");
    match Frame::parse(data, &single) {
        Ok(Frame::Single(m)) => {
            assert_eq!(message, Ok(m));
            reencode(&m, data.len());
            dispatch(&m);
            with_spans(&m, &spans);
            with_spans(&m, &small);
        }
        Ok(Frame::Batch(_)) => panic!("a batch although batches are off"),
        Err(e) => assert_eq!(message, Err(e)),
    }

    if let Ok(Frame::Batch(batch)) = Frame::parse(data, &batched) {
        let array = RawJson::parse(data).expect("a batch is valid JSON");
        assert_eq!(array.as_bytes(), batch.as_bytes());
        assert_eq!(batch.len(), array.elements().count());
        assert_ne!(batch.len(), 0, "empty batches are refused");
        assert!(!batch.is_empty());
        let element_options = ParseOptions { max_depth: batched.max_depth - 1, allow_batch: false };
        let mut responses = Vec::new();
        for (item, element) in batch.iter().zip(array.elements()) {
            // An element parses as it would as a frame of its own, one level shallower.
            let alone =
                if element.is_object() { Message::parse_with(element.as_bytes(), &element_options) } else { item };
            assert_eq!(item, alone);
            match item {
                Ok(m) => {
                    reencode(&m, data.len());
                    if matches!(m.kind(), MessageKind::Response | MessageKind::Error) {
                        responses.push(m);
                    }
                }
                Err(e) => {
                    assert!(!matches!(e.rule, Rule::Json(_)), "JSON error inside a validated batch");
                    if !element.is_object() {
                        assert_eq!(e.rule, Rule::NotAnObject);
                    }
                }
            }
        }
        rebatch(&responses, data.len());
    }
});

/// Typed decoding by method never panics, whatever the method, and `decode_result`'s
/// verdict on `resultType` agrees with `ResultType::of`.
fn dispatch(m: &Message<'_>) {
    use mcp_sansio::mcp::{
        AnyResult, DispatchError, Method, ResultType, all_methods, decode_notification, decode_request, decode_result,
    };
    match m {
        Message::Request(r) => {
            let _ = decode_request(Method::parse(r.method), r.params);
        }
        Message::Notification(n) => {
            let _ = decode_notification(Method::parse(n.method), n.params);
        }
        Message::Response(r) => {
            let of = ResultType::of(r.result);
            for (method, _) in all_methods() {
                match decode_result(method, r.result) {
                    Ok(AnyResult::InputRequired(_)) => assert_eq!(of, Some(ResultType::InputRequired)),
                    // `null` counts as absent when decoding; `of` calls it not a string.
                    Ok(_) => assert!(
                        of == Some(ResultType::Complete)
                            || (of.is_none() && r.result.get("resultType").is_some_and(|v| v.is_null()))
                    ),
                    Err(DispatchError::UnknownResultType) => assert!(matches!(of, Some(ResultType::Other(_)))),
                    Err(DispatchError::InputRequiredNotAllowed) => assert_eq!(of, Some(ResultType::InputRequired)),
                    Err(DispatchError::BadResultType) => assert_eq!(of, None),
                    Err(_) => {}
                }
            }
        }
        Message::Error(_) => {}
    }
}

/// Typed decoding from the recorded members gives what decoding from the text gives, for
/// every method (compared by `Debug`: some types' `==` is false on equal values).
fn with_spans<const N: usize>(m: &Message<'_>, spans: &MemberSpans<'_, N>) {
    use mcp_sansio::mcp::{
        Answering, Method, all_methods, decode_notification, decode_notification_with_spans, decode_request,
        decode_request_with_spans, decode_result, decode_result_with_spans,
    };
    fn same<T: core::fmt::Debug>(a: T, b: T) {
        assert_eq!(format!("{a:?}"), format!("{b:?}"), "the span path decodes differently");
    }
    let own = m.method().map(Method::parse);
    for method in all_methods().map(|(m, _)| m).chain(own) {
        match m {
            Message::Request(r) => {
                same(decode_request_with_spans(method, r.params, spans), decode_request(method, r.params))
            }
            Message::Notification(n) => {
                same(decode_notification_with_spans(method, n.params, spans), decode_notification(method, n.params))
            }
            Message::Response(r) => {
                for a in [Answering::from(method), Answering::task(method)] {
                    same(decode_result_with_spans(a, r.result, spans), decode_result(a, r.result));
                }
            }
            Message::Error(_) => {}
        }
    }
}

fn trim_ws(b: &[u8]) -> &[u8] {
    let start = b.iter().position(|c| !matches!(c, b' ' | b'\t' | b'\n' | b'\r')).unwrap_or(b.len());
    &b[start..]
}

/// What raw JSON becomes when written: itself without line breaks, else compact (every
/// whitespace byte outside strings dropped), found here byte by byte.
fn one_line(raw: RawJson<'_>) -> Vec<u8> {
    let bytes = raw.as_bytes();
    if !bytes.iter().any(|&b| b == b'\n' || b == b'\r') {
        return bytes.to_vec();
    }
    let (mut out, mut in_string, mut escaped) = (Vec::new(), false, false);
    for &b in bytes {
        if in_string {
            in_string = escaped || b != b'"';
            escaped = !escaped && b == b'\\';
        } else if matches!(b, b' ' | b'\t' | b'\n' | b'\r') {
            continue;
        } else {
            in_string = b == b'"';
        }
        out.push(b);
    }
    out
}

fn text(s: mcp_sansio::wire::JsonStr<'_>) -> String {
    s.to_string()
}

/// Writes `m` with the given writer; `omit` picks `ErrorId::Omitted` over `Null`.
fn write(w: &mut FrameWriter<'_>, m: &Message<'_>, omit: bool) -> Result<core::ops::Range<usize>, EncodeError> {
    match m {
        Message::Request(r) => w.request(r.id, &text(r.method), r.params.as_ref()),
        Message::Notification(n) => w.notification(&text(n.method), n.params.as_ref()),
        Message::Response(r) => w.result(r.id, &r.result),
        Message::Error(e) => {
            let id = match e.id {
                Some(id) => ErrorId::Id(id),
                None if omit => ErrorId::Omitted,
                None => ErrorId::Null,
            };
            let message = text(e.error.message);
            match e.error.data {
                Some(data) => w.error_with_data(id, e.error.code, &message, &data),
                None => w.error(id, e.error.code, &message),
            }
        }
    }
}

fn same_message(a: &Message<'_>, b: &Message<'_>) {
    assert_eq!(a.kind(), b.kind());
    assert_eq!(a.id(), b.id());
    assert_eq!(a.id().map(|i| i.as_token()), b.id().map(|i| i.as_token()), "ids are echoed byte for byte");
    assert_eq!(a.method(), b.method());
    match (a, b) {
        (Message::Request(x), Message::Request(y)) => {
            assert_eq!(x.params.map(one_line), y.params.map(|p| p.as_bytes().to_vec()));
        }
        (Message::Notification(x), Message::Notification(y)) => {
            assert_eq!(x.params.map(one_line), y.params.map(|p| p.as_bytes().to_vec()));
        }
        (Message::Response(x), Message::Response(y)) => assert_eq!(one_line(x.result), y.result.as_bytes()),
        (Message::Error(x), Message::Error(y)) => {
            assert_eq!(x.error.code, y.error.code);
            assert_eq!(x.error.message, y.error.message);
            assert_eq!(x.error.data.map(one_line), y.error.data.map(|d| d.as_bytes().to_vec()));
        }
        _ => unreachable!("kinds were compared"),
    }
}

/// `room`: the input's length. A message is written back no longer than it came, plus the
/// envelope's fixed parts.
fn reencode(m: &Message<'_>, room: usize) {
    for omit in [false, true] {
        let mut buf = vec![0u8; room + 256];
        let mut w = FrameWriter::new(&mut buf);
        let range = write(&mut w, m, omit).expect("encoding into a large buffer");
        let frame = &w.as_bytes()[range.clone()];
        assert_eq!(range.start, 0);
        let (&last, line) = frame.split_last().unwrap();
        assert_eq!(last, b'\n');
        assert!(
            !line.contains(&b'\n') && !line.contains(&b'\r'),
            "raw line break in {:?}",
            String::from_utf8_lossy(line)
        );
        let back = Message::parse(line).expect("written message does not parse back");
        same_message(m, &back);
        let line = line.to_vec();

        // Unterminated writers write the same bytes without the newline.
        let mut w = FrameWriter::unterminated(&mut buf);
        let r = write(&mut w, m, omit).unwrap();
        assert_eq!(&w.as_bytes()[r], &line[..]);

        // One byte short: an exact error and nothing written.
        let needed = frame_len(&line);
        let mut small = vec![0u8; needed - 1];
        let mut w = FrameWriter::new(&mut small);
        assert_eq!(write(&mut w, m, omit), Err(EncodeError::BufferTooSmall { needed, available: needed - 1 }));
        assert!(w.is_empty());
        if m.id().is_some() || !matches!(m, Message::Error(_)) {
            break; // `omit` only matters for uncorrelated errors
        }
    }
}

fn frame_len(line: &[u8]) -> usize {
    line.len() + 1
}

/// Responses of a batch written back as one batch frame, which parses to the same list.
fn rebatch(responses: &[Message<'_>], room: usize) {
    let mut buf = vec![0u8; room + 256 * responses.len() + 2];
    let mut w = FrameWriter::new(&mut buf);
    let mut b = w.batch();
    for m in responses {
        match m {
            Message::Response(r) => b.result(r.id, &r.result).unwrap(),
            Message::Error(e) => {
                let message = text(e.error.message);
                match e.error.data {
                    Some(data) => b.error_with_data(e.id.into(), e.error.code, &message, &data).unwrap(),
                    None => b.error(e.id.into(), e.error.code, &message).unwrap(),
                }
            }
            _ => unreachable!("only responses are batched back"),
        }
    }
    let Some(range) = b.finish() else {
        assert!(responses.is_empty());
        return;
    };
    let frame = &w.as_bytes()[range];
    let line = &frame[..frame.len() - 1];
    assert!(!line.contains(&b'\n') && !line.contains(&b'\r'));
    let options = ParseOptions { allow_batch: true, ..ParseOptions::default() };
    let Ok(Frame::Batch(back)) = Frame::parse(line, &options) else { panic!("written batch does not parse back") };
    assert_eq!(back.len(), responses.len());
    for (m, item) in responses.iter().zip(back.iter()) {
        same_message(m, &item.expect("written batch element does not parse back"));
    }
}
