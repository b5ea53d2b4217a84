//! Prompts: what `prompts/list` shows and `prompts/get` answers.

use core::fmt::Display;

use serde::ser::{SerializeSeq, SerializeStruct};
use serde::{Serialize, Serializer};

use super::args_error::ArgumentsError;
use super::output::Text;
use super::resource::short_text;
use super::work::{Later, answer};
use crate::mcp::GetPromptResult;
use crate::session::IncomingRequest;
use crate::toolkit::schema::{Arguments, Node, Property};
use crate::wire::{ErrorCode, RawJson};

/// How `prompts/list` shows a prompt: its arguments are the members of a
/// [`schema!`](crate::schema) struct (each a string, as prompt arguments are).
#[derive(Clone, Copy, Debug)]
pub struct PromptInfo<'a> {
    /// Programmatic name.
    pub name: &'a str,
    /// Display name.
    pub title: Option<&'a str>,
    /// What it is for.
    pub description: Option<&'a str>,
    /// Its arguments.
    pub arguments: &'static [Property],
}

impl Serialize for PromptInfo<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        struct Args(&'static [Property]);
        impl Serialize for Args {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let mut seq = s.serialize_seq(Some(self.0.len()))?;
                for p in self.0 {
                    seq.serialize_element(&Arg(p))?;
                }
                seq.end()
            }
        }
        struct Arg(&'static Property);
        impl Serialize for Arg {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let mut st = s.serialize_struct("PromptArgument", 3)?;
                st.serialize_field("name", self.0.name)?;
                if let Some(d) = self.0.description {
                    st.serialize_field("description", d)?;
                }
                st.serialize_field("required", &self.0.required)?;
                st.end()
            }
        }
        let mut st = s.serialize_struct("Prompt", 4)?;
        st.serialize_field("name", self.name)?;
        if let Some(t) = self.title {
            st.serialize_field("title", t)?;
        }
        if let Some(d) = self.description {
            st.serialize_field("description", d)?;
        }
        st.serialize_field("arguments", &Args(self.arguments))?;
        st.end()
    }
}

/// One prompt: how `prompts/list` shows it and how `prompts/get` answers.
pub trait PromptHandler<S> {
    /// The prompt as listed.
    fn prompt(&self) -> PromptInfo<'_>;
    /// Answers a `prompts/get` of this prompt.
    fn get(&self, state: &mut S, get: Get<'_, '_>);
    /// Whether the prompt is offered to a request (as [`ToolHandler::offered`](super::ToolHandler::offered)
    /// for tools): one not offered is left out of `prompts/list` and unknown to `prompts/get`.
    fn offered(&self, modern: Option<crate::session::ModernRequest>) -> bool {
        let _ = modern;
        true
    }
}

/// One `prompts/get` to answer.
#[must_use = "a prompts/get must be answered"]
pub struct Get<'c, 'e> {
    pub(crate) request: &'c mut IncomingRequest<'e>,
    pub(crate) arguments: RawJson<'e>,
    pub(crate) later: &'c mut dyn Later,
}

impl<'c, 'e> Get<'c, 'e> {
    /// The `arguments` object (`{}` if there were none).
    pub fn arguments(&self) -> RawJson<'e> {
        self.arguments
    }

    /// The request.
    pub fn request(&self) -> &IncomingRequest<'e> {
        self.request
    }

    /// Answers with `output` (see [`PromptOutput`]).
    pub fn respond<T: PromptOutput + ?Sized>(self, output: &T) {
        match output.failure() {
            Some(e) => self.fail(ErrorCode::INVALID_PARAMS, e),
            None => answer(self.request, self.later, &AsPrompt(output)),
        }
    }

    /// Answers with a JSON-RPC error saying `message` (cut at 200 bytes).
    pub fn fail(self, code: ErrorCode, message: &dyn Display) {
        let _ = self.request.respond_error(code, &short_text(message));
    }

    /// Answers with a whole result of the handler's own making, sent as it is (a
    /// 2026-07-28 `input_required` round written by hand, say).
    pub fn respond_raw(self, result: RawJson<'_>) {
        answer(self.request, self.later, &result);
    }
}

/// What a prompt handler returns.
///
/// | returned | result |
/// |---|---|
/// | `&str`, `String`, [`Text`] | one user message with that text |
/// | [`GetPromptResult`] | as it is |
/// | `Result<T, E>` | `T`'s result, or for `Err(e)` a -32602 error saying `e` |
pub trait PromptOutput {
    /// Writes the `GetPromptResult`.
    fn write<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error>;
    /// Why the prompt cannot be given, if it cannot.
    fn failure(&self) -> Option<&dyn Display> {
        None
    }
}

struct AsPrompt<'a, T: ?Sized>(&'a T);

impl<T: PromptOutput + ?Sized> Serialize for AsPrompt<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.write(s)
    }
}

