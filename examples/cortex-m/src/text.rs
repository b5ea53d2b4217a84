//! A fixed-capacity text buffer with integer formatting, without `core::fmt` (whose
//! machinery costs a few KB of flash on this target).

/// Up to `N` bytes of UTF-8 text. Pushing past the end truncates (at a character
/// boundary) and sets [`overflowed`](Buf::overflowed).
pub type Text<const N: usize> = Buf<[u8; N]>;

/// The text and its storage. The methods are those of `Buf<[u8]>`, which every
/// `Text<N>` derefs to: one copy of each for all the capacities the firmware uses (it
/// uses eight; generic methods would be copied for each).
pub struct Buf<B: ?Sized> {
    len: usize,
    overflow: bool,
    buf: B,
}

impl<const N: usize> Text<N> {
    pub const fn new() -> Self {
        Self { len: 0, overflow: false, buf: [0; N] }
    }
}

impl<const N: usize> core::ops::Deref for Text<N> {
    type Target = Buf<[u8]>;
    fn deref(&self) -> &Buf<[u8]> {
        self
    }
}

impl<const N: usize> core::ops::DerefMut for Text<N> {
    fn deref_mut(&mut self) -> &mut Buf<[u8]> {
        self
    }
}

impl Buf<[u8]> {
    pub fn as_str(&self) -> &str {
        text(&self.buf, self.len)
    }

    /// Whether something did not fit.
    #[allow(dead_code)]
    pub fn overflowed(&self) -> bool {
        self.overflow
    }

    #[inline(never)]
    pub fn push_str(&mut self, s: &str) -> &mut Self {
        self.overflow |= !push(&mut self.buf, &mut self.len, s);
        self
    }

    /// `n` in decimal.
    #[inline(never)]
    pub fn push_u64(&mut self, n: u64) -> &mut Self {
        self.overflow |= !push_u64(&mut self.buf, &mut self.len, n);
        self
    }

    pub fn push_i64(&mut self, n: i64) -> &mut Self {
        if n < 0 {
            self.push_str("-");
        }
        self.push_u64(n.unsigned_abs())
    }

    /// `tenths` as a decimal with one fractional digit: 215 → "21.5".
    #[allow(dead_code)]
    pub fn push_tenths(&mut self, tenths: i64) -> &mut Self {
        if tenths < 0 {
            self.push_str("-");
        }
        // Readings fit 32 bits; a u64 division would link a large routine.
        let t = u32::try_from(tenths.unsigned_abs()).unwrap_or(u32::MAX);
        self.push_u64((t / 10).into()).push_str(".").push_u64((t % 10).into())
    }
}

// The work is done by functions that do not depend on the capacity.

/// The text in `buf[..len]`. Only whole characters are ever copied in (see [`push`]).
#[inline(never)]
fn text(buf: &[u8], len: usize) -> &str {
    core::str::from_utf8(buf.get(..len).unwrap_or_default()).unwrap_or_default()
}

/// Appends what fits of `s` (whole characters) to `buf[..*len]`; false if not all of it.
#[inline(never)]
fn push(buf: &mut [u8], len: &mut usize, s: &str) -> bool {
    let room = buf.len().saturating_sub(*len);
    let mut take = s.len().min(room);
    while !s.is_char_boundary(take) {
        take -= 1;
    }
    if let (Some(dst), Some(src)) = (buf.get_mut(*len..*len + take), s.as_bytes().get(..take)) {
        dst.copy_from_slice(src);
        *len += take;
    }
    take == s.len()
}

/// Appends `n` in decimal to `buf[..*len]` (what fits); false if not all of it. ASCII
/// digits need no UTF-8 check: any cut is at a character boundary.
#[inline(never)]
fn push_u64(buf: &mut [u8], len: &mut usize, n: u64) -> bool {
    let mut digits = [0u8; 20];
    let at = decimal(n, &mut digits);
    let (src, room) = (&digits[at..], buf.len().saturating_sub(*len));
    let take = src.len().min(room);
    if let (Some(dst), Some(src)) = (buf.get_mut(*len..*len + take), src.get(..take)) {
        dst.copy_from_slice(src);
        *len += take;
    }
    take == digits.len() - at
}

/// Writes `n` in decimal at the end of `digits`; returns where it starts. Without `u64`
/// division, which would link a routine of about a kilobyte on this core: each digit is
/// `n % 10` by long division over the 16-bit parts of `n` (32-bit divisions only).
fn decimal(mut n: u64, digits: &mut [u8; 20]) -> usize {
    let mut i = digits.len();
    loop {
        let (mut q, mut r, mut shift) = (0u64, 0u32, 64);
        while shift > 0 {
            shift -= 16;
            let part = (r << 16) | ((n >> shift) as u32 & 0xFFFF);
            q = (q << 16) | u64::from(part / 10);
            r = part % 10;
        }
        i -= 1;
        digits[i] = b'0' + r as u8;
        n = q;
        if n == 0 {
            return i;
        }
    }
}
