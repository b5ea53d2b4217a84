//! Endpoint profiles: a `Handshake` endpoint (the stateless era not linked) and a
//! `HandshakeServer` one (nor the client's side) behave exactly as a `Full` one
//! configured with the handshake versions only, byte for byte, whatever a peer of either
//! era sends them; and they take only what they are built for.

use mcp_sansio::Instant;
use mcp_sansio::mcp::{Implementation, Role};
use mcp_sansio::session::{
    Config, ConfigError, Endpoint, Era, Event, Full, Handshake, HandshakeServer, Output, PendingRequest, Profile,
    Responded, SendError, State,
};
use mcp_sansio::wire::RawJson;

/// The `_meta` of a 2026-07-28 request.
const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"}}"#;

fn modern(id: u32, method: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{{{META}}}}}"#) + "\n"
}

fn initialize(id: u32, version: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"initialize","params":{{"protocolVersion":"{version}","capabilities":{{}},"clientInfo":{{"name":"c","version":"1"}}}}}}"#
    ) + "\n"
}

const INITIALIZED: &str = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n";

fn server_config() -> Config<'static> {
    let caps = RawJson::parse(br#"{"tools":{},"resources":{"subscribe":true}}"#).unwrap();
    Config::new(Role::Server, Implementation::new("s", "1")).capabilities(caps)
}

