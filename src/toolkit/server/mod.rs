//! The server side of the toolkit: handlers declared once, answered by a [`Server`].
//!
//! | file | job |
//! |---|---|
//! | `server.rs` | [`Server`]: events in, answers out; capabilities from what is declared |
//! | `dispatch.rs` | answering each kind of request, linked only for the kinds a table has |
//! | `table.rs` | [`Table`]: the handlers, `static` or built at run time |
//! | `tool.rs` | [`ToolHandler`], [`Call`], typed inline tools ([`ToolFn`]) and step tools ([`StepTool`]) |
//! | `output.rs` | [`ToolOutput`]: plain return values as `tools/call` results |
//! | `args_error.rs` | arguments that do not decode, explained to the model |
//! | `step.rs` | [`Step`] jobs: long work polled by the main loop, without threads or alloc |
//! | `work.rs` | work in progress: job slots, answers waiting for room |
//! | `tasks.rs` | (`std`) handlers on threads or any async executor: [`Job`] |
//! | `task_store.rs` | (`std`) the tasks extension: tools run as MCP tasks, a bounded [`TaskStore`] serving `tasks/get`, `tasks/update`, `tasks/cancel` |
//! | `rounds.rs` | (`std`) a job's questions in stateless calls: `input_required` rounds, sealed state |
//! | `resource.rs`, `uri_template.rs` | resources, templates and reading them |
//! | `prompt.rs`, `complete.rs` | prompts and completions |
//! | `list.rs` | pages and cursors |
//! | `offer.rs` | [`Offered`]: tools and prompts that come and go, or exist in one era |
//! | `notifier.rs` | (`stdio` or `http`) [`Notifier`]: resource updates and list changes, sent from anywhere |
//! | `input.rs` | [`Input`]: what a handler asks the client for, and how each era asks it |
//! | `builder.rs` | (`alloc`) [`ServerBuilder`]: closures, owned strings |
//! | `stdio.rs` | (`stdio`) running a server over stdio |
//! | `app.rs` | (`stdio` or `http`) [`ServerHandler`]: a server as the adapters' shared `Handler`, over stdio and HTTP |
//! | `http.rs` | (`http`) running a server over HTTP |
//! | `outlet.rs` | where work in progress sends: an endpoint, or an adapter's context |

#[cfg(any(feature = "stdio", feature = "http"))]
mod app;
mod args_error;
#[cfg(feature = "alloc")]
mod builder;
mod complete;
mod dispatch;
#[cfg(feature = "http")]
mod http;
mod input;
mod list;
#[cfg(any(feature = "stdio", feature = "http"))]
mod notifier;
mod offer;
mod outlet;
mod output;
#[cfg(feature = "alloc")]
pub(crate) mod owned;
mod prompt;
mod resource;
#[cfg(feature = "std")]
mod rounds;
#[allow(clippy::module_inception)]
mod server;
#[cfg(feature = "stdio")]
mod stdio;
mod step;
mod table;
#[cfg(feature = "std")]
mod task_store;
#[cfg(feature = "std")]
mod tasks;
mod tool;
mod uri_template;
mod work;

#[cfg(any(feature = "stdio", feature = "http"))]
pub use app::{Fallback, Idle, MAX_SUBSCRIPTIONS, ServerHandler, no_timer, not_found};
pub use args_error::ArgumentsError;
#[cfg(feature = "alloc")]
pub use builder::{BuiltServer, ServerBuilder};
pub use complete::{Complete, CompleteFrom, Completer, MAX_COMPLETIONS, Target, starting_with};
pub use input::Input;
pub use list::{DEFAULT_PAGE_SIZE, List};
#[cfg(any(feature = "stdio", feature = "http"))]
pub use notifier::Notifier;
pub use offer::{Condition, Offered};
pub use output::{AsResult, Cancelled, Json, Text, ToolOutput};
pub use prompt::{Get, PromptFn, PromptHandler, PromptInfo, PromptOutput};
pub use resource::{
    Blob, Read, ResourceFn, ResourceHandler, ResourceList, ResourceOutput, TemplateFn, TemplateHandler,
};
pub use server::Server;
#[cfg(feature = "stdio")]
pub use stdio::{STDIO_IN, STDIO_OUT, STDIO_RX, STDIO_TX, method_not_found};
pub use step::{NoJob, Step, StepContext};
pub use table::Table;
#[cfg(feature = "std")]
pub use task_store::{
    DEFAULT_POLL_INTERVAL, DEFAULT_TASK_CAPACITY, DEFAULT_TASK_TTL, TaskStore, TaskSupport, is_task_handle,
};
#[cfg(feature = "std")]
pub use tasks::Job;
pub use tool::{Call, StepTool, ToolCallFn, ToolFn, ToolHandler};
pub use uri_template::{MAX_VARIABLES, Vars, match_template};
