//! Listing: pages of every list, with signed cursors.
//!
//! Each list has a cursor key of its own (a cursor of one list is no good for another)
//! and an epoch that [`Server::changed`](super::Server::changed) moves on, so that a
//! cursor from before a change is refused as stale rather than skipping or repeating
//! items.

use core::ops::Range;

use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};

use crate::session::{Cursor, CursorCodec, CursorError};
use crate::wire::RawJson;

/// The lists a server serves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum List {
    /// `tools/list`
    Tools = 0,
    /// `resources/list`
    Resources = 1,
    /// `resources/templates/list`
    Templates = 2,
    /// `prompts/list`
    Prompts = 3,
}

impl List {
    /// The member a page's items go under.
    pub const fn field(self) -> &'static str {
        match self {
            List::Tools => "tools",
            List::Resources => "resources",
            List::Templates => "resourceTemplates",
            List::Prompts => "prompts",
        }
    }

    /// The request that lists it.
    pub const fn method(self) -> &'static str {
        match self {
            List::Tools => "tools/list",
            List::Resources => "resources/list",
            List::Templates => "resources/templates/list",
            List::Prompts => "prompts/list",
        }
    }

    /// The list a list request is for.
    pub fn of(method: crate::mcp::Method<'_>) -> Option<List> {
        use crate::mcp::Method;
        match method {
            Method::ToolsList => Some(List::Tools),
            Method::ResourcesList => Some(List::Resources),
            Method::ResourcesTemplatesList => Some(List::Templates),
            Method::PromptsList => Some(List::Prompts),
            _ => None,
        }
    }

    /// `notifications/…/list_changed`.
    pub(crate) const fn changed_method(self) -> &'static str {
        match self {
            List::Tools => "notifications/tools/list_changed",
            List::Resources | List::Templates => "notifications/resources/list_changed",
            List::Prompts => "notifications/prompts/list_changed",
        }
    }
}

/// How lists are cut into pages.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Paging {
    pub key: [u8; 16],
    pub page_size: usize,
    pub epochs: [u32; 4],
}

/// Items per page unless set.
pub const DEFAULT_PAGE_SIZE: usize = 100;

impl Paging {
    pub(crate) const fn new() -> Self {
        Paging { key: [0; 16], page_size: DEFAULT_PAGE_SIZE, epochs: [0; 4] }
    }

    fn codec(&self, list: List) -> CursorCodec {
        let mut key = self.key;
        key[15] ^= list as u8 + 1;
        CursorCodec::new(key).with_epoch(self.epochs[list as usize])
    }

    /// The items a list request asks for, and the cursor of the next page.
    pub(crate) fn page(
        &self,
        list: List,
        params: Option<RawJson<'_>>,
        len: usize,
    ) -> Result<(Range<usize>, Option<Cursor>), CursorError> {
        self.codec(list).page(params, len, self.page_size)
    }

    /// The page that starts at item `start`.
    pub(crate) fn page_at(&self, list: List, start: usize, len: usize) -> (Range<usize>, Option<Cursor>) {
        let start = start.min(len);
        let end = start.saturating_add(self.page_size.max(1)).min(len);
        let next = (end < len).then(|| self.codec(list).encode(u32::try_from(end).unwrap_or(u32::MAX)));
        (start..end, next)
    }

    pub(crate) fn changed(&mut self, list: List) {
        self.epochs[list as usize] = self.epochs[list as usize].wrapping_add(1);
    }
}

/// One page of a list result: `{"<field>":[…],"nextCursor":…}`, the items made by
/// `items` as they are written.
pub(crate) struct Page<I> {
    pub field: &'static str,
    pub items: I,
    pub next: Option<Cursor>,
}

impl<I> Serialize for Page<I>
where
    I: Iterator + Clone,
    I::Item: Serialize,
{
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        struct Items<I>(I);
        impl<I> Serialize for Items<I>
        where
            I: Iterator + Clone,
            I::Item: Serialize,
        {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_seq(self.0.clone())
            }
        }
        let mut st = s.serialize_struct("ListResult", 2)?;
        st.serialize_field(self.field, &Items(self.items.clone()))?;
        if let Some(next) = &self.next {
            st.serialize_field("nextCursor", next)?;
        }
        st.end()
    }
}
