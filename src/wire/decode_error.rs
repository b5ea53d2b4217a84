//! Why typed decoding failed: what went wrong, in which member, and where.
//!
//! Errors are `Copy` values with no lifetime, so they can be kept, logged or sent anywhere:
//! what serde reports with a static lifetime (a missing field's name) is kept as it is,
//! and the name of the member whose value failed is copied into a small inline buffer.

use core::fmt;

use serde::de;

/// What went wrong while decoding a value into a Rust type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum DecodeErrorKind {
    /// The JSON value has the wrong type for the field.
    InvalidType {
        /// The JSON type found.
        found: Found,
        /// The JSON type the field needs, when the decoder knows it (`None` when a
        /// `Deserialize` implementation refused the value itself).
        expected: Option<Expected>,
    },
    /// A value of the right type but not an acceptable one (an unknown enum tag, say).
    InvalidValue,
    /// A sequence or map of the wrong length.
    InvalidLength {
        /// The length found.
        len: usize,
    },
    /// A required field is missing.
    MissingField(&'static str),
    /// A field appears twice.
    DuplicateField(&'static str),
    /// A field the type does not allow (`deny_unknown_fields`).
    UnknownField,
    /// An enum tag that names no variant.
    UnknownVariant,
    /// An integer does not fit the field's type, or a number is not an integer.
    NumberOutOfRange,
    /// An escaped string was decoded into an owned string type, which needs a scratch
    /// buffer without the `alloc` feature: use [`RawJson::decode_with`](super::RawJson::decode_with)
    /// (or a [`JsonStr`](super::JsonStr) field).
    NeedsScratch {
        /// Bytes of unescaped text.
        len: usize,
    },
    /// The scratch buffer is smaller than an unescaped string.
    ScratchTooSmall {
        /// Bytes of unescaped text.
        needed: usize,
        /// Bytes of scratch.
        capacity: usize,
    },
    /// A borrowed `&str` field met an escaped string: use [`JsonStr`](super::JsonStr).
    EscapedBorrow,
    /// A `Deserialize` implementation reported an error (its message is not kept).
    Custom,
}

/// The JSON type found where another was expected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Found {
    /// `null`
    Null,
    /// a boolean
    Bool,
    /// a number
    Number,
    /// a string
    String,
    /// an array
    Array,
    /// an object
    Object,
    /// something serde describes otherwise (a char, bytes, a unit struct…)
    Other,
}

impl Found {
    /// `"a string"`, `"an object"`…
    pub const fn describe(self) -> &'static str {
        match self {
            Self::Null => "null",
            Self::Bool => "a boolean",
            Self::Number => "a number",
            Self::String => "a string",
            Self::Array => "an array",
            Self::Object => "an object",
            Self::Other => "another kind of value",
        }
    }
}

/// The JSON type a field needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum Expected {
    /// `null` (a unit).
    Null,
    /// `true` or `false`.
    Bool,
    /// An integer.
    Integer,
    /// Any number.
    Number,
    /// A string.
    String,
    /// An array.
    Array,
    /// An object.
    Object,
    /// An enum variant: its name as a string, or an object with one member.
    Variant,
    /// Any JSON value.
    Value,
}

impl Expected {
    /// `"a string"`, `"an integer"`…
    pub const fn describe(self) -> &'static str {
        match self {
            Self::Null => "null",
            Self::Bool => "a boolean",
            Self::Integer => "an integer",
            Self::Number => "a number",
            Self::String => "a string",
            Self::Array => "an array",
            Self::Object => "an object",
            Self::Variant => "an enum variant",
            Self::Value => "a JSON value",
        }
    }
}

/// The longest member name a [`FieldName`] keeps whole, in bytes.
pub const FIELD_NAME_LEN: usize = 32;

/// The name of the member whose value could not be decoded (unescaped; cut at a character
/// boundary after [`FIELD_NAME_LEN`] bytes).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct FieldName {
    bytes: [u8; FIELD_NAME_LEN],
    len: u8,
    truncated: bool,
}

