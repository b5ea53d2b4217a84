//! Content blocks: what tool results, prompt messages and sampling messages are made of.
//!
//! A [`ContentBlock`] is tagged by its `type` member. Decoding looks at that member first
//! and then decodes the one variant it names, by hand (serde's internally tagged enums
//! need an allocator); a `type` this crate does not know is kept raw as
//! [`ContentBlock::Other`] rather than failing the whole message.
//!
//! | `type` | struct | versions |
//! |---|---|---|
//! | `text` | [`TextContent`] | all |
//! | `image` | [`ImageContent`] | all |
//! | `audio` | [`AudioContent`] | 2025-03-26 on |
//! | `resource_link` | [`ResourceLink`] | 2025-06-18 on |
//! | `resource` | [`EmbeddedResource`] | all |
//! | `tool_use` | [`ToolUseContent`] | 2025-11-25 on (sampling) |
//! | `tool_result` | [`ToolResultContent`] | 2025-11-25 on (sampling) |

use serde::Deserialize;
use serde::de::{Deserializer, Error as _};
use serde::{Serialize, Serializer};

use crate::mcp::basic::lifecycle::Icon;
use crate::mcp::basic::meta::Meta;
use crate::mcp::seq::Items;
use crate::mcp::server::resources::ResourceContents;
use crate::wire::ahead::{Cursor, ReadAhead};
use crate::wire::{JsonKind, JsonStr, Number, RawJson};

/// Who a message or content is from or for (the schema's `Role`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "lowercase")]
pub enum MessageRole {
    /// The user.
    User,
    /// The assistant (the model).
    Assistant,
}

/// Hints about how content is to be used or shown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "camelCase")]
pub struct Annotations<'a> {
    /// Who the content is meant for.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub audience: Option<Items<'a, MessageRole>>,
    /// Importance from 0 (least) to 1 (most), as its JSON text: written and read without
    /// floating-point code (`Number::parse("0.8")`; [`Number::as_f64`] to compute with it).
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<Number<'a>>,
    /// ISO 8601 time of the last change (2025-06-18 on).
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub last_modified: Option<JsonStr<'a>>,
}

/// `{"type":"text"}`: text.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(tag = "type", rename = "text")]
pub struct TextContent<'a> {
    /// The text.
    #[serde(borrow)]
    pub text: JsonStr<'a>,
    /// Annotations.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations<'a>>,
    /// `_meta` (2025-06-18 on).
    #[serde(borrow, rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta<'a>>,
}

impl<'a> TextContent<'a> {
    /// Text content.
    pub const fn new(text: &'a str) -> Self {
        Self { text: JsonStr::from_text(text), annotations: None, meta: None }
    }
}

/// `{"type":"image"}`: an image, base64-encoded.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(tag = "type", rename = "image", rename_all = "camelCase")]
pub struct ImageContent<'a> {
    /// Base64 image data.
    #[serde(borrow)]
    pub data: JsonStr<'a>,
    /// MIME type.
    #[serde(borrow)]
    pub mime_type: JsonStr<'a>,
    /// Annotations.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations<'a>>,
    /// `_meta` (2025-06-18 on).
    #[serde(borrow, rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta<'a>>,
}

/// `{"type":"audio"}`: audio, base64-encoded (2025-03-26 on).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(tag = "type", rename = "audio", rename_all = "camelCase")]
pub struct AudioContent<'a> {
    /// Base64 audio data.
    #[serde(borrow)]
    pub data: JsonStr<'a>,
    /// MIME type.
    #[serde(borrow)]
    pub mime_type: JsonStr<'a>,
    /// Annotations.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations<'a>>,
    /// `_meta` (2025-06-18 on).
    #[serde(borrow, rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta<'a>>,
}

/// `{"type":"resource_link"}`: a link to a resource the client may read (2025-06-18 on).
/// Same fields as [`Resource`](crate::mcp::Resource).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(tag = "type", rename = "resource_link", rename_all = "camelCase")]
pub struct ResourceLink<'a> {
    /// The resource's URI.
    #[serde(borrow)]
    pub uri: JsonStr<'a>,
    /// Programmatic name.
    #[serde(borrow)]
    pub name: JsonStr<'a>,
    /// Display name.
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
    /// Size in bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
    /// Icons (2025-11-25 on).
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub icons: Option<Items<'a, Icon<'a>>>,
    /// `_meta`
    #[serde(borrow, rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta<'a>>,
}

