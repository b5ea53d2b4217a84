//! Time: SysTick counting the 25 MHz core clock, interrupting at 100 Hz, widened to the
//! crate's millisecond [`Instant`].
//!
//! The interrupt counts wraps; the time is wraps × 10 ms plus how far the counter has run
//! down since the last wrap, so readings are finer than the tick. The tick also wakes the
//! main loop from `wfi`, which is how deadlines (request timeouts, the `blink` steps) are
//! met: nothing waits more than 10 ms past its deadline.

use core::sync::atomic::{AtomicU32, Ordering};

use cortex_m::peripheral::syst::SystClkSource;
use cortex_m::peripheral::{SCB, SYST};
use mcp_sansio::Instant;

/// The core clock of QEMU's mps2 boards (hw/arm/mps2.c: SYSCLK_FRQ).
const CPU_HZ: u32 = 25_000_000;
/// SysTick interrupts per second.
const TICK_HZ: u32 = 100;
const RELOAD: u32 = CPU_HZ / TICK_HZ - 1;
const MS_PER_TICK: u64 = 1000 / TICK_HZ as u64;
const CYCLES_PER_MS: u32 = CPU_HZ / 1000;

/// SysTick wraps since boot (wraps itself after 497 days; [`Clock`] widens it).
static TICKS: AtomicU32 = AtomicU32::new(0);

/// Starts SysTick. The interrupt handler must call [`on_tick`].
pub fn init(mut syst: SYST) {
    syst.set_clock_source(SystClkSource::Core);
    syst.set_reload(RELOAD);
    syst.clear_current();
    syst.enable_interrupt();
    syst.enable_counter();
}

/// From the SysTick exception handler.
pub fn on_tick() {
    TICKS.fetch_add(1, Ordering::Relaxed);
}

/// Milliseconds since boot, modulo 2^32 ticks: for log timestamps, which need no state.
#[cfg(feature = "defmt")]
pub fn uptime_ms() -> u64 {
    let (ticks, into) = sample();
    u64::from(ticks) * MS_PER_TICK + u64::from(into)
}

/// Wraps so far and milliseconds into the current tick, read consistently.
///
/// A wrap whose interrupt has not run yet (interrupts masked, or a higher-priority
/// handler running) is counted through SysTick's pending bit. The counter is read on
/// both sides of that bit to tell whether the first reading was taken before the wrap
/// (then it is near zero and the second one is larger) or after it.
fn sample() -> (u32, u32) {
    loop {
        let ticks = TICKS.load(Ordering::Relaxed);
        let first = SYST::get_current();
        let pending = SCB::is_pendst_pending();
        let second = SYST::get_current();
        if TICKS.load(Ordering::Relaxed) != ticks {
            continue;
        }
        let (ticks, current) = match (pending, second > first) {
            (false, _) => (ticks, first),
            (true, false) => (ticks.wrapping_add(1), first),
            (true, true) => (ticks.wrapping_add(1), second),
        };
        return (ticks, (RELOAD - current.min(RELOAD)) / CYCLES_PER_MS);
    }
}

/// The main loop's clock: monotonic, and 64 bits wide however long the device runs.
pub struct Clock {
    /// Wraps of the 32-bit tick count.
    epochs: u64,
    last_ticks: u32,
    last: u64,
}

impl Clock {
    /// A clock reading from the running SysTick.
    pub const fn new() -> Self {
        Self { epochs: 0, last_ticks: 0, last: 0 }
    }

    /// Now; never earlier than the last reading.
    pub fn now(&mut self) -> Instant {
        let (ticks, into) = sample();
        // A count below the last one is a wrap of the 32-bit count (every 497 days), not
        // time going back: sample() never steps back.
        if ticks < self.last_ticks {
            self.epochs += 1;
        }
        self.last_ticks = ticks;
        let wide = ((self.epochs << 32) | u64::from(ticks)) * MS_PER_TICK + u64::from(into);
        self.last = self.last.max(wide);
        Instant::from_millis(self.last)
    }
}
