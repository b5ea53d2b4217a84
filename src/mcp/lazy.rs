//! [`Lazy`]: params left as their JSON, each member read when it is asked for.

use core::fmt;
use core::marker::PhantomData;

use serde::Deserialize;

use crate::mcp::server::logging::{LoggingLevel, SetLevelParams};
use crate::mcp::server::prompts::GetPromptParams;
use crate::mcp::server::resources::ReadResourceParams;
use crate::mcp::server::tools::CallToolParams;
use crate::wire::{DecodeError, DecodeErrorKind, Expected, JsonKind, JsonStr, RawJson};

/// Params of type `T` left as their JSON: each member is looked up, and decoded, only when
/// its method is called, and [`decode`](Self::decode) gives the whole typed value.
///
/// Decoding a params type decodes every member it has (a `tools/call`'s task, its input
/// responses, `_meta`…), and the code for all of them is linked into the program, a few
/// kilobytes on a microcontroller. A server that reads only a tool's name and arguments
/// reads just those:
///
/// ```
/// use mcp_sansio::mcp::{CallToolParams, Lazy};
/// use mcp_sansio::wire::RawJson;
///
/// let params = RawJson::parse(br#"{"name":"add","arguments":{"a":1,"b":2},"_meta":{"progressToken":7}}"#).unwrap();
/// let call = Lazy::<CallToolParams<'_>>::new(params);
/// assert_eq!(call.name().unwrap(), "add");
/// assert_eq!(call.arguments().unwrap().get("b").unwrap().as_i64(), Some(2));
/// // The typed whole, when a member beyond these is needed:
/// assert!(call.decode().unwrap().meta.is_some());
///
/// let e = Lazy::<CallToolParams<'_>>::new(RawJson::EMPTY_OBJECT).name().unwrap_err();
/// assert_eq!(e.to_string(), "missing field `name` at byte 1");
/// ```
///
/// The readers check what they read as the typed decoding would (a required member
/// present, of the right JSON type) and report the same [`DecodeError`] for it; members
/// they do not read are not looked at.
pub struct Lazy<'a, T> {
    raw: RawJson<'a>,
    of: PhantomData<fn() -> T>,
}

impl<T> Clone for Lazy<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Lazy<'_, T> {}

impl<T> fmt::Debug for Lazy<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("Lazy").field(&self.raw).finish()
    }
}

#[cfg(feature = "defmt")]
impl<T> defmt::Format for Lazy<'_, T> {
    fn format(&self, f: defmt::Formatter<'_>) {
        defmt::write!(f, "Lazy({})", self.raw)
    }
}

impl<'a, T> Lazy<'a, T> {
    /// The params in `raw` (a request's `params`).
    pub const fn new(raw: RawJson<'a>) -> Self {
        Self { raw, of: PhantomData }
    }

    /// A request's params, absent ones read as `{}` (so a required member is reported
    /// missing).
    pub fn of(params: Option<RawJson<'a>>) -> Self {
        Self::new(params.unwrap_or(RawJson::EMPTY_OBJECT))
    }

    /// The params as received.
    pub const fn raw(&self) -> RawJson<'a> {
        self.raw
    }

    /// All of it, typed.
    pub fn decode(&self) -> Result<T, DecodeError>
    where
        T: Deserialize<'a>,
    {
        self.raw.decode()
    }

    /// The member `name`, if the params have it (any JSON value).
    fn member(&self, name: &str) -> Option<RawJson<'a>> {
        self.raw.get(name)
    }

    /// The string member `name`, which the params must have.
    fn required_str(&self, name: &'static str) -> Result<JsonStr<'a>, DecodeError> {
        let Some(value) = self.member(name) else {
            return Err(self.error(DecodeErrorKind::MissingField(name), self.raw.as_bytes().len()));
        };
        value.as_str().ok_or_else(|| self.invalid(value, Expected::String))
    }

    /// The member `name` if present, which must then be an object.
    fn optional_object(&self, name: &str) -> Result<Option<RawJson<'a>>, DecodeError> {
        match self.member(name) {
            Some(value) if value.kind() != JsonKind::Object => Err(self.invalid(value, Expected::Object)),
            value => Ok(value),
        }
    }

    fn invalid(&self, value: RawJson<'_>, expected: Expected) -> DecodeError {
        let kind = DecodeErrorKind::InvalidType { found: value.found(), expected: Some(expected) };
        self.error(kind, value.offset_in(self.raw.as_bytes()).unwrap_or(0))
    }

    #[cold]
    fn error(&self, kind: DecodeErrorKind, offset: usize) -> DecodeError {
        // Offsets as the typed decoding counts them: a missing member is noticed at the
        // end of the object (its closing brace), a wrong one where its value starts.
        DecodeError::new(kind, if offset > 0 && offset == self.raw.as_bytes().len() { offset - 1 } else { offset })
    }
}

impl<'a> Lazy<'a, CallToolParams<'a>> {
    /// The tool's name.
    pub fn name(&self) -> Result<JsonStr<'a>, DecodeError> {
        self.required_str("name")
    }

    /// The arguments, if any (kept raw, like [`CallToolParams::arguments`]).
    pub fn arguments(&self) -> Option<RawJson<'a>> {
        self.member("arguments")
    }
}