/// `{"type":"resource"}`: a resource's contents, embedded.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(tag = "type", rename = "resource")]
pub struct EmbeddedResource<'a> {
    /// The contents (text or blob).
    #[serde(borrow)]
    pub resource: ResourceContents<'a>,
    /// Annotations.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<Annotations<'a>>,
    /// `_meta` (2025-06-18 on).
    #[serde(borrow, rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta<'a>>,
}

/// `{"type":"tool_use"}`: the model asks for a tool call (sampling, 2025-11-25 on).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(tag = "type", rename = "tool_use")]
pub struct ToolUseContent<'a> {
    /// Id that the matching `tool_result` refers to.
    #[serde(borrow)]
    pub id: JsonStr<'a>,
    /// The tool's name.
    #[serde(borrow)]
    pub name: JsonStr<'a>,
    /// Arguments (an object), kept raw.
    #[serde(borrow, deserialize_with = "crate::mcp::seq::object")]
    pub input: RawJson<'a>,
    /// `_meta`
    #[serde(borrow, rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta<'a>>,
}

/// `{"type":"tool_result"}`: the result of a `tool_use` (sampling, 2025-11-25 on).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(tag = "type", rename = "tool_result", rename_all = "camelCase")]
pub struct ToolResultContent<'a> {
    /// The `tool_use` id this answers.
    #[serde(borrow)]
    pub tool_use_id: JsonStr<'a>,
    /// Unstructured result.
    #[serde(borrow)]
    pub content: Items<'a, ContentBlock<'a>>,
    /// Structured result, kept raw.
    #[serde(borrow, default, deserialize_with = "crate::mcp::seq::some_raw", skip_serializing_if = "Option::is_none")]
    pub structured_content: Option<RawJson<'a>>,
    /// Whether the tool failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_error: Option<bool>,
    /// `_meta`
    #[serde(borrow, rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta<'a>>,
}