/// `{"messages":[{"role":"user","content":{"type":"text","text":…}}]}`
fn user_text<S: Serializer, D: Display + ?Sized>(s: S, text: &D) -> Result<S::Ok, S::Error> {
    struct Message<'a, D: ?Sized>(&'a D);
    impl<D: Display + ?Sized> Serialize for Message<'_, D> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let mut st = s.serialize_struct("PromptMessage", 2)?;
            st.serialize_field("role", "user")?;
            st.serialize_field("content", &super::output::TextBlock(&super::output::Displayed(self.0)))?;
            st.end()
        }
    }
    let mut st = s.serialize_struct("GetPromptResult", 1)?;
    st.serialize_field("messages", &[Message(text)])?;
    st.end()
}

impl PromptOutput for str {
    fn write<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        user_text(s, self)
    }
}

impl<T: PromptOutput + ?Sized> PromptOutput for &T {
    fn write<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (**self).write(s)
    }
    fn failure(&self) -> Option<&dyn Display> {
        (**self).failure()
    }
}

impl<D: Display> PromptOutput for Text<D> {
    fn write<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        user_text(s, &self.0)
    }
}

impl PromptOutput for GetPromptResult<'_> {
    fn write<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.serialize(s)
    }
}

impl<T: PromptOutput, E: Display> PromptOutput for Result<T, E> {
    fn write<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Ok(out) => out.write(s),
            Err(e) => user_text(s, e),
        }
    }
    fn failure(&self) -> Option<&dyn Display> {
        match self {
            Ok(out) => out.failure(),
            Err(e) => Some(e),
        }
    }
}

impl<const N: usize> PromptOutput for heapless::String<N> {
    fn write<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        user_text(s, self.as_str())
    }
}

#[cfg(feature = "alloc")]
impl PromptOutput for alloc::string::String {
    fn write<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        user_text(s, self.as_str())
    }
}

/// Whether every member is a string (or an enum of strings): what prompt arguments are.
pub(crate) const fn all_strings(fields: &[Property]) -> bool {
    let mut i = 0;
    while i < fields.len() {
        let node = match fields[i].node {
            Node::Nullable(inner) => inner,
            node => node,
        };
        if !matches!(node, Node::String { .. } | Node::Enum { .. }) {
            return false;
        }
        i += 1;
    }
    true
}

/// A prompt answered by a function of its typed arguments: `fn(&mut S, A) -> R`, `R` a
/// [`PromptOutput`]. Every member of `A` must be a string (prompt arguments are), which
/// is checked when the program is built.
pub struct PromptFn<A: Arguments, S, R> {
    name: &'static str,
    title: Option<&'static str>,
    description: Option<&'static str>,
    run: for<'a> fn(&mut S, A::Decoded<'a>) -> R,
}

impl<A: Arguments, S, R> PromptFn<A, S, R> {
    /// The prompt `name`, given by `run`.
    pub const fn new(name: &'static str, run: fn(&mut S, A) -> R) -> Self
    where
        A: for<'x> Arguments<Decoded<'x> = A>,
    {
        const { assert!(all_strings(A::FIELDS), "prompt arguments must be strings") };
        PromptFn { name, title: None, description: None, run }
    }

    /// The same for arguments that borrow from the request.
    pub const fn borrowed(name: &'static str, run: for<'a> fn(&mut S, A::Decoded<'a>) -> R) -> Self {
        const { assert!(all_strings(A::FIELDS), "prompt arguments must be strings") };
        PromptFn { name, title: None, description: None, run }
    }

    /// With a description.
    pub const fn description(mut self, description: &'static str) -> Self {
        self.description = Some(description);
        self
    }

    /// With a display title.
    pub const fn title(mut self, title: &'static str) -> Self {
        self.title = Some(title);
        self
    }
}

/// Decodes a prompt's arguments and answers bad ones (-32602); the arguments otherwise.
pub(crate) fn prompt_arguments<'c, 'e, A: Arguments>(
    name: &str,
    get: Get<'c, 'e>,
) -> Option<(A::Decoded<'e>, Get<'c, 'e>)> {
    match get.arguments.decode::<A::Decoded<'e>>() {
        Ok(args) => Some((args, get)),
        Err(e) => {
            get.fail(ErrorCode::INVALID_PARAMS, &ArgumentsError::new(name, e, A::FIELDS));
            None
        }
    }
}

impl<A: Arguments, S, R: PromptOutput> PromptHandler<S> for PromptFn<A, S, R> {
    fn prompt(&self) -> PromptInfo<'_> {
        PromptInfo { name: self.name, title: self.title, description: self.description, arguments: A::FIELDS }
    }

    fn get(&self, state: &mut S, get: Get<'_, '_>) {
        if let Some((args, get)) = prompt_arguments::<A>(self.name, get) {
            let output = (self.run)(state, args);
            get.respond(&output);
        }
    }
}
