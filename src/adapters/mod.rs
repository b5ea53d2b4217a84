//! Transport adapters (std only): the core driven over real IO.
//!
//! The core never touches IO; these modules do, and nothing else in the crate depends on
//! them. Each one is the same shape: read bytes or messages, feed them with the current
//! time, drain, write, and wait for the next input or deadline, whichever comes first.
//!
//! * [`app`]: the application interface both adapters drive ([`app::Handler`]), so one
//!   server's logic runs unchanged over stdio and over HTTP.
//! * [`stdio`]: newline-delimited JSON over pipes (feature `stdio`).
//! * [`http`]: Streamable HTTP and the legacy HTTP+SSE transport over TCP (feature
//!   `http`).

#[cfg(any(feature = "stdio", feature = "http"))]
pub mod app;
#[cfg(feature = "http")]
pub mod http;
#[cfg(feature = "stdio")]
pub mod stdio;
