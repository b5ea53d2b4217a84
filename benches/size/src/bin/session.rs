//! The session layer: a handshake-era server-only Endpoint answering tools.
//!
//! Handshake, correlation, timers: [`serve_tools`] on the `HandshakeServer` profile.
#![no_std]
#![no_main]

use mcp_sansio::session::HandshakeServer;
use mcp_sansio_size::serve_tools;

#[unsafe(no_mangle)]
pub extern "C" fn _start() -> ! {
    serve_tools::<HandshakeServer>()
}
