//! The board: UART0, SysTick, semihosting and the defmt logger, RAM accounting, fault
//! handling. The only module with `unsafe` code; each block says why it is sound.

pub mod clock;
#[cfg(feature = "defmt")]
mod fault;
#[cfg(feature = "defmt")]
pub mod logger;
#[cfg(feature = "stats")]
pub mod memory;
#[cfg(feature = "defmt")]
mod semihosting;
pub mod uart;

use cortex_m_rt::exception;

#[exception]
fn SysTick() {
    clock::on_tick();
}

/// The device's interrupt vectors (cortex-m-rt's `device` feature: the table has as
/// many entries as this, instead of a generic 240): only UART0's receive interrupt,
/// IRQ 0, is used.
#[unsafe(link_section = ".vector_table.interrupts")]
#[unsafe(no_mangle)]
static __INTERRUPTS: [extern "C" fn(); 1] = [uart0_rx];

extern "C" fn uart0_rx() {
    uart::on_rx_interrupt();
}

/// A fault or panic the firmware cannot recover from: stop, idle (QEMU keeps running;
/// the client's timeout or SIGTERM ends it).
#[unsafe(no_mangle)]
pub extern "C" fn on_fatal_fault() -> ! {
    loop {
        cortex_m::asm::wfi();
    }
}

/// Waits for an interrupt unless input is already waiting. Interrupts are masked while
/// deciding, so one that arrives in between still ends the `wfi` (an interrupt pending
/// under PRIMASK wakes the core; it is taken once the mask is lifted).
pub fn sleep_unless_input() {
    cortex_m::interrupt::free(|_| {
        if uart::RX.is_empty() && !uart::byte_held() {
            cortex_m::asm::wfi();
        }
    });
}
