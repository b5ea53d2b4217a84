//! Resources: listing, templates, reading, subscriptions.

use serde::Deserialize;
use serde::de::{Deserializer, Error as _};
use serde::{Serialize, Serializer};

use super::pagination::{CacheScope, ListResult, Listed};
use crate::mcp::basic::ResultType;
use crate::mcp::basic::lifecycle::Icon;
use crate::mcp::basic::meta::Meta;
use crate::mcp::content::Annotations;
use crate::mcp::seq::{Items, Map};
use crate::wire::ahead::{Cursor, ReadAhead};
use crate::wire::{JsonStr, RawJson};

/// A resource the server offers.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "camelCase")]
pub struct Resource<'a> {
    /// Its URI.
    #[serde(borrow)]
    pub uri: JsonStr<'a>,
    /// Programmatic name.
    #[serde(borrow)]
    pub name: JsonStr<'a>,
    /// Display name (2025-06-18 on).
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub title: Option<JsonStr<'a>>,
    /// Description.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub description: Option<JsonStr<'a>>,
    /// MIME type.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<JsonStr<'a>>,
    /// Annotations.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations<'a>>,
    /// Size in bytes, if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    /// Icons (2025-11-25 on).
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub icons: Option<Items<'a, Icon<'a>>>,
    /// `_meta` (2025-06-18 on).
    #[serde(borrow, rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta<'a>>,
}

impl<'a> Resource<'a> {
    /// A resource at `uri` called `name`.
    pub const fn new(uri: &'a str, name: &'a str) -> Self {
        Self {
            uri: JsonStr::from_text(uri),
            name: JsonStr::from_text(name),
            title: None,
            description: None,
            mime_type: None,
            annotations: None,
            size: None,
            icons: None,
            meta: None,
        }
    }

    /// With a MIME type.
    pub const fn with_mime_type(mut self, mime_type: &'a str) -> Self {
        self.mime_type = Some(JsonStr::from_text(mime_type));
        self
    }

    /// With a description.
    pub const fn with_description(mut self, description: &'a str) -> Self {
        self.description = Some(JsonStr::from_text(description));
        self
    }
}

/// A family of resources named by an RFC 6570 URI template.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "camelCase")]
pub struct ResourceTemplate<'a> {
    /// The URI template.
    #[serde(borrow)]
    pub uri_template: JsonStr<'a>,
    /// Programmatic name.
    #[serde(borrow)]
    pub name: JsonStr<'a>,
    /// Display name (2025-06-18 on).
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub title: Option<JsonStr<'a>>,
    /// Description.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub description: Option<JsonStr<'a>>,
    /// MIME type of every matching resource, if they share one.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<JsonStr<'a>>,
    /// Annotations.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations<'a>>,
    /// Icons (2025-11-25 on).
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub icons: Option<Items<'a, Icon<'a>>>,
    /// `_meta` (2025-06-18 on).
    #[serde(borrow, rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta<'a>>,
}

impl<'a> ResourceTemplate<'a> {
    /// A template `uri_template` called `name`.
    pub const fn new(uri_template: &'a str, name: &'a str) -> Self {
        Self {
            uri_template: JsonStr::from_text(uri_template),
            name: JsonStr::from_text(name),
            title: None,
            description: None,
            mime_type: None,
            annotations: None,
            icons: None,
            meta: None,
        }
    }
}

/// The contents of a resource as text.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "camelCase")]
pub struct TextResourceContents<'a> {
    /// The resource's URI.
    #[serde(borrow)]
    pub uri: JsonStr<'a>,
    /// MIME type.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<JsonStr<'a>>,
    /// The text.
    #[serde(borrow)]
    pub text: JsonStr<'a>,
    /// `_meta` (2025-06-18 on).
    #[serde(borrow, rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta<'a>>,
}

