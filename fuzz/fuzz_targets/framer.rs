//! The stdio line framer under fuzzer-chosen chunking: whatever the chunk sizes, the
//! buffer capacity, and whether bytes arrive through `feed` or `spare`/`commit`, the
//! events are those of feeding the whole stream at once, and those of a plain model.
//!
//! Input layout: `[capacity, mode, k, size_1 .. size_k, stream ..]`
//! * capacity: 0..=127 gives 1..=128 bytes, 128..=255 gives 64..=8192 in steps of 64;
//! * mode: bits 0-1 pick the path (0 `feed`, 1 `spare`/`commit`, 2 and 3 alternate per
//!   chunk), bit 2 adds an empty read before every chunk and before the end (what a read
//!   loop does when `read` returns 0), bit 3 leaves the stream open (no `close`), bit 4
//!   drains lines only when no more bytes are taken (several reads between drains);
//! * k = byte & 15 chunk sizes follow, used in turn (a 0 is an empty read); none means
//!   one chunk.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_sansio::framing::{LineError, LineFramer};

type Event = Result<Vec<u8>, LineError>;

fuzz_target!(|data: &[u8]| {
    let [cap, mode, k, rest @ ..] = data else { return };
    let k = usize::from(k & 15);
    let Some((sizes, stream)) = rest.split_at_checked(k) else { return };
    let cap = if *cap < 128 { usize::from(*cap) + 1 } else { (usize::from(*cap) - 127) * 64 };
    let close = mode & 8 == 0;
    let empty_reads = mode & 4 != 0;
    let lazy = mode & 16 != 0;
    let path = mode & 3;

    let whole = run(cap, &[stream], 0, false, false, close);
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
    let chunked = run(cap, &chunks, path, empty_reads, lazy, close);
    assert_eq!(chunked, whole, "chunking changed the events (capacity {cap}, {} chunks)", chunks.len());
    assert_eq!(whole, model(cap, stream, close), "events differ from the model (capacity {cap})");
    for event in &whole {
        match event {
            Ok(line) => {
                assert!(line.len() < cap, "a delivered line must fit with its newline");
                assert!(!line.contains(&b'\n'));
            }
            Err(LineError::TooLong { len }) => assert!(*len + 1 >= cap),
            Err(LineError::Unterminated { len }) => assert!(*len > 0 && *len < cap),
            Err(_) => {}
        }
    }
});

fn drain(f: &mut LineFramer<'_>, events: &mut Vec<Event>) {
    while let Some(line) = f.next_line() {
        events.push(line.map(<[u8]>::to_vec));
    }
}

fn run(cap: usize, chunks: &[&[u8]], path: u8, empty_reads: bool, lazy: bool, close: bool) -> Vec<Event> {
    let mut buf = vec![0u8; cap];
    let mut f = LineFramer::new(&mut buf);
    let mut events = Vec::new();
    let empty_read = |f: &mut LineFramer<'_>, spare_path: bool| {
        if spare_path {
            let _ = f.spare();
            f.commit(0);
        } else {
            assert_eq!(f.feed(&[]), 0);
        }
    };
    for (i, chunk) in chunks.iter().enumerate() {
        let spare_path = match path {
            0 => false,
            1 => true,
            _ => i % 2 == 1,
        };
        if empty_reads || chunk.is_empty() {
            empty_read(&mut f, spare_path);
            if !lazy {
                drain(&mut f, &mut events);
            }
        }
        let mut chunk = *chunk;
        let mut drained = !lazy;
        while !chunk.is_empty() {
            let n = if spare_path {
                let spare = f.spare();
                let n = spare.len().min(chunk.len());
                spare[..n].copy_from_slice(&chunk[..n]);
                f.commit(n);
                n
            } else {
                f.feed(chunk)
            };
            // Room is only ever missing while complete lines wait to be drained.
            assert!(n > 0 || !drained, "no room taken although every complete line was drained");
            chunk = &chunk[n..];
            if lazy && n > 0 {
                drained = false;
                continue;
            }
            drain(&mut f, &mut events);
            drained = true;
        }
    }
    if empty_reads {
        empty_read(&mut f, path == 1);
    }
    drain(&mut f, &mut events);
    if close {
        f.close();
        assert!(f.is_closed());
        drain(&mut f, &mut events);
        assert_eq!(f.next_line(), None, "events after the end");
    }
    events
}

/// The framer's documented behaviour, written plainly over the whole stream.
fn model(cap: usize, stream: &[u8], close: bool) -> Vec<Event> {
    const BOM: &[u8] = b"\xEF\xBB\xBF";
    // The BOM is recognised once three bytes are in; a smaller buffer cannot hold it.
    let mut rest = match stream.strip_prefix(BOM) {
        Some(after) if cap >= BOM.len() => after,
        _ => stream,
    };
    let blank = |line: &[u8]| line.iter().all(|b| matches!(b, b' ' | b'\t' | b'\r'));
    let mut events = Vec::new();
    while let Some(nl) = rest.iter().position(|&b| b == b'\n') {
        let raw = &rest[..nl];
        rest = &rest[nl + 1..];
        let line = raw.strip_suffix(b"\r").unwrap_or(raw);
        if raw.len() + 1 > cap {
            events.push(Err(LineError::TooLong { len: line.len() }));
        } else if !blank(line) {
            events.push(Ok(line.to_vec()));
        }
    }
    if close && !rest.is_empty() {
        // A partial line that fills the buffer can never be delivered: too long.
        if rest.len() >= cap {
            events.push(Err(LineError::TooLong { len: rest.len() }));
        } else if !blank(rest) {
            events.push(Err(LineError::Unterminated { len: rest.len() }));
        }
    }
    events
}
