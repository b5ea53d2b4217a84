//! Resources and resource templates: what `resources/list`, `resources/templates/list`
//! and `resources/read` serve.

use core::fmt::{self, Display, Write as _};

use serde::ser::{SerializeSeq, SerializeStruct};
use serde::{Serialize, Serializer};

use super::output::{Displayed, Text};
use super::uri_template::Vars;
use super::work::{Later, answer};
use crate::mcp::{ReadResourceResult, Resource, ResourceTemplate};
use crate::session::IncomingRequest;
use crate::wire::{ErrorCode, JsonStr};

/// A set of resources (one, or a family served by one handler): how `resources/list`
/// shows them and how `resources/read` reads one.
///
/// [`ResourceFn`] (one resource) and [`ResourceList`] (a static list, one reader) can sit
/// in a `static` table; the [`ServerBuilder`](super::ServerBuilder) adds closures.
pub trait ResourceHandler<S> {
    /// How many resources the set holds.
    fn len(&self) -> usize {
        1
    }
    /// Whether the set is empty.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Resource `index` of the set (`0..len()`).
    fn resource(&self, index: usize) -> Option<Resource<'_>>;
    /// The index of the resource at `uri`, if the set has it.
    fn find(&self, uri: JsonStr<'_>) -> Option<usize> {
        (0..self.len()).find(|&i| self.resource(i).is_some_and(|r| r.uri == uri))
    }
    /// Answers a read of resource `index`.
    fn read(&self, state: &mut S, index: usize, read: Read<'_, '_>);
}

/// A family of resources named by a URI template: how `resources/templates/list` shows it
/// and how a read of a matching URI is answered (see
/// [`match_template`](super::match_template) for what matches).
pub trait TemplateHandler<S> {
    /// The template.
    fn template(&self) -> ResourceTemplate<'_>;
    /// Answers a read of a URI that matched, with the template's variables.
    fn read(&self, state: &mut S, vars: &Vars<'_>, read: Read<'_, '_>);
}

/// One `resources/read` to answer.
#[must_use = "a read must be answered"]
pub struct Read<'c, 'e> {
    pub(crate) request: &'c mut IncomingRequest<'e>,
    pub(crate) uri: JsonStr<'e>,
    pub(crate) later: &'c mut dyn Later,
}

impl<'c, 'e> Read<'c, 'e> {
    /// The URI read.
    pub fn uri(&self) -> JsonStr<'e> {
        self.uri
    }

    /// The request.
    pub fn request(&self) -> &IncomingRequest<'e> {
        self.request
    }

    /// Answers with `output` (see [`ResourceOutput`]), whose contents carry the URI read
    /// and `mime_type`.
    pub fn respond<T: ResourceOutput + ?Sized>(self, output: &T, mime_type: Option<JsonStr<'_>>) {
        if let Some(e) = output.failure() {
            return self.fail(ErrorCode::INTERNAL_ERROR, e);
        }
        answer(self.request, self.later, &Contents { uri: self.uri, mime_type, output });
    }

    /// Answers "Resource not found" (-32602, with the URI as `data`).
    pub fn not_found(self) {
        #[derive(Serialize)]
        struct Data<'a> {
            uri: JsonStr<'a>,
        }
        let _ = self.request.respond_error_with_data(
            ErrorCode::INVALID_PARAMS,
            "Resource not found",
            &Data { uri: self.uri },
        );
    }

    /// Answers with a JSON-RPC error whose message is `message` (cut at 200 bytes).
    pub fn fail(self, code: ErrorCode, message: &dyn Display) {
        let _ = self.request.respond_error(code, &short_text(message));
    }
}

/// `message` in a fixed buffer, cut at a character boundary if longer.
pub(crate) fn short_text(message: &dyn Display) -> heapless::String<200> {
    struct Cut(heapless::String<200>);
    impl fmt::Write for Cut {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            for c in s.chars() {
                if self.0.push(c).is_err() {
                    return Err(fmt::Error);
                }
            }
            Ok(())
        }
    }
    let mut cut = Cut(heapless::String::new());
    let _ = write!(cut, "{message}");
    cut.0
}

