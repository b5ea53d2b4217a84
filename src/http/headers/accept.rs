//! `Accept`: `#( media-range [ weight ] )` (RFC 9110 §12.5.1), and what Streamable HTTP
//! asks of it.

use core::fmt;

use nom::Parser;
use nom::branch::alt;
use nom::bytes::complete::take_while_m_n;
use nom::character::complete::char;
use nom::combinator::{all_consuming, opt};
use nom::sequence::preceded;

use super::error::HeaderError;
use super::grammar::{Res, fail, list, next_element};
use super::media_type::{MediaType, media_type};
use super::value::Params;

/// A quality value (`q=`), in thousandths: 0 (not acceptable) to 1000.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct QValue(u16);

impl QValue {
    /// `q=0`: not acceptable.
    pub const ZERO: QValue = QValue(0);
    /// `q=1`, the default.
    pub const ONE: QValue = QValue(1000);

    /// The value in thousandths (`q=0.5` is 500).
    pub const fn thousandths(self) -> u16 {
        self.0
    }
}

impl fmt::Display for QValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            1000 => f.write_str("1"),
            0 => f.write_str("0"),
            n => {
                let digits = [b'0', b'.', b'0' + (n / 100) as u8, b'0' + (n / 10 % 10) as u8, b'0' + (n % 10) as u8];
                let mut len = digits.len();
                while digits[len - 1] == b'0' {
                    len -= 1;
                }
                f.write_str(core::str::from_utf8(&digits[..len]).unwrap_or("0"))
            }
        }
    }
}

/// `qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )`.
fn qvalue(i: &[u8]) -> Res<'_, QValue> {
    let fraction = |digits: fn(u8) -> bool| opt(preceded(char('.'), take_while_m_n(0, 3, digits)));
    let zero = preceded(char('0'), fraction(|b| b.is_ascii_digit()));
    let one = preceded(char('1'), fraction(|b| b == b'0'));
    let (i, (whole, digits)) = alt((zero.map(|d| (0u16, d)), one.map(|d| (1000u16, d)))).parse(i)?;
    let mut thousandths = 0u16;
    for k in 0..3 {
        thousandths = thousandths * 10 + digits.and_then(|d| d.get(k)).map_or(0, |d| u16::from(d - b'0'));
    }
    Ok((i, QValue(whole + thousandths)))
}

/// One media range of an `Accept` value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct MediaRange<'a> {
    range: MediaType<'a>,
    q: QValue,
}

impl<'a> MediaRange<'a> {
    /// The type, `*` for `*/*`.
    pub fn type_(&self) -> &'a str {
        self.range.type_()
    }

    /// The subtype, `*` for `type/*` and `*/*`.
    pub fn subtype(&self) -> &'a str {
        self.range.subtype()
    }

    /// Its weight: `q`, 1 when absent.
    pub fn q(&self) -> QValue {
        self.q
    }

    /// Its parameters, `q` among them.
    pub fn params(&self) -> Params<'a> {
        self.range.params()
    }

    /// How specifically it names `type_/subtype`: 3 for exactly, 2 for `type/*`, 1 for
    /// `*/*`, `None` when it does not match.
    fn specificity(&self, type_: &str, subtype: &str) -> Option<u8> {
        match (self.type_(), self.subtype()) {
            ("*", _) => Some(1),
            (t, "*") if t.eq_ignore_ascii_case(type_) => Some(2),
            (t, s) if t.eq_ignore_ascii_case(type_) && s.eq_ignore_ascii_case(subtype) => Some(3),
            _ => None,
        }
    }
}

/// `media-range`: a media type whose type may be `*` only with subtype `*`, and whose
/// `q` parameter, if any, is a valid qvalue.
fn media_range(i: &[u8]) -> Res<'_, MediaRange<'_>> {
    let (rest, range) = media_type(i)?;
    if range.type_() == "*" && range.subtype() != "*" {
        return fail(i);
    }
    let q = match range.params().get("q") {
        None => QValue::ONE,
        // `weight` is `"q=" qvalue`: a quoted string is not one.
        Some(q) if q.is_quoted() => return fail(i),
        Some(q) => match all_consuming(qvalue).parse(q.raw()) {
            Ok((_, q)) => q,
            Err(_) => return fail(i),
        },
    };
    Ok((rest, MediaRange { range, q }))
}

/// An `Accept` value, checked whole: its media ranges, and the questions a server asks
/// of it.
///
/// Matching follows RFC 9110 §12.5.1: the most specific range that matches a media type
/// decides its quality (`text/event-stream` over `text/*` over `*/*`), and `q=0` means
/// "not acceptable". Range parameters other than `q` do not take part in matching
/// (`application/json; charset=utf-8` accepts `application/json`); ranges equally
/// specific take the highest `q`.
///
/// ```
/// use mcp_sansio::http::headers::Accept;
/// let a = Accept::parse(b"application/json, text/event-stream").unwrap();
/// assert!(a.allows_json_and_event_stream());
/// assert!(Accept::parse(b"*/*").unwrap().allows_json_and_event_stream());
/// let a = Accept::parse(b"application/*;q=0.5, text/event-stream;q=0").unwrap();
/// assert!(a.allows("application", "json") && !a.allows("text", "event-stream"));
/// assert!(!Accept::parse(b"*/*, text/event-stream;q=0").unwrap().allows_json_and_event_stream());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Accept<'a> {
    value: &'a [u8],
}

