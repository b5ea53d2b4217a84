//! A fixed-capacity text buffer with integer formatting, without `core::fmt` (whose
//! machinery costs a few KB of flash on this target).

/// Up to `N` bytes of UTF-8 text. Pushing past the end truncates (at a character
/// boundary) and sets [`overflowed`](Self::overflowed).
pub struct Text<const N: usize> {
    buf: [u8; N],
    len: usize,
    overflow: bool,
}

impl<const N: usize> Text<N> {
    pub const fn new() -> Self {
        Self { buf: [0; N], len: 0, overflow: false }
    }

    pub fn as_str(&self) -> &str {
        // Only whole characters are ever copied in (see `push_str`).
        core::str::from_utf8(&self.buf[..self.len]).unwrap_or_default()
    }

    /// Whether something did not fit.
    #[allow(dead_code)]
    pub fn overflowed(&self) -> bool {
        self.overflow
    }

    pub fn push_str(&mut self, s: &str) -> &mut Self {
        let room = N - self.len;
        let mut take = s.len().min(room);
        while !s.is_char_boundary(take) {
            take -= 1;
        }
        self.buf[self.len..self.len + take].copy_from_slice(&s.as_bytes()[..take]);
        self.len += take;
        self.overflow |= take < s.len();
        self
    }

    pub fn push_u64(&mut self, mut n: u64) -> &mut Self {
        let mut digits = [0u8; 20];
        let mut i = digits.len();
        loop {
            i -= 1;
            digits[i] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        // ASCII digits are UTF-8.
        self.push_str(core::str::from_utf8(&digits[i..]).unwrap_or_default())
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
        let t = tenths.unsigned_abs();
        self.push_u64(t / 10).push_str(".").push_u64(t % 10)
    }
}
