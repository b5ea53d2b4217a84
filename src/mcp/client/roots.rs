//! Roots: `roots/list` and `notifications/roots/list_changed`.

use serde::{Deserialize, Serialize};

use crate::mcp::basic::ResultType;
use crate::mcp::basic::meta::Meta;
use crate::mcp::seq::Items;
use crate::wire::JsonStr;

/// A directory or file the server may work in.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Root<'a> {
    /// A `file://` URI.
    #[serde(borrow)]
    pub uri: JsonStr<'a>,
    /// Display name.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub name: Option<JsonStr<'a>>,
    /// `_meta` (2025-06-18 on).
    #[serde(borrow, rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta<'a>>,
}

impl<'a> Root<'a> {
    /// The root at `uri`.
    pub const fn new(uri: &'a str, name: Option<&'a str>) -> Self {
        Self {
            uri: JsonStr::from_text(uri),
            name: match name {
                Some(n) => Some(JsonStr::from_text(n)),
                None => None,
            },
            meta: None,
        }
    }
}

/// `roots/list` result.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "camelCase")]
pub struct ListRootsResult<'a> {
    /// The roots.
    #[serde(borrow)]
    pub roots: Items<'a, Root<'a>>,
    /// `resultType` (not part of the 2026-07-28 input response shape; kept if sent).
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub result_type: Option<ResultType<'a>>,
    /// `_meta`
    #[serde(borrow, rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta<'a>>,
}

impl<'a> ListRootsResult<'a> {
    /// A result listing `roots`.
    pub const fn new(roots: &'a [Root<'a>]) -> Self {
        Self { roots: Items::from_slice(roots), result_type: None, meta: None }
    }
}
