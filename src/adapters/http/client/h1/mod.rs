//! The HTTP/1.1 the client adapter speaks, as pure functions over bytes: request heads
//! written, response heads read (httparse), bodies unframed. No IO here: `conn.rs` moves
//! the bytes.

pub(crate) mod body;
pub(crate) mod head;
pub(crate) mod request;
