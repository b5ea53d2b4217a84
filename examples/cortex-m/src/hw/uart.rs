//! UART0 of the mps2-an386 board: a CMSDK APB UART at 0x4000_4000 (QEMU: hw/char/cmsdk-apb-uart.c).
//!
//! Receiving is interrupt driven: QEMU's model holds one received byte and only offers the
//! next one to the guest after the host side has been polled again, so a firmware that
//! busy-polls `STATE` receives a few KB/s and burns a host core, while the receive
//! interrupt plus `wfi` lets QEMU's main loop run and gives about 29 KB/s
//! (../../shared notes: embedded-notes.md). The interrupt handler moves each byte into
//! [`RX`], a lock-free single-producer, single-consumer ring the main loop drains into
//! the endpoint's receive buffer.
//! Transmitting busy-waits on "transmit full": QEMU writes each byte straight to the
//! host, so the wait is short.

use core::ptr::{read_volatile, write_volatile};
use core::sync::atomic::{AtomicU8, AtomicUsize, Ordering};

const BASE: usize = 0x4000_4000;
const DATA: *mut u32 = BASE as *mut u32;
const STATE: *mut u32 = (BASE + 0x4) as *mut u32;
const CTRL: *mut u32 = (BASE + 0x8) as *mut u32;
const INTCLEAR: *mut u32 = (BASE + 0xC) as *mut u32;
const BAUDDIV: *mut u32 = (BASE + 0x10) as *mut u32;

const STATE_TX_FULL: u32 = 1 << 0;
const STATE_RX_FULL: u32 = 1 << 1;
const CTRL_TX_EN: u32 = 1 << 0;
const CTRL_RX_EN: u32 = 1 << 1;
const CTRL_RX_INT_EN: u32 = 1 << 3;
const INT_RX: u32 = 1 << 1;

/// UART0's receive interrupt on this board.
pub const RX_IRQ: u16 = 0;

/// The NVIC's interrupt set-enable register for IRQs 0-31.
const NVIC_ISER0: *mut u32 = 0xE000_E100 as *mut u32;

/// Enables the transmitter, the receiver and its interrupt.
pub fn init() {
    // SAFETY: BASE is UART0's register block on mps2-an386 (QEMU hw/arm/mps2.c); these
    // are aligned 32-bit device registers, written once here before the interrupt that
    // also touches the UART is enabled, so nothing else accesses them concurrently.
    unsafe {
        // QEMU's model ignores the baud rate but flags a divider under 16 as an error.
        write_volatile(BAUDDIV, 16);
        write_volatile(CTRL, CTRL_TX_EN | CTRL_RX_EN | CTRL_RX_INT_EN);
    }
    // SAFETY: ISER0 is the architectural NVIC set-enable register; writing a 1 bit only
    // enables that one interrupt (0 bits are ignored). Its handler is `on_rx_interrupt`,
    // which only touches the UART's receive side and the lock-free ring.
    unsafe { write_volatile(NVIC_ISER0, 1 << RX_IRQ) };
}

/// Writes all of `bytes`, waiting while the transmitter is full.
pub fn write(bytes: &[u8]) {
    for &b in bytes {
        // SAFETY: STATE and DATA are UART0's registers (see `init`). Only the main loop
        // transmits; the interrupt handler never touches the transmit side.
        unsafe {
            while read_volatile(STATE) & STATE_TX_FULL != 0 {}
            write_volatile(DATA, u32::from(b));
        }
    }
}

/// Bytes received and not yet taken by the main loop.
pub static RX: Ring = Ring::new();

/// Called from the interrupt handler for [`RX_IRQ`]: moves received bytes into [`RX`].
///
/// The interrupt is cleared *before* the data register is read: a byte that arrives
/// after the last read then raises the interrupt again. (Clearing after the reads loses
/// such a byte's interrupt, and since QEMU offers no further byte while one is held, the
/// receiver would stall for good.) When the ring is full the byte stays in the UART, and
/// QEMU holds the rest on the host side: backpressure reaches the client's pipe, and
/// nothing is dropped. The main loop picks such a byte up with [`poll`].
pub fn on_rx_interrupt() {
    // SAFETY: UART0's registers (see `init`); clearing the receive interrupt bit has no
    // other effect.
    unsafe { write_volatile(INTCLEAR, INT_RX) };
    drain_receiver();
}

/// Takes a byte the interrupt handler left in the UART because the ring was full.
pub fn poll() {
    cortex_m::interrupt::free(|_| drain_receiver());
}

/// Whether a byte waits in the UART itself.
pub fn byte_held() -> bool {
    // SAFETY: reading UART0's STATE register has no side effects.
    unsafe { read_volatile(STATE) & STATE_RX_FULL != 0 }
}

/// Moves bytes from the UART into the ring while both allow. Runs in the interrupt
/// handler or with interrupts masked, so the ring has one producer at a time.
fn drain_receiver() {
    while !RX.is_full() && byte_held() {
        // SAFETY: reading DATA while the receiver holds a byte takes that byte.
        let byte = unsafe { read_volatile(DATA) } as u8;
        RX.push(byte);
    }
}

/// Capacity of the receive ring; a power of two.
const RING: usize = 128;

/// A single-producer (the interrupt handler), single-consumer (the main loop) byte ring.
///
/// `head` is written only by the producer, `tail` only by the consumer; each publishes
/// with Release after touching the slots and reads the other's index with Acquire, so a
/// slot is never read and written at once. Indices run freely and wrap.
pub struct Ring {
    slots: [AtomicU8; RING],
    head: AtomicUsize,
    tail: AtomicUsize,
}

impl Ring {
    const fn new() -> Self {
        Self { slots: [const { AtomicU8::new(0) }; RING], head: AtomicUsize::new(0), tail: AtomicUsize::new(0) }
    }

    fn is_full(&self) -> bool {
        self.head.load(Ordering::Relaxed).wrapping_sub(self.tail.load(Ordering::Acquire)) == RING
    }

    /// Only after `is_full` said there is room (the producer is the only writer of `head`).
    fn push(&self, byte: u8) {
        let head = self.head.load(Ordering::Relaxed);
        self.slots[head % RING].store(byte, Ordering::Relaxed);
        self.head.store(head.wrapping_add(1), Ordering::Release);
    }

    /// Whether nothing is waiting.
    pub fn is_empty(&self) -> bool {
        self.head.load(Ordering::Acquire) == self.tail.load(Ordering::Relaxed)
    }

    /// Moves waiting bytes into `out`; returns how many.
    pub fn pop_into(&self, out: &mut [u8]) -> usize {
        let tail = self.tail.load(Ordering::Relaxed);
        let waiting = self.head.load(Ordering::Acquire).wrapping_sub(tail);
        let n = waiting.min(out.len());
        for (i, b) in out[..n].iter_mut().enumerate() {
            *b = self.slots[tail.wrapping_add(i) % RING].load(Ordering::Relaxed);
        }
        self.tail.store(tail.wrapping_add(n), Ordering::Release);
        n
    }
}
