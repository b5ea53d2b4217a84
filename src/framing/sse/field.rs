//! One line of an event stream, already cut at its line end, split into its parts.
//!
//! The WHATWG grammar for a line (its terminator excluded) is
//!
//! ```text
//! comment = colon *any-char
//! field   = 1*name-char [ colon [ space ] *any-char ]
//! ```
//!
//! and an empty line dispatches the event. nom states it as written; the decoder only
//! sees complete lines, so the complete (not streaming) parsers are the right ones.

use nom::IResult;
use nom::Parser;
use nom::branch::alt;
use nom::bytes::complete::{tag, take_till1};
use nom::character::complete::digit1;
use nom::combinator::{all_consuming, eof, map, opt, rest, value};
use nom::sequence::preceded;

/// What one line of an event stream says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Line<'a> {
    /// An empty line: dispatch the event.
    Blank,
    /// A line starting with a colon: ignored (servers send these as keep-alives).
    Comment,
    /// `name: value`. The value lost one leading space, if it had one; a line without a
    /// colon is a field whose value is empty.
    Field {
        /// The field name, compared byte for byte (`data`, `event`, `id`, `retry`).
        name: &'a [u8],
        /// Its value, always a suffix of the line.
        value: &'a [u8],
    },
}

fn field(line: &[u8]) -> IResult<&[u8], Line<'_>> {
    let name = take_till1(|b| b == b':');
    let value = opt(preceded((tag(&b":"[..]), opt(tag(&b" "[..]))), rest));
    map((name, value), |(name, value): (&[u8], Option<&[u8]>)| Line::Field { name, value: value.unwrap_or(&[]) })
        .parse(line)
}

/// Splits a line (without its terminator) into what it says.
pub(super) fn parse_line(line: &[u8]) -> Line<'_> {
    let mut line_parser = alt((value(Line::Blank, eof), value(Line::Comment, tag(&b":"[..])), field));
    // Every byte string is one of the three, so this never fails; were it to, ignoring
    // the line is what the specification does with lines it does not understand.
    line_parser.parse(line).map_or(Line::Comment, |(_, line)| line)
}

/// The value of a `retry` field: base-ten ASCII digits only (at least one), otherwise
/// the field is ignored. A value past `u32::MAX` milliseconds (49 days) saturates.
pub(super) fn parse_retry(value: &[u8]) -> Option<u32> {
    let digits: IResult<&[u8], &[u8]> = all_consuming(digit1).parse(value);
    let (_, digits) = digits.ok()?;
    Some(digits.iter().fold(0u32, |n, d| n.saturating_mul(10).saturating_add(u32::from(d - b'0'))))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f<'a>(name: &'a [u8], value: &'a [u8]) -> Line<'a> {
        Line::Field { name, value }
    }

    #[test]
    fn lines() {
        assert_eq!(parse_line(b""), Line::Blank);
        assert_eq!(parse_line(b":"), Line::Comment);
        assert_eq!(parse_line(b": keep-alive"), Line::Comment);
        assert_eq!(parse_line(b"data: x"), f(b"data", b"x"));
        assert_eq!(parse_line(b"data:x"), f(b"data", b"x"));
        // Only one space goes.
        assert_eq!(parse_line(b"data:  x"), f(b"data", b" x"));
        assert_eq!(parse_line(b"data: "), f(b"data", b""));
        assert_eq!(parse_line(b"data"), f(b"data", b""));
        // Split at the first colon only.
        assert_eq!(parse_line(b"data: a: b"), f(b"data", b"a: b"));
        assert_eq!(parse_line(b"id:: x"), f(b"id", b": x"));
        // A tab is not the space that is removed.
        assert_eq!(parse_line(b"data:\tx"), f(b"data", b"\tx"));
        assert_eq!(parse_line(b" data: x"), f(b" data", b"x"));
        assert_eq!(parse_line(b"\xEF\xBB\xBFdata: x"), f(b"\xEF\xBB\xBFdata", b"x"));
    }

    #[test]
    fn retry_values() {
        assert_eq!(parse_retry(b"0"), Some(0));
        assert_eq!(parse_retry(b"1500"), Some(1500));
        assert_eq!(parse_retry(b"007"), Some(7));
        assert_eq!(parse_retry(b"99999999999999999999"), Some(u32::MAX));
        for bad in [&b""[..], b" 1", b"1 ", b"1.5", b"-1", b"+1", b"1e3", b"\xD9\xA1"] {
            assert_eq!(parse_retry(bad), None, "{bad:?}");
        }
    }
}