/// What a resource read returns: the contents of the URI read.
///
/// | returned | contents |
/// |---|---|
/// | `&str`, `String`, [`Text`] | one text item |
/// | [`Blob`] | one base64 blob item |
/// | [`ReadResourceResult`] | as it is |
/// | `Result<T, E>` | `T`'s contents, or for `Err(e)` a -32603 error saying `e` |
pub trait ResourceOutput {
    /// Writes the `ReadResourceResult` for `uri`.
    fn write<S: Serializer>(&self, uri: JsonStr<'_>, mime_type: Option<JsonStr<'_>>, s: S) -> Result<S::Ok, S::Error>;
    /// Why the read failed, if it did.
    fn failure(&self) -> Option<&dyn Display> {
        None
    }
}

/// Binary contents, base64-encoded.
#[derive(Clone, Copy, Debug)]
pub struct Blob<D>(pub D);

struct Contents<'a, 'u, T: ?Sized> {
    uri: JsonStr<'u>,
    mime_type: Option<JsonStr<'u>>,
    output: &'a T,
}

impl<T: ResourceOutput + ?Sized> Serialize for Contents<'_, '_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.output.write(self.uri, self.mime_type, s)
    }
}

/// `{"contents":[{"uri":…,"mimeType":…,"<field>":…}]}`
fn one_item<S: Serializer, D: Display + ?Sized>(
    s: S,
    uri: JsonStr<'_>,
    mime_type: Option<JsonStr<'_>>,
    field: &'static str,
    value: &D,
) -> Result<S::Ok, S::Error> {
    struct Item<'a, 'u, D: ?Sized> {
        uri: JsonStr<'u>,
        mime_type: Option<JsonStr<'u>>,
        field: &'static str,
        value: &'a D,
    }
    impl<D: Display + ?Sized> Serialize for Item<'_, '_, D> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut st = s.serialize_struct("ResourceContents", 3)?;
            st.serialize_field("uri", &self.uri)?;
            if let Some(m) = &self.mime_type {
                st.serialize_field("mimeType", m)?;
            }
            st.serialize_field(self.field, &Displayed(self.value))?;
            st.end()
        }
    }
    struct One<'a, 'u, D: ?Sized>(Item<'a, 'u, D>);
    impl<D: Display + ?Sized> Serialize for One<'_, '_, D> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut seq = s.serialize_seq(Some(1))?;
            seq.serialize_element(&self.0)?;
            seq.end()
        }
    }
    let mut st = s.serialize_struct("ReadResourceResult", 1)?;
    st.serialize_field("contents", &One(Item { uri, mime_type, field, value }))?;
    st.end()
}

impl ResourceOutput for str {
    fn write<S: Serializer>(&self, uri: JsonStr<'_>, mime: Option<JsonStr<'_>>, s: S) -> Result<S::Ok, S::Error> {
        one_item(s, uri, mime, "text", self)
    }
}

impl<T: ResourceOutput + ?Sized> ResourceOutput for &T {
    fn write<S: Serializer>(&self, uri: JsonStr<'_>, mime: Option<JsonStr<'_>>, s: S) -> Result<S::Ok, S::Error> {
        (**self).write(uri, mime, s)
    }
    fn failure(&self) -> Option<&dyn Display> {
        (**self).failure()
    }
}

impl<D: Display> ResourceOutput for Text<D> {
    fn write<S: Serializer>(&self, uri: JsonStr<'_>, mime: Option<JsonStr<'_>>, s: S) -> Result<S::Ok, S::Error> {
        one_item(s, uri, mime, "text", &self.0)
    }
}

impl<D: Display> ResourceOutput for Blob<D> {
    fn write<S: Serializer>(&self, uri: JsonStr<'_>, mime: Option<JsonStr<'_>>, s: S) -> Result<S::Ok, S::Error> {
        one_item(s, uri, mime, "blob", &self.0)
    }
}

