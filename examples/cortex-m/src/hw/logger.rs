//! The defmt global logger: frames go to a host file through semihosting.
//!
//! The destination comes from the command line QEMU hands the guest
//! (`-append "defmt=PATH"`, or `defmt=:tt` for QEMU's stderr): the serial port carries
//! the MCP stream and must never see a log byte. Without semihosting, or without a
//! `defmt=` word, frames are encoded and dropped. A file is the safe choice when nobody
//! drains QEMU's stderr: a semihosting write to a full pipe would stop the guest.
//!
//! Each frame is collected in a small buffer and written with one semihosting call when
//! the frame ends (or the buffer fills), so a log line costs one trap to the host.

use core::cell::UnsafeCell;
use core::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use super::semihosting;

/// The semihosting handle of the log, or `NONE`.
static HANDLE: AtomicUsize = AtomicUsize::new(NONE);
const NONE: usize = usize::MAX;
/// Held from `acquire` to `release`: defmt frames must not interleave.
static TAKEN: AtomicBool = AtomicBool::new(false);

const BUF: usize = 64;

/// The bytes of the frame being written, before they go to the host.
struct Buffer {
    bytes: [u8; BUF],
    len: usize,
}

/// State touched only between `acquire` and `release`, with interrupts masked and
/// `TAKEN` set, so by one context at a time.
struct Held<T>(UnsafeCell<T>);

// SAFETY: see `Held`: access is serialized by `TAKEN` and the interrupt mask.
unsafe impl<T> Sync for Held<T> {}

// Separate, so that the encoder can call back into the buffer without two mutable
// references to the same thing.
static ENCODER: Held<defmt::Encoder> = Held(UnsafeCell::new(defmt::Encoder::new()));
static BUFFER: Held<Buffer> = Held(UnsafeCell::new(Buffer { bytes: [0; BUF], len: 0 }));
/// Whether interrupts were enabled when the frame began.
static RESTORE: AtomicBool = AtomicBool::new(false);

/// Opens the log named on the command line, if any (call once at boot).
pub fn init() {
    let mut line = [0u8; 192];
    let Some(cmdline) = semihosting::cmdline(&mut line) else { return };
    let Some(path) = cmdline.split(|&b| b == b' ').find_map(|w| w.strip_prefix(b"defmt=")) else { return };
    let mut path_z = [0u8; 160];
    if path.is_empty() || path.len() >= path_z.len() {
        return;
    }
    path_z[..path.len()].copy_from_slice(path);
    if let Some(handle) = semihosting::open_for_log(&path_z[..=path.len()]) {
        HANDLE.store(handle, Ordering::Relaxed);
    }
}

fn out(buffer: &mut Buffer, bytes: &[u8]) {
    for &b in bytes {
        if buffer.len == BUF {
            flush(buffer);
        }
        buffer.bytes[buffer.len] = b;
        buffer.len += 1;
    }
}

fn flush(buffer: &mut Buffer) {
    let handle = HANDLE.load(Ordering::Relaxed);
    if handle != NONE && buffer.len > 0 && !semihosting::write(handle, &buffer.bytes[..buffer.len]) {
        // The host refused (disk full, closed): stop logging rather than retry forever.
        HANDLE.store(NONE, Ordering::Relaxed);
    }
    buffer.len = 0;
}

#[defmt::global_logger]
struct Logger;

// SAFETY: defmt's contract: frames are not interleaved (interrupts are masked from
// `acquire` to `release`, and `TAKEN` catches re-entry from a fault handler), and
// `write`/`flush`/`release` are only called by defmt between `acquire` and `release`.
unsafe impl defmt::Logger for Logger {
    fn acquire() {
        // PRIMASK "active" means interrupts are enabled.
        let enabled = cortex_m::register::primask::read().is_active();
        cortex_m::interrupt::disable();
        if TAKEN.swap(true, Ordering::Acquire) {
            // A log call from inside a log call (a fault while logging): give up.
            super::on_fatal_fault();
        }
        RESTORE.store(enabled, Ordering::Relaxed);
        // SAFETY: we hold the logger (TAKEN, interrupts masked), so these are the only
        // references to ENCODER and BUFFER until `release`; they do not overlap.
        unsafe { (*ENCODER.0.get()).start_frame(|b| out(&mut *BUFFER.0.get(), b)) };
    }

    unsafe fn flush() {
        // SAFETY: defmt calls this between acquire and release (see `acquire`).
        flush(unsafe { &mut *BUFFER.0.get() });
    }

    unsafe fn release() {
        // SAFETY: between acquire and release (see `acquire`).
        unsafe {
            (*ENCODER.0.get()).end_frame(|b| out(&mut *BUFFER.0.get(), b));
            flush(&mut *BUFFER.0.get());
        }
        let restore = RESTORE.load(Ordering::Relaxed);
        TAKEN.store(false, Ordering::Release);
        if restore {
            // SAFETY: interrupts were enabled when the frame began; this restores that
            // state, so it cannot end a critical section someone else opened.
            unsafe { cortex_m::interrupt::enable() };
        }
    }

    unsafe fn write(bytes: &[u8]) {
        // SAFETY: between acquire and release (see `acquire`).
        unsafe { (*ENCODER.0.get()).write(bytes, |b| out(&mut *BUFFER.0.get(), b)) };
    }
}

defmt::timestamp!("{=u64:ms}", super::clock::uptime_ms());
