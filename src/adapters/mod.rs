//! Transport adapters (std only): the core driven over real IO.
//!
//! The core never touches IO; these modules do, and nothing else in the crate depends on
//! them. Each one is the same shape: read bytes or messages, feed them with the current
//! time, drain, write, and wait for the next input or deadline, whichever comes first.

#[cfg(feature = "http")]
pub mod http;
#[cfg(feature = "stdio")]
pub mod stdio;