impl<'a> Accept<'a> {
    /// Checks an `Accept` value. An empty value is valid and accepts nothing.
    pub fn parse(value: &'a [u8]) -> Result<Self, HeaderError> {
        list(value, media_range)?;
        Ok(Self { value })
    }

    /// The media ranges, in order.
    pub fn ranges(&self) -> MediaRanges<'a> {
        MediaRanges { rest: self.value }
    }

    /// The quality given to `type_/subtype` by the most specific range that matches it;
    /// [`QValue::ZERO`] when none does.
    pub fn quality(&self, type_: &str, subtype: &str) -> QValue {
        let mut best: Option<(u8, QValue)> = None;
        for range in self.ranges() {
            if let Some(s) = range.specificity(type_, subtype) {
                let better = match best {
                    None => true,
                    Some((bs, bq)) => s > bs || (s == bs && range.q > bq),
                };
                if better {
                    best = Some((s, range.q));
                }
            }
        }
        best.map_or(QValue::ZERO, |(_, q)| q)
    }

    /// Whether `type_/subtype` is acceptable (quality above zero).
    pub fn allows(&self, type_: &str, subtype: &str) -> bool {
        self.quality(type_, subtype) > QValue::ZERO
    }

    /// Streamable HTTP's rule for a POST: the client must accept both
    /// `application/json` and `text/event-stream`.
    pub fn allows_json_and_event_stream(&self) -> bool {
        self.allows("application", "json") && self.allows("text", "event-stream")
    }
}

/// The media ranges of an [`Accept`] value.
#[derive(Clone, Debug)]
pub struct MediaRanges<'a> {
    rest: &'a [u8],
}

impl<'a> Iterator for MediaRanges<'a> {
    type Item = MediaRange<'a>;

    fn next(&mut self) -> Option<MediaRange<'a>> {
        next_element(&mut self.rest, media_range)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(v: &[u8]) -> Option<u16> {
        all_consuming(qvalue).parse(v).ok().map(|(_, q)| q.thousandths())
    }

    #[test]
    fn qvalues() {
        assert_eq!(q(b"0"), Some(0));
        assert_eq!(q(b"0."), Some(0));
        assert_eq!(q(b"0.5"), Some(500));
        assert_eq!(q(b"0.05"), Some(50));
        assert_eq!(q(b"0.123"), Some(123));
        assert_eq!(q(b"1"), Some(1000));
        assert_eq!(q(b"1.000"), Some(1000));
        for bad in [&b""[..], b".5", b"0.1234", b"1.001", b"2", b"01", b"0,5", b"-0"] {
            assert_eq!(q(bad), None, "{bad:?}");
        }
        let shown: std::vec::Vec<_> = [0, 5, 50, 500, 120, 999, 1000].map(|n| QValue(n).to_string()).into();
        assert_eq!(shown, ["0", "0.005", "0.05", "0.5", "0.12", "0.999", "1"]);
    }

    #[test]
    fn ranges() {
        let a = Accept::parse(b"text/html, application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8").unwrap();
        let qs: std::vec::Vec<_> = a.ranges().map(|r| (r.type_(), r.subtype(), r.q().thousandths())).collect();
        assert_eq!(
            qs,
            [("text", "html", 1000), ("application", "xhtml+xml", 1000), ("application", "xml", 900), ("*", "*", 800)]
        );
        assert_eq!(a.quality("application", "json").thousandths(), 800);
        assert_eq!(a.quality("TEXT", "HTML"), QValue::ONE);
        // Specificity beats order and weight.
        let a = Accept::parse(b"text/event-stream;q=0.1, text/*;q=1, */*;q=0").unwrap();
        assert_eq!(a.quality("text", "event-stream").thousandths(), 100);
        assert_eq!(a.quality("text", "plain"), QValue::ONE);
        assert_eq!(a.quality("application", "json"), QValue::ZERO);
        // Parameters other than q do not stop a match.
        assert!(
            Accept::parse(b"application/json;charset=utf-8;q=1, text/event-stream")
                .unwrap()
                .allows_json_and_event_stream()
        );
        assert!(!Accept::parse(b"application/json").unwrap().allows_json_and_event_stream());
        assert!(!Accept::parse(b"").unwrap().allows("text", "event-stream"));
        assert!(Accept::parse(b" , application/json ,, text/event-stream , ").unwrap().allows_json_and_event_stream());
    }

    #[test]
    fn malformed() {
        for (bad, at) in [
            (&b"*/json"[..], 0),
            (b"application/json;q=2", 0),
            (b"application/json;q=\"0.5\"", 0),
            (b"text/event-stream, application/json;q=0.5x", 19),
            (b"application/json text/event-stream", 17),
            (b"application", 0),
        ] {
            assert_eq!(Accept::parse(bad), Err(HeaderError::Syntax { at }), "{:?}", core::str::from_utf8(bad));
        }
    }
}
