//! What the negotiated version and both sides' capabilities allow, each way.

mod common;

use common::*;
use mcp_sansio::mcp::{Capability, ProtocolVersion, VersionSet};
use mcp_sansio::session::{Config, RequestOptions, SendError};
use mcp_sansio::wire::NO_PARAMS;

fn pair(version: ProtocolVersion, client_caps: &'static [u8], server_caps: &'static [u8]) -> Pair {
    let client: Config<'static> = client_config().versions(VersionSet::only(version)).capabilities(raw(client_caps));
    let server = server_config().capabilities(raw(server_caps));
    let p = Pair::ready_with(client, server);
    assert_eq!(p.client.ep.protocol_version(), Some(version));
    p
}

const ALL_CLIENT: &[u8] =
    br#"{"roots":{"listChanged":true},"sampling":{},"elicitation":{},"tasks":{"list":{},"cancel":{}}}"#;
const ALL_SERVER: &[u8] = br#"{"tools":{"listChanged":true},"resources":{"subscribe":true,"listChanged":true},"prompts":{"listChanged":true},"logging":{},"completions":{},"tasks":{"list":{},"cancel":{}}}"#;

fn not_in_version(id: &str, method: &str) -> (Ev, String) {
    (
        Ev::Misbehavior(format!("RequestRefused({id}, {method}, -32601, NotInVersion)")),
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32601,"message":"Method not found: not in this protocol version"}}}}"#
        ),
    )
}

fn not_declared(id: &str, method: &str) -> (Ev, String) {
    (
        Ev::Misbehavior(format!("RequestRefused({id}, {method}, -32601, CapabilityNotDeclared)")),
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":-32601,"message":"Method not found: capability not declared"}}}}"#
        ),
    )
}

