//! [`Bounded`]: an integer argument with a range the schema states and decoding enforces.

use core::fmt;

use serde::de::{Deserialize, Deserializer, Error as _, Unexpected};

use super::node::{Node, Schema};

/// An integer from `MIN` to `MAX` (inclusive): the schema says `minimum` and `maximum`,
/// so the model sees the range, and a value outside it is refused when the arguments are
/// decoded (the tool's answer then names the range).
///
/// ```
/// use mcp_sansio::toolkit::{Arguments, Bounded};
/// mcp_sansio::schema! {
///     #[derive(serde::Deserialize)]
///     pub struct Forecast { days: Bounded<1, 7> }
/// }
/// assert_eq!(
///     Forecast::SCHEMA.as_text(),
///     r#"{"type":"object","properties":{"days":{"type":"integer","minimum":1,"maximum":7}},"required":["days"]}"#
/// );
/// let ok: Forecast = mcp_sansio::wire::RawJson::parse(br#"{"days":3}"#).unwrap().decode().unwrap();
/// assert_eq!(ok.days.get(), 3);
/// assert!(mcp_sansio::wire::RawJson::parse(br#"{"days":9}"#).unwrap().decode::<Forecast>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Bounded<const MIN: i64, const MAX: i64>(i64);

impl<const MIN: i64, const MAX: i64> Bounded<MIN, MAX> {
    /// `value`, if it is in range.
    pub const fn new(value: i64) -> Option<Self> {
        if value >= MIN && value <= MAX { Some(Bounded(value)) } else { None }
    }

    /// The value.
    pub const fn get(self) -> i64 {
        self.0
    }
}

impl<const MIN: i64, const MAX: i64> fmt::Display for Bounded<MIN, MAX> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl<'de, const MIN: i64, const MAX: i64> Deserialize<'de> for Bounded<MIN, MAX> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let value = i64::deserialize(d)?;
        Self::new(value).ok_or_else(|| D::Error::invalid_value(Unexpected::Signed(value), &"a value in range"))
    }
}

impl<const MIN: i64, const MAX: i64> serde::Serialize for Bounded<MIN, MAX> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_i64(self.0)
    }
}

impl<const MIN: i64, const MAX: i64> Schema for Bounded<MIN, MAX> {
    const NODE: Node = Node::Integer { minimum: Some(MIN), maximum: Some(MAX) };
}
