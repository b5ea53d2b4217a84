//! Schema generation (issue 13, "Checks"): every JSON Schema type, optional fields,
//! enums, nested structs, renames, descriptions.
//!
//! Each schema `schema!` makes is checked here for its exact text, and written with
//! sample arguments and whether this crate's decoder takes them to
//! `target/toolkit-schemas.jsonl`. With `MCP_TOOLKIT_VALIDATOR` set to a Python with the
//! `jsonschema` package (tests/toolkit/run.sh installs a pinned one and sets it), a
//! validator nobody here wrote then checks every schema against the draft 2020-12
//! metaschema and every sample against its schema: it must accept exactly the samples the
//! decoder accepts, so the schema a model reads says what the handler takes.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use mcp_sansio::toolkit::{Arguments, Bounded};
use mcp_sansio::wire::{JsonStr, RawJson};
use serde::Deserialize;

mcp_sansio::schema! {
    /// Every JSON Schema type.
    #[derive(Deserialize, Debug)]
    pub struct Everything<'a> {
        /// A boolean.
        flag: bool,
        small: u8,
        signed: i16,
        wide: i64,
        ratio: f64,
        #[serde(borrow)]
        name: JsonStr<'a>,
        short: heapless::String<8>,
        owned: String,
        nothing: (),
        list: Vec<u32>,
        pair: [bool; 2],
        few: heapless::Vec<u8, 3>,
        map: BTreeMap<String, f64>,
        #[serde(borrow)]
        any: RawJson<'a>,
        range: Bounded<-3, 3>,
    }

    /// Optional members: not required, and `null` accepted as serde does.
    #[derive(Deserialize, Debug)]
    pub struct Optional {
        maybe_text: Option<String>,
        maybe_number: Option<u16>,
        maybe_list: Option<Vec<bool>>,
        maybe_inner: Option<Inner>,
        maybe_unit: Option<Units>,
        #[serde(default)]
        defaulted: u32,
        needed: bool,
    }

    /// Nested.
    #[derive(Deserialize, Debug)]
    pub struct Outer {
        /// The inner one.
        inner: Inner,
        list: Vec<Inner>,
        by_name: BTreeMap<String, Inner>,
    }

    /// An inner object.
    #[derive(Deserialize, Debug)]
    pub struct Inner {
        /// Its value.
        value: i32,
        label: Option<String>,
    }

    /// Units.
    #[derive(Deserialize, Debug, PartialEq)]
    #[serde(rename_all = "lowercase")]
    pub enum Units {
        Metric,
        Imperial,
        #[serde(rename = "si")]
        Standard,
    }

    /// Renamed members.
    #[derive(Deserialize, Debug)]
    #[serde(rename_all = "camelCase")]
    pub struct Renamed {
        days_ahead: u8,
        #[serde(rename = "where")]
        place: String,
        r#type: Option<String>,
    }

    #[derive(Deserialize, Debug)]
    #[serde(rename_all = "SCREAMING-KEBAB-CASE")]
    pub enum Shouting {
        VeryLoud,
        Quiet,
    }

    #[derive(Deserialize, Debug)]
    pub struct Shout {
        level: Shouting,
    }

    /// An empty object.
    #[derive(Deserialize, Debug)]
    pub struct Empty {}
}

