//! Authorization: the bearer token on every request, 401/403 as events with the parsed
//! challenge, retries with a new token, and the limit on them.

mod http_client_support;

use http_client_support::*;
use mcp_sansio::http::client::{ExchangeKind, LostReason, RetryError, TokenError};

type D = Driver<4>;
const SSE: (&str, &str) = ("Content-Type", "text/event-stream");
const PRM: &str = "http://localhost:3000/.well-known/oauth-protected-resource/mcp";

fn challenge_401() -> String {
    format!(r#"Bearer resource_metadata="{PRM}", scope="files:read""#)
}

#[test]
fn token_on_every_kind_of_request() {
    let mut d = D::new(D::default_config());
    d.client.set_bearer_token(Some("eyJhbGciOi.J9.x-y_z")).unwrap();
    let auth = Some("Bearer eyJhbGciOi.J9.x-y_z");
    let x = d.send(&init_msg(0));
    assert_eq!(d.take().header("Authorization"), auth, "initialize");
    d.reply(x, 200, &[("Content-Type", "application/json"), ("Mcp-Session-Id", "s")], &init_result(0, "2025-11-25"));
    let n = d.send(INITIALIZED);
    assert_eq!(d.take().header("Authorization"), auth, "notification");
    d.accepted(n);
    let g = d.take();
    assert_eq!((g.kind, g.header("Authorization")), (ExchangeKind::Stream, auth));
    d.respond(g.exchange, 200, &[SSE]);
    let t = d.send(&request(1, "tools/call"));
    d.take();
    d.respond(t, 200, &[SSE]);
    d.body(t, "id: 1\ndata: \n\n");
    d.end(t);
    d.advance_to(1_000);
    let r = d.take();
    assert_eq!((r.kind, r.header("Authorization")), (ExchangeKind::Resume, auth));
    d.client.set_bearer_token(Some("rotated")).unwrap();
    d.fail(g.exchange, mcp_sansio::http::client::Failure::Broken);
    d.advance_to(2_000);
    let g2 = d.take();
    assert_eq!((g2.kind, g2.header("Authorization")), (ExchangeKind::Stream, Some("Bearer rotated")));
    d.client.close(d.at());
    d.drain();
    let del = d.take();
    assert_eq!((del.kind, del.header("Authorization")), (ExchangeKind::Delete, Some("Bearer rotated")));
    // And off again.
    let mut d = D::new(D::default_config());
    d.client.set_bearer_token(Some("a")).unwrap();
    d.client.set_bearer_token(None).unwrap();
    d.send(&init_msg(0));
    assert_eq!(d.take().header("Authorization"), None);
}

#[test]
fn a_401_waits_for_a_token_and_the_same_message_goes_again() {
    let mut d = D::new(D::default_config());
    let x = d.send(&init_msg(0));
    d.take();
    d.reply(
        x,
        401,
        &[("Content-Type", "application/json"), ("WWW-Authenticate", &challenge_401())],
        r#"{"error":"invalid_token"}"#,
    );
    assert_eq!(d.aborts, [x]);
    let ev = d.take_events();
    let [Ev::Auth { exchange, status: 401, ref bearer, ref www, retries_left: 2 }] = ev[..] else { panic!("{ev:?}") };
    assert_eq!(exchange, x);
    assert_eq!(
        bearer.clone().unwrap(),
        Bearer {
            resource_metadata: Some(PRM.into()),
            scope: Some("files:read".into()),
            error: None,
            error_description: None
        }
    );
    assert!(www.is_some());
    // Nothing goes until the application answers; other exchanges are unaffected.
    d.advance_to(60_000);
    d.no_request();
    assert_eq!(d.client.exchanges_in_use(), 1);
    assert_eq!(d.client.retry(mcp_sansio::http::client::ExchangeId::clone(&exchange)).map(|_| ()), Ok(()));
    d.drain();
    let again = d.take();
    assert_ne!(again.exchange, x);
    assert_eq!(again.body, init_msg(0));
    assert_eq!(again.header("Authorization"), None, "no token was set: sent as it was");
    assert_eq!(d.client.retry(x), Err(RetryError::NotWaiting));
    d.client.set_bearer_token(Some("good")).unwrap();
    d.reply(again.exchange, 401, &[("WWW-Authenticate", &challenge_401())], "");
    let ev = d.take_events();
    let [Ev::Auth { exchange, retries_left: 1, .. }] = ev[..] else { panic!("{ev:?}") };
    let third = d.client.retry(exchange).unwrap();
    d.drain();
    let r = d.take();
    assert_eq!((r.exchange, r.header("Authorization")), (third, Some("Bearer good")));
    d.json(third, &init_result(0, "2025-11-25"));
    assert_eq!(d.take_messages(), [init_result(0, "2025-11-25")]);
}

#[test]
fn retries_are_limited() {
    // The conformance suite's scope-retry-limit: at most three attempts in all.
    let mut d = D::new(D::default_config());
    d.handshake(None, "2025-11-25");
    let step_up = format!(
        r#"Bearer error="insufficient_scope", scope="mcp:admin", resource_metadata="{PRM}", error_description="Scope upgrade will never succeed""#
    );
    let mut x = d.send(&request(1, "tools/call"));
    let mut attempts = 0;
    loop {
        let r = d.take();
        assert_eq!(r.exchange, x);
        attempts += 1;
        d.respond(x, 403, &[("WWW-Authenticate", &step_up)]);
        let ev = d.take_events();
        match ev.as_slice() {
            [Ev::Auth { exchange, status: 403, bearer: Some(b), .. }] => {
                assert_eq!(b.error.as_deref(), Some("insufficient_scope"));
                assert_eq!(b.error_description.as_deref(), Some("Scope upgrade will never succeed"));
                assert_eq!(b.scope.as_deref(), Some("mcp:admin"));
                x = d.client.retry(*exchange).unwrap();
                d.drain();
            }
            [Ev::Lost { exchange, request, reason }] => {
                assert_eq!((*exchange, request.as_deref()), (x, Some("1")));
                assert_eq!(*reason, LostReason::Unauthorized { status: 403 });
                break;
            }
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(attempts, 3);
    d.no_request();
    assert_eq!(d.client.exchanges_in_use(), 1);
}

#[test]
fn giving_up_loses_the_message() {
    let mut d = D::new(D::default_config());
    d.handshake(None, "2025-11-25");
    let x = d.send(&request(3, "tools/list"));
    d.take();
    d.respond(x, 401, &[]);
    let ev = d.take_events();
    let [Ev::Auth { exchange, bearer: None, www: None, .. }] = ev[..] else { panic!("{ev:?}") };
    d.client.give_up(exchange).unwrap();
    d.drain();
    assert_eq!(
        d.take_events(),
        [Ev::Lost { exchange, request: Some("3".into()), reason: LostReason::Unauthorized { status: 401 } }]
    );
    assert_eq!(d.client.give_up(exchange), Err(RetryError::NotWaiting));
    assert_eq!(d.client.exchanges_in_use(), 1);
}

#[test]
fn a_403_without_a_challenge_is_a_refusal() {
    // An Origin check refusing the client, for instance.
    let mut d = D::new(D::default_config());
    let x = d.send(&init_msg(0));
    d.take();
    d.respond(x, 403, &[("Content-Type", "application/json")]);
    assert_eq!(d.take_events(), [Ev::Lost { exchange: x, request: Some("0".into()), reason: LostReason::Status(403) }]);
}

#[test]
fn the_bearer_challenge_is_picked_among_several() {
    let mut d = D::new(D::default_config());
    let x = d.send(&init_msg(0));
    d.take();
    d.respond(
        x,
        401,
        &[
            ("WWW-Authenticate", "not a challenge ,,, ="),
            ("WWW-Authenticate", r#"Basic realm="x""#),
            (
                "www-authenticate",
                r#"Negotiate abc==, Bearer error="invalid_token", error_description="expired \"yesterday\"""#,
            ),
        ],
    );
    let ev = d.take_events();
    let [Ev::Auth { bearer: Some(ref b), .. }] = ev[..] else { panic!("{ev:?}") };
    assert_eq!(b.error.as_deref(), Some("invalid_token"));
    assert_eq!(b.error_description.as_deref(), Some("expired \"yesterday\""));
}

#[test]
fn a_challenge_that_does_not_fit_is_dropped_not_truncated() {
    let mut d = D::with_slot(D::default_config(), 400);
    let x = d.send(&init_msg(0));
    d.take();
    let long = format!(r#"Bearer scope="{}""#, "s ".repeat(200));
    d.respond(x, 401, &[("WWW-Authenticate", &long)]);
    let ev = d.take_events();
    assert!(matches!(ev[..], [Ev::Auth { bearer: None, www: None, retries_left: 2, .. }]), "{ev:?}");
    // The body is intact for the retry.
    let again = d.client.retry(x).unwrap();
    d.drain();
    let r = d.take();
    assert_eq!((r.exchange, r.body.clone()), (again, init_msg(0)));
}

#[test]
fn a_401_on_the_standalone_stream() {
    let mut d = D::new(D::default_config());
    let g = d.handshake(Some("s"), "2025-11-25");
    d.respond(g.exchange, 401, &[("WWW-Authenticate", &challenge_401())]);
    let ev = d.take_events();
    let [Ev::Auth { exchange, status: 401, .. }] = ev[..] else { panic!("{ev:?}") };
    d.client.set_bearer_token(Some("t")).unwrap();
    let again = d.client.retry(exchange).unwrap();
    d.drain();
    let r = d.take();
    assert_eq!((r.exchange, r.kind, r.header("Authorization")), (again, ExchangeKind::Stream, Some("Bearer t")));
}

#[test]
fn token_errors_change_nothing() {
    let config = D::default_config().token_capacity(8);
    let mut d = D::new(config);
    assert_eq!(d.client.set_bearer_token(Some("123456789")), Err(TokenError::TooLong { capacity: 8 }));
    assert_eq!(d.client.set_bearer_token(Some("a\r\nb")), Err(TokenError::Invalid));
    assert_eq!(d.client.set_bearer_token(Some("")), Err(TokenError::Invalid));
    d.client.set_bearer_token(Some("12345678")).unwrap();
    d.send(&init_msg(0));
    assert_eq!(d.take().header("Authorization"), Some("Bearer 12345678"));
}

#[test]
fn giving_up_on_a_stream() {
    // The standalone stream: unavailable, with the status.
    let mut d = D::new(D::default_config());
    let g = d.handshake(Some("s"), "2025-11-25");
    d.respond(g.exchange, 401, &[]);
    let ev = d.take_events();
    let [Ev::Auth { exchange, .. }] = ev[..] else { panic!("{ev:?}") };
    d.client.give_up(exchange).unwrap();
    d.drain();
    assert_eq!(d.take_events(), [Ev::StandaloneUnavailable(Some(401))]);
    assert_eq!(d.client.exchanges_in_use(), 0);

    // Retries used up on the HTTP+SSE stream: the initialize waiting for it is lost.
    let mut d = D::new(D::default_config().mode(mcp_sansio::http::client::TransportMode::Legacy).max_auth_retries(0));
    let x = d.send(&init_msg(0));
    let g = d.take();
    d.respond(g.exchange, 403, &[("WWW-Authenticate", r#"Bearer error="insufficient_scope""#)]);
    assert_eq!(
        d.take_events(),
        [Ev::Lost { exchange: x, request: Some("0".into()), reason: LostReason::Unauthorized { status: 403 } }]
    );
    assert_eq!(d.client.exchanges_in_use(), 0);
}
