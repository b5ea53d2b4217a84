//! Arguments that do not decode, explained to the model that sent them.
//!
//! A tool call with bad arguments is answered with an `isError` result (not a JSON-RPC
//! error, which a client shows to a person rather than to the model): the text names the
//! argument, what it must be (from the tool's schema where the schema says more than the
//! decoder, such as an integer's range or an enum's values) and what was sent, so that
//! the model can correct the call.

use core::fmt::{self, Display};

use crate::toolkit::schema::{Node, Property};
use crate::wire::{DecodeError, DecodeErrorKind, Expected, FieldName};

/// Why a tool's arguments were refused, as text for the model.
#[derive(Clone, Copy, Debug)]
pub struct ArgumentsError<'a> {
    /// The tool (or prompt) called.
    pub name: &'a str,
    /// What the decoder said.
    pub error: DecodeError,
    /// The members of the arguments object, from the schema.
    pub fields: &'static [Property],
}

impl<'a> ArgumentsError<'a> {
    /// The error for a call of `name` whose arguments (described by `fields`) failed to
    /// decode with `error`.
    pub fn new(name: &'a str, error: DecodeError, fields: &'static [Property]) -> Self {
        ArgumentsError { name, error, fields }
    }

    /// The schema of the top-level member `field`, if it is one.
    fn property(&self, field: &Option<FieldName>) -> Option<&'static Property> {
        let field = field.as_ref()?;
        self.fields.iter().find(|p| p.name == field.as_str())
    }
}

/// What a value of `node` must be, more precisely than the decoder's expected type.
struct Requirement<'n>(&'n Node);

impl Display for Requirement<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self.0 {
            Node::Integer { minimum: Some(min), maximum: Some(max) } => write!(f, "an integer from {min} to {max}"),
            Node::Integer { minimum: Some(min), maximum: None } => write!(f, "an integer of at least {min}"),
            Node::Integer { .. } => f.write_str("an integer"),
            Node::Number => f.write_str("a number"),
            Node::Boolean => f.write_str("true or false"),
            Node::Null => f.write_str("null"),
            Node::String { max_length: Some(n) } => write!(f, "a string of at most {n} characters"),
            Node::String { max_length: None } => f.write_str("a string"),
            Node::Enum { values, .. } => {
                f.write_str("one of ")?;
                for (i, v) in values.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "\"{v}\"")?;
                }
                Ok(())
            }
            Node::Array { max_items: Some(n), .. } => write!(f, "an array of at most {n} items"),
            Node::Array { .. } => f.write_str("an array"),
            Node::Object { .. } | Node::Map { .. } => f.write_str("an object"),
            Node::Any => f.write_str("a JSON value"),
            Node::Nullable(inner) => Requirement(inner).fmt(f),
        }
    }
}

impl Display for ArgumentsError<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Invalid arguments for {}: ", self.name)?;
        let field = self.error.field;
        let property = self.property(&field);
        let name = |f: &mut fmt::Formatter<'_>| match &field {
            Some(name) => write!(f, "`{name}`"),
            None => f.write_str("the arguments"),
        };
        let must = |f: &mut fmt::Formatter<'_>, expected: Option<Expected>| -> fmt::Result {
            name(f)?;
            f.write_str(" must be ")?;
            match (property, expected) {
                (Some(p), _) => Requirement(p.node).fmt(f),
                (None, Some(e)) => f.write_str(e.describe()),
                (None, None) => f.write_str("something else"),
            }
        };
        match self.error.kind {
            DecodeErrorKind::MissingField(missing) => {
                write!(f, "`{missing}` is required")?;
                if let Some(inner) = &field {
                    write!(f, " in `{inner}`")?;
                }
                if let Some(p) = self.fields.iter().find(|p| p.name == missing) {
                    f.write_str(" (")?;
                    Requirement(p.node).fmt(f)?;
                    f.write_str(")")?;
                }
            }
            DecodeErrorKind::InvalidType { found, expected } => {
                must(f, expected)?;
                write!(f, ", not {}", found.describe())?;
            }
            DecodeErrorKind::NumberOutOfRange => {
                must(f, Some(Expected::Integer))?;
                f.write_str(" (the value sent is out of range)")?;
            }
            DecodeErrorKind::UnknownVariant | DecodeErrorKind::InvalidValue | DecodeErrorKind::Custom => {
                must(f, None)?;
            }
            DecodeErrorKind::InvalidLength { len } => {
                must(f, None)?;
                write!(f, " (the value sent has {len})")?;
            }
            DecodeErrorKind::DuplicateField(twice) => write!(f, "`{twice}` is given twice")?,
            DecodeErrorKind::UnknownField => {
                name(f)?;
                f.write_str(" is not an argument of this tool")?;
            }
            DecodeErrorKind::NeedsScratch { .. }
            | DecodeErrorKind::ScratchTooSmall { .. }
            | DecodeErrorKind::EscapedBorrow => {
                name(f)?;
                f.write_str(" could not be read (send it without escape sequences)")?;
            }
        }
        f.write_str(". Correct the arguments and call again.")
    }
}
