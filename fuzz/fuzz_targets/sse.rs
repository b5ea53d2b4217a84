//! The SSE decoder under fuzzer-chosen chunking: whatever the chunk sizes, the buffer
//! capacity, and whether bytes arrive through `feed` or `spare`/`commit`, the events,
//! errors, last event id and reconnection time are those of feeding the whole stream at
//! once, and those of a plain model of the WHATWG rules and the buffer contract.
//!
//! Input layout: `[capacity, mode, k, size_1 .. size_k, stream ..]`
//! * capacity: 0..=127 gives 1..=128 bytes, 128..=255 gives 64..=8192 in steps of 64;
//! * mode: bits 0-1 pick the path (0 `feed`, 1 `spare`/`commit`, 2 and 3 alternate per
//!   chunk), bit 2 adds an empty read before every chunk and before the end, bit 3 leaves
//!   the stream open (no `close`), bit 4 drains events only when no more bytes are taken
//!   (several reads between drains), bit 5 (with `close`) restarts the decoder after the
//!   end and decodes the stream a second time, as a client does when it reconnects;
//! * k = byte & 15 chunk sizes follow, used in turn (a 0 is an empty read); none means
//!   one chunk.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_sansio::framing::sse::{SseDecoder, SseError};

type Item = Result<(Vec<u8>, Vec<u8>, Vec<u8>), SseError>;

#[derive(Debug, PartialEq, Eq, Clone)]
struct Outcome {
    items: Vec<Item>,
    last_event_id: Vec<u8>,
    retry: Option<u32>,
}

struct Plan {
    path: u8,
    empty_reads: bool,
    lazy: bool,
    close: bool,
    restart: bool,
}

fuzz_target!(|data: &[u8]| {
    let [cap, mode, k, rest @ ..] = data else { return };
    let k = usize::from(k & 15);
    let Some((sizes, stream)) = rest.split_at_checked(k) else { return };
    let cap = if *cap < 128 { usize::from(*cap) + 1 } else { (usize::from(*cap) - 127) * 64 };
    let close = mode & 8 == 0;
    let plan = Plan {
        path: mode & 3,
        empty_reads: mode & 4 != 0,
        lazy: mode & 16 != 0,
        close,
        restart: close && mode & 32 != 0,
    };

    let mut chunks: Vec<&[u8]> = Vec::new();
    let mut left = stream;
    let cycle = if sizes.iter().any(|&s| s > 0) { sizes } else { &[u8::MAX][..] };
    for &size in cycle.iter().cycle() {
        if left.is_empty() {
            break;
        }
        let (chunk, tail) = left.split_at(usize::from(size).min(left.len()));
        chunks.push(chunk);
        left = tail;
    }
    let whole_plan = Plan { path: 0, empty_reads: false, lazy: false, ..plan };
    let whole = run(cap, &[stream], &whole_plan);
    let chunked = run(cap, &chunks, &plan);
    assert_eq!(chunked, whole, "chunking changed the outcome (capacity {cap}, {} chunks)", chunks.len());

    let first = model(stream, cap, close, Vec::new(), None);
    let mut want = vec![first.clone()];
    if plan.restart {
        want.push(model(stream, cap, close, first.last_event_id, first.retry));
    }
    assert_eq!(whole, want, "outcome differs from the model (capacity {cap})");
    for outcome in &whole {
        assert!(!outcome.last_event_id.iter().any(|b| matches!(b, b'\0' | b'\r' | b'\n')));
        for item in &outcome.items {
            match item {
                Ok((ty, data, id)) => {
                    assert!(!ty.is_empty() && !data.contains(&b'\r') && !id.contains(&0));
                    assert!(id.len() + data.len() < cap, "a delivered event must have fit");
                }
                Err(SseError::TooLarge { capacity }) => assert_eq!(*capacity, cap),
                Err(_) => {}
            }
        }
    }
});

fn drain(d: &mut SseDecoder<'_>, items: &mut Vec<Item>) {
    while let Some(item) = d.next_event() {
        items.push(item.map(|e| (e.event_type().to_vec(), e.data().to_vec(), e.last_event_id().to_vec())));
    }
}

fn run(cap: usize, chunks: &[&[u8]], plan: &Plan) -> Vec<Outcome> {
    let mut buf = vec![0u8; cap];
    let mut d = SseDecoder::new(&mut buf);
    let mut outcomes = vec![run_stream(&mut d, chunks, plan)];
    if plan.restart {
        d.restart();
        outcomes.push(run_stream(&mut d, chunks, plan));
    }
    outcomes
}

fn run_stream(d: &mut SseDecoder<'_>, chunks: &[&[u8]], plan: &Plan) -> Outcome {
    let mut items = Vec::new();
    let empty_read = |d: &mut SseDecoder<'_>, spare_path: bool| {
        if spare_path {
            let _ = d.spare();
            d.commit(0);
        } else {
            assert_eq!(d.feed(&[]), 0);
        }
    };
    for (i, chunk) in chunks.iter().enumerate() {
        let spare_path = match plan.path {
            0 => false,
            1 => true,
            _ => i % 2 == 1,
        };
        if plan.empty_reads || chunk.is_empty() {
            empty_read(d, spare_path);
            if !plan.lazy {
                drain(d, &mut items);
            }
        }
        let mut chunk = *chunk;
        let mut drained = !plan.lazy;
        while !chunk.is_empty() {
            let n = if spare_path {
                let spare = d.spare();
                let n = spare.len().min(chunk.len());
                spare[..n].copy_from_slice(&chunk[..n]);
                d.commit(n);
                n
            } else {
                d.feed(chunk)
            };
            // Room is only ever missing while complete lines wait to be drained.
            assert!(n > 0 || !drained, "no room taken although every complete line was drained");
            chunk = &chunk[n..];
            if plan.lazy && n > 0 {
                drained = false;
                continue;
            }
            drain(d, &mut items);
            drained = true;
        }
    }
    if plan.empty_reads {
        empty_read(d, plan.path == 1);
    }
    drain(d, &mut items);
    if plan.close {
        d.close();
        assert!(d.is_closed());
        assert_eq!(d.feed(b"data: late\n\n"), 0);
        drain(d, &mut items);
        assert!(d.next_event().is_none(), "events after the end");
    }
    Outcome { items, last_event_id: d.last_event_id().to_vec(), retry: d.retry() }
}

/// The WHATWG rules over the whole stream, plus the buffer contract (see tests/sse.rs
/// for the same model with its commentary). `last_id` and `retry` are what a restarted
/// decoder carries over from the previous connection.
fn model(stream: &[u8], cap: usize, close: bool, mut last_id: Vec<u8>, mut retry: Option<u32>) -> Outcome {
    const BOM: &[u8] = b"\xEF\xBB\xBF";
    let mut rest = stream;
    // The BOM is recognised once three bytes are in: the room the last id leaves.
    if cap.saturating_sub(last_id.len()) >= BOM.len() && rest.starts_with(BOM) {
        rest = &rest[BOM.len()..];
    }
    let mut items = Vec::new();
    let mut pending_id: Option<Vec<u8>> = None;
    let mut event_type: Vec<u8> = Vec::new();
    let mut data: Vec<u8> = Vec::new();
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
