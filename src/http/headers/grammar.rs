//! RFC 9110's building blocks for field values, in nom: optional whitespace, tokens,
//! quoted strings, `;` parameters and `,` lists.
//!
//! Each header module validates a whole value with these once (so a malformed value is
//! one `Err` with the offset where it broke), then hands out iterators that re-read the
//! validated text with the same parsers and so cannot fail.

use nom::IResult;
use nom::Parser;
use nom::branch::alt;
use nom::bytes::complete::{take, take_while, take_while1};
use nom::character::complete::char;
use nom::combinator::{map, opt, recognize, verify};
use nom::error::{Error, ErrorKind};
use nom::multi::many0_count;
use nom::sequence::delimited;

use super::error::HeaderError;
use super::value::ParamValue;

pub(crate) type Res<'a, O> = IResult<&'a [u8], O>;

/// `tchar`: the bytes of a token.
pub(crate) fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// `qdtext`: what a quoted string holds without escaping (HTAB, SP, visible ASCII but
/// `"` and `\`, and obs-text).
pub(crate) fn is_qdtext(b: u8) -> bool {
    matches!(b, b'\t' | b' ' | 0x21 | 0x23..=0x5B | 0x5D..=0x7E | 0x80..=0xFF)
}

/// What may follow a `\` in a quoted string (HTAB, SP, VCHAR, obs-text).
pub(crate) fn is_quoted_pair_char(b: u8) -> bool {
    matches!(b, b'\t' | b' ' | 0x21..=0x7E | 0x80..=0xFF)
}

/// `OWS`: spaces and tabs, possibly none.
pub(crate) fn ows(i: &[u8]) -> Res<'_, &[u8]> {
    take_while(|b| b == b' ' || b == b'\t')(i)
}

/// `token = 1*tchar`.
pub(crate) fn token(i: &[u8]) -> Res<'_, &[u8]> {
    take_while1(is_tchar)(i)
}

/// `quoted-string`: the text between the quotes, escapes still in it.
pub(crate) fn quoted_string(i: &[u8]) -> Res<'_, &[u8]> {
    let pair = recognize((char('\\'), verify(take(1usize), |b: &[u8]| is_quoted_pair_char(b[0]))));
    let text = recognize(many0_count(alt((take_while1(is_qdtext), pair))));
    delimited(char('"'), text, char('"')).parse(i)
}

/// `token / quoted-string`.
pub(crate) fn param_value(i: &[u8]) -> Res<'_, ParamValue<'_>> {
    alt((map(quoted_string, ParamValue::quoted), map(token, ParamValue::token))).parse(i)
}

/// `parameter = parameter-name "=" parameter-value` (no whitespace around `=`).
pub(crate) fn parameter(i: &[u8]) -> Res<'_, (&[u8], ParamValue<'_>)> {
    let (i, (name, _, value)) = (token, char('='), param_value).parse(i)?;
    Ok((i, (name, value)))
}

/// One `OWS ";" OWS [ parameter ]` step of `parameters`.
pub(crate) fn parameter_step(i: &[u8]) -> Res<'_, Option<(&[u8], ParamValue<'_>)>> {
    let (i, (_, _, _, p)) = (ows, char(';'), ows, opt(parameter)).parse(i)?;
    Ok((i, p))
}

/// `parameters = *( OWS ";" OWS [ parameter ] )`, as the raw text it covers.
pub(crate) fn parameters(i: &[u8]) -> Res<'_, &[u8]> {
    recognize(many0_count(parameter_step)).parse(i)
}

/// A whole `#element` list value: `[ element ] *( OWS "," OWS [ element ] )` with OWS
/// around it. Empty elements are allowed, as RFC 9110 asks of recipients.
pub(crate) fn list<'a, O>(value: &'a [u8], element: fn(&'a [u8]) -> Res<'a, O>) -> Result<(), HeaderError> {
    let separator_then_element = (ows, char(','), ows, opt(element));
    let mut whole = (ows, opt(element), many0_count(separator_then_element), ows);
    match whole.parse(value) {
        Ok(([], _)) => Ok(()),
        Ok((rest, _)) => Err(HeaderError::Syntax { at: value.len() - rest.len() }),
        Err(e) => Err(syntax(value, e)),
    }
}

