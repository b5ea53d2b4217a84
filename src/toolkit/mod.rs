//! The toolkit: an MCP server or client declared once, on the same endpoint.
//!
//! The [`Endpoint`](crate::Endpoint) is the protocol; what every application writes on
//! top of it is plumbing: JSON Schemas typed by hand and kept in step with the argument
//! structs, `params → arguments → T` decoding, answers built by hand, pagination with
//! cursors, the capability object, and for slow work a worker, a message type and a table
//! of cancel flags. The toolkit absorbs it, and stays what the endpoint is: sans-IO,
//! `no_std`, and without allocation on its core path.
//!
//! * [`schema!`](crate::schema): argument types declared with their JSON Schema.
//! * [`server`]: a [`Server`](server::Server) that answers the requests its handlers cover
//!   (tools, resources, templates, prompts, completions) from the endpoint's events, lists
//!   them page by page with signed cursors, declares the capabilities they make, and runs
//!   long work as step jobs (no threads, no allocator), on threads, or on any async
//!   executor, with progress and cancellation. Handlers sit in a `static`
//!   [`Table`](server::Table) on a microcontroller or come from a
//!   [`ServerBuilder`](server::ServerBuilder) of closures on a desktop.
//!
//! ```no_run
//! # #[cfg(feature = "stdio")] fn main() -> std::io::Result<()> {
//! use mcp_sansio::toolkit::server::ServerBuilder;
//! mcp_sansio::schema! {
//!     #[derive(serde::Deserialize)]
//!     struct Forecast {
//!         /// City name
//!         city: String,
//!         /// Days ahead
//!         days: u8,
//!     }
//! }
//! ServerBuilder::new("weather", "1.0.0")
//!     .tool("get_forecast", "Weather forecast for a city", |Forecast { city, days }| {
//!         format!("{city}: sunny for {days} days")
//!     })
//!     .serve_stdio()?;
//! # Ok(()) }
//! # #[cfg(not(feature = "stdio"))] fn main() {}
//! ```
//!
//! # Why `schema!` is a `macro_rules!` macro, not a derive
//!
//! A tool's JSON Schema must say exactly what its handler's type decodes, so it is made
//! from the type. The usual way is a derive: `schemars` (what rmcp uses) builds a
//! `serde_json::Value` tree at run time, which needs an allocator and `serde_json`, and a
//! derive of our own would need a proc-macro crate, which this crate will not be split
//! into. [`schema!`](crate::schema) instead wraps the declaration itself: it emits the
//! struct unchanged (derives and serde attributes are the user's) and a constant tree of
//! [`Node`]s, and a `const fn` renders a struct's tree into one exact JSON literal at
//! compile time, checked by [`RawJson::from_static`](crate::wire::RawJson::from_static).
//! So the schema costs flash and nothing else: no allocation, no serializer for it, no
//! startup work, the same on a Cortex-M and a server. It reads what it needs from the
//! declaration: doc comments for descriptions, `Option` and `#[serde(default)]` for what
//! is required, `rename`/`rename_all` for member names, each field's type for its schema
//! (integers carry their type's bounds). What it cannot see it does not guess: a type
//! without a [`Schema`] does not compile, and serde attributes it does not read
//! (`flatten`, `tag`, `untagged`) must not change the shape (use a nested struct or a
//! hand-written [`Schema`] impl). A derive can read more; the price is an allocator and a
//! second crate, which is the trade this crate exists not to make.
//!
//! # One server, any transport
//!
//! A [`Server`](server::Server) is sans-IO: it runs on a bare endpoint in any loop
//! ([`handle`](server::Server::handle) and [`poll`](server::Server::poll)). For the
//! crate's adapters it is also their shared [`Handler`](crate::adapters::app::Handler)
//! ([`Server::handler`](server::Server::handler)): the same server, with the same
//! handlers, over stdio and over HTTP, where one server serves every session (the
//! declarations shared, each session's work in progress its own).
//! [`serve_stdio`](server::Server::serve_stdio) and
//! [`serve_http`](server::Server::serve_http) do the wiring.
//!
//! A handler on a thread asks the client for input with [`Job::ask`](server::Job::ask)
//! (sampling, elicitation, roots); the toolkit chooses how by the session's era (see
//! [`Input`](server::Input): requests of the server's own in a handshake session,
//! `input_required` rounds with a sealed `requestState` in a stateless call of
//! 2026-07-28), so the same handler serves both eras, and a server serves both.
//!
//! A tool that takes long can also run as an MCP task of the 2026-07-28 tasks extension
//! (`io.modelcontextprotocol/tasks`): declared with
//! [`blocking_task_tool`](server::ServerBuilder::blocking_task_tool) or
//! [`async_task_tool`](server::ServerBuilder::async_task_tool), it answers a client that
//! declared the extension at once with a task handle, and a bounded
//! [`TaskStore`](server::TaskStore) answers `tasks/get`, `tasks/update` (the job's
//! questions) and `tasks/cancel`; a client follows such a task with the endpoint's
//! [`TaskPoller`](crate::session::TaskPoller).
//!
//! The client side ([`client`]) calls tools with typed arguments, walks lists page by
//! page and answers the server's requests through hooks, sans-IO or as a blocking
//! [`BlockingClient`](client::BlockingClient), the same for a server it spawns (stdio)
//! or one at a URL (HTTP).

pub mod client;
pub mod schema;
pub mod server;

pub use schema::{Arguments, Bounded, NoArguments, Node, Property, Schema};

#[doc(hidden)]
pub use schema::__private;
