//! The std HTTP server: see [`HttpServer`].

mod conn;
mod h1;
mod hub;
mod mailbox;
mod options;
mod server;
mod session;
mod store;

pub use mailbox::DEFAULT_MAILBOX;
pub use options::{DEFAULT_HEADER_TIMEOUT, DEFAULT_IDLE_CONNECTION, DEFAULT_WRITE_TIMEOUT, ServerOptions};
pub use server::{HttpServer, Stopper};
