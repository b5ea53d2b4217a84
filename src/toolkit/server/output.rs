//! What a tool handler returns, and how it becomes a `tools/call` result.
//!
//! A handler returns a plain value; [`ToolOutput`] writes it as the result, straight into
//! the frame (no intermediate copy, no allocation): text for strings and numbers, an
//! `isError` result for `Err`, structured content for [`Json`].

use core::fmt::{self, Display};

use serde::ser::{SerializeSeq, SerializeStruct};
use serde::{Serialize, Serializer};

use crate::mcp::CallToolResult;
use crate::wire::JsonStr;

/// A value a tool handler can return: it writes itself as a `CallToolResult`.
///
/// | returned | result |
/// |---|---|
/// | `&str`, `String`, [`JsonStr`], [`Text`] (anything `Display`), numbers, `bool` | one text block |
/// | `()` | no content |
/// | [`Json`] | `structuredContent`, and the same JSON as text (with `alloc`) |
/// | [`CallToolResult`] | as it is |
/// | `Result<T, E>` | `T`'s result, or for `Err(e)` a text block with `e` and `isError: true`, which the model sees and can act on |
pub trait ToolOutput {
    /// Writes the `CallToolResult` object.
    fn write<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error>;

    /// Whether the object [`write`](Self::write) writes certainly has neither a
    /// `resultType` nor a `_meta` member, so that completing it for a 2026-07-28
    /// request needs no look at it. `false` (the default) is always correct.
    #[doc(hidden)]
    fn fresh(&self) -> bool {
        false
    }
}

/// A [`ToolOutput`] as a serializable result.
pub struct AsResult<'a, T: ?Sized>(pub &'a T);

impl<T: ToolOutput + ?Sized> Serialize for AsResult<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.write(s)
    }
}

/// Text for the model, from anything that displays (formatted straight into the frame).
#[derive(Clone, Copy, Debug)]
pub struct Text<D>(pub D);

/// A structured result: `structuredContent` is `T` (with `alloc`, the same JSON is also
/// given as text, which the specification asks of servers for clients that read only
/// `content`; without it `content` is empty).
#[derive(Clone, Copy, Debug)]
pub struct Json<T>(pub T);

/// A text result: `{"content":[{"type":"text","text":…}]}`, with `isError` if `error`;
/// `text` is any value that serializes as a string (`Displayed` for `Display` ones).
pub(crate) fn text_result<S: Serializer, T: Serialize + ?Sized>(
    s: S,
    text: &T,
    error: bool,
) -> Result<S::Ok, S::Error> {
    let mut st = s.serialize_struct("CallToolResult", 1 + usize::from(error))?;
    st.serialize_field("content", &[TextBlock(text)])?;
    if error {
        st.serialize_field("isError", &true)?;
    }
    st.end()
}

/// `{"type":"text","text":…}`.
pub(crate) struct TextBlock<'a, T: ?Sized>(pub &'a T);

impl<T: Serialize + ?Sized> Serialize for TextBlock<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("TextContent", 2)?;
        st.serialize_field("type", "text")?;
        st.serialize_field("text", self.0)?;
        st.end()
    }
}

/// A `Display` value as a JSON string, formatted as it is written.
pub(crate) struct Displayed<'a, D: ?Sized>(pub &'a D);

impl<D: Display + ?Sized> Serialize for Displayed<'_, D> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self.0)
    }
}

impl ToolOutput for str {
    fn write<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        text_result(s, self, false)
    }

    fn fresh(&self) -> bool {
        true
    }
}

/// Text as it came in a request: copied as it was sent, escapes and all.
impl ToolOutput for JsonStr<'_> {
    fn write<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        text_result(s, self, false)
    }

    fn fresh(&self) -> bool {
        true
    }
}

impl<T: ToolOutput + ?Sized> ToolOutput for &T {
    fn write<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (**self).write(s)
    }

    fn fresh(&self) -> bool {
        (**self).fresh()
    }
}

impl<D: Display> ToolOutput for Text<D> {
    fn write<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        text_result(s, &Displayed(&self.0), false)
    }

    fn fresh(&self) -> bool {
        true
    }
}

macro_rules! displayed {
    ($($t:ty),*) => {$(
        impl ToolOutput for $t {
            fn write<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                text_result(s, &Displayed(self), false)
            }

            fn fresh(&self) -> bool {
                true
            }
        }
    )*};
}
displayed!(u8, u16, u32, u64, usize, i8, i16, i32, i64, isize, f32, f64, bool);