#[test]
fn elicitation_exists_from_2025_06_18_on() {
    for version in ProtocolVersion::HANDSHAKE {
        let mut p = pair(version, ALL_CLIENT, ALL_SERVER);
        let params = raw(br#"{"message":"name?","requestedSchema":{"type":"object","properties":{}}}"#);
        let sent = p.server.ep.send_request(p.now, "elicitation/create", Some(&params), RequestOptions::default());
        let request =
            br#"{"jsonrpc":"2.0","id":"e1","method":"elicitation/create","params":{"message":"m","requestedSchema":{}}}
"#;
        p.play_server(request);
        let events = p.client.take();
        let lines = p.client.new_lines();
        if version < ProtocolVersion::V2025_06_18 {
            assert_eq!(sent, Err(SendError::MethodNotAllowed), "{version}");
            let (ev, line) = not_in_version("\"e1\"", "elicitation/create");
            assert_eq!(events, vec![ev], "{version}");
            assert_eq!(lines, vec![line]);
        } else {
            assert!(sent.is_ok(), "{version}");
            assert_eq!(events.len(), 2, "{events:?}");
            assert!(
                matches!(&events[1], Ev::Request { id, method, .. } if id == "\"e1\"" && method == "elicitation/create")
            );
        }
    }
}

#[test]
fn tasks_exist_only_in_2025_11_25() {
    for version in ProtocolVersion::HANDSHAKE {
        let mut p = pair(version, ALL_CLIENT, ALL_SERVER);
        let params = raw(br#"{"taskId":"t1"}"#);
        let sent = p.client.ep.send_request(p.now, "tasks/get", Some(&params), RequestOptions::default());
        p.client.drain();
        p.client.pipe.clear();
        p.play_client(b"{\"jsonrpc\":\"2.0\",\"id\":40,\"method\":\"tasks/list\"}\n");
        p.play_server(b"{\"jsonrpc\":\"2.0\",\"id\":41,\"method\":\"tasks/cancel\",\"params\":{\"taskId\":\"t\"}}\n");
        let (s, c) = (p.server.take(), p.client.take());
        if version == ProtocolVersion::V2025_11_25 {
            assert!(sent.is_ok());
            assert_eq!(s, vec![Ev::Request { id: "40".into(), method: "tasks/list".into(), params: None }]);
            assert_eq!(
                c,
                vec![Ev::Request {
                    id: "41".into(),
                    method: "tasks/cancel".into(),
                    params: Some(r#"{"taskId":"t"}"#.into())
                }]
            );
        } else {
            assert_eq!(sent, Err(SendError::MethodNotAllowed), "{version}");
            assert_eq!(s, vec![not_in_version("40", "tasks/list").0], "{version}");
            assert_eq!(c, vec![not_in_version("41", "tasks/cancel").0], "{version}");
            assert_eq!(p.server.new_lines(), vec![not_in_version("40", "tasks/list").1]);
            assert_eq!(p.client.new_lines(), vec![not_in_version("41", "tasks/cancel").1]);
        }
    }
}

#[test]
fn tasks_need_the_receivers_tasks_capability() {
    let mut p = pair(ProtocolVersion::V2025_11_25, CLIENT_CAPS, SERVER_CAPS);
    assert_eq!(
        p.client.ep.send_request(p.now, "tasks/get", Some(&raw(br#"{"taskId":"t"}"#)), RequestOptions::default()),
        Err(SendError::CapabilityNotDeclared(Capability::ServerTasks))
    );
    assert_eq!(
        p.server.ep.send_request(p.now, "tasks/list", NO_PARAMS, RequestOptions::default()),
        Err(SendError::CapabilityNotDeclared(Capability::ClientTasksList))
    );
    p.play_client(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tasks/get\",\"params\":{\"taskId\":\"t\"}}\n");
    let (ev, line) = not_declared("1", "tasks/get");
    assert_eq!(p.server.take(), vec![ev]);
    assert_eq!(p.server.new_lines(), vec![line]);
}

#[test]
fn direction_is_part_of_legality() {
    let mut p = pair(ProtocolVersion::V2025_06_18, ALL_CLIENT, ALL_SERVER);
    // Server-to-client methods sent by the client, and the reverse.
    for method in ["sampling/createMessage", "roots/list", "elicitation/create"] {
        assert_eq!(
            p.client.ep.send_request(p.now, method, Some(&raw(b"{}")), RequestOptions::default()),
            Err(SendError::MethodNotAllowed),
            "{method}"
        );
    }
    for method in ["tools/list", "tools/call", "resources/read", "completion/complete", "logging/setLevel"] {
        assert_eq!(
            p.server.ep.send_request(p.now, method, Some(&raw(b"{}")), RequestOptions::default()),
            Err(SendError::MethodNotAllowed),
            "{method}"
        );
    }
    // A notification name is not a request, and the reverse.
    assert_eq!(
        p.client.ep.send_request(p.now, "notifications/roots/list_changed", NO_PARAMS, RequestOptions::default()),
        Err(SendError::MethodNotAllowed)
    );
    assert_eq!(p.client.ep.send_notification(p.now, "tools/list", NO_PARAMS), Err(SendError::MethodNotAllowed));
    // The endpoint sends these itself.
    for method in ["notifications/initialized", "notifications/cancelled", "notifications/progress"] {
        assert_eq!(p.client.ep.send_notification(p.now, method, Some(&raw(b"{}"))), Err(SendError::MethodNotAllowed));
        assert_eq!(p.server.ep.send_notification(p.now, method, Some(&raw(b"{}"))), Err(SendError::MethodNotAllowed));
    }
    // Client-only and server-only notifications.
    assert_eq!(
        p.client.ep.send_notification(p.now, "notifications/message", Some(&raw(br#"{"level":"info","data":1}"#))),
        Err(SendError::MethodNotAllowed)
    );
    assert_eq!(
        p.server.ep.send_notification(p.now, "notifications/roots/list_changed", NO_PARAMS),
        Err(SendError::MethodNotAllowed)
    );
    // Inbound: a request travelling the wrong way is -32601; a notification is ignored.
    p.play_client(b"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"roots/list\"}\n");
    p.play_server(b"{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/list\"}\n");
    p.play_server(b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/roots/list_changed\"}\n");
    p.play_client(b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n");
    assert_eq!(
        p.server.take(),
        vec![
            not_in_version("3", "roots/list").0,
            Ev::Misbehavior("NotificationIgnored(notifications/tools/list_changed, NotInVersion)".into())
        ]
    );
    assert_eq!(
        p.client.take(),
        vec![
            not_in_version("4", "tools/list").0,
            Ev::Misbehavior("NotificationIgnored(notifications/roots/list_changed, NotInVersion)".into())
        ]
    );
    assert_eq!(p.server.new_lines(), vec![not_in_version("3", "roots/list").1]);
    assert_eq!(p.client.new_lines(), vec![not_in_version("4", "tools/list").1]);
}

#[test]
fn unknown_methods_go_to_the_application() {
    let mut p = Pair::ready();
    let id = p.client.ep.send_request(p.now, "x/custom", Some(&raw(br#"{"a":1}"#)), RequestOptions::default()).unwrap();
    p.client.ep.send_notification(p.now, "x/notice", NO_PARAMS).unwrap();
    p.drive();
    assert_eq!(
        p.server.take(),
        vec![
            Ev::Request { id: id.to_string(), method: "x/custom".into(), params: Some(r#"{"a":1}"#.into()) },
            Ev::Notification { method: "x/notice".into(), params: None },
        ]
    );
    assert_eq!(
        p.client.new_lines(),
        vec![
            format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"x/custom","params":{{"a":1}}}}"#),
            r#"{"jsonrpc":"2.0","method":"x/notice"}"#.to_string()
        ]
    );
    p.server.respond_error(&id, mcp_sansio::wire::ErrorCode::METHOD_NOT_FOUND, "Method not found").unwrap();
    p.drive();
    assert_eq!(
        p.client.take(),
        vec![Ev::Error { id: id.to_string(), method: None, code: -32601, message: "Method not found".into() }]
    );
}

#[test]
fn requests_need_the_peers_capability() {
    // Client without sampling, roots or elicitation; server with tools only.
    let mut p = pair(ProtocolVersion::V2025_11_25, b"{}", br#"{"tools":{}}"#);
    let params = raw(br#"{"uri":"file:///x"}"#);
    for (method, cap) in [
        ("resources/read", Capability::Resources),
        ("resources/list", Capability::Resources),
        ("resources/subscribe", Capability::ResourcesSubscribe),
        ("prompts/get", Capability::Prompts),
        ("logging/setLevel", Capability::Logging),
        ("completion/complete", Capability::Completions),
    ] {
        assert_eq!(
            p.client.ep.send_request(p.now, method, Some(&params), RequestOptions::default()),
            Err(SendError::CapabilityNotDeclared(cap)),
            "{method}"
        );
    }
    for (method, cap) in [
        ("sampling/createMessage", Capability::Sampling),
        ("roots/list", Capability::Roots),
        ("elicitation/create", Capability::Elicitation),
    ] {
        assert_eq!(
            p.server.ep.send_request(p.now, method, Some(&params), RequestOptions::default()),
            Err(SendError::CapabilityNotDeclared(cap)),
            "{method}"
        );
    }
    assert!(p.client.ep.send_request(p.now, "tools/list", NO_PARAMS, RequestOptions::default()).is_ok());
    assert_eq!(p.client.ep.requests_in_flight(), 1, "refused requests took no slot");
    p.drive();
    assert_eq!(
        p.client.new_lines(),
        vec![r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#],
        "refused requests used no id"
    );
}

#[test]
fn completions_needed_no_capability_in_2024_11_05() {
    let mut p = pair(ProtocolVersion::V2024_11_05, b"{}", br#"{"prompts":{}}"#);
    let params = raw(br#"{"ref":{"type":"ref/prompt","name":"p"},"argument":{"name":"a","value":"b"}}"#);
    assert!(p.client.ep.send_request(p.now, "completion/complete", Some(&params), RequestOptions::default()).is_ok());
    let mut p = pair(ProtocolVersion::V2025_03_26, b"{}", br#"{"prompts":{}}"#);
    assert_eq!(
        p.client.ep.send_request(p.now, "completion/complete", Some(&params), RequestOptions::default()),
        Err(SendError::CapabilityNotDeclared(Capability::Completions))
    );
    // And inbound the same way: a 2025-03-26 server without `completions` says -32601.
    p.play_client(b"{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"completion/complete\",\"params\":{}}\n");
    assert_eq!(p.server.take(), vec![not_declared("9", "completion/complete").0]);
}

#[test]
fn inbound_requests_need_our_own_capability() {
    let mut p = pair(ProtocolVersion::V2025_06_18, b"{}", br#"{"tools":{}}"#);
    for (id, method) in [
        ("1", "resources/list"),
        ("2", "resources/subscribe"),
        ("3", "prompts/list"),
        ("4", "logging/setLevel"),
        ("5", "completion/complete"),
    ] {
        p.play_client(
            format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"{method}\",\"params\":{{}}}}\n").as_bytes(),
        );
        assert_eq!(p.server.take(), vec![not_declared(id, method).0]);
        assert_eq!(p.server.new_lines(), vec![not_declared(id, method).1]);
    }
    for (id, method) in [("6", "sampling/createMessage"), ("7", "roots/list"), ("8", "elicitation/create")] {
        p.play_server(
            format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"method\":\"{method}\",\"params\":{{}}}}\n").as_bytes(),
        );
        assert_eq!(p.client.take(), vec![not_declared(id, method).0]);
        assert_eq!(p.client.new_lines(), vec![not_declared(id, method).1]);
    }
    // `resources` without `subscribe`: the list works, subscribing does not.
    let mut p = pair(ProtocolVersion::V2025_06_18, b"{}", br#"{"resources":{"subscribe":false}}"#);
    p.play_client(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/list\"}\n");
    p.play_client(b"{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/subscribe\",\"params\":{\"uri\":\"u\"}}\n");
    assert_eq!(
        p.server.take(),
        vec![
            Ev::Request { id: "1".into(), method: "resources/list".into(), params: None },
            not_declared("2", "resources/subscribe").0
        ]
    );
}

#[test]
fn notifications_need_our_own_capability() {
    // The server declares tools, resources and prompts but none of the sub-flags.
    let mut p = pair(ProtocolVersion::V2025_11_25, br#"{"roots":{}}"#, br#"{"tools":{},"resources":{},"prompts":{}}"#);
    for (method, cap) in [
        ("notifications/tools/list_changed", Capability::ToolsListChanged),
        ("notifications/prompts/list_changed", Capability::PromptsListChanged),
        ("notifications/resources/list_changed", Capability::ResourcesListChanged),
        ("notifications/resources/updated", Capability::ResourcesSubscribe),
        ("notifications/message", Capability::Logging),
    ] {
        assert_eq!(
            p.server.ep.send_notification(p.now, method, Some(&raw(br#"{"uri":"u","level":"info","data":1}"#))),
            Err(SendError::CapabilityNotDeclared(cap)),
            "{method}"
        );
    }
    assert_eq!(
        p.client.ep.send_notification(p.now, "notifications/roots/list_changed", NO_PARAMS),
        Err(SendError::CapabilityNotDeclared(Capability::RootsListChanged))
    );
    p.drive();
    assert!(p.server.new_lines().is_empty() && p.client.new_lines().is_empty());
    // With the flags, they go out, byte for byte.
    let mut p = pair(ProtocolVersion::V2025_11_25, CLIENT_CAPS, ALL_SERVER);
    p.server.ep.send_notification(p.now, "notifications/tools/list_changed", NO_PARAMS).unwrap();
    p.server
        .ep
        .send_notification(p.now, "notifications/resources/updated", Some(&raw(br#"{"uri":"file:///a"}"#)))
        .unwrap();
    p.client.ep.send_notification(p.now, "notifications/roots/list_changed", NO_PARAMS).unwrap();
    p.drive();
    assert_eq!(
        p.server.new_lines(),
        vec![
            r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"file:///a"}}"#
        ]
    );
    assert_eq!(p.client.new_lines(), vec![r#"{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}"#]);
    assert_eq!(
        p.client.take(),
        vec![
            Ev::Notification { method: "notifications/tools/list_changed".into(), params: None },
            Ev::Notification {
                method: "notifications/resources/updated".into(),
                params: Some(r#"{"uri":"file:///a"}"#.into())
            },
        ]
    );
    assert_eq!(
        p.server.take(),
        vec![Ev::Notification { method: "notifications/roots/list_changed".into(), params: None }]
    );
}

#[test]
fn capabilities_are_read_from_the_handshake() {
    let p = pair(ProtocolVersion::V2025_11_25, ALL_CLIENT, ALL_SERVER);
    let server_caps = p.client.ep.peer_capabilities();
    for cap in [
        Capability::Tools,
        Capability::ToolsListChanged,
        Capability::Resources,
        Capability::ResourcesSubscribe,
        Capability::ResourcesListChanged,
        Capability::Prompts,
        Capability::PromptsListChanged,
        Capability::Logging,
        Capability::Completions,
        Capability::ServerTasks,
        Capability::ServerTasksList,
        Capability::ServerTasksCancel,
    ] {
        assert!(server_caps.contains(cap), "{cap:?}");
    }
    let client_caps = p.server.ep.peer_capabilities();
    for cap in [
        Capability::Roots,
        Capability::RootsListChanged,
        Capability::Sampling,
        Capability::Elicitation,
        Capability::ElicitationForm,
        Capability::ClientTasks,
        Capability::ClientTasksList,
        Capability::ClientTasksCancel,
    ] {
        assert!(client_caps.contains(cap), "{cap:?}");
    }
    assert!(!client_caps.contains(Capability::ElicitationUrl));
    assert_eq!(p.server.ep.capabilities(), server_caps);
    assert_eq!(p.client.ep.capabilities(), client_caps);
}

#[test]
fn typed_capabilities_and_info_go_out_as_json_and_gate_like_it() {
    use mcp_sansio::mcp::{Capability, ClientCapabilities, Implementation, ListChanged, Role, ServerCapabilities};
    use mcp_sansio::session::ConfigError;
    let server = Config::new(Role::Server, Implementation::new("typed-server", "3.0.0"))
        .capabilities(ServerCapabilities::new().tools(ListChanged::YES).logging());
    let client = Config::new(Role::Client, Implementation::new("typed-client", "0.1.0"))
        .capabilities(ClientCapabilities::new().roots(ListChanged::NO).sampling())
        .era(mcp_sansio::session::Era::Legacy);
    let mut p = Pair::with(client, server);
    p.drive();
    let sent = p.client.sent_lines();
    assert_eq!(
        sent[0],
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{},"sampling":{}},"clientInfo":{"name":"typed-client","version":"0.1.0"}}}"#
    );
    assert_eq!(
        p.server.sent_lines()[0],
        r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"logging":{},"tools":{"listChanged":true}},"serverInfo":{"name":"typed-server","version":"3.0.0"}}}"#
    );
    assert!(p.server.ep.capabilities().contains(Capability::ToolsListChanged));
    assert!(!p.server.ep.capabilities().contains(Capability::Prompts));
    assert!(p.server.ep.peer_capabilities().contains(Capability::Sampling));
    // The server did not declare prompts: the endpoint refuses prompts/list for it.
    p.client.take();
    p.inject_to_server(b"{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"prompts/list\"}\n");
    assert_eq!(
        p.server.take().last(),
        Some(&Ev::Misbehavior("RequestRefused(9, prompts/list, -32601, CapabilityNotDeclared)".into()))
    );
    // The other role's typed capabilities are a mistake the constructor reports.
    let wrong = Config::new(Role::Client, Implementation::new("c", "1")).capabilities(ServerCapabilities::new());
    let made = Ep::new(wrong, leak(1024), leak(1024), mcp_sansio::Instant::ZERO);
    assert_eq!(made.err(), Some(ConfigError::NotAnObject));
}