impl ResourceOutput for ReadResourceResult<'_> {
    fn write<S: Serializer>(&self, _: JsonStr<'_>, _: Option<JsonStr<'_>>, s: S) -> Result<S::Ok, S::Error> {
        self.serialize(s)
    }
}

impl<T: ResourceOutput, E: Display> ResourceOutput for Result<T, E> {
    fn write<S: Serializer>(&self, uri: JsonStr<'_>, mime: Option<JsonStr<'_>>, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Ok(out) => out.write(uri, mime, s),
            // Never written: `failure` is checked first.
            Err(e) => one_item(s, uri, mime, "text", e),
        }
    }
    fn failure(&self) -> Option<&dyn Display> {
        match self {
            Ok(out) => out.failure(),
            Err(e) => Some(e),
        }
    }
}

impl<const N: usize> ResourceOutput for heapless::String<N> {
    fn write<S: Serializer>(&self, uri: JsonStr<'_>, mime: Option<JsonStr<'_>>, s: S) -> Result<S::Ok, S::Error> {
        one_item(s, uri, mime, "text", self.as_str())
    }
}

#[cfg(feature = "alloc")]
impl ResourceOutput for alloc::string::String {
    fn write<S: Serializer>(&self, uri: JsonStr<'_>, mime: Option<JsonStr<'_>>, s: S) -> Result<S::Ok, S::Error> {
        one_item(s, uri, mime, "text", self.as_str())
    }
}

/// One resource, read by `fn(&mut S) -> R`. Made in a `const`, so it can sit in a
/// `static` table.
pub struct ResourceFn<S, R> {
    resource: Resource<'static>,
    read: fn(&mut S) -> R,
}

impl<S, R> ResourceFn<S, R> {
    /// `resource`, read by `read`.
    pub const fn new(resource: Resource<'static>, read: fn(&mut S) -> R) -> Self {
        ResourceFn { resource, read }
    }
}

impl<S, R: ResourceOutput> ResourceHandler<S> for ResourceFn<S, R> {
    fn resource(&self, index: usize) -> Option<Resource<'_>> {
        (index == 0).then_some(self.resource)
    }

    fn read(&self, state: &mut S, _: usize, read: Read<'_, '_>) {
        let output = (self.read)(state);
        read.respond(&output, self.resource.mime_type);
    }
}

/// A static list of resources, read by one `fn(&mut S, index) -> R`.
pub struct ResourceList<S, R> {
    list: &'static [Resource<'static>],
    read: fn(&mut S, usize) -> R,
}

impl<S, R> ResourceList<S, R> {
    /// The resources of `list`, resource `i` read by `read(state, i)`.
    pub const fn new(list: &'static [Resource<'static>], read: fn(&mut S, usize) -> R) -> Self {
        ResourceList { list, read }
    }
}

impl<S, R: ResourceOutput> ResourceHandler<S> for ResourceList<S, R> {
    fn len(&self) -> usize {
        self.list.len()
    }

    fn resource(&self, index: usize) -> Option<Resource<'_>> {
        self.list.get(index).copied()
    }

    fn read(&self, state: &mut S, index: usize, read: Read<'_, '_>) {
        let output = (self.read)(state, index);
        read.respond(&output, self.list.get(index).and_then(|r| r.mime_type));
    }
}

/// A resource template read by `fn(&mut S, &Vars) -> R`. Made in a `const`.
pub struct TemplateFn<S, R> {
    template: ResourceTemplate<'static>,
    read: fn(&mut S, &Vars<'_>) -> R,
}

impl<S, R> TemplateFn<S, R> {
    /// `template`, a read of a matching URI answered by `read`.
    pub const fn new(template: ResourceTemplate<'static>, read: fn(&mut S, &Vars<'_>) -> R) -> Self {
        TemplateFn { template, read }
    }
}

impl<S, R: ResourceOutput> TemplateHandler<S> for TemplateFn<S, R> {
    fn template(&self) -> ResourceTemplate<'_> {
        self.template
    }

    fn read(&self, state: &mut S, vars: &Vars<'_>, read: Read<'_, '_>) {
        let output = (self.read)(state, vars);
        read.respond(&output, self.template.mime_type);
    }
}
