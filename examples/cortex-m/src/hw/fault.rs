//! The HardFault handler: skips a semihosting `bkpt` nobody serves, and otherwise stops.
//!
//! Without `-semihosting-config enable=on`, QEMU treats `bkpt 0xab` as a debug event;
//! with no debugger attached it escalates to HardFault. The handler looks at the stacked
//! return address: if it points at `bkpt 0xab` (0xbeab), it steps over it and sets the
//! stacked r0 to -1, the semihosting error value, and returns. Any other fault goes to
//! [`super::on_fatal_fault`].

core::arch::global_asm!(
    ".section .text.HardFault,\"ax\",%progbits",
    ".global HardFault",
    ".type HardFault,%function",
    ".thumb_func",
    "HardFault:",
    // The exception frame is on the stack the faulting code used (EXC_RETURN bit 2).
    "    tst lr, #4",
    "    ite eq",
    "    mrseq r0, msp",
    "    mrsne r0, psp",
    // Stacked pc, and the halfword there.
    "    ldr r1, [r0, #24]",
    "    ldrh r2, [r1]",
    "    movw r3, #0xbeab",
    "    cmp r2, r3",
    "    bne 1f",
    "    adds r1, #2",
    "    str r1, [r0, #24]",
    "    mov r2, #-1",
    "    str r2, [r0]",
    // Clear HFSR (write one to clear) so a later fault is not taken for this one.
    "    ldr r3, =0xe000ed2c",
    "    ldr r2, [r3]",
    "    str r2, [r3]",
    "    bx lr",
    "1:",
    "    b {fatal}",
    ".size HardFault, . - HardFault",
    fatal = sym super::on_fatal_fault,
);
