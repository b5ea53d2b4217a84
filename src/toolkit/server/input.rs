//! [`Input`]: what a handler can ask the client for while it works.
//!
//! A handler says *what* it needs; the toolkit chooses *how*, by the session's era:
//!
//! * **Before 2026-07-28** (done): a request of the server's own (`sampling/createMessage`,
//!   `elicitation/create`, `roots/list`) sent on the channel of the call being handled
//!   (over HTTP, its response stream), whose response is routed back to the handler; the
//!   handler waits meanwhile ([`Job::ask`](super::Job::ask)).
//! * **2026-07-28, stateless** (to do, with the era's session support on its own branch):
//!   the call is answered with an `input_required` result carrying the question (and a
//!   `requestState` the toolkit signs), and the client calls again with the answer. The
//!   handler is run again from the start for the new call, and each question it asks is
//!   answered from the call's `inputResponses` in the order it asks them; the first one
//!   not answered there ends that round with `input_required`. So the handler's code is
//!   the same in both eras, provided what it does before a question may be done twice.
//!   See the crate's issue 13 and the report of its toolkit branch for what the endpoint
//!   must give for that (the round's responses on the incoming call, and a way to answer
//!   with `input_required`).

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
