//! `Content-Type`: `type "/" subtype *( OWS ";" OWS [ parameter ] )` (RFC 9110 §8.3.1).

use nom::Parser;
use nom::character::complete::char;

use super::error::HeaderError;
use super::grammar::{Res, ascii, parameters, token, whole};
use super::value::{ParamValue, Params};

/// A media type with its parameters, borrowed from the header value.
///
/// ```
/// use mcp_sansio::http::headers::MediaType;
/// let ct = MediaType::parse(b"Application/JSON; charset=\"utf-8\"").unwrap();
/// assert!(ct.is("application", "json"));
/// assert!(ct.charset().unwrap().eq_ignore_ascii_case(b"UTF-8"));
/// assert!(MediaType::parse(b"application/json;").is_ok());
/// assert!(MediaType::parse(b"application/json charset=utf-8").is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct MediaType<'a> {
    type_: &'a str,
    subtype: &'a str,
    params: &'a [u8],
}

/// `type "/" subtype parameters`.
pub(crate) fn media_type(i: &[u8]) -> Res<'_, MediaType<'_>> {
    let (i, (type_, _, subtype, params)) = (token, char('/'), token, parameters).parse(i)?;
    Ok((i, MediaType { type_: ascii(type_), subtype: ascii(subtype), params }))
}

impl<'a> MediaType<'a> {
    /// Parses a `Content-Type` value (OWS around it allowed).
    pub fn parse(value: &'a [u8]) -> Result<Self, HeaderError> {
        whole(value, media_type)
    }

    /// The type, as written (`application` in `application/json`).
    pub fn type_(&self) -> &'a str {
        self.type_
    }

    /// The subtype, as written.
    pub fn subtype(&self) -> &'a str {
        self.subtype
    }

    /// Whether this is `type_/subtype`, ignoring ASCII case as media types do.
    pub fn is(&self, type_: &str, subtype: &str) -> bool {
        self.type_.eq_ignore_ascii_case(type_) && self.subtype.eq_ignore_ascii_case(subtype)
    }

    /// The parameters, in order.
    pub fn params(&self) -> Params<'a> {
        Params::new(self.params)
    }

    /// The first parameter called `name` (ignoring ASCII case).
    pub fn param(&self, name: &str) -> Option<ParamValue<'a>> {
        self.params().get(name)
    }

    /// The `charset` parameter. Its value is case-insensitive: compare with
    /// [`ParamValue::eq_ignore_ascii_case`].
    pub fn charset(&self) -> Option<ParamValue<'a>> {
        self.param("charset")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_types() {
        let ct = MediaType::parse(b" text/event-stream ; charset=utf-8 ;x=\"a b\" ").unwrap();
        assert_eq!((ct.type_(), ct.subtype()), ("text", "event-stream"));
        assert_eq!(ct.params().count(), 2);
        assert_eq!(ct.param("X"), Some(ParamValue::quoted(b"a b")));
        assert!(!ct.is("application", "json"));
        for (bad, at) in [
            (&b""[..], 0),
            (b"application", 11),
            (b"application/", 12),
            (b"/json", 0),
            (b"application/json; charset", 18),
            (b"application/json; charset = utf-8", 18),
            (b"application/json, text/plain", 16),
            (b"application/json; x=\"open", 18),
            (b"application /json", 11),
        ] {
            assert_eq!(MediaType::parse(bad), Err(HeaderError::Syntax { at }), "{:?}", core::str::from_utf8(bad));
        }
    }
}
