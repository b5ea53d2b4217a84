//! The shape of a type, as a tree of constants: what [`Schema`] gives for every type.

use crate::wire::{JsonStr, RawJson};

/// The JSON Schema of one Rust type, as a constant tree (rendered to JSON text at compile
/// time by [`schema!`](crate::schema) for a tool's arguments).
///
/// It covers what serde decodes from JSON: a type that decodes from a string is a
/// [`String`](Node::String), a struct an [`Object`](Node::Object) of its fields, and so on.
/// The rendering names every member the way serde reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Node {
    /// Any JSON value (`{}`): a [`RawJson`] field.
    Any,
    /// `null` (the unit type).
    Null,
    /// `true` or `false`.
    Boolean,
    /// An integer, with the bounds of its Rust type where JSON numbers hold them exactly.
    Integer {
        /// The smallest value.
        minimum: Option<i64>,
        /// The largest value.
        maximum: Option<i64>,
    },
    /// Any number.
    Number,
    /// A string, at most `max_length` characters if its type holds no more.
    String {
        /// `maxLength`.
        max_length: Option<usize>,
    },
    /// One of a few strings (a unit-variant enum).
    Enum {
        /// What the type means.
        description: Option<&'static str>,
        /// The strings, as serde reads them.
        values: &'static [&'static str],
    },
    /// An array of `items`.
    Array {
        /// The schema of each element.
        items: &'static Node,
        /// `minItems`.
        min_items: Option<usize>,
        /// `maxItems`.
        max_items: Option<usize>,
    },
    /// An object with these members (a struct).
    Object {
        /// What the type means.
        description: Option<&'static str>,
        /// Its members, in order.
        properties: &'static [Property],
    },
    /// An object whose members are all of one type (a map).
    Map {
        /// The schema of each value.
        values: &'static Node,
    },
    /// `null` or a value of `inner` (an `Option`: serde reads `null` as `None`).
    Nullable(&'static Node),
}

/// One member of an [`Object`](Node::Object): a struct field as serde reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Property {
    /// The member's name on the wire (after `rename` and `rename_all`).
    pub name: &'static str,
    /// The field's doc comment.
    pub description: Option<&'static str>,
    /// The field's schema.
    pub node: &'static Node,
    /// Whether the member must be present (`Option` fields and `#[serde(default)]` ones
    /// need not be).
    pub required: bool,
}

/// A type with a JSON Schema: what a tool argument or a member of one can be.
///
/// Implemented for the types serde decodes from JSON without help (integers, floats,
/// `bool`, strings of every kind this crate uses, `Option`, arrays, sequences and maps),
/// and by [`schema!`](crate::schema) for structs and unit-variant enums. To give a type of
/// your own a schema by hand, implement it with the [`Node`] serde reads.
pub trait Schema {
    /// The type's schema.
    const NODE: Node;
    /// Whether a member of this type must be present (`false` for `Option`).
    const REQUIRED: bool = true;
}

macro_rules! integers {
    ($($t:ty),*) => {$(
        impl Schema for $t {
            const NODE: Node = Node::Integer { minimum: Some(<$t>::MIN as i64), maximum: Some(<$t>::MAX as i64) };
        }
    )*};
}
integers!(u8, u16, u32, i8, i16, i32);

/// Above 2^53 JSON numbers are not exact in most readers: no upper bound is claimed.
impl Schema for u64 {
    const NODE: Node = Node::Integer { minimum: Some(0), maximum: None };
}
impl Schema for usize {
    const NODE: Node = Node::Integer { minimum: Some(0), maximum: None };
}
impl Schema for i64 {
    const NODE: Node = Node::Integer { minimum: None, maximum: None };
}
impl Schema for isize {
    const NODE: Node = Node::Integer { minimum: None, maximum: None };
}
impl Schema for f32 {
    const NODE: Node = Node::Number;
}
impl Schema for f64 {
    const NODE: Node = Node::Number;
}
impl Schema for () {
    const NODE: Node = Node::Null;
}
impl Schema for bool {
    const NODE: Node = Node::Boolean;
}
impl Schema for &str {
    const NODE: Node = Node::String { max_length: None };
}
impl Schema for JsonStr<'_> {
    const NODE: Node = Node::String { max_length: None };
}
impl Schema for RawJson<'_> {
    const NODE: Node = Node::Any;
}
impl<const N: usize> Schema for heapless::String<N> {
    const NODE: Node = Node::String { max_length: Some(N) };
}
impl<T: Schema> Schema for Option<T> {
    const NODE: Node = match T::NODE {
        // `null` already.
        Node::Any | Node::Null | Node::Nullable(_) => T::NODE,
        _ => Node::Nullable(&T::NODE),
    };
    const REQUIRED: bool = false;
}
impl<T: Schema, const N: usize> Schema for [T; N] {
    const NODE: Node = Node::Array { items: &T::NODE, min_items: Some(N), max_items: Some(N) };
}
impl<T: Schema, const N: usize> Schema for heapless::Vec<T, N> {
    const NODE: Node = Node::Array { items: &T::NODE, min_items: None, max_items: Some(N) };
}
impl<T: Schema> Schema for crate::mcp::Items<'_, T> {
    const NODE: Node = Node::Array { items: &T::NODE, min_items: None, max_items: None };
}
impl<T: Schema> Schema for crate::mcp::Map<'_, T> {
    const NODE: Node = Node::Map { values: &T::NODE };
}

#[cfg(feature = "alloc")]
mod alloc_impls {
    use alloc::boxed::Box;
    use alloc::collections::BTreeMap;
    use alloc::string::String;
    use alloc::vec::Vec;

    use super::{Node, Schema};

    impl Schema for String {
        const NODE: Node = Node::String { max_length: None };
    }
    impl<T: Schema> Schema for Vec<T> {
        const NODE: Node = Node::Array { items: &T::NODE, min_items: None, max_items: None };
    }
    impl<T: Schema> Schema for Box<T> {
        const NODE: Node = T::NODE;
        const REQUIRED: bool = T::REQUIRED;
    }
    impl<T: Schema> Schema for BTreeMap<String, T> {
        const NODE: Node = Node::Map { values: &T::NODE };
    }
}

#[cfg(feature = "std")]
impl<T: Schema, H> Schema for std::collections::HashMap<alloc::string::String, T, H> {
    const NODE: Node = Node::Map { values: &T::NODE };
}
