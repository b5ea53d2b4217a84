//! Interop with the official MCP SDKs over stdio: their clients against
//! `examples/server`, `examples/client` against their servers (tests/interop/README.md);
//! then over Streamable HTTP and HTTP+SSE (`MCP_HTTP_CHECKS=0`: stdio only).
//!
//! It needs node, npm, python3 and the package registries for a first install, and takes
//! a couple of minutes, so plain `cargo test` only says how to run it:
//! `tests/interop/run.sh` (what `.ci/run` does), or `MCP_INTEROP=1 cargo test --test interop`.

#[test]
fn official_sdks_interoperate_over_stdio() {
    if std::env::var_os("MCP_INTEROP").is_none() {
        println!(
            "skipped: interop with the official TypeScript and Python SDKs over stdio. Run \
             `tests/interop/run.sh` (needs node >= 20, npm, python3; installs the pinned SDKs into \
             .ci/cache/interop and builds the examples in release mode), or set MCP_INTEROP=1 for \
             this test to run it."
        );
        return;
    }
    let root = env!("CARGO_MANIFEST_DIR");
    let status = std::process::Command::new("bash")
        .arg(format!("{root}/tests/interop/run.sh"))
        .current_dir(root)
        .status()
        .expect("cannot start tests/interop/run.sh");
    assert!(status.success(), "interop checks failed: see the table above");
}
