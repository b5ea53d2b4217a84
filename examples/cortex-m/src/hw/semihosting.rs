//! ARM semihosting: the host's files, reached through `bkpt 0xab` (QEMU:
//! `-semihosting-config enable=on,target=native`).
//!
//! Used only for the defmt log, which must never reach the serial port (that is the MCP
//! stream). When QEMU runs without semihosting, the `bkpt` is a debug event nobody
//! handles and escalates to HardFault; [`super::fault`] then skips the instruction and
//! makes the call return -1, so the firmware runs the same with or without it, logging
//! nothing.

use core::arch::asm;

const SYS_OPEN: usize = 0x01;
const SYS_WRITE: usize = 0x05;
const SYS_GET_CMDLINE: usize = 0x15;

/// `fopen` mode "wb".
const MODE_WB: usize = 5;
/// `fopen` mode "a": on the special name ":tt", QEMU's stderr.
const MODE_A: usize = 8;

/// One semihosting call: operation `op`, parameter block `args`.
fn call(op: usize, args: &[usize]) -> isize {
    let ret: isize;
    // SAFETY: `bkpt 0xab` is the semihosting trap. The host (or, without semihosting,
    // the HardFault handler in `fault`) reads the parameter block through r1 and only
    // writes memory the block points to for writing (the command-line buffer, which
    // `cmdline` lends mutably for the duration of the call); it returns in r0.
    unsafe {
        asm!("bkpt #0xab", inout("r0") op => ret, in("r1") args.as_ptr(), options(nostack));
    }
    ret
}

/// The command line (`-append` after the kernel's name, or the `arg=`s of
/// `-semihosting-config`), written into `buf`; `None` without semihosting.
pub fn cmdline(buf: &mut [u8]) -> Option<&[u8]> {
    let mut block = [buf.as_mut_ptr() as usize, buf.len()];
    let block_ptr = block.as_mut_ptr() as usize;
    let ret: isize;
    // SAFETY: as in `call`; the host writes at most block[1] bytes into `buf` (which is
    // borrowed mutably here) and the length it wrote back into block[1].
    unsafe {
        asm!("bkpt #0xab", inout("r0") SYS_GET_CMDLINE => ret, in("r1") block_ptr, options(nostack));
    }
    if ret != 0 {
        return None;
    }
    let len = block[1].min(buf.len());
    Some(&buf[..len])
}

/// A host file opened for writing: `path` is a file name, or `:tt` for QEMU's stderr.
/// `path_z` must end with a NUL byte.
pub fn open_for_log(path_z: &[u8]) -> Option<usize> {
    let Some((&0, name)) = path_z.split_last() else { return None };
    let mode = if name == b":tt" { MODE_A } else { MODE_WB };
    let handle = call(SYS_OPEN, &[path_z.as_ptr() as usize, mode, name.len()]);
    (handle >= 0).then_some(handle as usize)
}

/// Writes `bytes` to `handle`; false if the host did not take all of them.
pub fn write(handle: usize, bytes: &[u8]) -> bool {
    call(SYS_WRITE, &[handle, bytes.as_ptr() as usize, bytes.len()]) == 0
}
