//! Completions: `completion/complete` for prompt arguments and template variables.

use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};

use super::output::Displayed;
use crate::mcp::{CompletionContext, CompletionReference};
use crate::session::IncomingRequest;
use crate::wire::JsonStr;

/// The most values one answer holds (the specification's limit).
pub const MAX_COMPLETIONS: usize = 100;

/// What a completion is for: a prompt's argument or a resource template's variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// The argument of the prompt with this name.
    Prompt(&'static str),
    /// The variable of the resource template with this URI template.
    Template(&'static str),
}

impl Target {
    /// Whether `reference` names this target.
    pub fn matches(&self, reference: &CompletionReference<'_>) -> bool {
        match (self, reference) {
            (Target::Prompt(name), CompletionReference::Prompt(r)) => r.name == *name,
            (Target::Template(uri), CompletionReference::Resource(r)) => r.uri == *uri,
            _ => false,
        }
    }
}

/// Completes one argument (of a prompt, or one variable of a template).
pub trait Completer<S> {
    /// What it completes, and which argument.
    fn target(&self) -> (Target, &str);
    /// Answers with the values for what the user has typed so far, `value`.
    fn complete(
        &self,
        state: &mut S,
        value: JsonStr<'_>,
        context: Option<CompletionContext<'_>>,
        reply: Complete<'_, '_>,
    );
}

/// One `completion/complete` to answer.
#[must_use = "a completion request must be answered"]
pub struct Complete<'c, 'e> {
    pub(crate) request: &'c mut IncomingRequest<'e>,
}

impl Complete<'_, '_> {
    /// Answers with `values` (at most [`MAX_COMPLETIONS`] of them are sent; `total` and
    /// `hasMore` say how many there were).
    pub fn respond<I>(self, values: I)
    where
        I: IntoIterator + Clone,
        I::Item: core::fmt::Display,
    {
        let _ = self.request.respond(&Completion(values));
    }

    /// Answers with no values.
    pub fn none(self) {
        self.respond(core::iter::empty::<&str>());
    }
}

struct Completion<I>(I);

impl<I> Serialize for Completion<I>
where
    I: IntoIterator + Clone,
    I::Item: core::fmt::Display,
{
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        struct Values<I>(I);
        impl<I> Serialize for Values<I>
        where
            I: IntoIterator + Clone,
            I::Item: core::fmt::Display,
        {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_seq(self.0.clone().into_iter().take(MAX_COMPLETIONS).map(Shown))
            }
        }
        struct Shown<D>(D);
        impl<D: core::fmt::Display> Serialize for Shown<D> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                Displayed(&self.0).serialize(s)
            }
        }
        struct Inner<I>(I);
        impl<I> Serialize for Inner<I>
        where
            I: IntoIterator + Clone,
            I::Item: core::fmt::Display,
        {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                let total = self.0.clone().into_iter().count();
                let mut st = s.serialize_struct("Completion", 3)?;
                st.serialize_field("values", &Values(self.0.clone()))?;
                st.serialize_field("total", &total)?;
                st.serialize_field("hasMore", &(total > MAX_COMPLETIONS))?;
                st.end()
            }
        }
        let mut st = s.serialize_struct("CompleteResult", 1)?;
        st.serialize_field("completion", &Inner(self.0.clone()))?;
        st.end()
    }
}

/// Completion from a fixed list: the values that start with what was typed.
pub struct CompleteFrom {
    target: Target,
    argument: &'static str,
    values: &'static [&'static str],
}

impl CompleteFrom {
    /// Completes `argument` of `target` from `values`.
    pub const fn new(target: Target, argument: &'static str, values: &'static [&'static str]) -> Self {
        CompleteFrom { target, argument, values }
    }
}

/// The values of `values` that start with `typed`.
pub fn starting_with<'v>(values: &'v [&'v str], typed: JsonStr<'_>) -> impl Iterator<Item = &'v str> + Clone + 'v {
    let mut prefix = [0u8; 64];
    let (prefix, len) = match typed.unescape_into(&mut prefix) {
        Ok(p) => {
            let len = p.len();
            (prefix, len)
        }
        // Longer than any sensible value: nothing completes it.
        Err(_) => ([0xff; 64], 64),
    };
    values.iter().copied().filter(move |v| v.as_bytes().starts_with(&prefix[..len]))
}

impl<S> Completer<S> for CompleteFrom {
    fn target(&self) -> (Target, &str) {
        (self.target, self.argument)
    }

    fn complete(&self, _: &mut S, value: JsonStr<'_>, _: Option<CompletionContext<'_>>, reply: Complete<'_, '_>) {
        reply.respond(starting_with(self.values, value));
    }
}