/// The contents of a resource as base64 binary data.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "camelCase")]
pub struct BlobResourceContents<'a> {
    /// The resource's URI.
    #[serde(borrow)]
    pub uri: JsonStr<'a>,
    /// MIME type.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<JsonStr<'a>>,
    /// Base64 data.
    #[serde(borrow)]
    pub blob: JsonStr<'a>,
    /// `_meta` (2025-06-18 on).
    #[serde(borrow, rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta<'a>>,
}

/// Text or blob contents: the schema tells them apart by the `text` or `blob` member.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum ResourceContents<'a> {
    /// Has `text`.
    Text(TextResourceContents<'a>),
    /// Has `blob`.
    Blob(BlobResourceContents<'a>),
}

impl<'a> ResourceContents<'a> {
    /// Text contents of `uri`.
    pub const fn text(uri: &'a str, mime_type: Option<&'a str>, text: &'a str) -> Self {
        Self::Text(TextResourceContents {
            uri: JsonStr::from_text(uri),
            mime_type: match mime_type {
                Some(m) => Some(JsonStr::from_text(m)),
                None => None,
            },
            text: JsonStr::from_text(text),
            meta: None,
        })
    }

    /// Base64 contents of `uri`.
    pub const fn blob(uri: &'a str, mime_type: Option<&'a str>, base64: &'a str) -> Self {
        Self::Blob(BlobResourceContents {
            uri: JsonStr::from_text(uri),
            mime_type: match mime_type {
                Some(m) => Some(JsonStr::from_text(m)),
                None => None,
            },
            blob: JsonStr::from_text(base64),
            meta: None,
        })
    }

    /// The URI, either way.
    pub fn uri(&self) -> JsonStr<'a> {
        match self {
            Self::Text(t) => t.uri,
            Self::Blob(b) => b.uri,
        }
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for ResourceContents<'a> {
    /// `text` present: text; else `blob` present: blob; neither: an error.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        crate::wire::ahead::deserialize(d)
    }
}

impl<'de: 'a, 'a> ReadAhead<'de> for ResourceContents<'a> {
    /// `{"uri":…,"mimeType":…,"text":…}` (or `"blob"`), members in that order, `mimeType`
    /// optional, nothing else.
    fn ahead(input: &'de [u8]) -> Option<(Self, usize)> {
        let mut c = Cursor::new(input);
        c.byte(b'{')?;
        c.key(b"\"uri\"")?;
        let uri = c.string()?;
        let at = c.at();
        let mime_type = match c.member(b"\"mimeType\"") {
            Some(()) => Some(c.string()?),
            None => {
                c.back(at);
                None
            }
        };
        let at = c.at();
        if c.member(b"\"text\"").is_some() {
            let text = c.string()?;
            let len = c.close()?;
            return Some((Self::Text(TextResourceContents { uri, mime_type, text, meta: None }), len));
        }
        c.back(at);
        c.member(b"\"blob\"")?;
        let blob = c.string()?;
        let len = c.close()?;
        Some((Self::Blob(BlobResourceContents { uri, mime_type, blob, meta: None }), len))
    }

    fn general<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = crate::mcp::seq::object(d)?;
        if raw.contains_key("text") {
            raw.decode().map(Self::Text).map_err(D::Error::custom)
        } else if raw.contains_key("blob") {
            raw.decode().map(Self::Blob).map_err(D::Error::custom)
        } else {
            Err(D::Error::missing_field("text"))
        }
    }
}

impl Serialize for ResourceContents<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Text(t) => t.serialize(s),
            Self::Blob(b) => b.serialize(s),
        }
    }
}

/// `resources/list` result.
pub type ListResourcesResult<'a> = ListResult<'a, Resource<'a>>;

impl Listed for Resource<'_> {
    const FIELD: &'static str = "resources";
}

/// `resources/templates/list` result.
pub type ListResourceTemplatesResult<'a> = ListResult<'a, ResourceTemplate<'a>>;

impl Listed for ResourceTemplate<'_> {
    const FIELD: &'static str = "resourceTemplates";
}

