//! An MCP server on a Cortex-M4F: mcp-sansio's endpoint over UART0 of QEMU's
//! `mps2-an386` board, with no allocator. See README.md.
//!
//! | module | job |
//! |---|---|
//! | `hw` | the board: UART, SysTick, semihosting, the defmt logger, RAM accounting (all the `unsafe`) |
//! | `endpoint` | everything that meets the session API: configuration, statics, the drain, late answers |
//! | `app` | what each request gets: tools, resources, prompts, logging |
//! | `device` | the simulated LED and sensors |
//! | `text` | integers to text without `core::fmt` |
#![no_std]
#![no_main]
#![deny(unsafe_code)]

#[macro_use]
mod log;
mod app;
mod device;
mod endpoint;
#[allow(unsafe_code)]
mod hw;
mod text;

use cortex_m_rt::entry;

use crate::hw::clock::Clock;

#[entry]
fn main() -> ! {
    let Some(p) = cortex_m::Peripherals::take() else { fatal("peripherals taken twice") };
    hw::clock::init(p.SYST);
    #[cfg(feature = "defmt")]
    hw::logger::init();
    hw::uart::init();
    let mut clock = Clock::new();
    let server = endpoint::start(clock.now());
    #[cfg(feature = "stats")]
    hw::memory::mark_boot();
    // The time the first byte arrives varies from boot to boot (host scheduling), unlike
    // anything the guest can read at reset: it seeds the cursor key.
    while hw::uart::RX.is_empty() && !hw::uart::byte_held() {
        hw::sleep_unless_input();
    }
    let seed = cortex_m::peripheral::SYST::get_current() ^ clock.now().as_millis() as u32;
    info!("up: endpoint {=usize} B", core::mem::size_of::<endpoint::Server>());
    serve(server, app::App::new(seed), clock)
}

/// The main loop: feed input, drain, run what is due, sleep. (A function of its own,
/// not inlined, so that its stack frame does not also hold what booting needed.)
#[inline(never)]
fn serve(server: &mut endpoint::Server, mut app: app::App, mut clock: Clock) -> ! {
    loop {
        let now = clock.now();
        endpoint::feed(server, now);
        let mut deadline = endpoint::drain(server, &mut app, now);
        while app.on_idle(server, now) {
            deadline = endpoint::drain(server, &mut app, now);
        }
        let deadline = match (deadline, app.next_deadline()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        if deadline.is_some_and(|d| clock.now() >= d) {
            server.handle_timeout(clock.now());
            continue;
        }
        // Until a byte arrives or the next SysTick (10 ms), which is how deadlines are met.
        hw::sleep_unless_input();
    }
}

/// Stops for good, after logging why.
pub fn fatal(why: &'static str) -> ! {
    error!("fatal: {=str}", why);
    hw::on_fatal_fault()
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    // Nothing of the panic's info is read: reading even its location keeps the message
    // each panicking call site builds, and with it core::fmt's integer formatting
    // (about 800 bytes of flash). The core never panics; a panic here is the firmware's.
    error!("panic");
    hw::on_fatal_fault()
}
