//! The MCP vocabulary: protocol versions, methods, capabilities.
//!
//! What the session layer needs to decide what is legal: which version is which, which
//! method exists in which version and direction, and which capability gates it.

mod capabilities;
mod method;
mod version;

pub use capabilities::{Capability, CapabilitySet};
pub use method::{Direction, Method, MethodKind, MethodSpec, Role, all_methods};
pub use version::{ProtocolVersion, VersionSet};
