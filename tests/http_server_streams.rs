//! The SSE side of one session, without sockets, on a virtual clock: routing by
//! origin, JSON or SSE per POST, priming, replay with Last-Event-ID, the GET queue,
//! backpressure, keep-alive, polling and the legacy transport.

use core::time::Duration;

use mcp_sansio::http::server::{
    BodyKind, GET_STREAM, JsonResponses, PushError, ReadOutcome, StreamConfig, StreamOutput, Streams,
};
use mcp_sansio::{Instant, ProtocolVersion};

type S = Streams<Vec<u8>, 4, 4>;

const EPOCH: u32 = 0xabcd_0001;

fn streams(version: ProtocolVersion) -> S {
    Streams::new(vec![0; 4096], StreamConfig::default(), EPOCH, Some(version))
}

fn t(ms: u64) -> Instant {
    Instant::from_millis(ms)
}

fn outputs(s: &mut S) -> Vec<StreamOutput> {
    core::iter::from_fn(|| s.poll()).collect()
}

/// Everything `exchange` has now, read in chunks of `chunk` bytes.
fn read_all(s: &mut S, now: Instant, exchange: u32, chunk: usize) -> (String, bool) {
    let mut text = Vec::new();
    loop {
        let mut buf = vec![0; chunk];
        let ReadOutcome { n, end } = s.read(now, exchange, &mut buf);
        text.extend_from_slice(&buf[..n]);
        if end {
            return (String::from_utf8(text).unwrap(), true);
        }
        if n == 0 {
            return (String::from_utf8(text).unwrap(), false);
        }
    }
}

const RESPONSE: &[u8] = br#"{"jsonrpc":"2.0","id":1,"result":{}}"#;
const PROGRESS: &[u8] =
    br#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}"#;
const LOG: &[u8] = br#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}"#;
const SAMPLING: &[u8] = br#"{"jsonrpc":"2.0","id":0,"method":"sampling/createMessage","params":{}}"#;
const UNRELATED: &[u8] = br#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#;

#[test]
fn a_lone_response_goes_as_json() {
    for version in [ProtocolVersion::V2025_03_26, ProtocolVersion::V2025_06_18, ProtocolVersion::V2025_11_25] {
        let mut s = streams(version);
        let origin = s.open_post(t(0), 7, 1).unwrap();
        assert_eq!(origin, 1);
        assert_eq!(outputs(&mut s), []);
        assert_eq!(s.read(t(0), 7, &mut [0; 64]), ReadOutcome { n: 0, end: false }, "undecided: nothing yet");
        s.push(t(1), Some(origin), RESPONSE, true).unwrap();
        assert_eq!(
            outputs(&mut s),
            [
                StreamOutput::Head { exchange: 7, kind: BodyKind::Json { len: RESPONSE.len() } },
                StreamOutput::Readable { exchange: 7 }
            ]
        );
        assert_eq!(read_all(&mut s, t(1), 7, 5), (String::from_utf8(RESPONSE.to_vec()).unwrap(), true));
        assert!(s.is_idle());
    }
}

