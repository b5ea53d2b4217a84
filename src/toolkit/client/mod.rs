//! The client side of the toolkit: tools called with typed arguments, lists walked page
//! by page, the server's requests answered by hooks.
//!
//! | file | job |
//! |---|---|
//! | `client.rs` | [`Client`], sans-IO over a client endpoint: typed calls, page walks, hooks |
//! | `hooks.rs` | [`Hooks`]: sampling, elicitation and roots answered |
//! | `stdio.rs` | (`stdio`) [`StdioClient`]: a blocking client for a server it spawns |
//! | `answer.rs` | (`alloc`) answers kept after their frame is gone |

#[cfg(feature = "alloc")]
mod answer;
#[allow(clippy::module_inception)]
mod client;
mod hooks;
#[cfg(feature = "stdio")]
mod stdio;

#[cfg(feature = "alloc")]
pub use answer::{Answer, ClientError};
pub use client::{Client, ClientEvent, DEFAULT_MAX_PAGES, result_text};
pub use hooks::{Hooks, Reply};
#[cfg(feature = "stdio")]
pub use stdio::{Call, Pages, PendingCall, StdioClient, StdioClientBuilder};
