//! Subscriptions (2026-07-28): `subscriptions/listen` and
//! `notifications/subscriptions/acknowledged`.

use serde::{Deserialize, Serialize};

use super::meta::Meta;
use crate::mcp::seq::Items;
use crate::wire::JsonStr;

/// Which notifications a listen stream carries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "camelCase")]
pub struct SubscriptionFilter<'a> {
    /// `notifications/tools/list_changed`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools_list_changed: Option<bool>,
    /// `notifications/prompts/list_changed`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompts_list_changed: Option<bool>,
    /// `notifications/resources/list_changed`
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resources_list_changed: Option<bool>,
    /// `notifications/resources/updated` for these URIs.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub resource_subscriptions: Option<Items<'a, JsonStr<'a>>>,
}

/// `subscriptions/listen` params, and `notifications/subscriptions/acknowledged` params
/// (the granted subset).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SubscriptionParams<'a> {
    /// The notifications asked for, or granted.
    #[serde(borrow)]
    pub notifications: SubscriptionFilter<'a>,
    /// `_meta` (request envelope, or `subscriptionId` on the acknowledgement).
    #[serde(borrow, rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta<'a>>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::RawJson;

    #[test]
    fn filter() {
        let p: SubscriptionParams<'_> = RawJson::parse(
            br#"{"notifications":{"toolsListChanged":true,"resourceSubscriptions":["file:///a"]},"_meta":{"io.modelcontextprotocol/subscriptionId":1}}"#,
        )
        .unwrap()
        .decode()
        .unwrap();
        assert_eq!(p.notifications.tools_list_changed, Some(true));
        assert_eq!(p.notifications.resource_subscriptions.unwrap().len(), 1);
        assert_eq!(p.meta.unwrap().subscription_id().unwrap().as_i64(), Some(1));
    }
}