/// One content block, by its `type`: what tool results, prompt messages and sampling
/// messages are made of.
///
/// A [`ContentBlock`] is tagged by its `type` member. Decoding looks at that member first
/// and then decodes the one variant it names, by hand (serde's internally tagged enums
/// need an allocator); a `type` this crate does not know is kept raw as
/// [`ContentBlock::Other`] rather than failing the whole message.
///
/// | `type` | struct | versions |
/// |---|---|---|
/// | `text` | [`TextContent`] | all |
/// | `image` | [`ImageContent`] | all |
/// | `audio` | [`AudioContent`] | 2025-03-26 on |
/// | `resource_link` | [`ResourceLink`] | 2025-06-18 on |
/// | `resource` | [`EmbeddedResource`] | all |
/// | `tool_use` | [`ToolUseContent`] | 2025-11-25 on (sampling) |
/// | `tool_result` | [`ToolResultContent`] | 2025-11-25 on (sampling) |
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum ContentBlock<'a> {
    /// `text`
    Text(TextContent<'a>),
    /// `image`
    Image(ImageContent<'a>),
    /// `audio` (2025-03-26 on)
    Audio(AudioContent<'a>),
    /// `resource_link` (2025-06-18 on)
    ResourceLink(ResourceLink<'a>),
    /// `resource`
    Resource(EmbeddedResource<'a>),
    /// `tool_use` (sampling, 2025-11-25 on)
    ToolUse(ToolUseContent<'a>),
    /// `tool_result` (sampling, 2025-11-25 on)
    ToolResult(ToolResultContent<'a>),
    /// A block with a `type` this crate does not know, kept raw (written back verbatim).
    Other(RawJson<'a>),
}

impl<'a> ContentBlock<'a> {
    /// Text content.
    pub const fn text(text: &'a str) -> Self {
        Self::Text(TextContent::new(text))
    }

    /// An image: base64 `data` of type `mime_type`.
    pub const fn image(data: &'a str, mime_type: &'a str) -> Self {
        Self::Image(ImageContent {
            data: JsonStr::from_text(data),
            mime_type: JsonStr::from_text(mime_type),
            annotations: None,
            meta: None,
        })
    }

    /// Audio: base64 `data` of type `mime_type`.
    pub const fn audio(data: &'a str, mime_type: &'a str) -> Self {
        Self::Audio(AudioContent {
            data: JsonStr::from_text(data),
            mime_type: JsonStr::from_text(mime_type),
            annotations: None,
            meta: None,
        })
    }

    /// A link to the resource at `uri` called `name`.
    pub const fn resource_link(uri: &'a str, name: &'a str) -> Self {
        Self::ResourceLink(ResourceLink {
            uri: JsonStr::from_text(uri),
            name: JsonStr::from_text(name),
            title: None,
            description: None,
            mime_type: None,
            annotations: None,
            size: None,
            icons: None,
            meta: None,
        })
    }

    /// Embedded resource contents.
    pub const fn resource(contents: ResourceContents<'a>) -> Self {
        Self::Resource(EmbeddedResource { resource: contents, annotations: None, meta: None })
    }

    /// The `type` tag.
    pub fn kind(&self) -> JsonStr<'a> {
        JsonStr::from_text(match self {
            Self::Text(_) => "text",
            Self::Image(_) => "image",
            Self::Audio(_) => "audio",
            Self::ResourceLink(_) => "resource_link",
            Self::Resource(_) => "resource",
            Self::ToolUse(_) => "tool_use",
            Self::ToolResult(_) => "tool_result",
            Self::Other(raw) => return raw.get("type").and_then(|t| t.as_str()).unwrap_or(JsonStr::from_text("")),
        })
    }

    /// The text, if this is a text block.
    pub fn as_text(&self) -> Option<JsonStr<'a>> {
        match self {
            Self::Text(t) => Some(t.text),
            _ => None,
        }
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for ContentBlock<'a> {
    /// Reads `type`, then decodes that variant. A missing or non-string `type` is an
    /// error; an unknown one is [`ContentBlock::Other`].
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        crate::wire::ahead::deserialize(d)
    }
}

impl<'de: 'a, 'a> ReadAhead<'de> for ContentBlock<'a> {
    /// `{"type":"text","text":…}`, those two in either order, then `annotations` and
    /// `_meta` if present; nothing else.
    fn ahead(input: &'de [u8]) -> Option<(Self, usize)> {
        let mut c = Cursor::new(input);
        c.byte(b'{')?;
        let text = if c.key(b"\"type\"").is_some() {
            c.quoted(b"\"text\"")?;
            c.member(b"\"text\"")?;
            c.string()?
        } else {
            // (as a map sorted by name writes it)
            c.key(b"\"text\"")?;
            let text = c.string()?;
            c.member(b"\"type\"")?;
            c.quoted(b"\"text\"")?;
            text
        };
        let text = match c.close() {
            Some(len) => (TextContent { text, annotations: None, meta: None }, len),
            None => text_extras(c, text)?,
        };
        Some((Self::Text(text.0), text.1))
    }

    fn general<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = crate::mcp::seq::object(d)?;
        let Some(tag) = raw.get("type").and_then(|t| t.as_str()) else {
            return Err(D::Error::missing_field("type"));
        };
        fn de<'a, T: Deserialize<'a>, E: serde::de::Error>(raw: RawJson<'a>) -> Result<T, E> {
            raw.decode().map_err(E::custom)
        }
        Ok(match () {
            _ if tag.eq_str("text") => Self::Text(de(raw)?),
            _ if tag.eq_str("image") => Self::Image(de(raw)?),
            _ if tag.eq_str("audio") => Self::Audio(de(raw)?),
            _ if tag.eq_str("resource_link") => Self::ResourceLink(de(raw)?),
            _ if tag.eq_str("resource") => Self::Resource(de(raw)?),
            _ if tag.eq_str("tool_use") => Self::ToolUse(de(raw)?),
            _ if tag.eq_str("tool_result") => Self::ToolResult(de(raw)?),
            _ => Self::Other(raw),
        })
    }
}

/// The rest of a read-ahead text block with more than its text: `annotations` and `_meta`,
/// once each, then its end (apart, to keep the common case short).
#[cold]
#[inline(never)]
fn text_extras<'a>(mut c: Cursor<'a>, text: JsonStr<'a>) -> Option<(TextContent<'a>, usize)> {
    let (mut annotations, mut meta) = (None, None);
    while c.byte(b',').is_some() {
        if annotations.is_none() && c.key(b"\"annotations\"").is_some() {
            annotations = Some(c.value::<Option<Annotations<'a>>>()?);
        } else if meta.is_none() && c.key(b"\"_meta\"").is_some() {
            meta = Some(c.value::<Option<Meta<'a>>>()?);
        } else {
            return None;
        }
    }
    let len = c.close()?;
    Some((TextContent { text, annotations: annotations.flatten(), meta: meta.flatten() }, len))
}

impl Serialize for ContentBlock<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Text(c) => c.serialize(s),
            Self::Image(c) => c.serialize(s),
            Self::Audio(c) => c.serialize(s),
            Self::ResourceLink(c) => c.serialize(s),
            Self::Resource(c) => c.serialize(s),
            Self::ToolUse(c) => c.serialize(s),
            Self::ToolResult(c) => c.serialize(s),
            Self::Other(raw) => raw.serialize(s),
        }
    }
}

/// The content of a tool call result: decoded blocks, a slice built for encoding, or one
/// block built for encoding (so `CallToolResult::text("5")` needs no array).
#[derive(Clone, Copy)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ContentList<'a> {
    repr: ListRepr<'a>,
}