/// Everything an endpoint of profile `E` does with `lines`, fed one by one: the bytes it
/// writes and the events it reports, in order. Requests are answered with a fixed result;
/// a `subscriptions/listen` request is acknowledged first.
fn transcript<E: Profile>(config: Config<'static>, lines: &[String]) -> Vec<String> {
    let (mut rx, mut tx) = (vec![0u8; 4096], vec![0u8; 4096]);
    let mut ep: Endpoint<'_, 4, 4, &mut [u8], E> = Endpoint::new(config, &mut rx, &mut tx, Instant::ZERO).unwrap();
    let mut seen = Vec::new();
    let drain = |ep: &mut Endpoint<'_, 4, 4, &mut [u8], E>, seen: &mut Vec<String>| {
        let mut pending: Vec<PendingRequest> = Vec::new();
        loop {
            match ep.poll_output() {
                Output::Transmit(t) => seen.push(String::from_utf8_lossy(t.bytes()).into_owned()),
                Output::Event(Event::Request(mut req)) => {
                    seen.push(format!("request {:?}", req.method));
                    if req.method.name() == "subscriptions/listen" {
                        pending.push(req.pending());
                        continue;
                    }
                    seen.push(format!("{:?}", req.respond(&RawJson::from_static(r#"{"done":true}"#))));
                }
                Output::Event(e) => seen.push(format!("{e:?}")),
                Output::Idle { .. } => break,
            }
        }
        for request in pending {
            let ack = ep.acknowledge(Instant::ZERO, &request, &Default::default());
            seen.push(format!("acknowledge {ack:?}"));
        }
    };
    drain(&mut ep, &mut seen);
    for line in lines {
        let mut rest = line.as_bytes();
        while !rest.is_empty() {
            let n = ep.handle_input(Instant::ZERO, rest);
            rest = &rest[n..];
            drain(&mut ep, &mut seen);
        }
    }
    seen.push(format!("{:?} {:?}", ep.state(), ep.protocol_version()));
    seen
}

/// A `Handshake` endpoint given `config` against a `Full` one given `config` cut to
/// the handshake era.
fn same_as_handshake_config(config: Config<'static>, lines: &[String]) -> Vec<String> {
    let built = transcript::<Handshake>(config, lines);
    let configured = transcript::<Full>(config.era(Era::Legacy), lines);
    assert_eq!(built, configured);
    if config.role == Role::Server {
        assert_eq!(transcript::<HandshakeServer>(config, lines), configured, "server-only");
    }
    built
}

#[test]
fn a_handshake_server_answers_the_stateless_openings_as_a_handshake_only_configuration() {
    let lines = [
        modern(1, "server/discover"),
        modern(2, "tools/list"),
        modern(3, "subscriptions/listen"),
        "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\"}\n".to_string(),
    ];
    let seen = same_as_handshake_config(server_config(), &lines);
    let text = seen.join("\n");
    // Not a method of any version it speaks: -32601, which sends a dual-era client to
    // `initialize`; anything else before the handshake: -32600.
    assert!(text.contains(r#""id":1,"error":{"code":-32601"#), "{text}");
    assert!(text.contains(r#""id":2,"error":{"code":-32600"#), "{text}");
    assert!(text.contains(r#""id":3,"error":{"code":-32601"#), "{text}");
    assert!(text.contains(r#"{"jsonrpc":"2.0","id":4,"result":{}}"#), "{text}");
    assert_eq!(seen.last().unwrap(), "AwaitingInitialize None");
    // The same lines make a dual-era server stateless.
    let full = transcript::<Full>(server_config(), &lines);
    assert_eq!(full.last().unwrap(), "Stateless Some(V2026_07_28)", "{full:?}");
}

#[test]
fn a_handshake_server_refuses_stateless_requests_on_its_session_and_negotiates_down() {
    let lines = [
        initialize(1, "2026-07-28"),
        INITIALIZED.to_string(),
        modern(2, "tools/list"),
        modern(3, "server/discover"),
        "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/list\"}\n".to_string(),
    ];
    let seen = same_as_handshake_config(server_config(), &lines);
    let text = seen.join("\n");
    assert!(text.contains(r#""id":1,"result":{"protocolVersion":"2025-11-25""#), "{text}");
    assert!(text.contains(r#""id":2,"error":{"code":-32600,"message":"This session opened with initialize"#), "{text}");
    assert!(text.contains(r#""id":4,"result":{"done":true}"#), "{text}");
    assert_eq!(seen.last().unwrap(), "Ready Some(V2025_11_25)");
}

#[test]
fn a_handshake_client_opens_with_initialize_and_never_probes() {
    let config = Config::new(Role::Client, Implementation::new("c", "1"));
    let answer = r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}"#;
    let seen = same_as_handshake_config(config, &[answer.to_string() + "\n"]);
    assert!(seen[0].contains(r#""method":"initialize""#) && seen[0].contains("2025-11-25"), "{seen:?}");
    assert!(!seen.join("").contains("server/discover"));
    assert_eq!(seen.last().unwrap(), "Ready Some(V2025_11_25)");
    // A dual-era client probes first.
    let full = transcript::<Full>(config, &[]);
    assert!(full[0].contains(r#""method":"server/discover""#), "{full:?}");
}

#[test]
fn a_handshake_endpoint_keeps_only_the_handshake_versions() {
    let (mut rx, mut tx) = (vec![0u8; 2048], vec![0u8; 2048]);
    let modern_only = server_config().era(Era::Modern);
    let refused = Endpoint::<'_, 4, 4, &mut [u8], Handshake>::new(modern_only, &mut rx, &mut tx, Instant::ZERO);
    assert!(matches!(refused, Err(ConfigError::NoVersion)));
    let ep = Endpoint::<'_, 4, 4, &mut [u8], Handshake>::new(server_config(), &mut rx, &mut tx, Instant::ZERO).unwrap();
    assert_eq!(ep.state(), State::AwaitingInitialize);
    // The default profile still takes a stateless-only configuration.
    let (mut rx, mut tx) = (vec![0u8; 2048], vec![0u8; 2048]);
    let ep = Endpoint::<'_, 4, 4>::new(modern_only, &mut rx, &mut tx, Instant::ZERO).unwrap();
    assert_eq!(ep.state(), State::Stateless);
}

/// What the listen-stream commands say about a handshake-era request of a server of
/// profile `E`: before and after the request is over.
fn acknowledge_a_plain_request<E: Profile>(config: Config<'static>) -> [Result<Responded, SendError>; 3] {
    let (mut rx, mut tx) = (vec![0u8; 2048], vec![0u8; 2048]);
    let mut ep: Endpoint<'_, 4, 4, &mut [u8], E> = Endpoint::new(config, &mut rx, &mut tx, Instant::ZERO).unwrap();
    let mut request = None;
    let list = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}\n".to_string();
    for line in [initialize(1, "2025-11-25"), INITIALIZED.to_string(), list] {
        let _ = ep.handle_input(Instant::ZERO, line.as_bytes());
        loop {
            match ep.poll_output() {
                Output::Event(Event::Request(req)) => request = Some(req.pending()),
                Output::Idle { .. } => break,
                _ => {}
            }
        }
    }
    let request = request.expect("tools/list delivered");
    let live = ep.acknowledge(Instant::ZERO, &request, &Default::default());
    let abandoned = ep.abandon(&request);
    let over = ep.acknowledge(Instant::ZERO, &request, &Default::default());
    [live, abandoned, over]
}

#[test]
fn a_handshake_endpoint_refuses_the_listen_commands_as_a_handshake_session_does() {
    let built = acknowledge_a_plain_request::<Handshake>(server_config());
    assert_eq!(built, acknowledge_a_plain_request::<Full>(server_config().era(Era::Legacy)));
    assert_eq!(built, [Err(SendError::NotSubscribed), Ok(Responded::Sent), Ok(Responded::Suppressed)]);
}

#[test]
fn a_server_only_endpoint_takes_a_server_configuration_only() {
    let (mut rx, mut tx) = (vec![0u8; 2048], vec![0u8; 2048]);
    let client = Config::new(Role::Client, Implementation::new("c", "1"));
    let refused = Endpoint::<'_, 4, 4, &mut [u8], HandshakeServer>::new(client, &mut rx, &mut tx, Instant::ZERO);
    assert!(matches!(refused, Err(ConfigError::NotAServer)));
    let ep = Endpoint::<'_, 4, 4, &mut [u8], HandshakeServer>::new(server_config(), &mut rx, &mut tx, Instant::ZERO);
    let ep = ep.unwrap();
    assert_eq!((ep.role(), ep.state()), (Role::Server, State::AwaitingInitialize));
}

#[test]
fn the_handshake_rules_are_the_same_in_every_profile() {
    // Batches (2025-03-26), broken lines, an over-long line, a late cancellation, an
    // unknown method, a stateless request on the session, a stray response, a
    // notification: each profile answers them as the default one does.
    let long = format!(r#"{{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{{"pad":"{}"}}}}"#, "x".repeat(5000));
    let lines = [
        initialize(1, "2025-03-26"),
        INITIALIZED.to_string(),
        "[{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"},{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}]\n"
            .to_string(),
        "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\n".to_string(),
        "not json at all\n".to_string(),
        long + "\n",
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":2}}\n".to_string(),
        "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"device/self-destruct\"}\n".to_string(),
        modern(6, "tools/call"),
        "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}\n".to_string(),
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/roots/list_changed\"}\n".to_string(),
    ];
    let seen = same_as_handshake_config(server_config(), &lines);
    let text = seen.join("\n");
    assert!(text.contains(r#""id":3,"result":{}"#), "{text}");
    assert!(text.contains(r#""id":9,"error":{"code":-32600"#), "the over-long line is answered: {text}");
    assert!(text.contains("request Other(\"device/self-destruct\")"), "unknown methods go to the application: {text}");
    assert!(text.contains("StatelessOnHandshakeSession"), "{text}");
    assert_eq!(seen.last().unwrap(), "Ready Some(V2025_03_26)");
}

/// What one inbound slot costs in an endpoint of profile `E`.
fn slot_size<E: Profile>() -> usize {
    size_of::<Endpoint<'static, 0, 1, &'static mut [u8], E>>()
        - size_of::<Endpoint<'static, 0, 0, &'static mut [u8], E>>()
}

#[test]
fn a_handshake_endpoint_keeps_no_stateless_context_in_its_slots() {
    // A stateless request's `_meta` context is kept beside each inbound slot only where
    // the era is built: the handshake profiles' slots are smaller by it.
    assert!(slot_size::<Handshake>() < slot_size::<Full>(), "{} vs {}", slot_size::<Handshake>(), slot_size::<Full>());
    assert!(slot_size::<HandshakeServer>() < slot_size::<Full>());
}

/// What building an endpoint of profile `E` over a transmit buffer of `tx_len` bytes
/// says: its error, or the state it starts in.
fn built<E: Profile>(config: Config<'static>, tx_len: usize) -> Result<State, ConfigError> {
    let (mut rx, mut tx) = (vec![0u8; 512], vec![0u8; tx_len]);
    Endpoint::<'_, 2, 2, &mut [u8], E>::new(config, &mut rx, &mut tx, Instant::ZERO).map(|ep| ep.state())
}

#[test]
fn a_handshake_endpoint_takes_the_same_buffers_as_a_handshake_only_configuration() {
    // The floors are checked the same way (the stateless era's own measurements are
    // not made where it is not built): the same transmit buffers are refused, with the
    // same `needed`.
    let client = || Config::new(Role::Client, Implementation::new("c", "1"));
    for tx_len in (0..1400).step_by(7) {
        let full = built::<Full>(server_config().era(Era::Legacy), tx_len);
        assert_eq!(built::<Handshake>(server_config(), tx_len), full, "server, tx {tx_len}");
        assert_eq!(built::<HandshakeServer>(server_config(), tx_len), full, "server, tx {tx_len}");
        assert_eq!(
            built::<Handshake>(client(), tx_len),
            built::<Full>(client().era(Era::Legacy), tx_len),
            "client, tx {tx_len}"
        );
    }
}
