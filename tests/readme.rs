//! The README stays in step with the crate: every source folder is in its layout table,
//! every feature of `Cargo.toml` is described, and the MSRV it states is `rust-version`.
//! (Its Rust examples run as doctests: `ReadmeDoctests` in src/lib.rs.)

const README: &str = include_str!("../README.md");
const MANIFEST: &str = include_str!("../Cargo.toml");

#[test]
fn layout_table_names_every_source_folder() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(src).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_dir() {
            let row = format!("| `src/{}/` |", entry.file_name().to_string_lossy());
            if !README.contains(&row) {
                missing.push(row);
            }
        }
    }
    assert!(missing.is_empty(), "README.md's layout table lacks {missing:?}");
}

#[test]
fn every_feature_is_described() {
    let features = MANIFEST.split("[features]").nth(1).unwrap().split("\n[").next().unwrap();
    let names: Vec<&str> = features
        .lines()
        .filter(|l| !l.starts_with('#') && l.contains('='))
        .map(|l| l.split('=').next().unwrap().trim())
        .filter(|name| *name != "default")
        .collect();
    assert!(names.len() >= 5, "features not found in Cargo.toml: {names:?}");
    let section = README.split("## Features").nth(1).expect("README.md has a Features section");
    for name in names {
        assert!(section.contains(&format!("`{name}`")), "README.md's Features section does not describe `{name}`");
    }
}

#[test]
fn stated_msrv_is_the_manifests() {
    let version = MANIFEST
        .lines()
        .find_map(|l| l.strip_prefix("rust-version = "))
        .expect("Cargo.toml sets rust-version")
        .trim_matches('"');
    assert!(
        README.contains(&format!("minimum supported Rust version is {version}")),
        "README.md must state the MSRV {version}"
    );
}