#[derive(Clone, Copy)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[allow(clippy::large_enum_variant)] // no allocator to box with; the block is built on the stack
enum ListRepr<'a> {
    Items(Items<'a, ContentBlock<'a>>),
    One(ContentBlock<'a>),
}

impl<'a> ContentList<'a> {
    /// Blocks built for encoding.
    pub const fn from_slice(blocks: &'a [ContentBlock<'a>]) -> Self {
        Self { repr: ListRepr::Items(Items::from_slice(blocks)) }
    }

    /// One block.
    pub const fn one(block: ContentBlock<'a>) -> Self {
        Self { repr: ListRepr::One(block) }
    }

    /// The blocks as an [`Items`], unless this holds one block built for encoding.
    pub fn items(&self) -> Option<Items<'a, ContentBlock<'a>>> {
        match self.repr {
            ListRepr::Items(i) => Some(i),
            ListRepr::One(_) => None,
        }
    }

    /// The number of blocks.
    pub fn len(&self) -> usize {
        match self.repr {
            ListRepr::Items(i) => i.len(),
            ListRepr::One(_) => 1,
        }
    }

    /// Whether there are no blocks.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The blocks in order, each decoded when reached.
    pub fn iter(&self) -> impl Iterator<Item = Result<ContentBlock<'a>, crate::wire::DecodeError>> + use<'a> {
        let (one, many) = match self.repr {
            ListRepr::One(b) => (Some(Ok(b)), None),
            ListRepr::Items(items) => (None, Some(items.iter())),
        };
        one.into_iter().chain(many.into_iter().flatten())
    }

    /// The block at `index`, decoded.
    pub fn get(&self, index: usize) -> Option<Result<ContentBlock<'a>, crate::wire::DecodeError>> {
        self.iter().nth(index)
    }
}

impl<'a> From<Items<'a, ContentBlock<'a>>> for ContentList<'a> {
    fn from(items: Items<'a, ContentBlock<'a>>) -> Self {
        Self { repr: ListRepr::Items(items) }
    }
}

impl<'a> From<&'a [ContentBlock<'a>]> for ContentList<'a> {
    fn from(blocks: &'a [ContentBlock<'a>]) -> Self {
        Self::from_slice(blocks)
    }
}

impl PartialEq for ContentList<'_> {
    /// Equal when the blocks are, compared decoded.
    fn eq(&self, other: &Self) -> bool {
        let mut a = self.iter();
        let mut b = other.iter();
        loop {
            match (a.next(), b.next()) {
                (None, None) => return true,
                (Some(Ok(x)), Some(Ok(y))) if x == y => {}
                _ => return false,
            }
        }
    }
}

impl core::fmt::Debug for ContentList<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for ContentList<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Items::deserialize(d).map(Self::from)
    }
}

impl Serialize for ContentList<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match &self.repr {
            ListRepr::Items(i) => i.serialize(s),
            ListRepr::One(b) => s.collect_seq(core::iter::once(b)),
        }
    }
}

/// One content block or several: `SamplingMessage.content` (an array is allowed from
/// 2025-11-25 on). Which one it is follows from the JSON type, not from a guess.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[allow(clippy::large_enum_variant)] // no allocator to box with
pub enum OneOrMany<'a> {
    /// A single block (every version).
    One(ContentBlock<'a>),
    /// An array of blocks (2025-11-25 on).
    Many(Items<'a, ContentBlock<'a>>),
}

