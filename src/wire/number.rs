//! JSON numbers kept as their text, compared exactly.
//!
//! Progress values and totals are JSON numbers that may be fractions. Parsing them into
//! `f64` costs a float parser (about 14 KB of code and tables on a Cortex-M4, whose FPU has
//! no double precision) and rounds; comparing the decimal text needs neither. A
//! [`Number`] is the validated token, ordered by its exact value, and converts to `f64`
//! only when asked.

use core::cmp::Ordering;
use core::fmt;

use super::raw::{JsonKind, RawJson, parse_i64, parse_u64};

/// A JSON number, as its validated text.
#[derive(Clone, Copy)]
pub struct Number<'a> {
    token: &'a [u8],
}

impl Number<'static> {
    /// The number zero.
    pub const ZERO: Number<'static> = Number { token: b"0" };
}

impl<'a> Number<'a> {
    /// The number in `value`, if it is one.
    pub fn from_json(value: RawJson<'a>) -> Option<Self> {
        (value.kind() == JsonKind::Number).then_some(Number { token: value.as_bytes() })
    }

    /// The token as received.
    pub fn as_text(&self) -> &'a str {
        core::str::from_utf8(self.token).unwrap_or("0")
    }

    /// The token's bytes.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.token
    }

    /// The value as `f64` (rounded), if within range.
    pub fn as_f64(&self) -> Option<f64> {
        to_f64(self.token)
    }

    /// The value as `u64`, if it is a non-negative integer written without fraction or
    /// exponent.
    pub fn as_u64(&self) -> Option<u64> {
        parse_u64(self.token)
    }

    /// The value as `i64`, if it is an integer written without fraction or exponent.
    pub fn as_i64(&self) -> Option<i64> {
        parse_i64(self.token)
    }

    /// Compares two numbers exactly, by their decimal values.
    pub fn cmp_value(&self, other: &Number<'_>) -> Ordering {
        Decimal::of(self.token).cmp(&Decimal::of(other.token))
    }

    /// Whether the value is greater than zero.
    pub fn is_positive(&self) -> bool {
        let d = Decimal::of(self.token);
        !d.negative && !d.is_zero()
    }
}

impl PartialEq for Number<'_> {
    /// Equal by value: `1`, `1.0` and `10e-1` are equal.
    fn eq(&self, other: &Self) -> bool {
        self.cmp_value(other) == Ordering::Equal
    }
}

impl Eq for Number<'_> {}

impl PartialOrd for Number<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Number<'_> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.cmp_value(other)
    }
}

impl fmt::Debug for Number<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_text())
    }
}

impl fmt::Display for Number<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_text())
    }
}

#[cfg(feature = "defmt")]
impl defmt::Format for Number<'_> {
    fn format(&self, f: defmt::Formatter<'_>) {
        defmt::write!(f, "{=str}", self.as_text())
    }
}

impl serde::Serialize for Number<'_> {
    /// Written verbatim.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        RawJson::from_validated(self.token).serialize(s)
    }
}

/// A number's decimal value: `±0.d₁d₂…dₙ × 10^exponent`, with `d₁ ≠ 0` and `dₙ ≠ 0`
/// (zero has no digits), as the digit bytes of the token (integer and fraction parts,
/// skipping the point) plus where they start and end.
struct Decimal<'a> {
    negative: bool,
    int: &'a [u8],
    frac: &'a [u8],
    /// Decimal exponent of the digit right before the point, adjusted (see `exponent`).
    exp: i64,
}

impl<'a> Decimal<'a> {
    /// Reads a validated number token. Malformed input (never produced by the scanner)
    /// reads as some value without panicking.
    fn of(token: &'a [u8]) -> Self {
        let (negative, rest) = match token.split_first() {
            Some((b'-', rest)) => (true, rest),
            _ => (false, token),
        };
        let int_len = rest.iter().position(|b| !b.is_ascii_digit()).unwrap_or(rest.len());
        let int = &rest[..int_len];
        let mut rest = &rest[int_len..];
        let mut frac: &[u8] = &[];
        if rest.first() == Some(&b'.') {
            let n = rest[1..].iter().position(|b| !b.is_ascii_digit()).unwrap_or(rest.len() - 1);
            frac = &rest[1..1 + n];
            rest = &rest[1 + n..];
        }
        let mut exp: i64 = 0;
        if let Some((b'e' | b'E', e)) = rest.split_first() {
            let (sign, digits) = match e.split_first() {
                Some((b'-', d)) => (-1, d),
                Some((b'+', d)) => (1, d),
                _ => (1, e),
            };
            // Saturate: beyond ±10^18 no two distinct exponents matter for ordering
            // tokens of sane length.
            let magnitude =
                digits.iter().fold(0i64, |a, d| a.saturating_mul(10).saturating_add(i64::from(d.wrapping_sub(b'0'))));
            exp = sign * magnitude;
        }
        Decimal { negative, int, frac, exp }
    }

