//! [`Input`]: what a handler can ask the client for while it works.
//!
//! A handler says *what* it needs; the toolkit chooses *how*, by the session's era:
//!
//! * **In a handshake session** (2024-11-05 to 2025-11-25): a request of the server's
//!   own (`sampling/createMessage`, `elicitation/create`, `roots/list`) sent on the
//!   channel of the call being handled (over HTTP, its response stream), whose response
//!   is routed back to the handler; the handler waits meanwhile
//!   ([`Job::ask`](super::Job::ask)).
//! * **In a stateless call** (2026-07-28): the call is answered with an
//!   `input_required` result carrying the question under the key `q{i}` (the handler's
//!   `i`-th question) and a `requestState` the toolkit seals
//!   ([`Server::state_key`](super::Server::state_key)), and the client calls again
//!   with the answer. The handler is run again from the start for the new call, and
//!   each question it asks is answered in the order it asks them (the earlier rounds'
//!   answers travel in the sealed state); the first one not answered ends that round
//!   with `input_required`, the job stopped and its output dropped. So the handler's
//!   code is the same in both eras, provided what it does before a question may be done
//!   more than once. A question needing a capability the client did not declare for
//!   the call is an error for the handler, as in a handshake session.

/// A kind of input a handler asks the client for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Input {
    /// A completion from the client's model (`sampling/createMessage`).
    Sampling,
    /// Input from the user (`elicitation/create`).
    Elicitation,
    /// The client's roots (`roots/list`).
    Roots,
}

impl Input {
    /// The method that asks for it.
    pub const fn method(self) -> &'static str {
        match self {
            Input::Sampling => "sampling/createMessage",
            Input::Elicitation => "elicitation/create",
            Input::Roots => "roots/list",
        }
    }
}
