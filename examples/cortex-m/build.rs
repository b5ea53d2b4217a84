//! Puts memory.x and device.x where the linker finds them (cortex-m-rt's link.x
//! includes them), and adds
//! defmt's linker script when the `defmt` feature is on.
use std::path::PathBuf;

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::copy("memory.x", out.join("memory.x")).expect("memory.x is readable");
    // cortex-m-rt's `device` feature includes device.x, where a device crate would
    // alias its interrupt handlers; this firmware defines its one vector itself.
    std::fs::write(out.join("device.x"), "/* interrupts: see src/hw/mod.rs */\n").expect("OUT_DIR is writable");
    println!("cargo:rustc-link-search={}", out.display());
    if std::env::var_os("CARGO_FEATURE_DEFMT").is_some() {
        println!("cargo:rustc-link-arg=-Tdefmt.x");
    }
    println!("cargo:rerun-if-changed=memory.x");
    println!("cargo:rerun-if-changed=build.rs");
}
