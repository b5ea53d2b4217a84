//! Property tests of the stateless era on the virtual clock (issue 10):
//!
//! * the dual-era client's probe falls back to `initialize` under every kind of
//!   handshake-era answer (any error code but the modern ones, silence, garbage, noise
//!   before the answer, results that are no usable discover result), in any chunking,
//!   and stays modern under every usable one;
//! * multi round-trip requests with arbitrary interleavings: several calls in flight,
//!   rounds answered in any order, some states tampered with or replayed onto another
//!   call; every call ends exactly once, and never with a result for a bad state.

mod common;

use core::time::Duration;
use std::collections::HashMap;

use common::*;
use mcp_sansio::Instant;
use mcp_sansio::mcp::{CallToolResult, InputAnswers, InputKind, Method, Role};
use mcp_sansio::session::{Config, Event, Output, RequestOptions, RetryTicket, State, StateBinding, StateSealer};
use mcp_sansio::wire::{JsonStr, RawJson, RequestId};
use proptest::prelude::*;

// ---- the probe --------------------------------------------------------------------

#[derive(Clone, Debug)]
enum Answer {
    /// An error response to the probe with this code (never a modern one).
    Error(i32, bool),
    /// Nothing at all.
    Silence,
    /// A line that is not JSON.
    Garbage(Vec<u8>),
    /// A result that is no usable discover result.
    Unusable(&'static str),
    /// A usable discover result.
    Modern,
}

fn answer() -> impl Strategy<Value = Answer> {
    let modern_codes = [-32020i32, -32021, -32022];
    prop_oneof![
        (any::<i32>().prop_filter("not modern", move |c| !modern_codes.contains(c)), any::<bool>())
            .prop_map(|(c, data)| Answer::Error(c, data)),
        Just(Answer::Silence),
        proptest::collection::vec(any::<u8>().prop_filter("no newline", |b| *b != b'\n'), 1..40)
            .prop_map(Answer::Garbage),
        prop_oneof![
            Just(r#"{}"#),
            Just(r#"{"supportedVersions":["2025-06-18"],"capabilities":{}}"#),
            Just(r#"{"supportedVersions":[],"capabilities":{}}"#),
            Just(r#"{"supportedVersions":["2026-07-28"],"capabilities":null}"#),
            Just(r#"{"supportedVersions":[2026],"capabilities":{}}"#),
        ]
        .prop_map(Answer::Unusable),
        Just(Answer::Modern),
    ]
}

fn noise() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        Just(Vec::new()),
        Just(b"server starting\n".to_vec()),
        Just(
            br#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}
"#
            .to_vec()
        ),
        Just(
            br#"{"jsonrpc":"2.0","id":77,"result":{}}
"#
            .to_vec()
        ),
        Just(b"\n\n  \n".to_vec()),
    ]
}

fn answer_bytes(a: &Answer) -> Vec<u8> {
    match a {
        Answer::Error(code, data) => {
            let data = if *data { r#","data":{"supported":["2025-11-25"]}"# } else { "" };
            format!(r#"{{"jsonrpc":"2.0","id":1,"error":{{"code":{code},"message":"no"{data}}}}}"#).into_bytes()
        }
        Answer::Silence => Vec::new(),
        Answer::Garbage(g) => g.clone(),
        Answer::Unusable(r) => format!(r#"{{"jsonrpc":"2.0","id":1,"result":{r}}}"#).into_bytes(),
        Answer::Modern => br#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","supportedVersions":["2025-11-25","2026-07-28","2099-01-01"],"capabilities":{"tools":{}},"ttlMs":0,"cacheScope":"public"}}"#.to_vec(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, .. ProptestConfig::default() })]

    #[test]
    fn the_probe_falls_back_under_every_legacy_answer(
        before in noise(),
        a in answer(),
        chunk in 1usize..64,
        late in 0u64..10_000,
    ) {
        let config = Config::new(Role::Client, raw(CLIENT_INFO)).capabilities(raw(CLIENT_CAPS));
        let mut c = Side::lone(config);
        c.new_lines();
        let mut input = before;
        input.extend(answer_bytes(&a));
        input.push(b'\n');
        for piece in input.chunks(chunk) {
            c.feed(Instant::ZERO, piece);
        }
        // An answer decides at once; silence and garbage only when the probe times out.
        let at_once = c.new_lines();
        let immediate = matches!(a, Answer::Error(..) | Answer::Unusable(_));
        prop_assert_eq!(at_once.iter().any(|l| l.contains(r#""method":"initialize""#)), immediate, "{:?}", at_once);
        let timeout = mcp_sansio::session::DEFAULT_DISCOVER_TIMEOUT.as_millis() as u64;
        c.ep.handle_timeout(Instant::from_millis(late.min(timeout - 1)));
        c.drain();
        let early = c.new_lines();
        prop_assert!(early.iter().all(|l| !l.contains(r#""method":"initialize""#)), "not before the timeout: {:?}", early);
        c.ep.handle_timeout(Instant::from_secs(10));
        c.drain();
        let mut lines = at_once;
        lines.extend(c.new_lines());
        let initializes = lines.iter().filter(|l| l.contains(r#""method":"initialize""#)).count();
        let probes = lines.iter().filter(|l| l.contains("server/discover")).count();
        prop_assert_eq!(probes, 0, "never a second probe: {:?}", lines);
        match a {
            Answer::Modern => {
                prop_assert_eq!(c.ep.state(), State::Stateless);
                prop_assert_eq!(initializes, 0);
            }
            _ => {
                prop_assert_eq!(initializes, 1, "exactly one initialize: {:?}", lines);
                prop_assert_eq!(c.ep.state(), State::AwaitingInitializeResult);
            }
        }
        // Whatever the answer, no reply went to the server's garbage.
        prop_assert!(lines.iter().all(|l| !l.contains(r#""error""#)));
    }
}

// ---- multi round-trip interleavings -----------------------------------------------

const SEALER: StateSealer = StateSealer::new(*b"0123456789abcdef");
const ASKED: [(&str, InputKind); 1] = [("name", InputKind::Elicitation)];
const KEYS: [&str; 1] = ["name"];

/// A stateless server's app: tool `t<n>` asks for a name twice (rounds 1 and 2, the
/// round sealed in the state), then answers. Anything invalid is -32602.
fn serve(server: &mut Side, now: Instant) {
    loop {
        let mut req = match server.ep.poll_output() {
            Output::Transmit(t) => {
                server.pipe.extend_from_slice(&t);
                continue;
            }
            Output::Event(Event::Request(req)) => req,
            Output::Event(e) => panic!("{e:?}"),
            Output::Idle { .. } => return,
        };
        let params = req.params.unwrap();
        let name = params.get("name").unwrap().as_str().unwrap().to_string();
        let binding = StateBinding::new(Method::ToolsCall, &name, &KEYS);
        let round = match (InputAnswers::check(params.get("inputResponses"), &ASKED), params.get("requestState")) {
            (Err(_), None) => 0,
            (Ok(_), Some(state)) => {
                let mut out = [0u8; 8];
                match state.as_str().map(|s| SEALER.open(&binding, s, now, &mut out)) {
                    Some(Ok([r])) => *r,
                    _ => {
                        req.respond_error(mcp_sansio::wire::ErrorCode::INVALID_PARAMS, "Invalid requestState").unwrap();
                        continue;
                    }
                }
            }
            _ => {
                req.respond_error(mcp_sansio::wire::ErrorCode::INVALID_PARAMS, "Invalid inputResponses").unwrap();
                continue;
            }
        };
        if round == 2 {
            req.respond(&CallToolResult::text(&format!("done {name}"))).unwrap();
            continue;
        }
        let mut buf = [0u8; 64];
        let state = SEALER.seal(&binding, &[round + 1], now + Duration::from_secs(60), &mut buf).unwrap();
        let result = format!(
            r#"{{"resultType":"input_required","inputRequests":{{"name":{{"method":"elicitation/create","params":{{"message":"?","requestedSchema":{{"type":"object"}}}}}}}},"requestState":"{state}"}}"#
        );
        req.respond(&RawJson::parse(result.as_bytes()).unwrap()).unwrap();
    }
}

#[derive(Clone, Debug)]
enum Step {
    /// Deliver what the client sent, then what the server sent (or the other way round).
    Deliver(bool),
    /// Retry the oldest (or newest) call waiting for input, honestly.
    Retry(bool),
    /// Retry one waiting call with its state tampered with.
    Tamper(usize),
    /// Retry one waiting call with another call's state.
    Replay(usize, usize),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        4 => any::<bool>().prop_map(Step::Deliver),
        4 => any::<bool>().prop_map(Step::Retry),
        1 => (0usize..4).prop_map(Step::Tamper),
        1 => (0usize..4, 0usize..4).prop_map(|(a, b)| Step::Replay(a, b)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, .. ProptestConfig::default() })]

    #[test]
    fn every_round_trip_ends_once_and_no_bad_state_completes(
        calls in 1usize..4,
        steps in proptest::collection::vec(step(), 0..60),
    ) {
        let client = Config::new(Role::Client, raw(CLIENT_INFO)).capabilities(raw(br#"{"elicitation":{}}"#));
        let mut p = Pair::with(client, server_config());
        p.drive();
        p.client.take();
        // The calls: call n is tool `t<n>`; `chain` maps each request id to its call.
        let mut chain: HashMap<String, usize> = HashMap::new();
        for n in 0..calls {
            let params = format!(r#"{{"name":"t{n}"}}"#);
            let id = p.client.ep.send_request(p.now, "tools/call", Some(&raw(params.leak().as_bytes())), RequestOptions::default()).unwrap();
            chain.insert(id.to_string(), n);
        }
        // What each call waits on: (ticket, state) once its input_required arrived.
        let mut waiting: Vec<Option<(RetryTicket, String)>> = vec![None; calls];
        let mut outcome: Vec<Vec<String>> = vec![Vec::new(); calls];
        let mut bad: Vec<bool> = vec![false; calls];
        let collect = |p: &mut Pair, chain: &HashMap<String, usize>, waiting: &mut Vec<Option<(RetryTicket, String)>>, outcome: &mut Vec<Vec<String>>| {
            for ev in p.client.take() {
                match ev {
                    Ev::InputRequired { id, result } => {
                        let n = chain[&id];
                        let state = RawJson::parse(result.as_bytes()).unwrap().get("requestState").unwrap().as_str().unwrap().to_string();
                        waiting[n] = Some((p.client.tickets[&id], state));
                    }
                    Ev::Response { id, result, .. } => outcome[chain[&id]].push(format!("ok {result}")),
                    Ev::Error { id, code, .. } => outcome[chain[&id]].push(format!("error {code}")),
                    other => panic!("{other:?}"),
                }
            }
        };
        let deliver = |p: &mut Pair, client_first: bool| {
            p.client.drain();
            for first in [client_first, !client_first] {
                if first {
                    let bytes = std::mem::take(&mut p.client.pipe);
                    let mut rest = &bytes[..];
                    while !rest.is_empty() {
                        let n = p.server.ep.handle_input(p.now, rest);
                        rest = &rest[n..];
                        serve(&mut p.server, p.now);
                    }
                    serve(&mut p.server, p.now);
                } else {
                    let bytes = std::mem::take(&mut p.server.pipe);
                    let mut rest = &bytes[..];
                    while !rest.is_empty() {
                        let n = p.client.ep.handle_input(p.now, rest);
                        rest = &rest[n..];
                        p.client.drain();
                    }
                }
            }
        };
        let answer = RawJson::parse(br#"{"name":{"action":"accept","content":{"name":"A"}}}"#).unwrap();
        let retry = |p: &mut Pair, chain: &mut HashMap<String, usize>, n: usize, ticket: &RetryTicket, state: &str, honest: bool| {
            let params = format!(r#"{{"name":"t{n}"}}"#);
            let params = raw(params.leak().as_bytes());
            let id = if honest {
                p.client.ep.retry(p.now, ticket, Some(&params), &answer, Some(state), RequestOptions::default()).unwrap()
            } else {
                // A hostile client: the state sent as it likes, past the ticket.
                let body = format!(r#"{{"name":"t{n}","inputResponses":{{"name":{{"action":"accept","content":{{"name":"A"}}}}}},"requestState":"{state}"}}"#);
                p.client.ep.send_request(p.now, "tools/call", Some(&raw(body.leak().as_bytes())), RequestOptions::default()).unwrap()
            };
            chain.insert(id.to_string(), n);
        };
        for s in steps.into_iter().chain(std::iter::repeat_n(Step::Deliver(true), 8)) {
            match s {
                Step::Deliver(client_first) => deliver(&mut p, client_first),
                Step::Retry(oldest) => {
                    let order: Vec<usize> = if oldest { (0..calls).collect() } else { (0..calls).rev().collect() };
                    if let Some(n) = order.into_iter().find(|&n| waiting[n].is_some()) {
                        let (ticket, state) = waiting[n].take().unwrap();
                        retry(&mut p, &mut chain, n, &ticket, &state, true);
                    }
                }
                Step::Tamper(k) => {
                    let n = k % calls;
                    if let Some((ticket, state)) = waiting[n].take() {
                        let mut b = state.into_bytes();
                        let i = b.len() / 2;
                        b[i] = if b[i] == b'0' { b'1' } else { b'0' };
                        bad[n] = true;
                        retry(&mut p, &mut chain, n, &ticket, &String::from_utf8(b).unwrap(), false);
                    }
                }
                Step::Replay(a, b) => {
                    let (a, b) = (a % calls, b % calls);
                    if a != b && waiting[a].is_some() && waiting[b].is_some() {
                        let (ticket, _) = waiting[a].take().unwrap();
                        let state = waiting[b].as_ref().unwrap().1.clone();
                        bad[a] = true;
                        retry(&mut p, &mut chain, a, &ticket, &state, false);
                    }
                }
            }
            collect(&mut p, &chain, &mut waiting, &mut outcome);
        }
        for n in 0..calls {
            // Each call ends at most once; one left waiting for input is simply not retried.
            prop_assert!(outcome[n].len() <= 1, "call {} ended {:?}", n, outcome[n]);
            if let Some(end) = outcome[n].first() {
                if bad[n] {
                    prop_assert_eq!(end, "error -32602", "a bad state never completes");
                } else {
                    prop_assert!(end.starts_with("ok ") && end.contains(&format!("done t{n}")), "{}", end);
                }
            } else {
                prop_assert!(waiting[n].is_some() || bad[n], "call {} is neither over nor waiting", n);
            }
        }
        let _ = RequestId::from_u64(0);
        let _ = JsonStr::from_text("");
    }
}
