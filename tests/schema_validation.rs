//! Validation of this crate's messages with the official SDKs' schemas.
//!
//! It needs node, npm, python3 and the network for a first install, so plain `cargo test`
//! only says how to run it. `MCP_SCHEMA_VALIDATION=1 cargo test --test schema_validation`
//! (or `tests/schema/run.sh` directly) runs it.

#[test]
fn official_sdk_schemas_accept_every_sample() {
    if std::env::var_os("MCP_SCHEMA_VALIDATION").is_none() {
        println!(
            "skipped: validation against the official TypeScript and Python SDK schemas. Run \
             `tests/schema/run.sh` (needs node >= 20, npm, python3; installs the pinned SDKs into \
             .ci/cache/schema), or set MCP_SCHEMA_VALIDATION=1 for this test to run it."
        );
        return;
    }
    let root = env!("CARGO_MANIFEST_DIR");
    let status = std::process::Command::new("bash")
        .arg(format!("{root}/tests/schema/run.sh"))
        .current_dir(root)
        .status()
        .expect("cannot start tests/schema/run.sh");
    assert!(status.success(), "schema validation failed: see the output above");
}
