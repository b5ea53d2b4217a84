//! Discovery: `server/discover` (2026-07-28).

use serde::{Deserialize, Serialize};

use super::pagination::CacheScope;
use crate::mcp::basic::ResultType;
use crate::mcp::basic::lifecycle::ServerCapabilities;
use crate::mcp::basic::meta::Meta;
use crate::mcp::seq::Items;
use crate::wire::JsonStr;

/// `server/discover` result.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "camelCase")]
pub struct DiscoverResult<'a> {
    /// The protocol versions the server supports (strings: some may be unknown here).
    #[serde(borrow)]
    pub supported_versions: Items<'a, JsonStr<'a>>,
    /// What the server supports.
    #[serde(borrow)]
    pub capabilities: ServerCapabilities<'a>,
    /// How to use the server, for the model.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub instructions: Option<JsonStr<'a>>,
    /// How long the result may be cached, in ms (required).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttl_ms: Option<u64>,
    /// Who may reuse it (required).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_scope: Option<CacheScope>,
    /// `resultType` (required: `complete`).
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub result_type: Option<ResultType<'a>>,
    /// `_meta` (`io.modelcontextprotocol/serverInfo`).
    #[serde(borrow, rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta<'a>>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::RawJson;

    #[test]
    fn discover_result_from_the_schema_example() {
        // schema/2026-07-28/examples/DiscoverResult/server-capabilities-discovery.json
        let r: DiscoverResult<'_> = RawJson::parse(
            br#"{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{"listChanged":true},"resources":{"subscribe":true}},
                "instructions":"Use the weather tools for forecasts.","ttlMs":3600000,"cacheScope":"public",
                "_meta":{"io.modelcontextprotocol/serverInfo":{"name":"weather-server","version":"2.0.0"}}}"#,
        )
        .unwrap()
        .decode()
        .unwrap();
        assert_eq!(r.supported_versions.get(0).unwrap().unwrap(), "2026-07-28");
        assert_eq!(r.meta.unwrap().server_info().unwrap().unwrap().name, "weather-server");
        assert_eq!(r.capabilities.resources.unwrap().subscribe, Some(true));
    }
}