#[test]
fn the_text_of_each_schema() {
    assert_eq!(
        Inner::SCHEMA.as_text(),
        r#"{"type":"object","description":"An inner object.","properties":{"value":{"type":"integer","description":"Its value.","minimum":-2147483648,"maximum":2147483647},"label":{"type":["string","null"]}},"required":["value"]}"#
    );
    assert_eq!(
        Renamed::SCHEMA.as_text(),
        concat!(
            r#"{"type":"object","description":"Renamed members.","properties":{"#,
            r#""daysAhead":{"type":"integer","minimum":0,"maximum":255},"where":{"type":"string"},"#,
            r#""type":{"type":["string","null"]}},"required":["daysAhead","where"]}"#
        )
    );
    assert_eq!(
        Shout::SCHEMA.as_text(),
        r#"{"type":"object","properties":{"level":{"type":"string","enum":["VERY-LOUD","QUIET"]}},"required":["level"]}"#
    );
    assert_eq!(Empty::SCHEMA.as_text(), r#"{"type":"object","description":"An empty object.","properties":{}}"#);
    let optional: serde_json::Value = serde_json::from_str(Optional::SCHEMA.as_text()).unwrap();
    assert_eq!(optional["required"], serde_json::json!(["needed"]));
    assert_eq!(optional["properties"]["maybe_unit"]["enum"], serde_json::json!(["metric", "imperial", "si", null]));
    assert_eq!(optional["properties"]["maybe_inner"]["type"], serde_json::json!(["object", "null"]));
    let outer: serde_json::Value = serde_json::from_str(Outer::SCHEMA.as_text()).unwrap();
    assert_eq!(outer["properties"]["inner"]["description"], "The inner one.", "the field's doc wins over the type's");
    assert_eq!(outer["properties"]["list"]["items"]["description"], "An inner object.");
    assert_eq!(outer["properties"]["by_name"]["additionalProperties"]["required"], serde_json::json!(["value"]));
    let everything: serde_json::Value = serde_json::from_str(Everything::SCHEMA.as_text()).unwrap();
    let p = &everything["properties"];
    assert_eq!(p["short"]["maxLength"], 8);
    assert_eq!((p["pair"]["minItems"].clone(), p["pair"]["maxItems"].clone()), (2.into(), 2.into()));
    assert_eq!(p["few"]["maxItems"], 3);
    assert_eq!(p["any"], serde_json::json!({}));
    assert_eq!(p["nothing"]["type"], "null");
    assert_eq!((p["range"]["minimum"].clone(), p["range"]["maximum"].clone()), ((-3).into(), 3.into()));
    assert_eq!(p["flag"]["description"], "A boolean.");
}

/// The members of each struct, for prompts.
#[test]
fn fields_list_the_members_as_sent() {
    let names: Vec<&str> = Renamed::FIELDS.iter().map(|p| p.name).collect();
    assert_eq!(names, ["daysAhead", "where", "type"]);
    assert_eq!(Renamed::FIELDS.iter().map(|p| p.required).collect::<Vec<_>>(), [true, true, false]);
}

/// A type's name, schema, sample arguments, and its decoder.
type Case = (&'static str, RawJson<'static>, &'static [&'static str], fn(RawJson<'_>) -> bool);

/// Samples per type: each written with the decoder's verdict.
fn samples() -> Vec<Case> {
    fn decodes<A: Arguments>(json: RawJson<'_>) -> bool {
        json.decode::<A::Decoded<'_>>().is_ok()
    }
    vec![
        (
            "Everything",
            Everything::SCHEMA,
            &[
                r#"{"flag":true,"small":255,"signed":-32768,"wide":-5,"ratio":0.5,"name":"n","short":"12345678","owned":"o","nothing":null,"list":[1,2],"pair":[true,false],"few":[1,2,3],"map":{"a":1.5},"any":[1,{}],"range":-3}"#,
                r#"{"flag":false,"small":0,"signed":32767,"wide":9007199254740991,"ratio":-1e3,"name":"","short":"","owned":"é","nothing":null,"list":[],"pair":[false,false],"few":[],"map":{},"any":null,"range":3}"#,
                r#"{"flag":1,"small":0,"signed":0,"wide":0,"ratio":0,"name":"","short":"","owned":"","nothing":null,"list":[],"pair":[true,true],"few":[],"map":{},"any":0,"range":0}"#,
                r#"{"flag":true,"small":256,"signed":0,"wide":0,"ratio":0,"name":"","short":"","owned":"","nothing":null,"list":[],"pair":[true,true],"few":[],"map":{},"any":0,"range":0}"#,
                r#"{"flag":true,"small":-1,"signed":0,"wide":0,"ratio":0,"name":"","short":"","owned":"","nothing":null,"list":[],"pair":[true,true],"few":[],"map":{},"any":0,"range":0}"#,
                r#"{"flag":true,"small":0,"signed":40000,"wide":0,"ratio":0,"name":"","short":"","owned":"","nothing":null,"list":[],"pair":[true,true],"few":[],"map":{},"any":0,"range":0}"#,
                r#"{"flag":true,"small":0,"signed":0,"wide":0,"ratio":"x","name":"","short":"","owned":"","nothing":null,"list":[],"pair":[true,true],"few":[],"map":{},"any":0,"range":0}"#,
                r#"{"flag":true,"small":0,"signed":0,"wide":0,"ratio":0,"name":1,"short":"","owned":"","nothing":null,"list":[],"pair":[true,true],"few":[],"map":{},"any":0,"range":0}"#,
                r#"{"flag":true,"small":0,"signed":0,"wide":0,"ratio":0,"name":"","short":"123456789","owned":"","nothing":null,"list":[],"pair":[true,true],"few":[],"map":{},"any":0,"range":0}"#,
                r#"{"flag":true,"small":0,"signed":0,"wide":0,"ratio":0,"name":"","short":"","owned":"","nothing":0,"list":[],"pair":[true,true],"few":[],"map":{},"any":0,"range":0}"#,
                r#"{"flag":true,"small":0,"signed":0,"wide":0,"ratio":0,"name":"","short":"","owned":"","nothing":null,"list":[-1],"pair":[true,true],"few":[],"map":{},"any":0,"range":0}"#,
                r#"{"flag":true,"small":0,"signed":0,"wide":0,"ratio":0,"name":"","short":"","owned":"","nothing":null,"list":[],"pair":[true],"few":[],"map":{},"any":0,"range":0}"#,
                r#"{"flag":true,"small":0,"signed":0,"wide":0,"ratio":0,"name":"","short":"","owned":"","nothing":null,"list":[],"pair":[true,true,true],"few":[],"map":{},"any":0,"range":0}"#,
                r#"{"flag":true,"small":0,"signed":0,"wide":0,"ratio":0,"name":"","short":"","owned":"","nothing":null,"list":[],"pair":[true,true],"few":[1,2,3,4],"map":{},"any":0,"range":0}"#,
                r#"{"flag":true,"small":0,"signed":0,"wide":0,"ratio":0,"name":"","short":"","owned":"","nothing":null,"list":[],"pair":[true,true],"few":[],"map":{"a":"x"},"any":0,"range":0}"#,
                r#"{"flag":true,"small":0,"signed":0,"wide":0,"ratio":0,"name":"","short":"","owned":"","nothing":null,"list":[],"pair":[true,true],"few":[],"map":{},"any":0,"range":4}"#,
                r#"{"flag":true,"small":0,"signed":0,"wide":0,"ratio":0,"name":"","short":"","owned":"","nothing":null,"list":[],"pair":[true,true],"few":[],"map":{},"range":0}"#,
                r#"{"flag":true}"#,
                r#"[]"#,
            ],
            decodes::<Everything>,
        ),
        (
            "Optional",
            Optional::SCHEMA,
            &[
                r#"{"needed":true}"#,
                r#"{"needed":false,"maybe_text":null,"maybe_number":null,"maybe_list":null,"maybe_inner":null,"maybe_unit":null}"#,
                r#"{"needed":false,"maybe_text":"t","maybe_number":7,"maybe_list":[true],"maybe_inner":{"value":1},"maybe_unit":"si","defaulted":3}"#,
                r#"{"needed":true,"maybe_number":70000}"#,
                r#"{"needed":true,"maybe_unit":"kelvin"}"#,
                r#"{"needed":true,"maybe_inner":{"label":"no value"}}"#,
                r#"{"needed":true,"defaulted":null}"#,
                r#"{"needed":true,"maybe_list":[1]}"#,
                r#"{"maybe_text":"t"}"#,
                r#"{"needed":true,"extra":"ignored"}"#,
            ],
            decodes::<Optional>,
        ),
        (
            "Outer",
            Outer::SCHEMA,
            &[
                r#"{"inner":{"value":1},"list":[{"value":2,"label":"x"}],"by_name":{"a":{"value":3}}}"#,
                r#"{"inner":{"value":1},"list":[],"by_name":{}}"#,
                r#"{"inner":{"value":"1"},"list":[],"by_name":{}}"#,
                r#"{"inner":{"value":1},"list":[{"label":"x"}],"by_name":{}}"#,
                r#"{"inner":{"value":1},"list":[],"by_name":{"a":{"value":1,"label":2}}}"#,
                r#"{"inner":{"value":1},"list":{},"by_name":{}}"#,
                r#"{"inner":{"value":2147483648},"list":[],"by_name":{}}"#,
            ],
            decodes::<Outer>,
        ),
        (
            "Renamed",
            Renamed::SCHEMA,
            &[
                r#"{"daysAhead":3,"where":"Oslo"}"#,
                r#"{"daysAhead":3,"where":"Oslo","type":"rain"}"#,
                r#"{"days_ahead":3,"where":"Oslo"}"#,
                r#"{"daysAhead":3,"place":"Oslo"}"#,
                r#"{"daysAhead":300,"where":"Oslo"}"#,
            ],
            decodes::<Renamed>,
        ),
        (
            "Shout",
            Shout::SCHEMA,
            &[r#"{"level":"VERY-LOUD"}"#, r#"{"level":"QUIET"}"#, r#"{"level":"VeryLoud"}"#],
            decodes::<Shout>,
        ),
        ("Empty", Empty::SCHEMA, &[r#"{}"#, r#"{"a":1}"#, r#"3"#], decodes::<Empty>),
    ]
}

#[test]
#[ignore = "needs python3 and the jsonschema package from PyPI: tests/toolkit/run.sh (CI's schema step)"]
fn an_independent_validator_agrees_with_the_decoder() {
    let mut lines = String::new();
    let mut count = 0;
    for (name, schema, instances, decodes) in samples() {
        writeln!(lines, r#"{{"name":"{name}","schema":{}}}"#, schema.as_text()).unwrap();
        for text in instances {
            let json = RawJson::parse(text.as_bytes()).unwrap();
            writeln!(lines, r#"{{"name":"{name}","instance":{text},"decodes":{}}}"#, decodes(json)).unwrap();
            count += 1;
        }
    }
    assert!(count > 40);
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join("toolkit-schemas.jsonl");
    std::fs::write(&path, lines).unwrap();
    let python = std::env::var_os("MCP_TOOLKIT_VALIDATOR")
        .expect("MCP_TOOLKIT_VALIDATOR names a Python with jsonschema: run tests/toolkit/run.sh, which installs it");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/toolkit/validate_schemas.py");
    let out = std::process::Command::new(python).arg(script).arg(&path).output().expect("cannot run the validator");
    let report = String::from_utf8_lossy(&out.stdout);
    println!("{report}{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "the validator disagrees (see above)");
    assert!(report.contains(&format!("{count} samples")), "every sample was checked");
}
