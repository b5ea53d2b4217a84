//! Typed arguments and their JSON Schema, from one declaration.
//!
//! [`Schema`] gives every type a [`Node`], a constant tree; [`schema!`](crate::schema)
//! implements it for the structs and enums it declares, and renders a struct's tree into
//! one JSON literal at compile time ([`Arguments::SCHEMA`]). See the
//! [toolkit's documentation](super) for why this is a `macro_rules!` macro rather than a
//! derive.

mod bounded;
mod macros;
mod node;
mod render;

pub use bounded::Bounded;
pub use node::{Node, Property, Schema};

use crate::wire::RawJson;

/// What a tool or a prompt takes: a struct declared with [`schema!`](crate::schema).
///
/// `Self` is the struct with `'static` for its lifetime, if it has one; the handler gets
/// [`Decoded`](Self::Decoded), the struct borrowing from the request being answered.
pub trait Arguments: Schema {
    /// The struct as decoded from one request's `arguments`.
    type Decoded<'de>: serde::Deserialize<'de>;
    /// Its JSON Schema (an object schema), rendered at compile time.
    const SCHEMA: RawJson<'static>;
    /// Its members, in order (a prompt lists them as its arguments).
    const FIELDS: &'static [Property];
}

/// No arguments: a tool or prompt that takes none, with the schema `{"type":"object"}`;
/// whatever the request sends is ignored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoArguments;

impl<'de> serde::Deserialize<'de> for NoArguments {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        serde::de::IgnoredAny::deserialize(d).map(|_| NoArguments)
    }
}

impl Schema for NoArguments {
    const NODE: Node = Node::Object { description: None, properties: &[] };
}

impl Arguments for NoArguments {
    type Decoded<'de> = NoArguments;
    const SCHEMA: RawJson<'static> = crate::mcp::NO_ARGUMENTS;
    const FIELDS: &'static [Property] = &[];
}

/// What the macro's expansion uses; not part of the API.
#[doc(hidden)]
pub mod __private {
    pub use super::render::{Rename, doc_len, doc_text, renamed, renamed_len, render_schema, schema_len, text};
}