impl<'a> Lazy<'a, GetPromptParams<'a>> {
    /// The prompt's name.
    pub fn name(&self) -> Result<JsonStr<'a>, DecodeError> {
        self.required_str("name")
    }

    /// The value of the argument `key`, if given; an error if it is not a string (or the
    /// arguments are not an object).
    pub fn argument(&self, key: &str) -> Result<Option<JsonStr<'a>>, DecodeError> {
        let Some(arguments) = self.optional_object("arguments")? else { return Ok(None) };
        match arguments.get(key) {
            None => Ok(None),
            Some(value) => value.as_str().map(Some).ok_or_else(|| self.invalid(value, Expected::String)),
        }
    }
}

impl<'a> Lazy<'a, ReadResourceParams<'a>> {
    /// The resource's URI.
    pub fn uri(&self) -> Result<JsonStr<'a>, DecodeError> {
        self.required_str("uri")
    }
}

impl<'a> Lazy<'a, SetLevelParams<'a>> {
    /// The level asked for.
    pub fn level(&self) -> Result<LoggingLevel, DecodeError> {
        let Some(value) = self.member("level") else {
            return Err(self.error(DecodeErrorKind::MissingField("level"), self.raw.as_bytes().len()));
        };
        let name = value.as_str().ok_or_else(|| self.invalid(value, Expected::Variant))?;
        LoggingLevel::ALL.into_iter().find(|l| name.eq_str(l.as_str())).ok_or_else(|| {
            self.error(DecodeErrorKind::UnknownVariant, value.offset_in(self.raw.as_bytes()).unwrap_or(0))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(text: &'static str) -> RawJson<'static> {
        RawJson::parse(text.as_bytes()).unwrap()
    }

    /// Each reader gives what the typed decoding gives, and fails where it fails, with the
    /// same error kind.
    #[test]
    fn readers_agree_with_the_typed_decoding() {
        for text in [
            r#"{"name":"add","arguments":{"a":1}}"#,
            r#"{"name":"ad\u0064","task":{"ttl":1000},"_meta":{"k":1}}"#,
            r#"{"arguments":{}}"#,
            r#"{"name":7}"#,
            r#"{"name":null,"arguments":[1]}"#,
        ] {
            let lazy = Lazy::<CallToolParams<'_>>::new(raw(text));
            match (lazy.decode(), lazy.name()) {
                (Ok(typed), Ok(name)) => {
                    assert_eq!(typed.name, name, "{text}");
                    assert_eq!(typed.arguments, lazy.arguments(), "{text}");
                }
                (Err(a), Err(b)) => assert_eq!(a.kind, b.kind, "{text}"),
                (a, b) => panic!("{text}: typed {a:?}, lazy {b:?}"),
            }
        }
        for text in [r#"{"uri":"file:///a"}"#, r#"{}"#, r#"{"uri":["x"]}"#] {
            let lazy = Lazy::<ReadResourceParams<'_>>::new(raw(text));
            match (lazy.decode(), lazy.uri()) {
                (Ok(typed), Ok(uri)) => assert_eq!(typed.uri, uri),
                (Err(a), Err(b)) => assert_eq!(a.kind, b.kind, "{text}"),
                (a, b) => panic!("{text}: typed {a:?}, lazy {b:?}"),
            }
        }
        for text in [r#"{"level":"warning"}"#, r#"{"level":"loud"}"#, r#"{"level":3}"#, r#"{}"#] {
            let lazy = Lazy::<SetLevelParams<'_>>::new(raw(text));
            match (lazy.decode(), lazy.level()) {
                (Ok(typed), Ok(level)) => assert_eq!(typed.level, level),
                (Err(a), Err(b)) => assert_eq!(a.kind, b.kind, "{text}"),
                (a, b) => panic!("{text}: typed {a:?}, lazy {b:?}"),
            }
        }
        for (text, want) in [
            (r#"{"name":"p","arguments":{"symptom":"hot"}}"#, Ok(Some("hot"))),
            (r#"{"name":"p"}"#, Ok(None)),
            (r#"{"name":"p","arguments":{"other":"x"}}"#, Ok(None)),
            (r#"{"name":"p","arguments":{"symptom":1}}"#, Err(())),
            (r#"{"name":"p","arguments":[]}"#, Err(())),
        ] {
            let lazy = Lazy::<GetPromptParams<'_>>::new(raw(text));
            assert_eq!(lazy.name().unwrap(), "p");
            let got = lazy.argument("symptom").map(|a| a.map(|s| s.as_plain().unwrap())).map_err(drop);
            assert_eq!(got, want, "{text}");
            // The typed decoding refuses the same arguments.
            let typed = lazy.decode().and_then(|p| p.arguments.and_then(|a| a.get("symptom")).transpose().map(drop));
            assert_eq!(typed.is_ok(), want.is_ok(), "{text}");
        }
    }

    #[test]
    fn errors_point_where_the_typed_decoding_points() {
        let text = r#"{"arguments":{}, "name" : 5}"#;
        let typed = raw(text).decode::<CallToolParams<'_>>().unwrap_err();
        let lazy = Lazy::<CallToolParams<'_>>::new(raw(text)).name().unwrap_err();
        assert_eq!((lazy.kind, lazy.offset), (typed.kind, typed.offset));
        let text = r#"{"arguments":{}}"#;
        let typed = raw(text).decode::<CallToolParams<'_>>().unwrap_err();
        let lazy = Lazy::<CallToolParams<'_>>::of(Some(raw(text))).name().unwrap_err();
        assert_eq!((lazy.kind, lazy.offset), (typed.kind, typed.offset));
        assert_eq!(
            Lazy::<CallToolParams<'_>>::of(None).name().unwrap_err().kind,
            DecodeErrorKind::MissingField("name")
        );
    }
}