/// The next element of a list validated by [`list`], and the text after it.
pub(crate) fn next_element<'a, O>(rest: &mut &'a [u8], element: fn(&'a [u8]) -> Res<'a, O>) -> Option<O> {
    loop {
        let (after, _) = ows(rest).ok()?;
        match after.first()? {
            b',' => *rest = &after[1..],
            _ => {
                let (after, item) = element(after).ok()?;
                *rest = after;
                return Some(item);
            }
        }
    }
}

/// The whole of `value` as one `parser` match, OWS around it allowed.
pub(crate) fn whole<'a, O>(
    value: &'a [u8],
    parser: impl Parser<&'a [u8], Output = O, Error = Error<&'a [u8]>>,
) -> Result<O, HeaderError> {
    match (ows, parser, ows).parse(value) {
        Ok(([], (_, out, _))) => Ok(out),
        Ok((rest, _)) => Err(HeaderError::Syntax { at: value.len() - rest.len() }),
        Err(e) => Err(syntax(value, e)),
    }
}

/// The offset a nom error points at.
pub(crate) fn syntax(value: &[u8], e: nom::Err<Error<&[u8]>>) -> HeaderError {
    let at = match e {
        nom::Err::Error(e) | nom::Err::Failure(e) => value.len() - e.input.len(),
        nom::Err::Incomplete(_) => value.len(),
    };
    HeaderError::Syntax { at }
}

/// A nom error at `i`, for checks made after a successful parse.
pub(crate) fn fail<O>(i: &[u8]) -> Res<'_, O> {
    Err(nom::Err::Error(Error::new(i, ErrorKind::Verify)))
}

/// Text known to be ASCII (tokens are) as `&str`.
pub(crate) fn ascii(b: &[u8]) -> &str {
    core::str::from_utf8(b).unwrap_or_default()
}

/// Strips OWS at both ends.
pub(crate) fn trim_ows(mut b: &[u8]) -> &[u8] {
    while let [b' ' | b'\t', rest @ ..] = b {
        b = rest;
    }
    while let [rest @ .., b' ' | b'\t'] = b {
        b = rest;
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_strings() {
        assert_eq!(quoted_string(br#""""#), Ok((&b""[..], &b""[..])));
        assert_eq!(quoted_string(br#""a\"b\\c" x"#), Ok((&b" x"[..], &br#"a\"b\\c"#[..])));
        assert_eq!(quoted_string(b"\"\xC3\xA9\t\""), Ok((&b""[..], &b"\xC3\xA9\t"[..])));
        assert!(quoted_string(br#""abc"#).is_err());
        assert!(quoted_string(br#""a\"#).is_err());
        assert!(quoted_string(b"\"a\nb\"").is_err());
        assert!(quoted_string(b"\"a\\\nb\"").is_err());
        assert!(quoted_string(b"\"\x7f\"").is_err());
    }

    #[test]
    fn lists() {
        assert_eq!(list(b"", token), Ok(()));
        assert_eq!(list(b" a , b,,c ,", token), Ok(()));
        assert_eq!(list(b"a b", token), Err(HeaderError::Syntax { at: 2 }));
        let mut rest = &b" , a ,, b "[..];
        assert_eq!(next_element(&mut rest, token), Some(&b"a"[..]));
        assert_eq!(next_element(&mut rest, token), Some(&b"b"[..]));
        assert_eq!(next_element(&mut rest, token), None);
    }

    #[test]
    fn params() {
        assert_eq!(parameters(b"; a=1 ;b=\"x\";;  c=d e"), Ok((&b" e"[..], &b"; a=1 ;b=\"x\";;  c=d"[..])));
        // No whitespace around `=`.
        assert_eq!(parameters(b";a = 1"), Ok((&b"a = 1"[..], &b";"[..])));
        assert_eq!(trim_ows(b" \t x y\t "), b"x y");
        assert_eq!(trim_ows(b"  "), b"");
    }
}
