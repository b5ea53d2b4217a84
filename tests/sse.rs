//! The SSE decoder against a reference model, under any chunking (issue 9): the same
//! events, errors, last event id and reconnection time whatever the chunk sizes, the
//! drain schedule and the input API; and the writer's output read back by the decoder.

use mcp_sansio::framing::sse::{SseDecoder, SseError, SseWriter};
use proptest::prelude::*;

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// (type, data, last event id) of a dispatched event, or the error.
type Item = Result<(Vec<u8>, Vec<u8>, Vec<u8>), SseError>;

#[derive(Debug, PartialEq, Eq)]
struct Outcome {
    items: Vec<Item>,
    last_event_id: Vec<u8>,
    retry: Option<u32>,
}

/// The WHATWG rules written plainly over the whole stream, with the decoder's buffer
/// contract on top:
///
/// * What an event holds counts against the buffer: the last event id, the event's own
///   id, its type and its data (each data value plus one byte). A line fits if that plus
///   the line plus one byte for its line end is at most `cap`. Comments always "fit"
///   (they are dropped either way).
/// * A line that does not fit makes its event too large: the event's type and data are
///   dropped, and the line is interpreted if it fits without them (an `id` still counts),
///   otherwise dropped. Until the blank line, `data` and `event` are ignored; the blank
///   line makes the id the last event id and reports `TooLarge`.
/// * A BOM at the start is dropped only if the buffer can hold it (3 bytes or more).
/// * At the end (`close`): `TooLarge` if the event was being skipped or a partial
///   non-comment line filled what the event left of the buffer; otherwise `Incomplete` if
///   data, a type, an id or a partial non-comment line is lost. The lost event's id does
///   not count.
fn model(stream: &[u8], cap: usize, close: bool) -> Outcome {
    let mut rest = stream;
    if cap >= BOM.len() && rest.starts_with(BOM) {
        rest = &rest[BOM.len()..];
    }
    let mut items = Vec::new();
    let mut last_id: Vec<u8> = Vec::new();
    let mut pending_id: Option<Vec<u8>> = None;
    let mut event_type: Vec<u8> = Vec::new();
    let mut data: Vec<u8> = Vec::new();
    let mut retry = None;
    let mut skipping = false;
    let used = |last_id: &Vec<u8>, pending: &Option<Vec<u8>>, ty: &Vec<u8>, data: &Vec<u8>| {
        last_id.len() + pending.as_ref().map_or(0, Vec::len) + ty.len() + data.len()
    };
    while let Some(end) = rest.iter().position(|&b| b == b'\r' || b == b'\n') {
        let line = &rest[..end];
        let crlf = rest[end] == b'\r' && rest.get(end + 1) == Some(&b'\n');
        rest = &rest[end + if crlf { 2 } else { 1 }..];
        if line.first() == Some(&b':') {
            continue;
        }
        if used(&last_id, &pending_id, &event_type, &data) + line.len() + 1 > cap {
            if !skipping {
                skipping = true;
                event_type.clear();
                data.clear();
            }
            if used(&last_id, &pending_id, &event_type, &data) + line.len() + 1 > cap {
                continue;
            }
        }
        if line.is_empty() {
            let id = pending_id.take().unwrap_or_else(|| last_id.clone());
            if skipping {
                items.push(Err(SseError::TooLarge { capacity: cap }));
                skipping = false;
            } else if !data.is_empty() {
                let ty = if event_type.is_empty() { b"message".to_vec() } else { event_type.clone() };
                items.push(Ok((ty, data[..data.len() - 1].to_vec(), id.clone())));
            }
            last_id = id;
            event_type.clear();
            data.clear();
            continue;
        }
        let (name, value) = match line.iter().position(|&b| b == b':') {
            Some(colon) => {
                let value = &line[colon + 1..];
                (&line[..colon], value.strip_prefix(b" ").unwrap_or(value))
            }
            None => (line, &[][..]),
        };
        match name {
            b"data" if !skipping => {
                data.extend_from_slice(value);
                data.push(b'\n');
            }
            b"event" if !skipping => event_type = value.to_vec(),
            b"id" if !value.contains(&0) => pending_id = Some(value.to_vec()),
            b"retry" if !value.is_empty() && value.iter().all(u8::is_ascii_digit) => {
                let ms = value.iter().fold(0u64, |n, d| (n * 10 + u64::from(d - b'0')).min(u64::from(u32::MAX)));
                retry = Some(ms as u32);
            }
            _ => {}
        }
    }
    if close {
        let comment = rest.first() == Some(&b':');
        let line_lost = !rest.is_empty() && !comment;
        let full = used(&last_id, &pending_id, &event_type, &data) + rest.len() >= cap;
        let pending = !data.is_empty() || !event_type.is_empty() || pending_id.is_some();
        if skipping || (line_lost && full) {
            items.push(Err(SseError::TooLarge { capacity: cap }));
        } else if pending || line_lost {
            items.push(Err(SseError::Incomplete));
        }
    }
    Outcome { items, last_event_id: last_id, retry }
}