impl FieldName {
    /// The name, unescaped, from a member name as it was on the wire.
    pub(crate) fn of(name: super::JsonStr<'_>) -> Self {
        let mut bytes = [0u8; FIELD_NAME_LEN];
        if let Ok(text) = name.unescape_into(&mut bytes) {
            return Self { len: text.len() as u8, bytes, truncated: false };
        }
        // Too long: the first bytes as they were sent, cut at a character boundary.
        let raw = name.raw();
        let mut len = FIELD_NAME_LEN.min(raw.len());
        while len > 0 && raw.get(len).is_some_and(|&b| (0x80..0xC0).contains(&b)) {
            len -= 1;
        }
        if let (Some(to), Some(from)) = (bytes.get_mut(..len), raw.get(..len)) {
            to.copy_from_slice(from);
        }
        Self { bytes, len: len as u8, truncated: true }
    }

    /// The name (its first [`FIELD_NAME_LEN`] bytes if [`is_truncated`](Self::is_truncated)).
    pub fn as_str(&self) -> &str {
        core::str::from_utf8(self.bytes.get(..self.len as usize).unwrap_or_default()).unwrap_or_default()
    }

    /// Whether the name was longer than [`FIELD_NAME_LEN`] bytes.
    pub fn is_truncated(&self) -> bool {
        self.truncated
    }
}

impl fmt::Debug for FieldName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for FieldName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())?;
        if self.truncated { f.write_str("…") } else { Ok(()) }
    }
}

#[cfg(feature = "defmt")]
impl defmt::Format for FieldName {
    fn format(&self, f: defmt::Formatter<'_>) {
        defmt::write!(f, "{=str}", self.as_str())
    }
}

/// Why typed decoding of a [`RawJson`](super::RawJson) failed: what went wrong, in which
/// member, and where.
///
/// ```
/// use mcp_sansio::wire::{DecodeErrorKind, Expected, Found, RawJson};
/// #[derive(serde::Deserialize, Debug)]
/// struct Forecast { days: u8 }
/// #[derive(serde::Deserialize, Debug)]
/// struct Args { city: heapless::String<16>, forecast: Forecast }
///
/// let args = RawJson::parse(br#"{"city":"Oslo","forecast":{"days":"three"}}"#).unwrap();
/// let e = args.decode::<Args>().unwrap_err();
/// let found = DecodeErrorKind::InvalidType { found: Found::String, expected: Some(Expected::Integer) };
/// assert_eq!(e.kind, found);
/// assert_eq!(e.field.unwrap().as_str(), "days");
/// assert_eq!(e.to_string(), "invalid type: found a string, expected an integer, in `days` at byte 34");
///
/// let e = RawJson::parse(br#"{"forecast":{"days":3}}"#).unwrap().decode::<Args>().unwrap_err();
/// assert_eq!(e.to_string(), "missing field `city` at byte 22");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct DecodeError {
    /// What went wrong.
    pub kind: DecodeErrorKind,
    /// Byte offset in the decoded value's text where decoding stopped.
    pub offset: usize,
    /// The innermost member whose value failed to decode; `None` when the value itself
    /// (not one of its members) is wrong, such as a missing field of the top-level object.
    pub field: Option<FieldName>,
}

impl DecodeError {
    pub(crate) const fn new(kind: DecodeErrorKind, offset: usize) -> Self {
        Self { kind, offset, field: None }
    }