impl<'a> OneOrMany<'a> {
    /// The blocks in order (one, or each of many), decoded on demand.
    pub fn iter(&self) -> impl Iterator<Item = Result<ContentBlock<'a>, crate::wire::DecodeError>> + use<'a> {
        let (one, many) = match *self {
            Self::One(b) => (Some(Ok(b)), None),
            Self::Many(items) => (None, Some(items.iter())),
        };
        one.into_iter().chain(many.into_iter().flatten())
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for OneOrMany<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = RawJson::deserialize(d)?;
        match raw.kind() {
            JsonKind::Array => Ok(Self::Many(Items::from_raw(raw))),
            _ => raw.decode().map(Self::One).map_err(D::Error::custom),
        }
    }
}

impl Serialize for OneOrMany<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::One(b) => b.serialize(s),
            Self::Many(items) => items.serialize(s),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcp::server::resources::ResourceContents;

    fn block(text: &'static str) -> ContentBlock<'static> {
        RawJson::parse(text.as_bytes()).unwrap().decode().unwrap()
    }

    #[test]
    fn every_tag_from_the_schema_examples() {
        // schema/2026-07-28/examples/*Content*/…json
        let t = block(r#"{"type":"text","text":"Tool result text"}"#);
        assert_eq!(t.as_text().unwrap(), "Tool result text");
        let i = block(
            r#"{"type":"image","data":"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGBgAAAABQABpfZFQAAAAABJRU5ErkJggg==","mimeType":"image/png","annotations":{"audience":["user"],"priority":0.9}}"#,
        );
        let ContentBlock::Image(i) = i else { panic!() };
        assert_eq!(i.mime_type, "image/png");
        let ann = i.annotations.unwrap();
        assert_eq!(ann.priority.unwrap().as_text(), "0.9");
        assert_eq!(ann.priority.unwrap().as_f64(), Some(0.9));
        assert_eq!(ann.audience.unwrap().get(0).unwrap().unwrap(), MessageRole::User);
        assert!(matches!(
            block(r#"{"type":"audio","data":"UklGRiQA","mimeType":"audio/wav"}"#),
            ContentBlock::Audio(_)
        ));
        let l = block(
            r#"{"type":"resource_link","uri":"file:///project/src/main.rs","name":"main.rs","description":"Primary application entry point","mimeType":"text/x-rust"}"#,
        );
        let ContentBlock::ResourceLink(l) = l else { panic!() };
        assert_eq!(l.name, "main.rs");
        let e = block(
            r#"{"type":"resource","resource":{"uri":"file:///example.txt","mimeType":"text/plain","text":"Resource content"},"annotations":{"audience":["user","assistant"],"priority":0.7,"lastModified":"2025-05-03T14:30:00Z"}}"#,
        );
        let ContentBlock::Resource(e) = e else { panic!() };
        assert!(matches!(e.resource, ResourceContents::Text(t) if t.text == "Resource content"));
        let u = block(
            r#"{"type":"tool_use","id":"toolu_01A09q90qw90lq917835lq9","name":"get_weather","input":{"city":"Paris","units":"metric"}}"#,
        );
        let ContentBlock::ToolUse(u) = u else { panic!() };
        assert_eq!(u.input.get("city").unwrap().as_str().unwrap(), "Paris");
        let r = block(
            r#"{"type":"tool_result","toolUseId":"toolu_01A09q90qw90lq917835lq9","content":[{"type":"text","text":"18°C"}],"structuredContent":{"temperature":18},"isError":false}"#,
        );
        let ContentBlock::ToolResult(r) = r else { panic!() };
        assert_eq!(r.content.get(0).unwrap().unwrap().as_text().unwrap(), "18°C");
    }

    #[test]
    fn escapes_unknown_tags_and_unknown_fields() {
        let t = block(r#"{"text":"caf\u00e9 \ud83d\ude00 \"q\"\n","x-future":[1],"type":"t\u0065xt","_meta":{"k":1}}"#);
        assert_eq!(t.as_text().unwrap(), "café 😀 \"q\"\n");
        let ContentBlock::Text(tc) = t else { panic!() };
        assert_eq!(tc.meta.unwrap().get("k").unwrap().as_i64(), Some(1));
        let o = block(r#"{"type":"hologram","frames":3}"#);
        assert_eq!(o.kind(), "hologram");
        assert_eq!(serde_json::to_string(&o).unwrap(), r#"{"type":"hologram","frames":3}"#);
        assert!(RawJson::parse(br#"{"text":"no tag"}"#).unwrap().decode::<ContentBlock<'_>>().is_err());
        assert!(RawJson::parse(br#"{"type":"image","data":"x"}"#).unwrap().decode::<ContentBlock<'_>>().is_err());
    }

    #[test]
    fn constructors_write_the_tag() {
        let b = ContentBlock::text("hi \"there\"");
        assert_eq!(serde_json::to_string(&b).unwrap(), r#"{"type":"text","text":"hi \"there\""}"#);
        let b = ContentBlock::image("AAAA", "image/png");
        assert_eq!(serde_json::to_string(&b).unwrap(), r#"{"type":"image","data":"AAAA","mimeType":"image/png"}"#);
    }

    /// Members for the read-ahead differential test: names and values, the expected
    /// ones most often, with escapes, other types, unknown and duplicate members around.
    fn member_strategy() -> impl proptest::strategy::Strategy<Value = (&'static str, &'static str)> {
        use proptest::prelude::*;
        let names = prop::sample::select(std::vec![
            r#""type""#,
            r#""text""#,
            r#""uri""#,
            r#""mimeType""#,
            r#""blob""#,
            r#""annotations""#,
            r#""_meta""#,
            r#""resource""#,
            r#""t\u0065xt""#,
            r#""typ\u0065""#,
            r#""x""#,
        ]);
        let values = prop::sample::select(std::vec![
            r#""text""#,
            r#""resource""#,
            r#""image""#,
            r#""t\u0065xt""#,
            r#""hello world""#,
            r#""a \"q\" \n caf\u00e9 \ud83d\ude00""#,
            r#""file:///a.txt""#,
            r#""text/plain""#,
            r#""""#,
            "7",
            "null",
            "true",
            "[]",
            r#"["x"]"#,
            r#"{"k":1}"#,
            r#"{"audience":["user"],"priority":0.5}"#,
            r#"{"uri":"file:///b","text":"t"}"#,
        ]);
        (names, values)
    }

    fn ws_strategy() -> impl proptest::strategy::Strategy<Value = &'static str> {
        proptest::sample::select(std::vec!["", "", "", " ", "\n  ", "\t"])
    }

    /// An object: one of the read-ahead shapes (its values varied) or any members.
    fn object_strategy() -> impl proptest::strategy::Strategy<Value = std::string::String> {
        use proptest::prelude::*;
        let shapes = prop::sample::select(std::vec![
            std::vec![r#""type""#, r#""text""#],
            std::vec![r#""text""#, r#""type""#],
            std::vec![r#""type""#, r#""text""#, r#""annotations""#],
            std::vec![r#""type""#, r#""text""#, r#""_meta""#],
            std::vec![r#""type""#, r#""text""#, r#""annotations""#, r#""_meta""#],
            std::vec![r#""text""#, r#""type""#, r#""_meta""#, r#""annotations""#],
            std::vec![r#""type""#, r#""text""#, r#""_meta""#, r#""_meta""#],
            std::vec![r#""uri""#, r#""mimeType""#, r#""text""#],
            std::vec![r#""uri""#, r#""mimeType""#, r#""blob""#],
            std::vec![r#""uri""#, r#""text""#],
            std::vec![r#""uri""#, r#""blob""#],
        ]);
        let text = prop::sample::select(std::vec![
            r#""text""#,
            r#""plain words""#,
            r#""esc \"aped\"\n\u00e9""#,
            r#""file:///x.md""#,
            r#""text/markdown""#,
            r#""AAAA""#,
            "1",
            "null",
        ]);
        let object = prop::sample::select(std::vec![
            r#"{"audience":["user"],"priority":0.5}"#,
            r#"{"priority":0.25,"lastModified":"2025-01-01T00:00:00Z","audience":[]}"#,
            "{}",
            "null",
            r#"{"k":1}"#,
            r#"{"audience":"user"}"#,
            r#"{"priority":"high"}"#,
            r#""str""#,
            "[]",
        ]);
        // The shape, with now and then a member more (unknown, a duplicate, annotations,
        // `_meta`…) somewhere among its own.
        let extra = prop::option::weighted(0.3, (member_strategy(), 0..4usize));
        let values = prop::collection::vec((text, object), 4);
        let shaped =
            (shapes, values, prop::collection::vec(ws_strategy(), 16), extra).prop_map(|(names, values, ws, extra)| {
                let mut members: std::vec::Vec<std::string::String> = names
                    .iter()
                    .enumerate()
                    .map(|(i, name)| {
                        let value = if name.contains("annotations") || name.contains("_meta") {
                            values[i].1
                        } else {
                            values[i].0
                        };
                        std::format!("{}{name}{}:{}{value}", ws[4 * i + 1], ws[4 * i + 2], ws[4 * i + 3])
                    })
                    .collect();
                if let Some(((n, v), at)) = extra {
                    members.insert(at.min(members.len()), std::format!("{n}:{v}"));
                }
                let comma = std::format!("{},", ws[4]);
                std::format!("{}{{{}{}}}", ws[0], members.join(&comma), ws[15])
            });
        let any = prop::collection::vec((member_strategy(), ws_strategy()), 0..5).prop_map(|members| {
            let body: std::vec::Vec<_> =
                members.iter().map(|((n, v), w)| std::format!("{w}{n}{w}:{w}{v}{w}")).collect();
            std::format!("{{{}}}", body.join(","))
        });
        prop_oneof![2 => shaped, 1 => any]
    }

    /// Decodes `text` by read-ahead and the general way, alone and as array elements, and
    /// asserts equal results (values, or errors with their offsets).
    macro_rules! agree {
        ($ty:ident, $text:expr) => {{
            use crate::wire::ahead::GeneralOnly;
            let text: &str = $text;
            if let Ok(raw) = RawJson::parse(text.as_bytes()) {
                let fast = raw.decode::<$ty<'_>>();
                let general = raw.decode::<GeneralOnly<$ty<'_>>>().map(|g| g.0);
                assert_eq!(fast, general, "{text}");
                // In an array: each element's end is where the next one is looked for.
                let array = std::format!("[{text} , {text},{text}]");
                let raw = RawJson::parse(array.as_bytes()).unwrap();
                let fast: std::vec::Vec<_> = raw.decode::<Items<'_, $ty<'_>>>().unwrap().iter().collect();
                let general: std::vec::Vec<_> =
                    raw.decode::<Items<'_, GeneralOnly<$ty<'_>>>>().unwrap().iter().map(|r| r.map(|g| g.0)).collect();
                assert_eq!(fast, general, "{array}");
            }
        }};
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]
        /// The read-ahead decoders give what the general decoding gives, value or error.
        #[test]
        fn read_ahead_agrees_with_the_general_decoding(text in object_strategy()) {
            agree!(ContentBlock, &text);
            agree!(ResourceContents, &text);
        }
    }

    #[test]
    fn read_ahead_takes_the_common_shapes() {
        let text = br#"{"type": "text", "text": "a\nb"} ,"#;
        let got = ContentBlock::ahead(text).map(|(b, len)| (b.as_text().unwrap(), len));
        assert_eq!(got, Some((JsonStr::from_text("a\nb"), 32)));
        let text = br#"{"uri":"u","mimeType":"text/plain","text":"t"}"#;
        assert!(matches!(ResourceContents::ahead(text), Some((ResourceContents::Text(_), 46))));
        let text = br#"{"uri":"u","blob":"AAAA"}"#;
        assert!(matches!(ResourceContents::ahead(text), Some((ResourceContents::Blob(_), 25))));
        assert!(ContentBlock::ahead(br#"{"text":"a","type":"text"}"#).is_some());
        assert!(ContentBlock::ahead(br#"{"text":"a","type":"image"}"#).is_none());
        let text = br#"{"type":"text","text":"a","annotations":{"priority":0.5},"_meta":{"k":1}}"#;
        let Some((ContentBlock::Text(t), 73)) = ContentBlock::ahead(text) else { panic!() };
        assert_eq!(t.annotations.unwrap().priority.unwrap().as_text(), "0.5");
        assert!(t.meta.is_some());
        assert!(ContentBlock::ahead(br#"{"type":"text","text":"a","_meta":{},"_meta":{}}"#).is_none());
    }

    #[test]
    fn one_or_many() {
        let one: OneOrMany<'_> = RawJson::parse(br#"{"type":"text","text":"a"}"#).unwrap().decode().unwrap();
        assert_eq!(one.iter().count(), 1);
        let many: OneOrMany<'_> =
            RawJson::parse(br#"[{"type":"text","text":"a"},{"type":"text","text":"b"}]"#).unwrap().decode().unwrap();
        assert_eq!(many.iter().map(|b| b.unwrap().as_text().unwrap()).collect::<std::vec::Vec<_>>(), ["a", "b"]);
    }
}