/// How a test feeds the decoder.
#[derive(Clone, Debug)]
struct Schedule {
    /// Chunk sizes, cycled; 0 is an empty read.
    sizes: Vec<usize>,
    /// Whether to drain `next_event` after each input call, cycled (it is always drained
    /// when the decoder takes nothing).
    drain: Vec<bool>,
    /// `spare`/`commit` instead of `feed`.
    zero_copy: bool,
    /// Empty reads after the last byte and before `close`.
    polls_after_end: usize,
    close: bool,
}

fn drain(d: &mut SseDecoder<'_>, out: &mut Vec<Item>) {
    while let Some(item) = d.next_event() {
        out.push(item.map(|e| (e.event_type().to_vec(), e.data().to_vec(), e.last_event_id().to_vec())));
    }
}

fn drive(stream: &[u8], cap: usize, s: &Schedule) -> Outcome {
    let mut buf = vec![0u8; cap];
    let mut d = SseDecoder::new(&mut buf);
    let mut items = Vec::new();
    let (mut pos, mut step, mut stalled) = (0, 0usize, 0);
    let mut drained = true;
    while pos < stream.len() {
        let size = s.sizes[step % s.sizes.len()];
        let drain_now = s.drain[step % s.drain.len()];
        step += 1;
        let chunk = &stream[pos..(pos + size).min(stream.len())];
        let taken = if s.zero_copy {
            let spare = d.spare();
            let n = spare.len().min(chunk.len());
            spare[..n].copy_from_slice(&chunk[..n]);
            d.commit(n);
            n
        } else {
            d.feed(chunk)
        };
        // Room is only ever missing while complete lines wait to be drained.
        assert!(taken > 0 || chunk.is_empty() || !drained, "no room although everything was drained, at {pos}");
        pos += taken;
        drained = false;
        if drain_now || (taken == 0 && !chunk.is_empty()) {
            drain(&mut d, &mut items);
            drained = true;
        }
        stalled = if taken == 0 { stalled + 1 } else { 0 };
        assert!(stalled <= 2 * s.sizes.len(), "decoder stopped taking input at {pos}");
    }
    drain(&mut d, &mut items);
    for _ in 0..s.polls_after_end {
        if s.zero_copy {
            d.spare();
            d.commit(0);
        } else {
            assert_eq!(d.feed(&[]), 0);
        }
        drain(&mut d, &mut items);
    }
    if s.close {
        d.close();
        assert!(d.is_closed());
        assert_eq!(d.feed(b"data: late\n\n"), 0);
        drain(&mut d, &mut items);
        assert!(d.next_event().is_none(), "events after the end");
    }
    Outcome { items, last_event_id: d.last_event_id().to_vec(), retry: d.retry() }
}

/// Streams built from what matters: every field, ids with NUL or empty, retry values
/// good and bad, comments, values both short and longer than small buffers, BOMs, and
/// all three line ends, with or without a final one.
fn stream() -> impl Strategy<Value = Vec<u8>> {
    let name = prop::sample::select(vec![
        &b"data"[..],
        b"data",
        b"data",
        b"event",
        b"id",
        b"retry",
        b"",
        b"foo",
        b"Data",
        b"data ",
        b"\xEF\xBB\xBFdata",
    ])
    .prop_map(<[u8]>::to_vec);
    let value = prop_oneof![
        3 => prop::sample::select(vec![
            &b"x"[..], b"{}", b" lead", b"", b"1", b"42", b"1e3", b"99999999999", b"a:b", b"\0", b"7\x00", b"\xE2\x82\xAC",
            b"message", b"endpoint",
        ]).prop_map(<[u8]>::to_vec),
        1 => prop::collection::vec(b'a'..=b'z', 5..40),
    ];
    let sep = prop::sample::select(vec![&b": "[..], b":", b":  ", b""]);
    let line = prop_oneof![
        6 => (name, sep, value).prop_map(|(n, s, v)| [n, s.to_vec(), if s.is_empty() { Vec::new() } else { v }].concat()),
        2 => Just(Vec::new()),
        1 => prop::collection::vec(b'a'..=b'z', 0..30).prop_map(|c| [&b":"[..], &c].concat()),
    ];
    let end = prop::sample::select(vec![&b"\n"[..], b"\r\n", b"\r", b"\n", b"\n"]);
    let lines = prop::collection::vec((line, end), 0..14);
    (any::<bool>(), lines, any::<bool>()).prop_map(|(bom, lines, cut_end)| {
        let mut s = if bom { BOM.to_vec() } else { Vec::new() };
        for (line, end) in lines {
            s.extend(line);
            s.extend(end);
        }
        if cut_end && !s.is_empty() {
            s.pop();
        }
        s
    })
}