#[test]
fn anything_before_the_response_makes_it_sse_and_all_of_it_stays_on_that_stream() {
    let mut s = streams(ProtocolVersion::V2025_06_18);
    s.open_get(t(0), 100, None).unwrap();
    let a = s.open_post(t(0), 1, 1).unwrap();
    let b = s.open_post(t(0), 2, 1).unwrap();
    s.push(t(1), Some(a), PROGRESS, false).unwrap();
    s.push(t(1), Some(a), LOG, false).unwrap();
    s.push(t(1), None, UNRELATED, false).unwrap();
    s.push(t(1), Some(a), SAMPLING, false).unwrap();
    s.push(t(1), Some(b), RESPONSE, true).unwrap();
    s.push(t(1), Some(a), RESPONSE, true).unwrap();
    // A late message for a request already answered is unrelated by then.
    s.push(t(1), Some(a), LOG, false).unwrap();
    let out = outputs(&mut s);
    assert!(out.contains(&StreamOutput::Head { exchange: 100, kind: BodyKind::Sse }));
    assert!(out.contains(&StreamOutput::Head { exchange: 1, kind: BodyKind::Sse }));
    assert!(out.contains(&StreamOutput::Head { exchange: 2, kind: BodyKind::Json { len: RESPONSE.len() } }));
    let (post_a, end_a) = read_all(&mut s, t(2), 1, 4096);
    let ev = |stream: u32, seq: u32, m: &[u8]| {
        format!("id: {EPOCH:08x}-{stream}-{seq}\ndata: {}\n\n", String::from_utf8_lossy(m))
    };
    assert_eq!(post_a, [ev(a, 1, PROGRESS), ev(a, 2, LOG), ev(a, 4, SAMPLING), ev(a, 6, RESPONSE)].concat());
    assert!(end_a, "the stream ends after its response");
    assert_eq!(read_all(&mut s, t(2), 2, 4096), (String::from_utf8(RESPONSE.to_vec()).unwrap(), true));
    let (get, end) = read_all(&mut s, t(2), 100, 4096);
    assert_eq!(get, [ev(GET_STREAM, 3, UNRELATED), ev(GET_STREAM, 7, LOG)].concat());
    assert!(!end, "the GET stream stays open");
}

#[test]
fn priming_for_2025_11_25_only() {
    let mut s = streams(ProtocolVersion::V2025_11_25);
    let a = s.open_post(t(0), 1, 1).unwrap();
    s.push(t(0), Some(a), PROGRESS, false).unwrap();
    s.push(t(0), Some(a), RESPONSE, true).unwrap();
    outputs(&mut s);
    let (text, end) = read_all(&mut s, t(0), 1, 4096);
    assert!(
        text.starts_with(&format!("id: {EPOCH:08x}-1-0\nretry: 1000\ndata: \n\nid: {EPOCH:08x}-1-1\ndata: {{")),
        "{text}"
    );
    assert!(end);
    // A GET stream is primed too; older versions get no priming.
    s.open_get(t(0), 2, None).unwrap();
    outputs(&mut s);
    assert_eq!(read_all(&mut s, t(0), 2, 4096).0, format!("id: {EPOCH:08x}-0-0\nretry: 1000\ndata: \n\n"));
    let mut old = streams(ProtocolVersion::V2025_06_18);
    old.open_get(t(0), 2, None).unwrap();
    outputs(&mut old);
    assert_eq!(read_all(&mut old, t(0), 2, 4096).0, "");
}

