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
        let phase = (now.as_millis() / 500 % 40) as i64;
        let wave = if phase < 20 { phase } else { 40 - phase };
        match self {
            Self::Temperature => 205 + wave,
            Self::Humidity => 420 + 3 * wave,
        }
    }
}
