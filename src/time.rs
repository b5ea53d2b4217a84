//! Time as an input: the driver says what time it is; the crate never reads a clock.

use core::fmt;
use core::time::Duration;

/// A point on the driver's monotonic clock, in milliseconds since an epoch the driver
/// chooses (process start, boot, zero in a test).
///
/// Every input that can move time forward carries one. Instants passed to one endpoint
/// must never go backwards; an earlier instant than one already seen is treated as the
/// latest one seen.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Instant(u64);

impl Instant {
    /// The epoch.
    pub const ZERO: Instant = Instant(0);

    /// `ms` milliseconds after the epoch.
    pub const fn from_millis(ms: u64) -> Self {
        Instant(ms)
    }

    /// `s` seconds after the epoch.
    pub const fn from_secs(s: u64) -> Self {
        Instant(s.saturating_mul(1000))
    }

    /// Milliseconds since the epoch.
    pub const fn as_millis(self) -> u64 {
        self.0
    }

    /// This instant plus `d` (whole milliseconds, saturating at the far future).
    pub fn saturating_add(self, d: Duration) -> Self {
        let ms = u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
        Instant(self.0.saturating_add(ms))
    }

    /// The time from `earlier` to this instant, or zero if `earlier` is later.
    pub fn saturating_duration_since(self, earlier: Instant) -> Duration {
        let ms = self.0.saturating_sub(earlier.0);
        if usize::BITS >= 64 {
            return Duration::from_millis(ms);
        }
        // `from_millis` divides a u64 by 1000: a library routine of about a kilobyte on
        // 32-bit targets, which nothing else there needs. Split first, and what is left
        // (below 1000) divides in 32 bits; `saturating_add` has no panic path to link.
        let (secs, ms) = crate::wire::div_rem_small(ms, 1000);
        Duration::from_secs(secs).saturating_add(Duration::from_millis(u64::from(ms)))
    }
}

impl core::ops::Add<Duration> for Instant {
    type Output = Instant;
    fn add(self, d: Duration) -> Instant {
        self.saturating_add(d)
    }
}

impl fmt::Debug for Instant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{:03}s", self.0 / 1000, self.0 % 1000)
    }
}

/// Maps `std::time::Instant` onto [`Instant`] from a start point (std only).
#[cfg(feature = "std")]
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    start: std::time::Instant,
}

#[cfg(feature = "std")]
impl Clock {
    /// A clock whose epoch is now.
    pub fn new() -> Self {
        Self { start: std::time::Instant::now() }
    }

    /// The current time on this clock.
    pub fn now(&self) -> Instant {
        Instant(u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX))
    }

    /// The `std` instant for `at` (for sleeping until a deadline).
    pub fn to_std(&self, at: Instant) -> std::time::Instant {
        self.start + Duration::from_millis(at.0)
    }
}

#[cfg(feature = "std")]
impl Default for Clock {
    fn default() -> Self {
        Self::new()
    }
}
