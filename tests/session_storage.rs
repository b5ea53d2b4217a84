//! Buffers the endpoint owns: arrays, `Vec<u8>`, `Box<[u8]>`; a server can keep many
//! sessions in one collection, none borrowing anything.

mod common;

use common::*;
use mcp_sansio::Instant;
use mcp_sansio::session::{Endpoint, Output};

/// Runs a handshake and one ping through `ep`, fed as a client would; returns the lines.
fn exercise<B: mcp_sansio::session::Buffer>(ep: &mut Endpoint<'static, 4, 4, B>) -> Vec<String> {
    let mut input = handshake_lines();
    input.extend_from_slice(b"{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}\n");
    assert_eq!(ep.handle_input(Instant::ZERO, &input), input.len());
    let mut out = Vec::new();
    loop {
        match ep.poll_output() {
            Output::Transmit(t) => out.extend_from_slice(&t),
            Output::Idle { .. } => break,
            _ => {}
        }
    }
    String::from_utf8(out).unwrap().lines().map(str::to_owned).collect()
}

#[test]
fn owned_buffers_of_every_kind_work_like_lent_ones() {
    let lent =
        exercise(&mut Endpoint::<'static, 4, 4>::new(server_config(), leak(2048), leak(2048), Instant::ZERO).unwrap());
    let mut array =
        Endpoint::<'static, 4, 4, [u8; 2048]>::with_buffers(server_config(), [0; 2048], [0; 2048], Instant::ZERO)
            .unwrap();
    let mut vec =
        Endpoint::<'static, 4, 4, Vec<u8>>::with_buffers(server_config(), vec![0; 2048], vec![0; 2048], Instant::ZERO)
            .unwrap();
    let boxed: Box<[u8]> = vec![0u8; 2048].into_boxed_slice();
    let mut boxed =
        Endpoint::<'static, 4, 4, Box<[u8]>>::with_buffers(server_config(), boxed.clone(), boxed, Instant::ZERO)
            .unwrap();
    assert_eq!(lent.len(), 2);
    assert_eq!(exercise(&mut array), lent);
    assert_eq!(exercise(&mut vec), lent);
    assert_eq!(exercise(&mut boxed), lent);
    // The buffers come back.
    let (rx, tx) = vec.into_buffers();
    assert_eq!((rx.len(), tx.len()), (2048, 2048));
}

#[test]
fn many_sessions_live_in_one_collection() {
    let mut sessions: Vec<Endpoint<'static, 4, 4, Box<[u8]>>> = (0..100)
        .map(|_| {
            let (rx, tx) = (vec![0u8; 1024].into_boxed_slice(), vec![0u8; 1024].into_boxed_slice());
            Endpoint::with_buffers(server_config(), rx, tx, Instant::ZERO).unwrap()
        })
        .collect();
    for ep in &mut sessions {
        assert_eq!(exercise(ep).len(), 2);
    }
    // Moved, resized, shuffled: no borrow ties them to anything.
    sessions.swap(0, 99);
    let moved = sessions.pop().unwrap();
    assert_eq!(moved.state(), mcp_sansio::session::State::Ready);
}

#[test]
fn an_empty_vec_is_too_small_not_a_panic() {
    let err =
        Endpoint::<'static, 4, 4, Vec<u8>>::with_buffers(server_config(), Vec::new(), vec![0; 2048], Instant::ZERO);
    assert_eq!(err.err(), Some(mcp_sansio::session::ConfigError::RxTooSmall { needed: 256 }));
}

#[test]
fn an_endpoint_built_in_place_works_like_a_returned_one() {
    let returned =
        exercise(&mut Endpoint::<'static, 4, 4>::new(server_config(), leak(2048), leak(2048), Instant::ZERO).unwrap());
    let mut place = None;
    let ep =
        Endpoint::<'static, 4, 4>::new_in(&mut place, server_config(), leak(2048), leak(2048), Instant::ZERO).unwrap();
    assert_eq!(exercise(ep), returned);
    assert!(place.is_some());
    // A client queues its initialize request there too.
    let mut place = None;
    let client =
        Endpoint::<'static, 4, 4>::new_in(&mut place, client_config(), leak(2048), leak(2048), Instant::ZERO).unwrap();
    assert!(matches!(client.poll_output(), Output::Transmit(t) if t.starts_with(b"{\"jsonrpc\":\"2.0\",\"id\":")));
}

#[test]
fn an_endpoint_refused_in_place_leaves_the_place_empty() {
    let mut place =
        Some(Endpoint::<'static, 4, 4>::new(server_config(), leak(2048), leak(2048), Instant::ZERO).unwrap());
    let err = Endpoint::new_in(&mut place, server_config(), leak(16), leak(2048), Instant::ZERO).err();
    assert_eq!(err, Some(mcp_sansio::session::ConfigError::RxTooSmall { needed: 256 }));
    assert!(place.is_none());
    // Refused after it was built (a transmit buffer too small for the initialize result).
    let err = Endpoint::new_in(&mut place, server_config(), leak(2048), leak(300), Instant::ZERO).err();
    assert!(matches!(err, Some(mcp_sansio::session::ConfigError::TxTooSmall { .. })), "{err:?}");
    assert!(place.is_none());
}

/// A session started on small buffers grows them as its messages need: a message longer
/// than the receive buffer is read once a larger one is swapped in, and an answer longer
/// than the transmit buffer waits (`try_respond`: TxFull, not -32603) until one is.
#[test]
fn buffers_grow_while_the_session_runs() {
    let mut ep =
        Endpoint::<'static, 4, 4, Vec<u8>>::with_buffers(server_config(), vec![0; 1024], vec![0; 1024], Instant::ZERO)
            .unwrap();
    assert_eq!(exercise(&mut ep).len(), 2);
    assert_eq!((ep.receive_capacity(), ep.transmit_capacity()), (1024, 1024));
    // Smaller buffers are refused, nothing changed.
    assert_eq!(ep.replace_receive_buffer(vec![0; 512]).unwrap_err().len(), 512);
    assert_eq!(ep.replace_transmit_buffer(vec![0; 512]).unwrap_err().len(), 512);
    // No swap while received bytes wait in the buffer (here: the start of a line).
    let pad = "a".repeat(3000);
    let line = format!(r#"{{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{{"name":"{pad}"}}}}"#) + "\n";
    let mut busy =
        Endpoint::<'static, 4, 4, Vec<u8>>::with_buffers(server_config(), vec![0; 1024], vec![0; 1024], Instant::ZERO)
            .unwrap();
    assert_eq!(exercise(&mut busy).len(), 2);
    assert_eq!(busy.handle_input(Instant::ZERO, &line.as_bytes()[..100]), 100);
    assert!(busy.replace_receive_buffer(vec![0; 8192]).is_err());
    assert_eq!(busy.receive_capacity(), 1024);
    // Drained, the buffer is swapped; the long line then fits.
    let old = ep.replace_receive_buffer(vec![0; 8192]).unwrap();
    assert_eq!((old.len(), ep.receive_capacity()), (1024, 8192));
    assert_eq!(ep.handle_input(Instant::ZERO, line.as_bytes()), line.len());
    let big = serde_json::json!({ "content": [{ "type": "text", "text": pad }] });
    let mut pending = None;
    loop {
        match ep.poll_output() {
            Output::Event(mcp_sansio::session::Event::Request(mut req)) => {
                assert!(matches!(req.method, mcp_sansio::Method::ToolsCall), "{:?}", req.method);
                let e = req.try_respond(&big).unwrap_err();
                assert!(matches!(e, mcp_sansio::session::SendError::TxFull { needed, .. } if needed > 3000), "{e:?}");
                pending = Some(req.pending());
            }
            Output::Transmit(t) => panic!("nothing is sent yet: {:?}", std::str::from_utf8(&t)),
            Output::Idle { .. } => break,
            _ => {}
        }
    }
    let pending = pending.expect("the request was delivered");
    assert_eq!(ep.replace_transmit_buffer(vec![0; 8192]).unwrap().len(), 1024);
    ep.respond(&pending, &big).unwrap();
    let mut out = Vec::new();
    loop {
        match ep.poll_output() {
            Output::Transmit(t) => out.extend_from_slice(&t),
            Output::Idle { .. } => break,
            _ => {}
        }
    }
    let answer: serde_json::Value = serde_json::from_slice(out.trim_ascii_end()).unwrap();
    assert_eq!((answer["id"].as_i64(), answer["result"]["content"][0]["text"].as_str()), (Some(8), Some(&*pad)));
}
