//! Cancellation: `notifications/cancelled`.

use serde::{Deserialize, Serialize};

use super::meta::Meta;
use super::request_id;
use crate::wire::{JsonStr, RequestIdRef};

/// `notifications/cancelled` params.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "camelCase")]
pub struct CancelledParams<'a> {
    /// The id of the request to cancel (required in every version except 2025-11-25, where
    /// task cancellation uses `tasks/cancel` and this became optional).
    #[serde(
        borrow,
        default,
        deserialize_with = "request_id::deserialize_opt",
        skip_serializing_if = "Option::is_none"
    )]
    pub request_id: Option<RequestIdRef<'a>>,
    /// Why, for logging.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<JsonStr<'a>>,
    /// `_meta` (2025-06-18 on; 2026-07-28: `subscriptionId` when it ends a listen).
    #[serde(borrow, rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta<'a>>,
}

impl<'a> CancelledParams<'a> {
    /// Cancels request `id`.
    pub const fn new(id: RequestIdRef<'a>, reason: Option<JsonStr<'a>>) -> Self {
        Self { request_id: Some(id), reason, meta: None }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::RawJson;

    #[test]
    fn ids_keep_their_token() {
        let p: CancelledParams<'_> =
            RawJson::parse(br#"{"requestId":"123","reason":"User requested cancellation"}"#).unwrap().decode().unwrap();
        assert_eq!(p.request_id.unwrap().as_token(), br#""123""#);
        assert_eq!(p.reason.unwrap(), "User requested cancellation");
        let p: CancelledParams<'_> = RawJson::parse(br#"{"requestId":7}"#).unwrap().decode().unwrap();
        assert_eq!(p.request_id.unwrap().as_i64(), Some(7));
        assert!(RawJson::parse(br#"{"requestId":1.5}"#).unwrap().decode::<CancelledParams<'_>>().is_err());
        assert!(RawJson::parse(br#"{"requestId":null}"#).unwrap().decode::<CancelledParams<'_>>().is_err());
        assert_eq!(serde_json::to_string(&p).unwrap(), r#"{"requestId":7}"#);
    }
}
