//! The std HTTP server: see [`HttpServer`].

mod auth;
mod conn;
mod event_loop;
mod h1;
mod hub;
mod mailbox;
mod options;
mod session;
mod store;

pub use auth::{AuthRequest, Authorizer, WELL_KNOWN_RESOURCE_METADATA};
pub use event_loop::{HttpServer, Stopper};
pub use mailbox::DEFAULT_MAILBOX;
pub use options::{DEFAULT_HEADER_TIMEOUT, DEFAULT_IDLE_CONNECTION, DEFAULT_WRITE_TIMEOUT, ServerOptions};