impl<const N: usize> ToolOutput for heapless::String<N> {
    fn write<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        text_result(s, self.as_str(), false)
    }

    fn fresh(&self) -> bool {
        true
    }
}

impl ToolOutput for () {
    fn write<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("CallToolResult", 1)?;
        st.serialize_field("content", &[(); 0])?;
        st.end()
    }

    fn fresh(&self) -> bool {
        true
    }
}

impl ToolOutput for CallToolResult<'_> {
    fn write<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.serialize(s)
    }

    fn fresh(&self) -> bool {
        // Its other members are `content`, `structuredContent` and `isError`.
        self.result_type.is_none() && self.meta.is_none()
    }
}

impl<T: ToolOutput, E: Display> ToolOutput for Result<T, E> {
    fn write<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Ok(out) => out.write(s),
            Err(e) => text_result(s, &Displayed(e), true),
        }
    }

    fn fresh(&self) -> bool {
        self.as_ref().is_ok_and(T::fresh) || self.is_err()
    }
}

impl<T: Serialize> ToolOutput for Json<T> {
    fn write<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("CallToolResult", 2)?;
        st.serialize_field("content", &JsonContent(&self.0))?;
        st.serialize_field("structuredContent", &self.0)?;
        st.end()
    }

    fn fresh(&self) -> bool {
        true
    }
}

/// `content` of a [`Json`] result.
struct JsonContent<'a, T>(&'a T);

impl<T: Serialize> Serialize for JsonContent<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[cfg(feature = "alloc")]
        if let Some(text) = crate::toolkit::server::owned::to_text(self.0) {
            return [TextBlock(text.as_str())].serialize(s);
        }
        let _ = self.0;
        s.serialize_seq(Some(0))?.end()
    }
}

#[cfg(feature = "alloc")]
impl ToolOutput for alloc::string::String {
    fn write<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        text_result(s, self.as_str(), false)
    }

    fn fresh(&self) -> bool {
        true
    }
}

#[cfg(feature = "alloc")]
impl<T: ToolOutput + ?Sized> ToolOutput for alloc::boxed::Box<T> {
    fn write<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (**self).write(s)
    }

    fn fresh(&self) -> bool {
        (**self).fresh()
    }
}

/// A tool call stopped because the client cancelled it (what [`Job::check`] and friends
/// return). Nothing is sent for a cancelled request, whatever the handler returns.
///
/// [`Job::check`]: crate::toolkit::server::Job::check
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cancelled;

impl Display for Cancelled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the call was cancelled")
    }
}

impl core::error::Error for Cancelled {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcp::{Meta, ResultType};
    use crate::wire::RawJson;

    /// Whether `output`'s object has a top-level `resultType` or `_meta`.
    fn names_them<T: ToolOutput + ?Sized>(output: &T) -> bool {
        let bytes = serde_json::to_vec(&AsResult(output)).unwrap();
        let object = RawJson::parse(&bytes).unwrap();
        object.members().any(|(k, _)| k.eq_str("resultType") || k.eq_str("_meta"))
    }

    /// `fresh` is never claimed for an object that has `resultType` or `_meta` (the
    /// completion of a stateless result would then add a second one), and is claimed for
    /// what the toolkit writes itself.
    #[test]
    fn fresh_outputs_name_neither_result_type_nor_meta() {
        let meta = RawJson::parse(br#"{"k":1}"#).unwrap();
        let plain = CallToolResult::text("x");
        let with_meta = CallToolResult { meta: Some(Meta::from_raw(meta)), ..plain };
        let typed = CallToolResult { result_type: Some(ResultType::Complete), ..plain };
        let ok: Result<CallToolResult<'_>, &str> = Ok(with_meta);
        let failed: Result<CallToolResult<'_>, &str> = Err("no");
        // (fresh, whether it names them, what fresh should be)
        let cases = [
            ("hi".fresh(), names_them("hi"), true),
            (5u8.fresh(), names_them(&5u8), true),
            (().fresh(), names_them(&()), true),
            (Json([1]).fresh(), names_them(&Json([1])), true),
            (plain.fresh(), names_them(&plain), true),
            (with_meta.fresh(), names_them(&with_meta), false),
            (typed.fresh(), names_them(&typed), false),
            (ok.fresh(), names_them(&ok), false),
            (<&_ as ToolOutput>::fresh(&&failed), names_them(&failed), true),
        ];
        for (i, (fresh, named, want)) in cases.into_iter().enumerate() {
            assert_eq!(fresh, want, "case {i}");
            assert!(!(fresh && named), "case {i}: fresh but it names them");
        }
    }
}
