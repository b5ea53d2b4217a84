//! An idle server session as a 22-byte snapshot, and a ready endpoint rebuilt from it.

mod common;

use common::*;
use mcp_sansio::Instant;
use mcp_sansio::mcp::{Capability, ProtocolVersion, VersionSet};
use mcp_sansio::session::{ConfigError, Responded, Snapshot, SnapshotError, State};
use mcp_sansio::wire::{NO_PARAMS, RawJson, RequestId};

#[test]
fn an_idle_server_comes_back_from_its_snapshot() {
    let mut p = Pair::ready();
    // Some history: a request each way, answered.
    let id = p.client.ep.send_request(p.now, "tools/list", NO_PARAMS, Default::default()).unwrap();
    p.drive();
    let old = p.server.pending_for(&id);
    p.server.respond(&id, &raw(br#"{"tools":[]}"#)).unwrap();
    let asked = p.server.ep.send_request(p.now, "roots/list", NO_PARAMS, Default::default()).unwrap();
    p.drive();
    p.client.respond(&asked, &raw(br#"{"roots":[]}"#)).unwrap();
    p.drive();
    p.server.take();
    p.client.take();

    let snapshot = p.server.ep.snapshot().unwrap();
    assert_eq!(snapshot.version, ProtocolVersion::V2025_11_25);
    assert!(snapshot.peer_capabilities.contains(Capability::Sampling));
    assert_eq!(snapshot.next_request_id, 2);
    let bytes = snapshot.to_bytes();
    assert_eq!(bytes.len(), Snapshot::LEN);
    let stored = Snapshot::from_bytes(&bytes).unwrap();
    assert_eq!(stored, snapshot);

    // A new endpoint, new buffers: ready at once, the same session.
    let resumed = Ep::resume(server_config(), stored, leak(64 * 1024), leak(64 * 1024), p.now).unwrap();
    p.server = Side::new(resumed);
    assert_eq!(p.server.ep.state(), State::Ready);
    assert_eq!(p.server.ep.protocol_version(), Some(ProtocolVersion::V2025_11_25));
    assert_eq!(p.server.ep.peer_capabilities(), snapshot.peer_capabilities);
    // The client goes on as if nothing happened; so does the server.
    let id2 = p.client.ep.send_request(p.now, "tools/list", NO_PARAMS, Default::default()).unwrap();
    p.drive();
    assert_eq!(p.server.take(), vec![Ev::Request { id: id2.to_string(), method: "tools/list".into(), params: None }]);
    let next = p.server.ep.send_request(p.now, "roots/list", NO_PARAMS, Default::default()).unwrap();
    assert_eq!(next, RequestId::from_u64(2), "ids go on, never reused");
    // A pending request from before names no request of the new endpoint.
    assert_eq!(p.server.ep.respond(&old, &RawJson::EMPTY_OBJECT), Ok(Responded::Suppressed));
    p.server.respond(&id2, &raw(br#"{"tools":[]}"#)).unwrap();
    p.drive();
    let events = p.client.take();
    assert!(matches!(events[..], [Ev::Request { .. }, Ev::Response { .. }]), "{events:?}");
}

#[test]
fn only_an_idle_ready_server_can_be_snapshotted() {
    // A client, and a server mid-handshake: not ready.
    let p = Pair::new();
    assert_eq!(p.client.ep.snapshot(), Err(SnapshotError::NotReady));
    assert_eq!(p.server.ep.snapshot(), Err(SnapshotError::NotReady));
    let mut p = Pair::ready();
    assert!(p.server.ep.snapshot().is_ok());
    // A request of the client's in flight.
    let id = p.client.ep.send_request(p.now, "tools/list", NO_PARAMS, Default::default()).unwrap();
    p.drive();
    assert_eq!(p.server.ep.snapshot(), Err(SnapshotError::Busy));
    // Answered, but not yet written out.
    p.server.respond(&id, &raw(br#"{"tools":[]}"#)).unwrap();
    assert_eq!(p.server.ep.snapshot(), Err(SnapshotError::Busy));
    p.drive();
    assert!(p.server.ep.snapshot().is_ok());
    // A request of the server's in flight.
    let ours = p.server.ep.send_request(p.now, "roots/list", NO_PARAMS, Default::default()).unwrap();
    p.drive();
    assert_eq!(p.server.ep.snapshot(), Err(SnapshotError::Busy));
    p.client.respond(&ours, &raw(br#"{"roots":[]}"#)).unwrap();
    p.drive();
    assert!(p.server.ep.snapshot().is_ok());
    // Received bytes not yet processed.
    let _ = p.server.ep.handle_input(p.now, b"{\"jsonrpc\":\"2.0\",\"id\":1,");
    assert_eq!(p.server.ep.snapshot(), Err(SnapshotError::Busy));
}

#[test]
fn resume_needs_a_server_that_speaks_the_version() {
    let snapshot = Snapshot {
        version: ProtocolVersion::V2025_03_26,
        peer_capabilities: Default::default(),
        next_request_id: 100,
        next_serial: 7,
    };
    let err = |config| Ep::resume(config, snapshot, leak(4096), leak(4096), Instant::ZERO).err();
    assert_eq!(err(client_config()), Some(ConfigError::NotAServer));
    let only_new = server_config().versions(VersionSet::only(ProtocolVersion::V2025_11_25));
    assert_eq!(err(only_new), Some(ConfigError::UnsupportedVersion));
    assert!(err(server_config()).is_none());
    // Stored bytes that are not a snapshot.
    let mut bytes = snapshot.to_bytes();
    assert_eq!(Snapshot::from_bytes(&bytes[..21]), None);
    bytes[1] = 200;
    assert_eq!(Snapshot::from_bytes(&bytes), None);
    bytes[0] = 9;
    assert_eq!(Snapshot::from_bytes(&bytes), None);
}