#[test]
fn unrelated_messages_wait_for_a_get_within_a_bound() {
    let config = StreamConfig { get_queue: 2, ..StreamConfig::default() };
    let mut s: S = Streams::new(vec![0; 4096], config, EPOCH, Some(ProtocolVersion::V2025_06_18));
    for k in 0..3u8 {
        let m = format!(r#"{{"jsonrpc":"2.0","method":"n{k}"}}"#);
        s.push(t(0), None, m.as_bytes(), false).unwrap();
    }
    assert_eq!(outputs(&mut s), [StreamOutput::Dropped { messages: 1 }]);
    assert!(!s.is_idle(), "queued messages keep the session awake");
    s.open_get(t(1), 9, None).unwrap();
    outputs(&mut s);
    let (text, _) = read_all(&mut s, t(1), 9, 4096);
    assert!(!text.contains("n0") && text.contains("n1") && text.contains("n2"), "{text}");
    assert!(text.find("n1") < text.find("n2"));
}

#[test]
fn a_second_get_replaces_the_first() {
    let mut s = streams(ProtocolVersion::V2025_06_18);
    s.open_get(t(0), 1, None).unwrap();
    s.push(t(0), None, UNRELATED, false).unwrap();
    outputs(&mut s);
    read_all(&mut s, t(0), 1, 4096);
    s.open_get(t(1), 2, None).unwrap();
    assert_eq!(
        outputs(&mut s),
        [
            StreamOutput::Replaced { exchange: 1 },
            StreamOutput::Head { exchange: 2, kind: BodyKind::Sse },
            StreamOutput::Readable { exchange: 2 }
        ]
    );
    assert_eq!(s.read(t(1), 1, &mut [0; 16]), ReadOutcome { n: 0, end: true }, "the old exchange is gone");
    assert_eq!(s.connections(), 1);
    // What the first got is not sent again; what comes next goes to the second.
    s.push(t(2), None, LOG, false).unwrap();
    outputs(&mut s);
    let (text, _) = read_all(&mut s, t(2), 2, 4096);
    assert!(text.contains("notifications/message") && !text.contains("list_changed"), "{text}");
}

#[test]
fn a_dropped_post_stream_is_resumed_with_last_event_id_and_only_that_stream() {
    let mut s = streams(ProtocolVersion::V2025_11_25);
    let a = s.open_post(t(0), 1, 1).unwrap();
    let b = s.open_post(t(0), 2, 1).unwrap();
    s.push(t(0), Some(a), PROGRESS, false).unwrap();
    outputs(&mut s);
    let (first, _) = read_all(&mut s, t(0), 1, 4096);
    let last_id = format!("{EPOCH:08x}-{a}-1");
    assert!(first.contains(&format!("id: {last_id}\n")));
    // The client goes away: nothing ends.
    assert!(s.connection_closed(1));
    assert!(s.is_open(a));
    s.push(t(1), Some(a), LOG, false).unwrap();
    s.push(t(1), Some(b), PROGRESS, false).unwrap();
    s.push(t(1), None, UNRELATED, false).unwrap();
    s.push(t(1), Some(a), RESPONSE, true).unwrap();
    // The resume carries stream a from after the last id it saw.
    assert_eq!(s.open_get(t(2), 3, Some(&last_id)), Ok(a));
    outputs(&mut s);
    let (resumed, end) = read_all(&mut s, t(2), 3, 4096);
    assert!(resumed.contains("notifications/message") && resumed.contains(r#""result""#), "{resumed}");
    assert!(
        !resumed.contains("list_changed") && !resumed.contains("notifications/progress"),
        "other streams are not replayed"
    );
    assert!(end, "the stream was complete");
    // Resuming again from the start replays it all while it is stored.
    let priming = format!("{EPOCH:08x}-{a}-0");
    s.open_get(t(3), 4, Some(&priming)).unwrap();
    outputs(&mut s);
    let (again, end) = read_all(&mut s, t(3), 4, 4096);
    assert!(again.contains("notifications/progress") && again.contains(r#""result""#) && end, "{again}");
    // An id of another session (epoch), or malformed, opens the standalone stream.
    assert_eq!(s.open_get(t(3), 5, Some("00000000-1-1")), Ok(GET_STREAM));
    assert_eq!(s.open_get(t(3), 6, Some("nonsense")), Ok(GET_STREAM));
    assert_eq!(s.open_get(t(3), 7, Some(&format!("{EPOCH:08x}-99-1"))), Ok(GET_STREAM));
}

#[test]
fn a_connected_slow_reader_gets_backpressure_never_loss() {
    let mut s: S = Streams::new(vec![0; 300], StreamConfig::default(), EPOCH, Some(ProtocolVersion::V2025_06_18));
    s.open_get(t(0), 1, None).unwrap();
    outputs(&mut s);
    let mut pushed = 0;
    while s.push(t(0), None, UNRELATED, false).is_ok() {
        pushed += 1;
    }
    assert_eq!(s.push(t(0), None, UNRELATED, false), Err(PushError::Backpressure));
    assert!(pushed >= 3);
    assert_eq!(outputs(&mut s), [StreamOutput::Readable { exchange: 1 }]);
    let (text, _) = read_all(&mut s, t(0), 1, 4096);
    assert_eq!(text.matches("list_changed").count(), pushed);
    // Read: room again (sent messages make way), and nothing was reported dropped.
    s.push(t(1), None, UNRELATED, false).unwrap();
    assert_eq!(outputs(&mut s), [StreamOutput::Readable { exchange: 1 }]);
    assert_eq!(s.push(t(1), None, &[b' '; 400], false), Err(PushError::TooLarge { needed: 412, capacity: 300 }));
}

#[test]
fn keepalive_after_silence() {
    let mut s = streams(ProtocolVersion::V2025_06_18);
    s.open_get(t(0), 1, None).unwrap();
    outputs(&mut s);
    read_all(&mut s, t(0), 1, 64);
    assert_eq!(s.poll_timeout(), Some(t(15_000)));
    s.handle_timeout(t(14_999));
    assert_eq!(outputs(&mut s), []);
    s.handle_timeout(t(15_000));
    assert_eq!(outputs(&mut s), [StreamOutput::Readable { exchange: 1 }]);
    assert_eq!(read_all(&mut s, t(15_000), 1, 64).0, ": keep-alive\n\n");
    assert_eq!(s.poll_timeout(), Some(t(30_000)));
    // A message resets the clock.
    s.push(t(20_000), None, UNRELATED, false).unwrap();
    read_all(&mut s, t(20_000), 1, 4096);
    assert_eq!(s.poll_timeout(), Some(t(35_000)));
    let off = StreamConfig { keepalive: Duration::ZERO, ..StreamConfig::default() };
    let mut quiet: S = Streams::new(vec![0; 512], off, EPOCH, None);
    quiet.open_get(t(0), 1, None).unwrap();
    assert_eq!(quiet.poll_timeout(), None);
}

#[test]
fn polling_closes_after_priming_and_the_client_resumes() {
    let config = StreamConfig { close_after_priming: true, ..StreamConfig::default() };
    let mut s: S = Streams::new(vec![0; 4096], config, EPOCH, Some(ProtocolVersion::V2025_11_25));
    let a = s.open_post(t(0), 1, 1).unwrap();
    s.start_sse(a);
    assert_eq!(
        outputs(&mut s),
        [StreamOutput::Head { exchange: 1, kind: BodyKind::Sse }, StreamOutput::Readable { exchange: 1 }]
    );
    let (text, end) = read_all(&mut s, t(0), 1, 4096);
    assert_eq!(text, format!("id: {EPOCH:08x}-1-0\nretry: 1000\ndata: \n\n"));
    assert!(end, "closed after priming");
    s.push(t(5), Some(a), RESPONSE, true).unwrap();
    s.open_get(t(1000), 2, Some(&format!("{EPOCH:08x}-1-0"))).unwrap();
    outputs(&mut s);
    let (text, end) = read_all(&mut s, t(1000), 2, 4096);
    assert!(text.ends_with(&format!("id: {EPOCH:08x}-1-1\ndata: {}\n\n", String::from_utf8_lossy(RESPONSE))), "{text}");
    assert!(end, "complete");
    // A resumed connection with nothing to send is polled too: closed after priming.
    let b = s.open_post(t(2000), 3, 1).unwrap();
    s.push(t(2000), Some(b), PROGRESS, false).unwrap();
    outputs(&mut s);
    let (_, end) = read_all(&mut s, t(2000), 3, 4096);
    assert!(end, "closed with the stream still open");
    assert!(s.is_open(b));
    s.open_get(t(3000), 4, Some(&format!("{EPOCH:08x}-{b}-2"))).unwrap();
    outputs(&mut s);
    let (text, end) = read_all(&mut s, t(3000), 4, 4096);
    assert_eq!((text, end), (format!("id: {EPOCH:08x}-{b}-2\nretry: 1000\ndata: \n\n"), true));
}

#[test]
fn disconnect_mid_call() {
    let mut s = streams(ProtocolVersion::V2025_11_25);
    let a = s.open_post(t(0), 1, 1).unwrap();
    assert!(s.disconnect(a));
    outputs(&mut s);
    let (text, end) = read_all(&mut s, t(0), 1, 4096);
    assert!(text.starts_with("id: ") && end);
    assert!(s.is_open(a));
    // Older clients do not resume: no disconnect for them.
    let mut old = streams(ProtocolVersion::V2025_06_18);
    let a = old.open_post(t(0), 1, 1).unwrap();
    assert!(!old.disconnect(a));
}

#[test]
fn batches_answer_as_sse_and_end_after_every_response() {
    let mut s = streams(ProtocolVersion::V2025_03_26);
    let a = s.open_post(t(0), 1, 2).unwrap();
    assert_eq!(
        outputs(&mut s),
        [StreamOutput::Head { exchange: 1, kind: BodyKind::Sse }, StreamOutput::Readable { exchange: 1 }]
    );
    s.push(t(0), Some(a), RESPONSE, true).unwrap();
    let (_, end) = read_all(&mut s, t(0), 1, 4096);
    assert!(!end);
    s.push(t(0), Some(a), br#"{"jsonrpc":"2.0","id":2,"result":{}}"#, true).unwrap();
    let (text, end) = read_all(&mut s, t(0), 1, 4096);
    assert!(text.contains(r#""id":2"#) && end);
}

#[test]
fn never_json_when_configured() {
    let config = StreamConfig { json_responses: JsonResponses::Never, ..StreamConfig::default() };
    let mut s: S = Streams::new(vec![0; 4096], config, EPOCH, Some(ProtocolVersion::V2025_06_18));
    let a = s.open_post(t(0), 1, 1).unwrap();
    s.push(t(0), Some(a), RESPONSE, true).unwrap();
    assert_eq!(outputs(&mut s)[0], StreamOutput::Head { exchange: 1, kind: BodyKind::Sse });
}

#[test]
fn chunking_does_not_change_the_bytes() {
    let build = || {
        let mut s = streams(ProtocolVersion::V2025_11_25);
        let a = s.open_post(t(0), 1, 1).unwrap();
        for m in [PROGRESS, LOG, SAMPLING, RESPONSE] {
            s.push(t(0), Some(a), m, m == RESPONSE).unwrap();
        }
        outputs(&mut s);
        s
    };
    let whole = read_all(&mut build(), t(0), 1, 1 << 16);
    for chunk in [1, 2, 3, 7, 13, 64] {
        assert_eq!(read_all(&mut build(), t(0), 1, chunk), whole, "chunk {chunk}");
    }
}

#[test]
fn legacy_stream() {
    let mut s: S = Streams::legacy(vec![0; 4096], StreamConfig::default(), "/messages?sessionId=abc").unwrap();
    s.open_get(t(0), 1, None).unwrap();
    // Origins do not matter: everything goes on the one stream.
    s.push(t(0), Some(5), RESPONSE, true).unwrap();
    s.push(t(0), None, UNRELATED, false).unwrap();
    outputs(&mut s);
    let (text, end) = read_all(&mut s, t(0), 1, 4096);
    assert_eq!(
        text,
        format!(
            "event: endpoint\ndata: /messages?sessionId=abc\n\nevent: message\ndata: {}\n\nevent: message\ndata: {}\n\n",
            String::from_utf8_lossy(RESPONSE),
            String::from_utf8_lossy(UNRELATED)
        )
    );
    assert!(!end);
    assert!(Streams::<Vec<u8>, 4, 4>::legacy(vec![0; 64], StreamConfig::default(), "/x\r\n").is_none());
}

#[test]
fn a_resumed_stream_replays_without_a_second_priming_event() {
    let mut s = streams(ProtocolVersion::V2025_11_25);
    let a = s.open_post(t(0), 1, 1).unwrap();
    s.push(t(0), Some(a), PROGRESS, false).unwrap();
    outputs(&mut s);
    let (text, _) = read_all(&mut s, t(0), 1, 4096);
    assert!(text.ends_with(&format!("id: {EPOCH:08x}-{a}-1\ndata: {}\n\n", String::from_utf8_lossy(PROGRESS))));
    // The connection drops after event 1; the response comes meanwhile.
    assert!(s.connection_closed(1));
    s.push(t(5), Some(a), RESPONSE, true).unwrap();
    s.open_get(t(10), 2, Some(&format!("{EPOCH:08x}-{a}-1"))).unwrap();
    outputs(&mut s);
    let (text, end) = read_all(&mut s, t(10), 2, 4096);
    // Only what came after event 1: no priming event repeating its id.
    assert_eq!(text, format!("id: {EPOCH:08x}-{a}-2\ndata: {}\n\n", String::from_utf8_lossy(RESPONSE)));
    assert!(end);
}
