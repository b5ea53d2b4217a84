//! Typed `error.data` of the MCP-defined error codes.

use serde::{Deserialize, Serialize};

use super::lifecycle::ClientCapabilities;
use crate::mcp::client::elicitation::ElicitUrlParams;
use crate::mcp::seq::Items;
use crate::wire::JsonStr;

/// `data` of -32022 `UnsupportedProtocolVersion` (2026-07-28), and of the -32602
/// "Unsupported protocol version" error that handshake versions' servers may send.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct UnsupportedVersionData<'a> {
    /// The versions the server supports.
    #[serde(borrow)]
    pub supported: Items<'a, JsonStr<'a>>,
    /// The version the client asked for.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub requested: Option<JsonStr<'a>>,
}

/// `data` of -32021 `MissingRequiredClientCapability` (2026-07-28).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "camelCase")]
pub struct MissingCapabilityData<'a> {
    /// The capabilities the request needs.
    #[serde(borrow)]
    pub required_capabilities: ClientCapabilities<'a>,
}

/// `data` of -32042 `URLElicitationRequired` (2025-11-25).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct UrlElicitationRequiredData<'a> {
    /// The URL elicitations to complete first.
    #[serde(borrow)]
    pub elicitations: Items<'a, ElicitUrlParams<'a>>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::RawJson;

    #[test]
    fn error_data() {
        let d: UnsupportedVersionData<'_> =
            RawJson::parse(br#"{"supported":["2026-07-28","2025-11-25"],"requested":"1999-01-01"}"#)
                .unwrap()
                .decode()
                .unwrap();
        assert_eq!(d.supported.len(), 2);
        let d: MissingCapabilityData<'_> =
            RawJson::parse(br#"{"requiredCapabilities":{"elicitation":{"form":{}}}}"#).unwrap().decode().unwrap();
        assert!(d.required_capabilities.elicitation.unwrap().form.is_some());
    }
}