    /// The significant digits (integer then fraction, leading and trailing zeros
    /// dropped) and the power of ten of the first one, plus one.
    fn normalized(&self) -> (impl Iterator<Item = u8> + Clone + '_, i64) {
        let all = self.int.iter().chain(self.frac.iter()).copied();
        let leading = all.clone().take_while(|&d| d == b'0').count();
        let total = self.int.len() + self.frac.len();
        let trailing = self.int.iter().chain(self.frac.iter()).rev().take_while(|&&d| d == b'0').count();
        let significant = total.saturating_sub(leading + trailing.min(total - leading));
        let first_power = self.int.len() as i64 - leading as i64;
        (all.skip(leading).take(significant), first_power.saturating_add(self.exp))
    }

    fn is_zero(&self) -> bool {
        self.int.iter().chain(self.frac.iter()).all(|&d| d == b'0')
    }

    fn cmp_magnitude(&self, other: &Self) -> Ordering {
        match (self.is_zero(), other.is_zero()) {
            (true, true) => return Ordering::Equal,
            (true, false) => return Ordering::Less,
            (false, true) => return Ordering::Greater,
            _ => {}
        }
        let (a, ea) = self.normalized();
        let (b, eb) = other.normalized();
        ea.cmp(&eb).then_with(|| a.cmp(b))
    }

    fn cmp(&self, other: &Self) -> Ordering {
        let (za, zb) = (self.is_zero(), other.is_zero());
        let na = self.negative && !za;
        let nb = other.negative && !zb;
        match (na, nb) {
            (false, true) => Ordering::Greater,
            (true, false) => Ordering::Less,
            (false, false) => self.cmp_magnitude(other),
            (true, true) => other.cmp_magnitude(self),
        }
    }
}

/// A number stored inline (up to [`NUMBER_CAPACITY`] bytes), for remembering the last
/// progress value.
#[derive(Clone, Copy)]
pub(crate) struct NumberBuf {
    bytes: [u8; NUMBER_CAPACITY],
    len: u8,
}

/// A Rust number that can be a progress value or total: the integer types and the
/// floating-point types. Integers cost no floating-point code on small targets.
pub trait ProgressValue: Copy + serde::Serialize + sealed::Sealed {}

mod sealed {
    pub trait Sealed {
        /// The value as an `f64`, for adapters that keep progress owned (only linked
        /// where one does).
        fn to_f64(self) -> f64;
    }
}

#[cfg(any(feature = "stdio", feature = "http"))]
pub(crate) use sealed::Sealed as ProgressF64;

macro_rules! progress_value {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {
            #[allow(clippy::cast_precision_loss, clippy::cast_lossless)]
            fn to_f64(self) -> f64 {
                self as f64
            }
        }
        impl ProgressValue for $t {}
    )*};
}
progress_value!(u8, u16, u32, u64, usize, i8, i16, i32, i64, isize, f32, f64);

/// The longest number token an endpoint remembers.
pub const NUMBER_CAPACITY: usize = 32;

impl NumberBuf {
    pub(crate) fn of(n: Number<'_>) -> Option<Self> {
        let token = n.as_bytes();
        if token.len() > NUMBER_CAPACITY {
            return None;
        }
        let mut bytes = [0u8; NUMBER_CAPACITY];
        bytes[..token.len()].copy_from_slice(token);
        Some(NumberBuf { bytes, len: token.len() as u8 })
    }

    /// Formats a Rust number as JSON; `None` for NaN and infinities (JSON has none).
    pub(crate) fn format<N: ProgressValue>(value: N) -> Option<Self> {
        let mut bytes = [0u8; NUMBER_CAPACITY];
        let mut out = super::ser::Out::new(&mut bytes);
        super::ser::to_out(&mut out, &value).ok()?;
        let len = out.written()?.len();
        let text = &bytes[..len];
        if !matches!(text.first(), Some(b'-' | b'0'..=b'9')) {
            return None;
        }
        Some(NumberBuf { bytes, len: len as u8 })
    }

    pub(crate) fn get(&self) -> Number<'_> {
        Number { token: &self.bytes[..self.len as usize] }
    }
}

impl fmt::Debug for NumberBuf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.get(), f)
    }
}

/// Powers of ten that `f64` holds exactly.
const EXACT_POWERS: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20,
    1e21, 1e22,
];

/// The value of a validated number token as the nearest `f64`, if within range.
pub(crate) fn to_f64(token: &[u8]) -> Option<f64> {
    exact_f64(token).or_else(|| core::str::from_utf8(token).ok()?.parse::<f64>().ok()).filter(|f| f.is_finite())
}