fn schedule() -> impl Strategy<Value = Schedule> {
    let size = prop_oneof![3 => 1usize..=3, 2 => 4usize..=16, 1 => 17usize..=200, 1 => Just(0usize)];
    let sizes = prop::collection::vec(size, 1..8);
    let drain = prop::collection::vec(any::<bool>(), 1..4);
    (sizes, drain, any::<bool>(), 0usize..3, any::<bool>()).prop_map(
        |(mut sizes, drain, zero_copy, polls_after_end, close)| {
            if sizes.iter().all(|&n| n == 0) {
                sizes.push(1);
            }
            Schedule { sizes, drain, zero_copy, polls_after_end, close }
        },
    )
}

fn caps() -> impl Strategy<Value = usize> {
    prop::sample::select(vec![1usize, 2, 3, 4, 5, 6, 8, 11, 13, 16, 24, 32, 64, 4096])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn decoder_matches_the_model_under_any_chunking(stream in stream(), cap in caps(), s in schedule()) {
        prop_assert_eq!(drive(&stream, cap, &s), model(&stream, cap, s.close));
    }

    #[test]
    fn one_chunk_and_bytewise_agree(stream in stream(), cap in caps(), close in any::<bool>()) {
        let whole = Schedule { sizes: vec![stream.len().max(1)], drain: vec![true], zero_copy: false, polls_after_end: 0, close };
        let bytewise = Schedule { sizes: vec![1], drain: vec![true], zero_copy: false, polls_after_end: 0, close };
        let a = drive(&stream, cap, &whole);
        prop_assert_eq!(&a, &drive(&stream, cap, &bytewise));
        prop_assert_eq!(a, model(&stream, cap, close));
    }

    #[test]
    fn arbitrary_bytes_match_the_model(
        stream in prop::collection::vec(prop::sample::select(b"data:evntirySD \r\n\0\xEF\xBB\xBFx".to_vec()), 0..200),
        cap in caps(),
        s in schedule(),
    ) {
        prop_assert_eq!(drive(&stream, cap, &s), model(&stream, cap, s.close));
    }

    /// What the writer writes, the decoder reads back: the same type, data (line breaks
    /// as LF) and id.
    #[test]
    fn written_events_read_back(
        events in prop::collection::vec(
            (
                prop::option::of("[a-z]{0,8}"),
                prop::option::of("[ -~]{0,12}"),
                prop::collection::vec(prop::sample::select(b"ab {}\"\r\n\xC3\xA9".to_vec()), 0..40),
            ),
            0..6,
        ),
        chunk in 1usize..50,
    ) {
        let mut out = vec![0u8; 4096];
        let mut w = SseWriter::new(&mut out);
        w.comment("hello").unwrap();
        let mut want = Vec::new();
        let mut last = Vec::new();
        for (event, id, data) in &events {
            w.message(event.as_deref(), id.as_deref(), data).unwrap();
            if let Some(id) = id {
                last = id.as_bytes().to_vec();
            }
            let mut normalised = Vec::new();
            let mut i = 0;
            while i < data.len() {
                if data[i] == b'\r' {
                    normalised.push(b'\n');
                    i += if data.get(i + 1) == Some(&b'\n') { 2 } else { 1 };
                } else {
                    normalised.push(data[i]);
                    i += 1;
                }
            }
            let ty = match event.as_deref() {
                None | Some("") => b"message".to_vec(),
                Some(t) => t.as_bytes().to_vec(),
            };
            want.push(Ok((ty, normalised, last.clone())));
        }
        w.retry(1500).unwrap();
        w.priming("p", None).unwrap();
        want.push(Ok((b"message".to_vec(), Vec::new(), b"p".to_vec())));
        let bytes = w.as_bytes().to_vec();
        let s = Schedule { sizes: vec![chunk], drain: vec![true], zero_copy: false, polls_after_end: 0, close: true };
        let got = drive(&bytes, 4096, &s);
        prop_assert_eq!(got.items, want);
        prop_assert_eq!(got.retry, Some(1500));
        prop_assert_eq!(got.last_event_id, b"p".to_vec());
    }
}

/// The model itself, on the specification's examples: a model that is wrong in the same
/// way as the decoder would hide the defect.
#[test]
fn the_model_follows_the_whatwg_examples() {
    let m = model(
        b": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n\n",
        64,
        true,
    );
    let ev = |d: &str, id: &str| Ok((b"message".to_vec(), d.as_bytes().to_vec(), id.as_bytes().to_vec()));
    assert_eq!(m.items, [ev("first event", "1"), ev("second event", ""), ev(" third event", "")]);
    let m = model(b"data\n\ndata\ndata\n\ndata:", 64, true);
    assert_eq!(m.items, [ev("", ""), ev("\n", ""), Err(SseError::Incomplete)]);
    let m = model(b"\xEF\xBB\xBFid: 9\r\n\r\ndata: a\rdata: b\r\r", 64, true);
    assert_eq!((m.items, m.last_event_id), (vec![ev("a\nb", "9")], b"9".to_vec()));
}