/// Params naming one resource: `resources/subscribe`, `resources/unsubscribe`, and
/// `notifications/resources/updated`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ResourceUriParams<'a> {
    /// The resource's URI.
    #[serde(borrow)]
    pub uri: JsonStr<'a>,
    /// `_meta`
    #[serde(borrow, rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta<'a>>,
}

impl<'a> ResourceUriParams<'a> {
    /// For the resource at `uri`.
    pub const fn new(uri: &'a str) -> Self {
        Self { uri: JsonStr::from_text(uri), meta: None }
    }
}

/// `resources/read` params.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "camelCase")]
pub struct ReadResourceParams<'a> {
    /// The resource's URI.
    #[serde(borrow)]
    pub uri: JsonStr<'a>,
    /// Answers to the server's input requests, by key (2026-07-28 retry); each value is
    /// decoded by the method of the input request it answers.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub input_responses: Option<Map<'a, RawJson<'a>>>,
    /// The server's `requestState`, echoed (2026-07-28 retry).
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub request_state: Option<JsonStr<'a>>,
    /// `_meta`
    #[serde(borrow, rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta<'a>>,
}

/// `resources/read` result.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "camelCase")]
pub struct ReadResourceResult<'a> {
    /// The contents (a template read can return several resources).
    #[serde(borrow)]
    pub contents: Items<'a, ResourceContents<'a>>,
    /// How long the result may be cached, in ms (2026-07-28, required there).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttl_ms: Option<u64>,
    /// Who may reuse it (2026-07-28, required there).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_scope: Option<CacheScope>,
    /// `resultType` (2026-07-28, required there).
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub result_type: Option<ResultType<'a>>,
    /// `_meta`
    #[serde(borrow, rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta<'a>>,
}

impl<'a> ReadResourceResult<'a> {
    /// A result holding `contents`.
    pub const fn new(contents: &'a [ResourceContents<'a>]) -> Self {
        Self { contents: Items::from_slice(contents), ttl_ms: None, cache_scope: None, result_type: None, meta: None }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_result_from_the_schema_example() {
        // schema/2026-07-28/examples/ListResourcesResult/resources-list-with-cursor-and-ttl.json
        let r: ListResourcesResult<'_> = RawJson::parse(
            br#"{"resources":[{"uri":"file:///project/src/main.rs","name":"main.rs","title":"Rust Software Application Main File",
                "description":"Primary application entry point","mimeType":"text/x-rust",
                "icons":[{"src":"https://example.com/rust-file-icon.png","mimeType":"image/png","sizes":["48x48"]}]}],
                "nextCursor":"next-page-cursor","ttlMs":300000,"cacheScope":"public","resultType":"complete"}"#,
        )
        .unwrap()
        .decode()
        .unwrap();
        let first = r.items.get(0).unwrap().unwrap();
        assert_eq!(first.title.unwrap(), "Rust Software Application Main File");
        assert_eq!((r.ttl_ms, r.cache_scope), (Some(300000), Some(CacheScope::Public)));
        assert_eq!(r.result_type, Some(ResultType::Complete));
        assert_eq!(r.next_cursor.unwrap(), "next-page-cursor");
    }

    #[test]
    fn contents_by_member() {
        let r: ReadResourceResult<'_> = RawJson::parse(
            br#"{"contents":[{"uri":"file:///a.txt","mimeType":"text/plain","text":"hi"},{"uri":"file:///b.png","blob":"AAAA"}]}"#,
        )
        .unwrap()
        .decode()
        .unwrap();
        let c: std::vec::Vec<_> = r.contents.iter().map(Result::unwrap).collect();
        assert!(matches!(c[0], ResourceContents::Text(t) if t.text == "hi"));
        assert!(matches!(c[1], ResourceContents::Blob(b) if b.blob == "AAAA"));
        assert!(RawJson::parse(br#"{"uri":"x"}"#).unwrap().decode::<ResourceContents<'_>>().is_err());
    }
}