/// The value of a validated number token without an exponent whose digits, read as an
/// integer, are at most 2^53 and which has at most 22 digits after the point: then both
/// the digits and the power of ten are exact `f64`s, and one division rounds correctly
/// (Clinger's fast path), so the result is exactly what a full parser returns. Progress
/// values, totals and priorities (`12.5`, `100`, `0.8`) are all of this kind; anything
/// else is `None`, for the full parser.
#[inline]
pub(crate) fn exact_f64(token: &[u8]) -> Option<f64> {
    let (negative, digits) = match token.split_first()? {
        (b'-', rest) => (true, rest),
        _ => (false, token),
    };
    let mut mantissa: u64 = 0;
    let mut fraction = None;
    for (i, &b) in digits.iter().enumerate() {
        match b {
            b'0'..=b'9' => mantissa = mantissa.checked_mul(10)?.checked_add(u64::from(b - b'0'))?,
            b'.' if fraction.is_none() => fraction = Some(i + 1),
            _ => return None,
        }
    }
    if mantissa > 1 << 53 {
        return None;
    }
    let places = fraction.map_or(0, |start| digits.len() - start);
    let value = mantissa as f64 / *EXACT_POWERS.get(places)?;
    Some(if negative { -value } else { value })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fast path gives exactly what the full parser gives, wherever it answers.
    #[test]
    fn exact_f64_rounds_like_the_full_parser() {
        let mut seed = 0x1234_5678_9abc_def0_u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut answered = 0;
        for _ in 0..200_000 {
            let digits = 1 + (next() % 19) as usize;
            let mut token: String = (0..digits).map(|_| char::from(b'0' + (next() % 10) as u8)).collect();
            if token.len() > 1 && token.starts_with('0') {
                token.replace_range(0..1, "1");
            }
            if next() % 2 == 0 {
                let point = 1 + (next() as usize % token.len());
                token.insert(point.min(token.len() - 1).max(1), '.');
            }
            if next() % 3 == 0 {
                token.insert(0, '-');
            }
            let full: f64 = token.parse().unwrap();
            if let Some(fast) = exact_f64(token.as_bytes()) {
                answered += 1;
                assert_eq!(fast.to_bits(), full.to_bits(), "{token}");
            }
            assert_eq!(to_f64(token.as_bytes()).map(f64::to_bits), Some(full.to_bits()), "{token}");
        }
        assert!(answered > 100_000, "the fast path answered only {answered}");
        for (token, want) in [("12.5", Some(12.5)), ("-0", Some(-0.0)), ("1e3", None), ("9007199254740993", None)] {
            assert_eq!(exact_f64(token.as_bytes()).map(f64::to_bits), want.map(f64::to_bits), "{token}");
        }
    }

    fn n(text: &str) -> Number<'_> {
        Number::from_json(RawJson::parse(text.as_bytes()).unwrap()).unwrap()
    }

    #[test]
    fn equal_values_in_different_spellings() {
        for (a, b) in
            [("1", "1.0"), ("1", "10e-1"), ("0", "-0"), ("0.0", "0e10"), ("150", "1.5E2"), ("-2.50", "-25e-1")]
        {
            assert_eq!(n(a).cmp_value(&n(b)), Ordering::Equal, "{a} {b}");
        }
    }

    #[test]
    fn order_is_exact() {
        let sorted = [
            "-1e400",
            "-1e300",
            "-2",
            "-1.5",
            "-1",
            "-0.1",
            "-1e-300",
            "0",
            "1e-300",
            "0.1",
            "0.30000000000000004",
            "0.3000000000000001",
            "1",
            "1.0000000000000000000001",
            "2",
            "9",
            "10",
            "99.99",
            "100",
            "1e300",
            "1e400",
        ];
        for (i, a) in sorted.iter().enumerate() {
            for (j, b) in sorted.iter().enumerate() {
                assert_eq!(n(a).cmp_value(&n(b)), i.cmp(&j), "{a} vs {b}");
            }
        }
    }

    #[test]
    fn agrees_with_f64_where_f64_is_exact() {
        let values = ["0", "1", "2.5", "-3.25", "1e3", "1024", "0.5", "123456", "7e-1"];
        for a in values {
            for b in values {
                let want = n(a).as_f64().unwrap().partial_cmp(&n(b).as_f64().unwrap()).unwrap();
                assert_eq!(n(a).cmp_value(&n(b)), want, "{a} vs {b}");
            }
        }
    }

    #[test]
    fn inline_storage() {
        let long = "1".repeat(33);
        assert!(NumberBuf::of(n(&long)).is_none());
        let b = NumberBuf::of(n("12.5")).unwrap();
        assert_eq!(b.get(), n("1.25e1"));
        assert!(n("0.001").is_positive() && !n("-0").is_positive());
        assert_eq!(NumberBuf::format(7u32).unwrap().get(), n("7"));
        assert_eq!(NumberBuf::format(0.5f64).unwrap().get(), n("0.5"));
        assert!(NumberBuf::format(f64::NAN).is_none() && NumberBuf::format(f64::INFINITY).is_none());
    }
}