    /// The same error with its offset counted from the start of `message`, the frame that
    /// `value` (the decoded value) was read from; unchanged if `value` is not part of it
    /// (a default such as [`RawJson::EMPTY_OBJECT`](super::RawJson::EMPTY_OBJECT)).
    ///
    /// ```
    /// use mcp_sansio::wire::{Message, RawJson};
    /// #[derive(serde::Deserialize, Debug)]
    /// struct Args { city: u8 }
    /// let frame = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"w","arguments":{"city":"Oslo"}}}"#;
    /// let Message::Request(r) = Message::parse(frame).unwrap() else { panic!() };
    /// let args = r.params.unwrap().get("arguments").unwrap();
    /// let e = args.decode::<Args>().unwrap_err();
    /// assert_eq!(e.offset, 8);
    /// assert_eq!(e.within(args, frame).offset, 87);
    /// assert_eq!(frame[87], b'"');
    /// ```
    pub fn within(self, value: super::RawJson<'_>, message: &[u8]) -> Self {
        match value.offset_in(message) {
            Some(at) => Self { offset: self.offset + at, ..self },
            None => self,
        }
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            DecodeErrorKind::InvalidType { found, expected: Some(expected) } => {
                write!(f, "invalid type: found {}, expected {}", found.describe(), expected.describe())
            }
            DecodeErrorKind::InvalidType { found, expected: None } => {
                write!(f, "invalid type: found {}", found.describe())
            }
            DecodeErrorKind::InvalidValue => f.write_str("invalid value"),
            DecodeErrorKind::InvalidLength { len } => write!(f, "invalid length {len}"),
            DecodeErrorKind::MissingField(name) => write!(f, "missing field `{name}`"),
            DecodeErrorKind::DuplicateField(name) => write!(f, "duplicate field `{name}`"),
            DecodeErrorKind::UnknownField => f.write_str("unknown field"),
            DecodeErrorKind::UnknownVariant => f.write_str("unknown variant"),
            DecodeErrorKind::NumberOutOfRange => f.write_str("number out of range for the field"),
            DecodeErrorKind::NeedsScratch { len } => {
                write!(f, "escaped string of {len} bytes needs a scratch buffer (use decode_with or JsonStr)")
            }
            DecodeErrorKind::ScratchTooSmall { needed, capacity } => {
                write!(f, "scratch buffer too small: string needs {needed} bytes, scratch has {capacity}")
            }
            DecodeErrorKind::EscapedBorrow => f.write_str("escaped string cannot be borrowed as &str (use JsonStr)"),
            DecodeErrorKind::Custom => f.write_str("invalid value (rejected by its Deserialize implementation)"),
        }?;
        match &self.field {
            // A missing field is named already; say which object lacks it.
            Some(field) if matches!(self.kind, DecodeErrorKind::MissingField(_)) => write!(f, " in `{field}`")?,
            Some(field) => write!(f, ", in `{field}`")?,
            None => {}
        }
        write!(f, " at byte {}", self.offset)
    }
}

impl core::error::Error for DecodeError {}

/// The error type inside serde; the offset and the member are filled in when decoding
/// returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Error(pub(crate) DecodeErrorKind);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&DecodeError::new(self.0, 0), f)
    }
}

impl core::error::Error for Error {}

impl de::Error for Error {
    fn custom<T: fmt::Display>(_msg: T) -> Self {
        Error(DecodeErrorKind::Custom)
    }
    fn invalid_type(unexp: de::Unexpected<'_>, _exp: &dyn de::Expected) -> Self {
        use de::Unexpected as U;
        let found = match unexp {
            U::Unit | U::Option => Found::Null,
            U::Bool(_) => Found::Bool,
            U::Unsigned(_) | U::Signed(_) | U::Float(_) => Found::Number,
            U::Str(_) => Found::String,
            U::Seq => Found::Array,
            U::Map => Found::Object,
            _ => Found::Other,
        };
        Error(DecodeErrorKind::InvalidType { found, expected: None })
    }
    fn invalid_value(_unexp: de::Unexpected<'_>, _exp: &dyn de::Expected) -> Self {
        Error(DecodeErrorKind::InvalidValue)
    }
    fn invalid_length(len: usize, _exp: &dyn de::Expected) -> Self {
        Error(DecodeErrorKind::InvalidLength { len })
    }
    fn unknown_variant(_variant: &str, _expected: &'static [&'static str]) -> Self {
        Error(DecodeErrorKind::UnknownVariant)
    }
    fn unknown_field(_field: &str, _expected: &'static [&'static str]) -> Self {
        Error(DecodeErrorKind::UnknownField)
    }
    fn missing_field(field: &'static str) -> Self {
        Error(DecodeErrorKind::MissingField(field))
    }
    fn duplicate_field(field: &'static str) -> Self {
        Error(DecodeErrorKind::DuplicateField(field))
    }
}
