//! Names, once, the target class the JSON scanner's wide searches are built for
//! (src/wire/find.rs), so that the sources say `cfg(mcp_sansio_wide)` instead of repeating
//! the condition: a target with SIMD (SSE2, NEON, wasm simd128), any 64-bit target, or
//! wasm32, unless `--cfg mcp_sansio_compact` asks for the compact searches everywhere (the
//! tests and fuzz targets are also run that way). Every other target (the 32- and 16-bit
//! microcontrollers) gets the compact, byte-at-a-time searches.

use std::env;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(mcp_sansio_wide)");
    println!("cargo::rerun-if-changed=build.rs");
    let var = |name: &str| env::var(name).unwrap_or_default();
    let features = var("CARGO_CFG_TARGET_FEATURE");
    let has = |feature: &str| features.split(',').any(|f| f == feature);
    let wide_target = has("sse2")
        || has("neon")
        || has("simd128")
        || var("CARGO_CFG_TARGET_POINTER_WIDTH") == "64"
        || var("CARGO_CFG_TARGET_ARCH") == "wasm32";
    let forced_compact = env::var_os("CARGO_CFG_MCP_SANSIO_COMPACT").is_some();
    if wide_target && !forced_compact {
        println!("cargo::rustc-cfg=mcp_sansio_wide");
    }
}
