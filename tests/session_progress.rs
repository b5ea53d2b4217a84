//! Progress: the token only when asked, `_meta` merging, strictly increasing values both
//! ways, nothing after the response.

mod common;

use common::*;
use mcp_sansio::session::{RequestOptions, SendError};
use mcp_sansio::wire::{EncodeError, NO_PARAMS, RawJson, RequestId};

fn progress_line(token: &str, rest: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"progressToken":{token},{rest}}}}}"#)
}

#[test]
fn the_token_is_sent_only_when_asked_and_merged_into_meta() {
    let mut p = Pair::ready();
    let now = p.now;
    let c = &mut p.client.ep;
    let plain = RequestOptions::default();
    let with = RequestOptions::with_progress();
    c.send_request(now, "tools/call", Some(&raw(br#"{"name":"a","_meta":{"k":"v"}}"#)), plain).unwrap();
    c.send_request(now, "tools/call", Some(&raw(br#"{"name":"b","_meta":{"k":"v"}}"#)), with).unwrap();
    c.send_request(now, "tools/call", Some(&raw(br#"{"_meta":{},"name":"c"}"#)), with).unwrap();
    c.send_request(now, "tools/list", NO_PARAMS, with).unwrap();
    p.client.drain();
    p.client.pipe.clear();
    assert_eq!(
        p.client.new_lines(),
        vec![
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"a","_meta":{"k":"v"}}}"#,
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"b","_meta":{"progressToken":3,"k":"v"}}}"#,
            r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"_meta":{"progressToken":4},"name":"c"}}"#,
            r#"{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{"_meta":{"progressToken":5}}}"#,
        ]
    );
    let mut p = Pair::ready();
    let now = p.now;
    let c = &mut p.client.ep;
    c.send_request(now, "tools/list", Some(&raw(b"{}")), with).unwrap();
    // A nested `_meta` is someone else's: the token goes to the top level.
    c.send_request(now, "tools/call", Some(&raw(br#"{"arguments":{"_meta":{"progressToken":1}}}"#)), with).unwrap();
    p.client.drain();
    assert_eq!(
        p.client.new_lines(),
        vec![
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"progressToken":2}}}"#,
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"_meta":{"progressToken":3},"arguments":{"_meta":{"progressToken":1}}}}"#,
        ]
    );
}

#[test]
fn params_that_cannot_take_the_token_are_refused_without_using_an_id() {
    let mut p = Pair::ready();
    let with = RequestOptions::with_progress();
    // The caller already chose a token.
    assert_eq!(
        p.client.ep.send_request(p.now, "tools/call", Some(&raw(br#"{"_meta":{"progressToken":"mine"}}"#)), with),
        Err(SendError::Encode(EncodeError::ProgressTokenPresent))
    );
    // `_meta` that is not an object cannot hold one (and adding a second `_meta` would
    // make the params ambiguous).
    for meta in [&br#"{"_meta":5,"name":"t"}"#[..], br#"{"name":"t","_meta":null}"#, br#"{"_meta":[]}"#] {
        let params = RawJson::parse(meta).unwrap();
        assert_eq!(
            p.client.ep.send_request(p.now, "tools/call", Some(&params), with),
            Err(SendError::Encode(EncodeError::NotAnObject)),
            "{}",
            String::from_utf8_lossy(meta)
        );
    }
    assert_eq!(p.client.ep.requests_in_flight(), 0);
    let id = p.client.ep.send_request(p.now, "tools/list", NO_PARAMS, with).unwrap();
    assert_eq!(id, RequestId::from_u64(2));
    p.client.drain();
    assert_eq!(
        p.client.new_lines(),
        vec![r#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"progressToken":2}}}"#]
    );
}

#[test]
fn progress_flows_server_to_client_byte_for_byte() {
    let mut p = Pair::ready();
    let id = p
        .client
        .ep
        .send_request(p.now, "tools/call", Some(&raw(br#"{"name":"t"}"#)), RequestOptions::with_progress())
        .unwrap();
    p.drive();
    p.server.take();
    let r = &p.server.pending_for(&id);
    p.server.ep.send_progress(r, 0.5, None, None).unwrap();
    p.server.ep.send_progress(r, 1.0, Some(4.0), None).unwrap();
    p.server.ep.send_progress(r, 2.0, Some(4.0), Some("half \"way\"\n")).unwrap();
    p.server.ep.send_progress(r, 1e300, None, Some("")).unwrap();
    p.drive();
    assert_eq!(
        p.server.new_lines(),
        vec![
            progress_line("2", r#""progress":0.5"#),
            progress_line("2", r#""progress":1.0,"total":4.0"#),
            progress_line("2", r#""progress":2.0,"total":4.0,"message":"half \"way\"\n""#),
            progress_line("2", r#""progress":1e+300,"message":"""#),
        ]
    );
    assert_eq!(
        p.client.take(),
        vec![
            Ev::Progress { id: "2".into(), progress: 0.5, total: None, message: None },
            Ev::Progress { id: "2".into(), progress: 1.0, total: Some(4.0), message: None },
            Ev::Progress { id: "2".into(), progress: 2.0, total: Some(4.0), message: Some("half \"way\"\n".into()) },
            Ev::Progress { id: "2".into(), progress: 1e300, total: None, message: Some(String::new()) },
        ]
    );
}

#[test]
fn the_sender_enforces_strictly_increasing_finite_values() {
    let mut p = Pair::ready();
    let id = p
        .client
        .ep
        .send_request(p.now, "tools/call", Some(&raw(br#"{"name":"t"}"#)), RequestOptions::with_progress())
        .unwrap();
    p.drive();
    let r = &p.server.pending_for(&id);
    p.server.ep.send_progress(r, 3.0, None, None).unwrap();
    for bad in [3.0, 2.0, -1.0] {
        assert_eq!(p.server.ep.send_progress(r, bad, None, None), Err(SendError::ProgressNotIncreasing));
    }
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        assert_eq!(p.server.ep.send_progress(r, bad, None, None), Err(SendError::InvalidProgress));
    }
    // A total that is not a number would be written as `null`, which the schema does not allow.
    for bad in [f64::NAN, f64::INFINITY] {
        assert_eq!(p.server.ep.send_progress(r, 4.0, Some(bad), None), Err(SendError::InvalidProgress));
    }
    p.server.ep.send_progress(r, 3.5, None, None).unwrap();
    p.drive();
    assert_eq!(
        p.server.new_lines(),
        vec![progress_line("2", r#""progress":3.0"#), progress_line("2", r#""progress":3.5"#)]
    );
    // After the response, no more progress.
    p.server.ep.respond(r, &raw(br#"{"content":[]}"#)).unwrap();
    assert_eq!(p.server.ep.send_progress(r, 4.0, None, None), Err(SendError::AlreadyAnswered));
    // A request that did not ask gets none.
    let plain = p.client.ep.send_request(p.now, "tools/list", NO_PARAMS, RequestOptions::default()).unwrap();
    p.drive();
    assert_eq!(p.server.send_progress(&plain, 1.0, None, None), Err(SendError::NoProgressToken));
}

#[test]
fn the_receiver_drops_what_does_not_increase_or_belongs_to_nothing() {
    let mut p = Pair::ready();
    let asked = p
        .client
        .ep
        .send_request(p.now, "tools/call", Some(&raw(br#"{"name":"t"}"#)), RequestOptions::with_progress())
        .unwrap();
    let plain = p.client.ep.send_request(p.now, "tools/list", NO_PARAMS, RequestOptions::default()).unwrap();
    assert_eq!((asked.to_string().as_str(), plain.to_string().as_str()), ("2", "3"));
    p.drive();
    p.client.new_lines();
    p.play_server(
        format!(
            "{}\n{}\n{}\n{}\n{}\n{}\n{}\n{}\n{}\n{}\n",
            progress_line("2", r#""progress":5"#),
            progress_line("2", r#""progress":5"#),
            progress_line("2", r#""progress":4.5,"total":10"#),
            progress_line("2", r#""progress":5.25,"total":10,"message":"more""#),
            progress_line("3", r#""progress":1"#),
            progress_line("\"2\"", r#""progress":6"#),
            progress_line("99", r#""progress":6"#),
            progress_line("2", r#""progress":"7""#),
            r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":7}}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/progress"}"#,
        )
        .as_bytes(),
    );
    assert_eq!(
        p.client.take(),
        vec![
            Ev::Progress { id: "2".into(), progress: 5.0, total: None, message: None },
            Ev::Misbehavior("NonIncreasingProgress(2, 5)".into()),
            Ev::Misbehavior("NonIncreasingProgress(2, 4.5)".into()),
            Ev::Progress { id: "2".into(), progress: 5.25, total: Some(10.0), message: Some("more".into()) },
            Ev::Misbehavior("UnknownProgressToken(3)".into()),
            Ev::Misbehavior("UnknownProgressToken(\"2\")".into()),
            Ev::Misbehavior("UnknownProgressToken(99)".into()),
            Ev::Misbehavior("InvalidNotificationParams(notifications/progress)".into()),
            Ev::Misbehavior("InvalidNotificationParams(notifications/progress)".into()),
            Ev::Misbehavior("InvalidNotificationParams(notifications/progress)".into()),
        ]
    );
    assert!(p.client.new_lines().is_empty(), "progress is never answered");
    // After the response the token is dead.
    p.server.respond(&asked, &raw(br#"{"content":[]}"#)).unwrap();
    p.drive();
    p.client.take();
    p.play_server(format!("{}\n", progress_line("2", r#""progress":100"#)).as_bytes());
    assert_eq!(p.client.take(), vec![Ev::Misbehavior("UnknownProgressToken(2)".into())]);
}

#[test]
fn progress_flows_client_to_server_with_the_peers_own_token() {
    let mut p = Pair::ready();
    // The server asks with the endpoint's token (its own id).
    let id = p
        .server
        .ep
        .send_request(
            p.now,
            "sampling/createMessage",
            Some(&raw(br#"{"messages":[],"maxTokens":9}"#)),
            RequestOptions::with_progress(),
        )
        .unwrap();
    p.drive();
    assert_eq!(
        p.server.new_lines(),
        vec![format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"sampling/createMessage","params":{{"_meta":{{"progressToken":{id}}},"messages":[],"maxTokens":9}}}}"#
        )]
    );
    p.client.take();
    p.client.send_progress(&id, 1.0, None, Some("thinking")).unwrap();
    p.drive();
    assert_eq!(
        p.server.take(),
        vec![Ev::Progress { id: id.to_string(), progress: 1.0, total: None, message: Some("thinking".into()) }]
    );
    p.client.new_lines();
    // A peer may choose any token, string or integer: it is echoed verbatim.
    p.play_server(
        b"{\"jsonrpc\":\"2.0\",\"id\":\"s9\",\"method\":\"roots/list\",\"params\":{\"_meta\":{\"progressToken\":\"tok\\u002d1\"}}}\n\
          {\"jsonrpc\":\"2.0\",\"id\":\"s10\",\"method\":\"roots/list\",\"params\":{\"_meta\":{\"progressToken\":-4}}}\n\
          {\"jsonrpc\":\"2.0\",\"id\":\"s11\",\"method\":\"roots/list\",\"params\":{\"_meta\":{\"progressToken\":1.5}}}\n",
    );
    p.client.take();
    let s9 = RequestId::string("s9").unwrap();
    let s10 = RequestId::string("s10").unwrap();
    let s11 = RequestId::string("s11").unwrap();
    p.client.send_progress(&s9, 1.0, None, None).unwrap();
    p.client.send_progress(&s10, 1.0, None, None).unwrap();
    // A token that is neither a string nor an integer is not a token.
    assert_eq!(p.client.send_progress(&s11, 1.0, None, None), Err(SendError::NoProgressToken));
    p.client.drain();
    p.client.pipe.clear();
    assert_eq!(
        p.client.new_lines(),
        vec![progress_line(r#""tok\u002d1""#, r#""progress":1.0"#), progress_line("-4", r#""progress":1.0"#)]
    );
}

#[test]
fn integer_progress_and_no_message_before_2025_03_26() {
    use mcp_sansio::mcp::{ProtocolVersion, VersionSet};
    for (version, with_message) in [(ProtocolVersion::V2024_11_05, false), (ProtocolVersion::V2025_03_26, true)] {
        let client = client_config().versions(VersionSet::only(version));
        let mut p = Pair::with(client, server_config());
        p.drive();
        p.client.take();
        p.server.take();
        let params = RawJson::parse(br#"{"name":"x"}"#).unwrap();
        let id = p.client.ep.send_request(p.now, "tools/call", Some(&params), RequestOptions::with_progress()).unwrap();
        p.drive();
        let request = p.server.pending_for(&id);
        p.server.ep.send_progress(&request, 3u32, Some(10u32), Some("three")).unwrap();
        p.drive();
        let line = p.server.sent_lines().pop().unwrap();
        let message = if with_message { r#","message":"three""# } else { "" };
        assert_eq!(
            line,
            format!(
                r#"{{"jsonrpc":"2.0","method":"notifications/progress","params":{{"progressToken":{id},"progress":3,"total":10{message}}}}}"#
            ),
            "{version}"
        );
        let events = p.client.take();
        assert_eq!(
            events,
            vec![Ev::Progress {
                id: id.to_string(),
                progress: 3.0,
                total: Some(10.0),
                message: with_message.then(|| "three".to_string())
            }]
        );
    }
}

#[test]
fn a_token_longer_than_an_id_can_be_is_not_kept_and_the_request_is_still_served() {
    let mut p = Pair::ready();
    let now = p.now;
    // The longest token kept is as long as the longest id (64 bytes with its quotes).
    let kept = format!("\"{}\"", "k".repeat(62));
    let long = format!("\"{}\"", "l".repeat(63));
    for (id, token) in [(7, &kept), (8, &long), (9, &"9".to_owned())] {
        let line = format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"t","_meta":{{"progressToken":{token}}}}}}}"#
        );
        p.server.feed(now, format!("{line}\n").as_bytes());
    }
    assert_eq!(p.server.ep.peer_requests_in_flight(), 3);
    p.server.send_progress(&RequestId::from_u64(7), 1.0, None, None).unwrap();
    assert_eq!(p.server.send_progress(&RequestId::from_u64(8), 1.0, None, None), Err(SendError::NoProgressToken));
    // A token equal to the request's id.
    p.server.send_progress(&RequestId::from_u64(9), 1.0, None, None).unwrap();
    p.server.drain();
    let lines: Vec<String> = p.server.new_lines().into_iter().filter(|l| l.contains("progress")).collect();
    assert_eq!(lines, vec![progress_line(&kept, r#""progress":1.0"#), progress_line("9", r#""progress":1.0"#)]);
}
