//! The simulated device: an LED and two sensors whose readings drift with time, so that
//! successive reads differ the way a real part's would.

use mcp_sansio::Instant;

#[cfg(any(feature = "blink", feature = "resources"))]
pub struct Device {
    /// Whether the LED is lit (the `blink` tool toggles it).
    pub led: bool,
}

#[cfg(any(feature = "blink", feature = "resources"))]
impl Device {
    pub const fn new() -> Self {
        Self { led: false }
    }

    #[cfg(feature = "blink")]
    pub fn toggle(&mut self) {
        self.led = !self.led;
    }
}

/// Which sensor.
#[derive(Clone, Copy)]
pub enum Sensor {
    Temperature,
    Humidity,
}

impl Sensor {
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "temperature" => Some(Self::Temperature),
            "humidity" => Some(Self::Humidity),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Temperature => "temperature",
            Self::Humidity => "humidity",
        }
    }

    pub fn unit(self) -> &'static str {
        match self {
            Self::Temperature => "C",
            Self::Humidity => "%RH",
        }
    }

    /// The reading at `now`, in tenths of the unit: a slow triangle wave.
    pub fn read_tenths(self, now: Instant) -> i64 {
        // (ms / 500) % 40 = (ms % 20 000) / 500, with the remainder taken in u32
        // arithmetic (2^32 mod 20 000 = 7 296): a u64 division would link a large routine.
        let ms = now.as_millis();
        let (high, low) = ((ms >> 32) as u32, ms as u32);
        let rem = ((high % 20_000) * 7_296 + low % 20_000) % 20_000;
        let phase = i64::from(rem / 500);
        let wave = if phase < 20 { phase } else { 40 - phase };
        match self {
            Self::Temperature => 205 + wave,
            Self::Humidity => 420 + 3 * wave,
        }
    }
}
