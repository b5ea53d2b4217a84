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
    /// The number written as `text`, if it is one JSON number (`0.8`, `-3`, `1e-2`; no
    /// whitespace around it). `const`, so a number to send can be a constant:
    ///
    /// ```
    /// use mcp_sansio::wire::Number;
    /// const HIGH: Number<'static> = Number::parse("0.9").unwrap();
    /// assert_eq!(HIGH.as_text(), "0.9");
    /// assert!(Number::parse("0.9 ").is_none() && Number::parse(".9").is_none());
    /// ```
    pub const fn parse(text: &'a str) -> Option<Self> {
        let b = text.as_bytes();
        let mut i = 0;
        if i < b.len() && b[i] == b'-' {
            i += 1;
        }
        // Integer part: `0`, or a digit 1-9 and more digits.
        if i >= b.len() || !b[i].is_ascii_digit() {
            return None;
        }
        let leading_zero = b[i] == b'0';
        i += 1;
        if leading_zero && i < b.len() && b[i].is_ascii_digit() {
            return None;
        }
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i < b.len() && b[i] == b'.' {
            i += 1;
            let digits = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            if i == digits {
                return None;
            }
        }
        if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
            i += 1;
            if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
                i += 1;
            }
            let digits = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            if i == digits {
                return None;
            }
        }
        if i == b.len() { Some(Number { token: b }) } else { None }
    }

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

