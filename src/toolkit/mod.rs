//! The toolkit: servers and clients declared once, on the endpoint.
pub mod schema;

pub use schema::{Arguments, Node, NoArguments, Property, Schema, __private};
