//! 2026-07-28's `x-mcp-header` annotations: the `inputSchema` properties of a tool whose
//! arguments a client mirrors into `Mcp-Param-{Name}` headers on Streamable HTTP.
//!
//! The specification makes the client the judge of a tool's annotations: a tool with an
//! invalid one MUST be left out (not called), while the server's other tools stay
//! usable. [`check_param_annotations`] is that rule; [`param_annotations`] lists the
//! (property, header name) pairs of a valid schema.

use super::grammar::is_tchar;
use crate::wire::{JsonKind, RawJson};

/// The annotation's key in a property schema.
const KEY: &str = "x-mcp-header";

/// Why a tool's `x-mcp-header` annotations are invalid (the tool must not be used).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AnnotationError {
    /// The header name is empty, not a string, or not an RFC 9110 token (spaces,
    /// colons, control characters, non-ASCII).
    BadName,
    /// The property is not a string, integer or boolean (objects, arrays, `null` and
    /// `number` cannot be mirrored).
    NotPrimitive,
    /// Two properties name the same header (compared ignoring ASCII case).
    Duplicate,
}

impl core::fmt::Display for AnnotationError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(match self {
            Self::BadName => "an x-mcp-header name is empty or not a header token",
            Self::NotPrimitive => "x-mcp-header on a property that is not a string, integer or boolean",
            Self::Duplicate => "two properties name the same x-mcp-header",
        })
    }
}

/// The annotated properties of `input_schema`: `(property, header name)`, in schema
/// order, skipping any whose names are not plain JSON strings (which
/// [`check_param_annotations`] refuses). Check the schema first.
pub fn param_annotations<'a>(input_schema: RawJson<'a>) -> impl Iterator<Item = (&'a str, &'a str)> + 'a {
    input_schema
        .get("properties")
        .filter(|p| p.kind() == JsonKind::Object)
        .into_iter()
        .flat_map(|p| p.members())
        .filter_map(|(property, schema)| {
            let header = schema.get(KEY)?;
            Some((property.as_plain()?, header.as_str()?.as_plain()?))
        })
}

/// Whether a tool's `x-mcp-header` annotations are valid: each names a non-empty
/// token, sits on a `string`, `integer` or `boolean` property, and no two name the same
/// header ignoring case. A schema without annotations is valid.
pub fn check_param_annotations(input_schema: RawJson<'_>) -> Result<(), AnnotationError> {
    let Some(properties) = input_schema.get("properties").filter(|p| p.kind() == JsonKind::Object) else {
        return Ok(());
    };
    for (i, (_, schema)) in properties.members().enumerate() {
        let Some(header) = schema.get(KEY) else { continue };
        let name = header.as_str().and_then(|s| s.as_plain()).ok_or(AnnotationError::BadName)?;
        if name.is_empty() || !name.bytes().all(is_tchar) {
            return Err(AnnotationError::BadName);
        }
        let primitive = schema
            .get("type")
            .and_then(|t| t.as_str())
            .and_then(|t| t.as_plain())
            .is_some_and(|t| matches!(t, "string" | "integer" | "boolean"));
        if !primitive {
            return Err(AnnotationError::NotPrimitive);
        }
        let earlier = properties.members().take(i).filter_map(|(_, s)| s.get(KEY)?.as_str()?.as_plain());
        if earlier.into_iter().any(|e| e.eq_ignore_ascii_case(name)) {
            return Err(AnnotationError::Duplicate);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(schema: &str) -> Result<(), AnnotationError> {
        check_param_annotations(RawJson::parse(schema.as_bytes()).unwrap())
    }

    #[test]
    fn the_rules_of_the_annotation() {
        let one = |prop: &str| format!(r#"{{"type":"object","properties":{{"p":{prop}}}}}"#);
        assert_eq!(check(&one(r#"{"type":"string","x-mcp-header":"Region"}"#)), Ok(()));
        assert_eq!(check(&one(r#"{"type":"integer","x-mcp-header":"N"}"#)), Ok(()));
        assert_eq!(check(&one(r#"{"type":"boolean","x-mcp-header":"B"}"#)), Ok(()));
        assert_eq!(check(&one(r#"{"type":"number"}"#)), Ok(()));
        assert_eq!(check(r#"{"type":"object"}"#), Ok(()));
        for bad in [r#""""#, r#""My Region""#, r#""Region:Primary""#, r#""Région""#, r#""Region\t1""#, "3"] {
            let prop = format!(r#"{{"type":"string","x-mcp-header":{bad}}}"#);
            assert_eq!(check(&one(&prop)), Err(AnnotationError::BadName), "{bad}");
        }
        for ty in ["object", "array", "null", "number"] {
            let prop = format!(r#"{{"type":"{ty}","x-mcp-header":"H"}}"#);
            assert_eq!(check(&one(&prop)), Err(AnnotationError::NotPrimitive), "{ty}");
        }
        let two = |a: &str, b: &str| {
            format!(
                r#"{{"type":"object","properties":{{"a":{{"type":"string","x-mcp-header":"{a}"}},"b":{{"type":"string","x-mcp-header":"{b}"}}}}}}"#
            )
        };
        assert_eq!(check(&two("Region", "Region")), Err(AnnotationError::Duplicate));
        assert_eq!(check(&two("MyField", "myfield")), Err(AnnotationError::Duplicate));
        assert_eq!(check(&two("A", "B")), Ok(()));
        let s = two("A", "B");
        let pairs: [(&str, &str); 2] = [("a", "A"), ("b", "B")];
        assert!(param_annotations(RawJson::parse(s.as_bytes()).unwrap()).eq(pairs));
    }
}
