//! What the client answers when the server asks: sampling, elicitation, roots.

use serde::Serialize;

use crate::mcp::{ClientCapabilities, CreateMessageParams, ElicitParams};
use crate::session::IncomingRequest;
use crate::wire::ErrorCode;

/// How a client answers the server's requests. Each method gets the request's params,
/// decoded, and a [`Reply`] to answer with; the defaults refuse with -32601 ("Method not
/// found"). Declare what is answered in [`capabilities`](Self::capabilities): the endpoint
/// refuses a request whose capability was not declared before it reaches the hook (and
/// a server is not supposed to send one).
///
/// ```
/// use mcp_sansio::mcp::{ClientCapabilities, ListChanged, ListRootsResult, Root};
/// use mcp_sansio::toolkit::client::{Hooks, Reply};
/// struct Workspace;
/// impl Hooks for Workspace {
///     fn capabilities(&self) -> ClientCapabilities<'static> {
///         ClientCapabilities::new().roots(ListChanged::NO)
///     }
///     fn roots(&mut self, reply: Reply<'_, '_>) {
///         let roots = [Root::new("file:///work", Some("work"))];
///         reply.respond(&ListRootsResult::new(&roots));
///     }
/// }
/// ```
pub trait Hooks {
    /// What this client declares (`sampling`, `elicitation`, `roots`).
    fn capabilities(&self) -> ClientCapabilities<'static> {
        ClientCapabilities::new()
    }

    /// `sampling/createMessage`: answer with a
    /// [`CreateMessageResult`](crate::mcp::CreateMessageResult).
    fn sampling(&mut self, params: CreateMessageParams<'_>, reply: Reply<'_, '_>) {
        let _ = params;
        reply.unsupported();
    }

    /// `elicitation/create`: answer with an [`ElicitResult`](crate::mcp::ElicitResult).
    fn elicitation(&mut self, params: ElicitParams<'_>, reply: Reply<'_, '_>) {
        let _ = params;
        reply.unsupported();
    }

    /// `roots/list`: answer with a [`ListRootsResult`](crate::mcp::ListRootsResult).
    fn roots(&mut self, reply: Reply<'_, '_>) {
        reply.unsupported();
    }
}

/// A client that answers nothing (and declares nothing).
impl Hooks for () {}

/// One of the server's requests to answer.
#[must_use = "the server's request must be answered"]
pub struct Reply<'c, 'e> {
    pub(crate) request: &'c mut IncomingRequest<'e>,
}

impl<'e> Reply<'_, 'e> {
    /// The request (its id, method, `_meta`).
    pub fn request(&self) -> &IncomingRequest<'e> {
        self.request
    }

    /// Answers with `result`.
    pub fn respond<R: Serialize + ?Sized>(self, result: &R) {
        let _ = self.request.respond(result);
    }

    /// Answers with an error.
    pub fn error(self, code: ErrorCode, message: &str) {
        let _ = self.request.respond_error(code, message);
    }

    /// Answers -32601: this client does not do that.
    pub fn unsupported(self) {
        self.error(ErrorCode::METHOD_NOT_FOUND, "Method not found");
    }
}
