//! Multi round-trip requests (2026-07-28) end to end: a stateless server that asks for
//! input with a sealed `requestState` and keeps nothing, a client that answers and
//! retries through its ticket. Exact bytes where they matter.

mod common;

use core::time::Duration;

use common::*;
use mcp_sansio::Instant;
use mcp_sansio::mcp::{
    CallToolParams, CallToolResult, ElicitFormParams, ElicitParams, InputAnswers, InputKind, InputRequest,
    InputRequiredResult, InputResponse, Method, Role,
};
use mcp_sansio::session::{Config, Event, Output, RequestOptions, SendError, StateBinding, StateError, StateSealer};
use mcp_sansio::wire::{ErrorCode, JsonStr, RawJson, RequestId};

const SEALER: StateSealer = StateSealer::new(*b"a test key, 16 b");
const ASKED: [(&str, InputKind); 1] = [("user_name", InputKind::Elicitation)];
const KEYS: [&str; 1] = ["user_name"];

fn client() -> Config<'static> {
    Config::new(Role::Client, raw(CLIENT_INFO)).capabilities(raw(br#"{"elicitation":{}}"#))
}

/// The server's application: the tool `greet` asks for a name the first time, and
/// greets once it has one; the state it needs travels sealed in `requestState`.
fn serve(server: &mut Side, now: Instant) {
    loop {
        let mut req = match server.ep.poll_output() {
            Output::Transmit(t) => {
                server.sent.extend_from_slice(&t);
                server.pipe.extend_from_slice(&t);
                continue;
            }
            Output::Event(Event::Request(req)) => req,
            Output::Event(e) => {
                server.events.push(own(&e));
                continue;
            }
            Output::Idle { .. } => return,
        };
        server.events.push(Ev::Request { id: req.id.to_string(), method: req.method.to_string(), params: None });
        let params = req.params.unwrap();
        let call: CallToolParams<'_> = params.decode().unwrap();
        let binding = StateBinding::new(Method::ToolsCall, "greet", &KEYS);
        match InputAnswers::check(params.get("inputResponses"), &ASKED) {
            Ok(answers) => {
                let state = params.get("requestState").and_then(|s| s.as_str()).unwrap_or(JsonStr::from_text(""));
                let mut out = [0u8; 64];
                match SEALER.open(&binding, state, now, &mut out) {
                    Ok(payload) => {
                        assert_eq!(payload, b"round=1");
                        let Some(InputResponse::Elicit(e)) = answers.get("user_name") else { panic!() };
                        let name = e.content.and_then(|c| c.get("name")).and_then(|n| n.as_str()).unwrap();
                        let text = format!("Hello, {name}!");
                        req.respond(&CallToolResult::text(&text)).unwrap();
                    }
                    Err(e) => {
                        req.respond_error(e.code(), e.message()).unwrap();
                    }
                }
            }
            Err(missing) if missing.code().is_none() => {
                assert_eq!(call.name, "greet");
                let caps = req.modern().unwrap().client_capabilities;
                let ask = ElicitParams::Form(ElicitFormParams {
                    mode: None,
                    message: JsonStr::from_text("What is your name?"),
                    requested_schema: RawJson::from_static(
                        r#"{"type":"object","properties":{"name":{"type":"string"}}}"#,
                    ),
                    task: None,
                    meta: None,
                });
                let requests = [(JsonStr::from_text("user_name"), InputRequest::Elicit(ask))];
                let mut buf = [0u8; 128];
                let state = SEALER.seal(&binding, b"round=1", now + Duration::from_secs(30), &mut buf).unwrap();
                match InputRequiredResult::for_client(caps, &requests, Some(JsonStr::from_text(state))) {
                    Ok(result) => req.respond(&result).unwrap(),
                    Err(e) => {
                        req.respond_error(ErrorCode::MISSING_REQUIRED_CLIENT_CAPABILITY, &format!("{e:?}")).unwrap()
                    }
                };
            }
            Err(invalid) => {
                req.respond_error(invalid.code().unwrap(), "Invalid inputResponses").unwrap();
            }
        }
    }
}

/// Exchanges bytes until both sides are quiet, the server serving as it goes.
fn run(p: &mut Pair) {
    for _ in 0..100 {
        p.client.drain();
        serve(&mut p.server, p.now);
        let (to_server, to_client) = (std::mem::take(&mut p.client.pipe), std::mem::take(&mut p.server.pipe));
        if to_server.is_empty() && to_client.is_empty() {
            return;
        }
        let mut rest = &to_server[..];
        while !rest.is_empty() {
            let n = p.server.ep.handle_input(p.now, rest);
            rest = &rest[n..];
            serve(&mut p.server, p.now);
        }
        let mut rest = &to_client[..];
        while !rest.is_empty() {
            let n = p.client.ep.handle_input(p.now, rest);
            rest = &rest[n..];
            p.client.drain();
        }
    }
    panic!("did not settle");
}

fn pair() -> Pair {
    let mut p = Pair::with(client(), server_config());
    run(&mut p);
    assert!(matches!(p.client.take().last(), Some(Ev::Ready { .. })));
    p.client.new_lines();
    p.server.new_lines();
    p
}

const GREET: &[u8] = br#"{"name":"greet","arguments":{}}"#;
const ALICE: &[u8] = br#"{"user_name":{"action":"accept","content":{"name":"Alice"}}}"#;

/// Calls `greet` and returns the ticket and the `requestState` of its answer.
fn first_round(p: &mut Pair) -> (mcp_sansio::session::RetryTicket, String) {
    let id = p.client.ep.send_request(p.now, "tools/call", Some(&raw(GREET)), RequestOptions::default()).unwrap();
    run(p);
    let events = p.client.take();
    let [Ev::InputRequired { id: answered, result }] = &events[..] else { panic!("{events:?}") };
    assert_eq!(answered, &id.to_string());
    let state = RawJson::parse(result.as_bytes()).unwrap().get("requestState").unwrap().as_str().unwrap().to_string();
    p.client.new_lines();
    (p.client.tickets[answered], state)
}

#[test]
fn a_server_asks_for_input_and_the_client_retries_with_a_new_id() {
    let mut p = pair();
    let (ticket, state) = first_round(&mut p);
    assert!(ticket.has_state());
    assert_eq!(ticket.input_requests(), 1);
    let lines = p.server.new_lines();
    assert!(
        lines[0].starts_with(r#"{"jsonrpc":"2.0","id":2,"result":{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"test-server","version":"2.0.0"}},"resultType":"input_required","inputRequests":{"user_name":{"method":"elicitation/create","params":{"message":"What is your name?""#),
        "{lines:?}"
    );
    let id = p
        .client
        .ep
        .retry(p.now, &ticket, Some(&raw(GREET)), &raw(ALICE), Some(&state), RequestOptions::default())
        .unwrap();
    assert_eq!(id, RequestId::from_u64(3), "a new id");
    run(&mut p);
    let sent = p.client.new_lines();
    assert_eq!(
        sent.last().unwrap(),
        &format!(
            concat!(
                r#"{{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{{"inputResponses":{{"user_name":{{"action":"accept","content":{{"name":"Alice"}}}}}},"requestState":"{}","#,
                r#""_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{"elicitation":{{}}}},"io.modelcontextprotocol/clientInfo":{{"name":"test-client","version":"1.0.0"}}}},"name":"greet","arguments":{{}}}}}}"#
            ),
            state
        )
    );
    let events = p.client.take();
    assert!(
        matches!(&events[..], [Ev::Response { id, result, .. }] if id == "3" && result.contains("Hello, Alice!")),
        "{events:?}"
    );
}

#[test]
fn a_retry_must_match_its_ticket_and_nothing_is_sent_when_it_does_not() {
    let mut p = pair();
    let (ticket, state) = first_round(&mut p);
    let mut retry = |params: &'static [u8], responses: &'static [u8], state: Option<&str>| {
        p.client.ep.retry(p.now, &ticket, Some(&raw(params)), &raw(responses), state, RequestOptions::default())
    };
    let other_tool = br#"{"name":"other","arguments":{}}"#;
    assert_eq!(retry(GREET, ALICE, None), Err(SendError::RetryMismatch), "the state was dropped");
    assert_eq!(retry(GREET, ALICE, Some("forged")), Err(SendError::RetryMismatch), "another state");
    assert_eq!(retry(other_tool, ALICE, Some(&state)), Err(SendError::RetryMismatch), "another tool");
    assert_eq!(retry(GREET, br#"{}"#, Some(&state)), Err(SendError::RetryMismatch), "a key unanswered");
    assert_eq!(
        retry(GREET, br#"{"user_name":{"action":"decline"},"extra":{"action":"accept"}}"#, Some(&state)),
        Err(SendError::RetryMismatch),
        "a key not asked"
    );
    let with_state = br#"{"name":"greet","requestState":"mine"}"#;
    assert_eq!(retry(with_state, ALICE, Some(&state)), Err(SendError::RetryMismatch), "params with their own state");
    p.client.drain();
    assert!(p.client.new_lines().is_empty(), "nothing was sent");
    assert_eq!(p.client.ep.requests_in_flight(), 0);
}

#[test]
fn tampered_expired_and_replayed_states_are_refused_by_the_server() {
    let mut p = pair();
    let (_, state) = first_round(&mut p);
    // A client that does not go through its ticket (a hostile one) sends what it likes.
    let mut tampered = state.clone().into_bytes();
    tampered[0] ^= 1;
    let tampered = String::from_utf8(tampered).unwrap();
    let send = |p: &mut Pair, state: &str| {
        let params = format!(
            r#"{{"name":"greet","arguments":{{}},"inputResponses":{},"requestState":"{state}"}}"#,
            String::from_utf8_lossy(ALICE)
        );
        p.client
            .ep
            .send_request(p.now, "tools/call", Some(&raw(params.leak().as_bytes())), RequestOptions::default())
            .unwrap();
        run(p);
        p.client.take()
    };
    for state in [tampered.as_str(), "", "x.0000000000000000.0000000000000000"] {
        let events = send(&mut p, state);
        assert!(
            matches!(&events[..], [Ev::Error { code: -32602, message, .. }] if message == "Invalid requestState"),
            "{events:?}"
        );
    }
    // A state is no good after its expiry.
    p.now = p.now + Duration::from_secs(31);
    let events = send(&mut p, &state);
    assert!(
        matches!(&events[..], [Ev::Error { code: -32602, message, .. }] if message == StateError::Expired.message()),
        "{events:?}"
    );
    // Wrong shapes are protocol errors; a missing answer is asked for again.
    let bad = br#"{"name":"greet","inputResponses":{"user_name":12345}}"#;
    p.client.ep.send_request(p.now, "tools/call", Some(&raw(bad)), RequestOptions::default()).unwrap();
    let wrong_key =
        br#"{"name":"greet","inputResponses":{"wrong_key":{"action":"accept","content":{"data":"wrong"}}}}"#;
    p.client.ep.send_request(p.now, "tools/call", Some(&raw(wrong_key)), RequestOptions::default()).unwrap();
    run(&mut p);
    let events = p.client.take();
    assert!(matches!(&events[..], [Ev::Error { code: -32602, .. }, Ev::InputRequired { .. }]), "{events:?}");
}

#[test]
fn the_server_does_not_ask_what_the_client_did_not_declare() {
    let mut p = Pair::with(
        Config::new(Role::Client, raw(CLIENT_INFO)).capabilities(raw(br#"{"sampling":{}}"#)),
        server_config(),
    );
    run(&mut p);
    p.client.take();
    p.client.ep.send_request(p.now, "tools/call", Some(&raw(GREET)), RequestOptions::default()).unwrap();
    run(&mut p);
    let events = p.client.take();
    assert!(
        matches!(&events[..], [Ev::Error { code: -32021, message, .. }] if message.contains("ElicitationForm")),
        "{events:?}"
    );
}
