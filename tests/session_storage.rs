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
