//! Pagination (`cursor` / `nextCursor`) and caching hints (`ttlMs` / `cacheScope`,
//! 2026-07-28).

use serde::{Deserialize, Serialize};

use crate::mcp::basic::meta::Meta;
use crate::wire::JsonStr;

/// Params of a paginated list request: `tools/list`, `prompts/list`, `resources/list`,
/// `resources/templates/list`, `tasks/list`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct PaginatedParams<'a> {
    /// Where to continue: a previous result's `nextCursor`, opaque.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub cursor: Option<JsonStr<'a>>,
    /// `_meta`
    #[serde(borrow, rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta<'a>>,
}

/// `cacheScope` (2026-07-28): who may reuse a cached result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "lowercase")]
pub enum CacheScope {
    /// Any client of the server.
    Public,
    /// Only the client that asked.
    Private,
}
