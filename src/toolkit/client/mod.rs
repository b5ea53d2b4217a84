//! The client side of the toolkit: tools called with typed arguments, lists walked page
//! by page, the server's requests answered by hooks.
//!
//! | file | job |
//! |---|---|
//! | `client.rs` | [`Client`], sans-IO over a client endpoint: typed calls, page walks, hooks |
//! | `hooks.rs` | [`Hooks`]: sampling, elicitation and roots answered |
//! | `builder.rs` | (`stdio` or `http`) [`ClientBuilder`]: the settings both transports share |
//! | `blocking.rs` | (`stdio` or `http`) [`BlockingClient`]: one blocking client whichever the transport |
//! | `listen.rs` | (`stdio` or `http`) [`Listening`]: a 2026-07-28 listen stream |
//! | `stdio.rs` | (`stdio`) [`StdioClientBuilder`]: the blocking client for a server it spawns |
//! | `wire.rs` | (`stdio`) the wire mode: a tap on the pipes, [`BlockingClient::write_raw`] |
//! | `http.rs` | (`http`) [`HttpClientBuilder`]: the blocking client for a server at a URL |
//! | `answer.rs` | (`alloc`) answers kept after their frame is gone |

#[cfg(feature = "alloc")]
mod answer;
#[cfg(any(feature = "stdio", feature = "http"))]
mod blocking;
#[cfg(any(feature = "stdio", feature = "http"))]
mod builder;
#[allow(clippy::module_inception)]
mod client;
mod hooks;
#[cfg(feature = "http")]
mod http;
#[cfg(any(feature = "stdio", feature = "http"))]
mod listen;
#[cfg(feature = "stdio")]
mod stdio;
#[cfg(feature = "stdio")]
mod wire;

#[cfg(feature = "alloc")]
pub use answer::{Answer, ClientError};
#[cfg(any(feature = "stdio", feature = "http"))]
pub use blocking::{BlockingClient, Call, Closed, Pages, PendingCall};
#[cfg(any(feature = "stdio", feature = "http"))]
pub use builder::ClientBuilder;
pub use client::{Client, ClientEvent, DEFAULT_MAX_PAGES, result_text};
pub use hooks::{Hooks, Reply};
#[cfg(feature = "http")]
pub use http::{HttpClientBuilder, HttpTarget};
#[cfg(any(feature = "stdio", feature = "http"))]
pub use listen::Listening;
#[cfg(feature = "stdio")]
pub use stdio::{StdioClient, StdioClientBuilder, StdioTarget};
#[cfg(feature = "stdio")]
pub use wire::Wire;