impl<'de: 'a, 'a> serde::Deserialize<'de> for Number<'a> {
    /// Borrows the number's text (through [`RawJson`]); anything else is an error.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = <RawJson<'a> as serde::Deserialize>::deserialize(d)?;
        Number::from_json(raw).ok_or_else(|| serde::de::Error::invalid_type(raw.unexpected(), &"a number"))
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
        let negative = token.first() == Some(&b'-');
        let digits_end = |from: usize| {
            from + token.get(from..).unwrap_or_default().iter().take_while(|b| b.is_ascii_digit()).count()
        };
        let mut i = usize::from(negative);
        let end = digits_end(i);
        let int = token.get(i..end).unwrap_or_default();
        i = end;
        let mut frac: &[u8] = &[];
        if token.get(i) == Some(&b'.') {
            let end = digits_end(i + 1);
            frac = token.get(i + 1..end).unwrap_or_default();
            i = end;
        }
        let mut exp: i64 = 0;
        if matches!(token.get(i), Some(b'e' | b'E')) {
            let negative_exp = token.get(i + 1) == Some(&b'-');
            i += 1 + usize::from(matches!(token.get(i + 1), Some(b'+' | b'-')));
            // Exact up to nine digits, then saturated at 10^9: past that every exponent
            // outweighs any digit count a token in memory can have, and all compare alike.
            // (32-bit arithmetic: no 64-bit overflow-checked multiplication routine.)
            let mut magnitude = 0u32;
            for &d in token.get(i..).unwrap_or_default() {
                magnitude = if magnitude < 100_000_000 {
                    magnitude * 10 + u32::from(d.wrapping_sub(b'0'))
                } else {
                    1_000_000_000
                };
            }
            exp = if negative_exp { -i64::from(magnitude) } else { i64::from(magnitude) };
        }
        Decimal { negative, int, frac, exp }
    }

    /// The `k`-th digit of the integer part followed by the fraction, `0` past the end
    /// (trailing zeros change no value).
    fn digit(&self, k: usize) -> u8 {
        match self.int.get(k) {
            Some(&d) => d,
            None => self.frac.get(k - self.int.len()).copied().unwrap_or(b'0'),
        }
    }

    /// How many digits there are before the first that is not zero (all of them for zero).
    fn leading_zeros(&self) -> usize {
        let total = self.int.len() + self.frac.len();
        (0..total).find(|&k| self.digit(k) != b'0').unwrap_or(total)
    }

    fn is_zero(&self) -> bool {
        self.leading_zeros() == self.int.len() + self.frac.len()
    }

    /// Compares the absolute values: first by the power of ten of the first significant
    /// digit, then digit by digit from there.
    fn cmp_magnitude(&self, other: &Self) -> Ordering {
        match (self.is_zero(), other.is_zero()) {
            (true, true) => return Ordering::Equal,
            (true, false) => return Ordering::Less,
            (false, true) => return Ordering::Greater,
            _ => {}
        }
        let (za, zb) = (self.leading_zeros(), other.leading_zeros());
        let power = |d: &Self, z: usize| (d.int.len() as i64 - z as i64).saturating_add(d.exp);
        power(self, za).cmp(&power(other, zb)).then_with(|| {
            let n = (self.int.len() + self.frac.len() - za).max(other.int.len() + other.frac.len() - zb);
            (0..n).map(|k| self.digit(za + k).cmp(&other.digit(zb + k))).find(|o| o.is_ne()).unwrap_or(Ordering::Equal)
        })
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

/// `(v / d, v % d)` for a divisor below 2^16, in 32-bit divisions: long division over the
/// 16-bit parts of `v` (every partial dividend is below `d << 16`). On 32-bit targets a
/// `u64` division is a call to a routine of about a kilobyte; this is a few instructions
/// per step there (a Cortex-M3/M4 divides 32 bits in one).
pub(crate) fn div_rem_small(v: u64, d: u16) -> (u64, u32) {
    let d = u32::from(d).max(1);
    let (mut q, mut r, mut shift) = (0u64, 0u32, 64);
    while shift > 0 {
        shift -= 16;
        let part = (r << 16) | ((v >> shift) as u32 & 0xFFFF);
        q = (q << 16) | u64::from(part / d);
        r = part % d;
    }
    (q, r)
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
            "-1e1000000000",
            "-1e999999999",
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
            "1e100000000",
            "1e100000001",
            "1e999999999",
            "1e1000000000",
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

    /// `parse` accepts exactly what the scanner accepts as a lone number.
    #[test]
    fn parse_agrees_with_the_scanner() {
        let mut cases: Vec<String> =
            ["0", "-0", "1", "10", "01", "-", "1.", ".5", "1.5", "1e5", "1E+5", "1e-", "1e", "-1.25e-3"]
                .iter()
                .map(|s| s.to_string())
                .collect();
        let alphabet = b"-+.eE019 x";
        for a in alphabet {
            for b in alphabet {
                for c in alphabet {
                    for d in alphabet {
                        cases.push(String::from_utf8(vec![*a, *b, *c, *d]).unwrap());
                    }
                    cases.push(String::from_utf8(vec![*a, *b, *c]).unwrap());
                }
            }
        }
        for case in &cases {
            let scanned = crate::wire::validate(case.as_bytes(), Default::default()).is_ok()
                && matches!(case.as_bytes().first(), Some(b'-' | b'0'..=b'9'))
                && !case.ends_with(' ');
            assert_eq!(Number::parse(case).is_some(), scanned, "{case:?}");
        }
        assert!(Number::parse("").is_none());
    }

    #[test]
    fn decodes_numbers_only() {
        let v = RawJson::parse(br#"{"n":-2.5e1,"s":"1"}"#).unwrap();
        let n: Number<'_> = v.get("n").unwrap().decode().unwrap();
        assert_eq!((n.as_text(), n.as_f64()), ("-2.5e1", Some(-25.0)));
        let e = v.get("s").unwrap().decode::<Number<'_>>().unwrap_err();
        assert!(matches!(e.kind, crate::wire::DecodeErrorKind::InvalidType { found: crate::wire::Found::String, .. }));
        let n: Number<'_> = serde_json::from_str("0.25").unwrap();
        assert_eq!(n.as_text(), "0.25");
    }

    #[test]
    fn small_divisions_without_u64_division() {
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        for i in 0..100_000u64 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let v = [seed, seed >> (i % 64), u64::MAX - i, i][(i % 4) as usize];
            for d in [1u16, 7, 10, 1000, 10_000, u16::MAX] {
                let (q, r) = div_rem_small(v, d);
                assert_eq!((q, u64::from(r)), (v / u64::from(d), v % u64::from(d)), "{v} / {d}");
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
