//! What a server offers: a table of handlers, `static` (in flash) or built at run time.

use super::complete::Completer;
use super::dispatch::{Kind, Kinds};
use super::prompt::PromptHandler;
use super::resource::{ResourceHandler, TemplateHandler};
use super::step::NoJob;
use super::tool::ToolHandler;
use crate::mcp::Resource;
use crate::wire::JsonStr;

/// A server's handlers, by kind: what a microcontroller keeps in flash as a `static`.
///
/// ```
/// use mcp_sansio::mcp::Resource;
/// use mcp_sansio::toolkit::server::{ResourceFn, Table, ToolFn};
/// mcp_sansio::schema! {
///     #[derive(serde::Deserialize)]
///     pub struct Blink { times: u8 }
/// }
/// pub struct Board { led: bool }
/// static BLINK: ToolFn<Blink, Board, &str> = ToolFn::new("blink", |board, Blink { times }| {
///     board.led = times % 2 == 1;
///     "done"
/// });
/// static STATE: ResourceFn<Board, &str> =
///     ResourceFn::new(Resource::new("board://led", "led"), |board| if board.led { "on" } else { "off" });
/// static TABLE: Table<'static, Board> = Table::new().tools(&[&BLINK]).resources(&[&STATE]);
/// ```
///
/// Only the kinds of handlers a table has are linked: the builder methods (`tools`,
/// `resources`…) bring their kind's dispatch with them.
pub struct Table<'t, S, J = NoJob> {
    pub(crate) tools: &'t [&'t (dyn ToolHandler<S, J> + Sync)],
    pub(crate) resources: &'t [&'t (dyn ResourceHandler<S> + Sync)],
    pub(crate) templates: &'t [&'t (dyn TemplateHandler<S> + Sync)],
    pub(crate) prompts: &'t [&'t (dyn PromptHandler<S> + Sync)],
    pub(crate) completions: &'t [&'t (dyn Completer<S> + Sync)],
    pub(crate) kinds: Kinds<'t, S, J>,
}

impl<S, J> Clone for Table<'_, S, J> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S, J> Copy for Table<'_, S, J> {}

impl<'t, S, J> Table<'t, S, J> {
    /// An empty table.
    pub const fn new() -> Self {
        Table { tools: &[], resources: &[], templates: &[], prompts: &[], completions: &[], kinds: Kinds::NONE }
    }

    /// With these tools.
    pub const fn tools(mut self, tools: &'t [&'t (dyn ToolHandler<S, J> + Sync)]) -> Self {
        self.tools = tools;
        self.kinds.tools = Some(Kind::TOOLS);
        self
    }

    /// With these resources.
    pub const fn resources(mut self, resources: &'t [&'t (dyn ResourceHandler<S> + Sync)]) -> Self {
        self.resources = resources;
        self.kinds.resources = Some(Kind::RESOURCES);
        self
    }

    /// With these resource templates.
    pub const fn templates(mut self, templates: &'t [&'t (dyn TemplateHandler<S> + Sync)]) -> Self {
        self.templates = templates;
        self.kinds.resources = Some(Kind::RESOURCES);
        self
    }

    /// With these prompts.
    pub const fn prompts(mut self, prompts: &'t [&'t (dyn PromptHandler<S> + Sync)]) -> Self {
        self.prompts = prompts;
        self.kinds.prompts = Some(Kind::PROMPTS);
        self
    }

    /// With these completers.
    pub const fn completions(mut self, completions: &'t [&'t (dyn Completer<S> + Sync)]) -> Self {
        self.completions = completions;
        self.kinds.completions = Some(Kind::COMPLETIONS);
        self
    }
}

impl<S, J> Default for Table<'_, S, J> {
    fn default() -> Self {
        Self::new()
    }
}

/// Handlers made at run time (the builder's).
#[cfg(feature = "alloc")]
pub(crate) struct Owned<'t, S, J> {
    pub tools: alloc::vec::Vec<alloc::boxed::Box<dyn ToolHandler<S, J> + 't>>,
    pub resources: alloc::vec::Vec<alloc::boxed::Box<dyn ResourceHandler<S> + 't>>,
    pub templates: alloc::vec::Vec<alloc::boxed::Box<dyn TemplateHandler<S> + 't>>,
    pub prompts: alloc::vec::Vec<alloc::boxed::Box<dyn PromptHandler<S> + 't>>,
    pub completions: alloc::vec::Vec<alloc::boxed::Box<dyn Completer<S> + 't>>,
    pub kinds: Kinds<'t, S, J>,
}

#[cfg(feature = "alloc")]
impl<S, J> Default for Owned<'_, S, J> {
    fn default() -> Self {
        Owned {
            tools: alloc::vec::Vec::new(),
            resources: alloc::vec::Vec::new(),
            templates: alloc::vec::Vec::new(),
            prompts: alloc::vec::Vec::new(),
            completions: alloc::vec::Vec::new(),
            kinds: Kinds::NONE,
        }
    }
}

/// Every handler of a server: the table's, then the builder's.
pub(crate) struct Items<'t, S, J> {
    pub table: Table<'t, S, J>,
    #[cfg(feature = "alloc")]
    pub owned: Owned<'t, S, J>,
}

/// Accessors over both parts: how many there are, and handler `i`.
macro_rules! both {
    ($count:ident, $get:ident, $iter:ident, $field:ident, $trait:ident < $($p:ident),* >) => {
        pub fn $count(&self) -> usize {
            #[cfg(feature = "alloc")]
            let owned = self.owned.$field.len();
            #[cfg(not(feature = "alloc"))]
            let owned = 0;
            self.table.$field.len() + owned
        }

        pub fn $get(&self, i: usize) -> Option<&(dyn $trait<$($p),*> + 't)> {
            match self.table.$field.get(i) {
                Some(&h) => Some(h),
                #[cfg(feature = "alloc")]
                None => self.owned.$field.get(i - self.table.$field.len()).map(|b| &**b),
                #[cfg(not(feature = "alloc"))]
                None => None,
            }
        }

        pub fn $iter(&self) -> impl Iterator<Item = &(dyn $trait<$($p),*> + 't)> + Clone + '_ {
            (0..self.$count()).filter_map(|i| self.$get(i))
        }
    };
}

impl<'t, S, J> Items<'t, S, J> {
    /// The kinds of handlers there are.
    pub fn kinds(&self) -> Kinds<'t, S, J> {
        #[cfg(feature = "alloc")]
        return self.table.kinds.or(self.owned.kinds);
        #[cfg(not(feature = "alloc"))]
        return self.table.kinds;
    }

    both!(tool_count, tool, tools, tools, ToolHandler<S, J>);
    both!(set_count, set, sets, resources, ResourceHandler<S>);
    both!(template_count, template, templates, templates, TemplateHandler<S>);
    both!(prompt_count, prompt, prompts, prompts, PromptHandler<S>);
    both!(completer_count, completer, completers, completions, Completer<S>);

    /// Resources in all sets.
    pub fn resource_count(&self) -> usize {
        self.sets().map(|s| s.len()).sum()
    }

    /// Resource `i` of the whole list.
    pub fn resource(&self, mut i: usize) -> Option<Resource<'_>> {
        for set in self.sets() {
            let len = set.len();
            if i < len {
                return set.resource(i);
            }
            i -= len;
        }
        None
    }

    /// The set holding `uri`, and its index there.
    pub fn find_resource(&self, uri: JsonStr<'_>) -> Option<(&(dyn ResourceHandler<S> + 't), usize)> {
        self.sets().find_map(|set| set.find(uri).map(|i| (set, i)))
    }
}
