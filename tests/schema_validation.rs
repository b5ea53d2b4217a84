//! Validation of this crate's messages with the official SDKs' schemas.
//!
//! It needs node, npm, python3 and the package registries for a first install, so it is
//! ignored by plain `cargo test` (reported as ignored, never as a pass):
//! `cargo test --test schema_validation -- --ignored` runs it, as does `tests/schema/run.sh`
//! (what `.ci/run schema` does).

#[test]
#[ignore = "needs node >= 20, npm, python3 and the package registries: cargo test --test schema_validation -- --ignored (or tests/schema/run.sh)"]
fn official_sdk_schemas_accept_every_sample() {
    let root = env!("CARGO_MANIFEST_DIR");
    let status = std::process::Command::new("bash")
        .arg(format!("{root}/tests/schema/run.sh"))
        .current_dir(root)
        .status()
        .expect("cannot start tests/schema/run.sh");
    assert!(status.success(), "schema validation failed: see the output above");
}
