//! `subscriptions/listen` (2026-07-28) on the server: the acknowledgement first, the
//! granted filter enforced, every notification tagged, the graceful end, the client's
//! cancellation and the end of its input. Exact bytes.

mod common;

use common::*;
use mcp_sansio::Instant;
use mcp_sansio::mcp::SubscriptionFilter;
use mcp_sansio::session::{Origin, OutputMode, Responded, SendError};
use mcp_sansio::wire::{RawJson, RequestId};

const META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

fn listen(id: u32, filter: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"subscriptions/listen","params":{{"notifications":{filter},{META}}}}}"#
    ) + "\n"
}

fn server() -> Side {
    // Declares tools.listChanged and resources.subscribe, not prompts.listChanged.
    Side::lone(server_config())
}

fn uri(u: &str) -> RawJson<'static> {
    raw(format!(r#"{{"uri":"{u}"}}"#).leak().as_bytes())
}

#[test]
fn the_acknowledgement_comes_first_with_what_the_server_can_honour() {
    let mut s = server();
    s.feed(
        Instant::ZERO,
        listen(1, r#"{"toolsListChanged":true,"promptsListChanged":true,"resourceSubscriptions":["file:///a"]}"#)
            .as_bytes(),
    );
    assert!(matches!(&s.take()[..], [Ev::Request { method, .. }] if method == "subscriptions/listen"));
    let p = s.pending_for(&RequestId::from_u64(1));
    // Nothing before the acknowledgement, not even the closing result.
    assert_eq!(
        s.ep.send_related_notification(Instant::ZERO, &p, "notifications/tools/list_changed", None::<&RawJson<'_>>),
        Err(SendError::NotSubscribed)
    );
    assert_eq!(s.ep.respond(&p, &RawJson::EMPTY_OBJECT), Err(SendError::NotSubscribed));
    // A broadcast reaches no stream that is not acknowledged.
    s.ep.send_notification(Instant::ZERO, "notifications/tools/list_changed", None::<&RawJson<'_>>).unwrap();
    s.drain();
    assert!(s.new_lines().is_empty());
    let asked = raw(br#"{"toolsListChanged":true,"promptsListChanged":true,"resourceSubscriptions":["file:///a"]}"#);
    let asked: SubscriptionFilter<'_> = asked.decode().unwrap();
    assert_eq!(s.ep.acknowledge(Instant::ZERO, &p, &asked), Ok(Responded::Sent));
    assert_eq!(s.ep.acknowledge(Instant::ZERO, &p, &asked), Err(SendError::NotSubscribed), "once");
    s.drain();
    assert_eq!(
        s.new_lines(),
        vec![
            r#"{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{"notifications":{"toolsListChanged":true,"resourceSubscriptions":["file:///a"]},"_meta":{"io.modelcontextprotocol/subscriptionId":1}}}"#
        ]
    );
}

#[test]
fn notifications_go_to_the_streams_granted_them_tagged_with_their_ids() {
    let mut s = Side::lone(server_config().output(OutputMode::Messages));
    let frames = [
        (Origin(10), listen(1, r#"{"toolsListChanged":true}"#)),
        (Origin(20), listen(2, r#"{"resourceSubscriptions":["file:///a","test://caf\u00e9"]}"#)),
        (Origin(30), listen(3, r#"{"promptsListChanged":true}"#)),
    ];
    for (origin, line) in &frames {
        assert!(s.ep.handle_frame_from(Instant::ZERO, Some(*origin), line.trim_end().as_bytes()));
        s.drain();
    }
    s.take();
    // Each is acknowledged from its own request handle, granting what it asked.
    let mut transmits = Vec::new();
    let pending: Vec<_> = (1..=3).map(|n| s.pending_for(&RequestId::from_u64(n))).collect();
    let asks = [
        r#"{"toolsListChanged":true}"#,
        r#"{"resourceSubscriptions":["file:///a","test://café"]}"#,
        r#"{"promptsListChanged":true}"#,
    ];
    for (p, ask) in pending.iter().zip(asks) {
        let filter: SubscriptionFilter<'_> = raw(ask.to_string().leak().as_bytes()).decode().unwrap();
        s.ep.acknowledge(Instant::ZERO, p, &filter).unwrap();
    }
    s.ep.send_notification(Instant::ZERO, "notifications/tools/list_changed", None::<&RawJson<'_>>).unwrap();
    s.ep.send_notification(Instant::ZERO, "notifications/resources/updated", Some(&uri("file:///a"))).unwrap();
    s.ep.send_notification(Instant::ZERO, "notifications/resources/updated", Some(&uri("file:///other"))).unwrap();
    s.ep.send_notification(Instant::ZERO, "notifications/resources/updated", Some(&uri("test://caf\\u00e9"))).unwrap();
    // prompts.listChanged was not declared: the server cannot send it at all.
    assert!(matches!(
        s.ep.send_notification(Instant::ZERO, "notifications/prompts/list_changed", None::<&RawJson<'_>>),
        Err(SendError::CapabilityNotDeclared(_))
    ));
    loop {
        match s.ep.poll_output() {
            mcp_sansio::session::Output::Transmit(t) => {
                transmits.push((t.origin, String::from_utf8_lossy(&t).into_owned()))
            }
            mcp_sansio::session::Output::Event(e) => panic!("{e:?}"),
            mcp_sansio::session::Output::Idle { .. } => break,
        }
    }
    let sub = |n| format!(r#""_meta":{{"io.modelcontextprotocol/subscriptionId":{n}}}"#);
    assert_eq!(
        transmits,
        vec![
            (
                Some(Origin(10)),
                format!(
                    r#"{{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{{"notifications":{{"toolsListChanged":true}},{}}}}}"#,
                    sub(1)
                )
            ),
            (
                Some(Origin(20)),
                format!(
                    r#"{{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{{"notifications":{{"resourceSubscriptions":["file:///a","test://café"]}},{}}}}}"#,
                    sub(2)
                )
            ),
            (
                Some(Origin(30)),
                format!(
                    r#"{{"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{{"notifications":{{}},{}}}}}"#,
                    sub(3)
                )
            ),
            (
                Some(Origin(10)),
                format!(r#"{{"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{{{}}}}}"#, sub(1))
            ),
            (
                Some(Origin(20)),
                format!(
                    r#"{{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{{{},"uri":"file:///a"}}}}"#,
                    sub(2)
                )
            ),
            (
                Some(Origin(20)),
                format!(
                    r#"{{"jsonrpc":"2.0","method":"notifications/resources/updated","params":{{{},"uri":"test://caf\u00e9"}}}}"#,
                    sub(2)
                )
            ),
        ]
    );
    // On one stream only, through its request: the same rules.
    assert_eq!(
        s.ep.send_related_notification(
            Instant::ZERO,
            &pending[0],
            "notifications/resources/updated",
            Some(&uri("file:///a"))
        ),
        Err(SendError::NotSubscribed)
    );
    s.ep.send_related_notification(
        Instant::ZERO,
        &pending[1],
        "notifications/resources/updated",
        Some(&uri("file:///a")),
    )
    .unwrap();
    assert_eq!(
        s.ep.send_related_notification(
            Instant::ZERO,
            &pending[1],
            "notifications/message",
            Some(&raw(br#"{"level":"error","data":1}"#))
        ),
        Err(SendError::LogLevelNotRequested)
    );
}

#[test]
fn the_graceful_end_and_the_clients_cancellation() {
    let mut s = server();
    s.feed(Instant::ZERO, listen(7, r#"{"toolsListChanged":true}"#).as_bytes());
    s.feed(Instant::ZERO, listen(8, r#"{"toolsListChanged":true}"#).as_bytes());
    s.take();
    let (a, b) = (s.pending_for(&RequestId::from_u64(7)), s.pending_for(&RequestId::from_u64(8)));
    let all: SubscriptionFilter<'_> = raw(br#"{"toolsListChanged":true}"#).decode().unwrap();
    s.ep.acknowledge(Instant::ZERO, &a, &all).unwrap();
    s.ep.acknowledge(Instant::ZERO, &b, &all).unwrap();
    s.drain();
    s.new_lines();
    // The server ends stream 7: its closing result, completed with the id.
    s.ep.respond(&a, &mcp_sansio::mcp::EmptyResult::EMPTY).unwrap();
    // The client ends stream 8.
    s.feed(
        Instant::ZERO,
        br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":8}}
"#,
    );
    assert!(matches!(&s.take()[..], [Ev::Cancelled { id, .. }] if id == "8"));
    s.ep.send_notification(Instant::ZERO, "notifications/tools/list_changed", None::<&RawJson<'_>>).unwrap();
    s.drain();
    assert_eq!(
        s.new_lines(),
        vec![
            r#"{"jsonrpc":"2.0","id":7,"result":{"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"test-server","version":"2.0.0"},"io.modelcontextprotocol/subscriptionId":7}}}"#
        ]
    );
    assert_eq!(s.ep.peer_requests_in_flight(), 0);
}

#[test]
fn the_end_of_the_clients_input_ends_its_streams_from_this_side() {
    let mut s = server();
    s.feed(Instant::ZERO, listen(1, r#"{"toolsListChanged":true}"#).as_bytes());
    s.feed(Instant::ZERO, listen(2, r#"{"toolsListChanged":true}"#).as_bytes());
    s.take();
    let acked = s.pending_for(&RequestId::from_u64(1));
    s.ep.acknowledge(Instant::ZERO, &acked, &raw(br#"{"toolsListChanged":true}"#).decode().unwrap()).unwrap();
    s.drain();
    s.new_lines();
    s.ep.handle_eof(Instant::ZERO);
    s.drain();
    assert_eq!(
        s.new_lines(),
        vec![
            r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"test-server","version":"2.0.0"},"io.modelcontextprotocol/subscriptionId":1}}}"#,
            r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"Server closing"}}"#,
        ]
    );
    assert!(matches!(s.take().last(), Some(Ev::Closed { .. })), "no stream keeps the session open");
    assert_eq!(s.ep.respond(&acked, &RawJson::EMPTY_OBJECT), Ok(Responded::Suppressed));
}

#[test]
fn a_listen_stream_has_no_answer_deadline() {
    let mut s = Side::lone(server_config().answer_within(core::time::Duration::from_secs(1)));
    s.feed(Instant::ZERO, listen(1, r#"{"toolsListChanged":true}"#).as_bytes());
    let call = r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
    s.feed(Instant::ZERO, format!("{call}\n").as_bytes());
    s.take();
    s.ep.handle_timeout(Instant::from_secs(5));
    s.drain();
    let events = s.take();
    assert!(matches!(&events[..], [Ev::Expired { id }] if id == "2"), "{events:?}");
    assert_eq!(s.ep.peer_requests_in_flight(), 1);
}
