//! [`Offered`]: a tool or prompt offered only while a condition holds.

use super::prompt::{Get, PromptHandler, PromptInfo};
use super::tool::{Call, ToolHandler};
use crate::mcp::Tool;
use crate::session::ModernRequest;
use crate::wire::JsonStr;

/// A condition of [`Offered`] that can sit in a `static`: a function of the request's
/// 2026-07-28 view (`None` in a handshake session).
pub type Condition = fn(Option<ModernRequest>) -> bool;

/// A tool or prompt `handler` offered only to the requests `when` accepts (it gets the
/// request's 2026-07-28 view, `None` in a handshake session): a feature switched on at
/// run time, or a tool of one era only. See [`ToolHandler::offered`].
///
/// ```
/// use core::sync::atomic::{AtomicBool, Ordering};
/// use mcp_sansio::toolkit::server::{Condition, Offered, Table, ToolFn, ToolHandler};
/// use mcp_sansio::toolkit::NoArguments;
/// static EXTRA_ON: AtomicBool = AtomicBool::new(false);
/// static EXTRA: Offered<ToolFn<NoArguments, (), &str>, Condition> =
///     Offered::new(ToolFn::new("extra", |_, NoArguments {}| "extra"), |_| EXTRA_ON.load(Ordering::Relaxed));
/// static TABLE: Table<'static, ()> = Table::new().tools(&[&EXTRA]);
/// assert!(!ToolHandler::<()>::offered(&EXTRA, None));
/// EXTRA_ON.store(true, Ordering::Relaxed);
/// assert!(ToolHandler::<()>::offered(&EXTRA, None));
/// ```
pub struct Offered<H, F> {
    handler: H,
    when: F,
}

impl<H, F> Offered<H, F> {
    /// `handler`, offered when `when` says so.
    pub const fn new(handler: H, when: F) -> Self {
        Offered { handler, when }
    }
}

impl<S, J, H, F> ToolHandler<S, J> for Offered<H, F>
where
    H: ToolHandler<S, J>,
    F: Fn(Option<ModernRequest>) -> bool,
{
    fn tool(&self) -> Tool<'_> {
        self.handler.tool()
    }

    fn name(&self) -> JsonStr<'_> {
        self.handler.name()
    }

    fn call(&self, state: &mut S, call: Call<'_, '_, J>) {
        self.handler.call(state, call)
    }

    fn offered(&self, modern: Option<ModernRequest>) -> bool {
        (self.when)(modern) && self.handler.offered(modern)
    }
}

impl<S, H, F> PromptHandler<S> for Offered<H, F>
where
    H: PromptHandler<S>,
    F: Fn(Option<ModernRequest>) -> bool,
{
    fn prompt(&self) -> PromptInfo<'_> {
        self.handler.prompt()
    }

    fn get(&self, state: &mut S, get: Get<'_, '_>) {
        self.handler.get(state, get)
    }

    fn offered(&self, modern: Option<ModernRequest>) -> bool {
        (self.when)(modern) && self.handler.offered(modern)
    }
}
