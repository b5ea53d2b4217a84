//! JSON-RPC and MCP error codes.

use core::fmt;

/// A JSON-RPC error code.
///
/// The constants are the codes JSON-RPC 2.0 and the MCP specification define. Any other
/// integer is legal on the wire; MCP asks applications to keep their own codes outside
/// -32768..=-32000.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ErrorCode(pub i32);

impl ErrorCode {
    /// -32700: the message is not valid JSON. Replies carry a null id.
    pub const PARSE_ERROR: Self = Self(-32700);
    /// -32600: valid JSON, but not a valid JSON-RPC message (as MCP restricts it).
    pub const INVALID_REQUEST: Self = Self(-32600);
    /// -32601: the method does not exist, or not in the negotiated version, or the
    /// feature behind it was not declared.
    pub const METHOD_NOT_FOUND: Self = Self(-32601);
    /// -32602: the params are wrong: unknown tool or prompt, bad cursor, unsupported
    /// protocol version in `initialize`, and (2026-07-28) resource not found.
    pub const INVALID_PARAMS: Self = Self(-32602);
    /// -32603: the receiver failed.
    pub const INTERNAL_ERROR: Self = Self(-32603);
    /// -32002: resource not found (2024-11-05 to 2025-11-25; never reused).
    pub const RESOURCE_NOT_FOUND: Self = Self(-32002);
    /// -32042: URL-mode elicitation is required first (2025-11-25).
    pub const URL_ELICITATION_REQUIRED: Self = Self(-32042);
    /// -32020: HTTP headers disagree with the body (2026-07-28).
    pub const HEADER_MISMATCH: Self = Self(-32020);
    /// -32021: the request needs a client capability the client did not send (2026-07-28).
    pub const MISSING_REQUIRED_CLIENT_CAPABILITY: Self = Self(-32021);
    /// -32022: the requested protocol version is not supported (2026-07-28).
    pub const UNSUPPORTED_PROTOCOL_VERSION: Self = Self(-32022);

    /// The name the specifications give this code, if it is one of theirs.
    pub const fn name(self) -> Option<&'static str> {
        Some(match self.0 {
            -32700 => "Parse error",
            -32600 => "Invalid Request",
            -32601 => "Method not found",
            -32602 => "Invalid params",
            -32603 => "Internal error",
            -32002 => "Resource not found",
            -32042 => "URL elicitation required",
            -32020 => "Header mismatch",
            -32021 => "Missing required client capability",
            -32022 => "Unsupported protocol version",
            _ => return None,
        })
    }
}

impl fmt::Debug for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name() {
            Some(name) => write!(f, "{} ({name})", self.0),
            None => write!(f, "{}", self.0),
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

impl From<i32> for ErrorCode {
    fn from(code: i32) -> Self {
        Self(code)
    }
}

impl serde::Serialize for ErrorCode {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_i32(self.0)
    }
}
