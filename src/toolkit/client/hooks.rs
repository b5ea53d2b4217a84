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

/// One of the server's requests to answer: a request of a handshake-era server's own,
/// or one of the `inputRequests` of an `input_required` result (2026-07-28), whose
/// answer goes in the retry's `inputResponses`.
#[must_use = "the server's request must be answered"]
pub struct Reply<'c, 'e> {
    pub(crate) to: To<'c, 'e>,
}

/// Where a [`Reply`] goes.
pub(crate) enum To<'c, 'e> {
    /// The response to the server's request.
    Request(&'c mut IncomingRequest<'e>),
    /// An input response, kept for the retry: the result as JSON text, or the error;
    /// and the input request's key in `inputRequests`.
    #[cfg(feature = "alloc")]
    Input(&'c mut Option<Captured>, &'c str),
}

/// What a hook answered to an input request.
#[cfg(feature = "alloc")]
pub(crate) type Captured = Result<alloc::vec::Vec<u8>, (ErrorCode, alloc::string::String)>;

impl<'c, 'e> Reply<'c, 'e> {
    /// A reply to the server's `request`.
    pub(crate) fn to_request(request: &'c mut IncomingRequest<'e>) -> Self {
        Reply { to: To::Request(request) }
    }

    /// The server's request (its id, method, `_meta`); `None` for an input request of
    /// an `input_required` result, which has none.
    pub fn request(&self) -> Option<&IncomingRequest<'e>> {
        match &self.to {
            To::Request(request) => Some(request),
            #[cfg(feature = "alloc")]
            To::Input(..) => None,
        }
    }

    /// For one of the `inputRequests` of an `input_required` result (2026-07-28): its
    /// key there (what its answer goes under in the retry's `inputResponses`); `None`
    /// for a request of a handshake-era server's own.
    pub fn input_key(&self) -> Option<&str> {
        match &self.to {
            To::Request(_) => None,
            #[cfg(feature = "alloc")]
            To::Input(_, key) => Some(key),
        }
    }

    /// Answers with `result`.
    pub fn respond<R: Serialize + ?Sized>(self, result: &R) {
        match self.to {
            To::Request(request) => {
                let _ = request.respond(result);
            }
            #[cfg(feature = "alloc")]
            To::Input(slot, _) => {
                *slot = Some(
                    crate::toolkit::server::owned::to_json(result)
                        .ok_or((ErrorCode::INTERNAL_ERROR, "the answer did not serialize".into())),
                );
            }
        }
    }

    /// Answers with an error (for an input request, the call fails with it: an
    /// `inputResponses` answer cannot be an error).
    pub fn error(self, code: ErrorCode, message: &str) {
        match self.to {
            To::Request(request) => {
                let _ = request.respond_error(code, message);
            }
            #[cfg(feature = "alloc")]
            To::Input(slot, _) => *slot = Some(Err((code, message.into()))),
        }
    }

    /// Answers -32601: this client does not do that.
    pub fn unsupported(self) {
        self.error(ErrorCode::METHOD_NOT_FOUND, "Method not found");
    }
}
