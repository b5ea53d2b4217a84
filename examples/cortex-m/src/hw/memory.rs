//! RAM accounting: the statics' size and the stack's high-water mark.
//!
//! cortex-m-rt (feature `paint-stack`) fills the stack region, from `_stack_end` (the
//! end of the statics) up to `_stack_start` (the top of RAM), with 0xcccc_cccc before
//! `main`. The stack grows down from the top, so the lowest word that no longer holds
//! the paint marks the deepest the stack has ever been.
//!
//! Booting builds the endpoint on the stack and moves it into its static, which can
//! reach deeper than serving ever does; so after booting the high-water mark is recorded
//! and the region below the stack pointer painted again, to tell the two apart.

use cortex_m_rt::heap_start;

use core::sync::atomic::{AtomicUsize, Ordering};

const PAINT: u32 = 0xcccc_cccc;

/// The high-water mark when booting was done, before any request was served.
static AT_BOOT: AtomicUsize = AtomicUsize::new(0);

unsafe extern "C" {
    static _stack_start: u32;
    static _stack_end: u32;
    static __sdata: u32;
}

fn addr(p: *const u32) -> usize {
    p as usize
}

/// Bytes of RAM taken by statics (.data, .bss, .uninit).
pub fn statics() -> usize {
    // Taking the address of a linker symbol reads nothing.
    addr(heap_start()) - addr(&raw const __sdata)
}

/// Bytes of RAM the stack may use.
pub fn stack_size() -> usize {
    addr(&raw const _stack_start) - addr(&raw const _stack_end)
}

/// The most stack used since boot, or since [`mark_boot`] once it has run, in bytes.
pub fn stack_high_water() -> usize {
    let bottom = addr(&raw const _stack_end);
    let top = addr(&raw const _stack_start);
    let mut p = bottom;
    while p < top {
        // SAFETY: [bottom, top) is the stack region the linker script reserves in RAM:
        // aligned, mapped, and holding no Rust object below the current stack pointer;
        // a volatile read of a word there has no side effects. (Words above the stack
        // pointer belong to live frames, but reading them races with nothing: only this
        // thread of execution, or an interrupt that has since returned, writes there.)
        if unsafe { core::ptr::read_volatile(p as *const u32) } != PAINT {
            break;
        }
        p += 4;
    }
    top - p
}

/// Records the high-water mark of booting (the endpoint built and moved into place),
/// then paints the unused stack again, so that [`stack_high_water`] reports serving
/// alone from now on.
#[inline(never)]
pub fn mark_boot() {
    AT_BOOT.store(stack_high_water(), Ordering::Relaxed);
    cortex_m::interrupt::free(|_| {
        // Stop well short of this function's own frame.
        let below = cortex_m::register::msp::read() as usize - 64;
        let mut p = addr(&raw const _stack_end);
        while p < below {
            // SAFETY: [_stack_end, sp - 64) is stack that no frame uses: nothing is below
            // the stack pointer but this function's callee-free loop, and no interrupt
            // handler can push a frame there while interrupts are masked.
            unsafe { core::ptr::write_volatile(p as *mut u32, PAINT) };
            p += 4;
        }
    });
}

/// The high-water mark recorded by [`mark_boot`].
pub fn boot_high_water() -> usize {
    AT_BOOT.load(Ordering::Relaxed)
}
