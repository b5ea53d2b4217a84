//! The session probe's server on the default profile (`Full`), both eras and roles.
//!
//! [`serve_tools`] with the stateless era and the client's side linked too.
#![no_std]
#![no_main]

use mcp_sansio::session::Full;
use mcp_sansio_size::serve_tools;

#[unsafe(no_mangle)]
pub extern "C" fn _start() -> ! {
    serve_tools::<Full>()
}
