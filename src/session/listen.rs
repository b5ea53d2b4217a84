//! A stateless server's notifications (2026-07-28): listen streams and request-scoped
//! messages, with the rules the endpoint enforces.
//!
//! * A `subscriptions/listen` request is a stream. Its first message is the
//!   acknowledgement with the granted filter ([`Endpoint::acknowledge`]); nothing else
//!   goes on it before that. Every notification on it carries
//!   `_meta["io.modelcontextprotocol/subscriptionId"]` (the listen request's id), and
//!   only the kinds it was granted pass: `notifications/resources/updated` only for a
//!   granted URI, the tasks extension's `notifications/tasks` only for a granted task id.
//!   The graceful end is the listen request's result
//!   ([`Endpoint::respond`](super::Endpoint::respond) with `EmptyResult`), which the
//!   endpoint completes with `resultType` and the subscription id.
//! * A change notification sent unrelated to a request
//!   ([`Endpoint::send_notification`](super::Endpoint::send_notification)) goes to
//!   every acknowledged stream that was granted it, each on its own channel and with its
//!   own id; to none if none was.
//! * A log message about a request goes out only if that request asked for log messages
//!   at or below its level (`io.modelcontextprotocol/logLevel`); there is no other way
//!   for one to go out in this era.
//!
//! [`Endpoint::acknowledge`]: super::Endpoint::acknowledge

use serde::Serialize;

use super::buffer::Buffer;
use super::caller_errors::{Responded, SendError};
use super::core::Core;
use super::modern::{Kinds, Listen, Name};
use super::profile::Profile;
use super::responder::Responder;
use crate::mcp::{Capability, CapabilitySet, Items, LoggingLevel, Meta, MetaFields, SubscriptionFilter, meta_keys};
use crate::wire::{Amend, EncodeError, JsonOut, JsonStr, Plan, RawJson, RequestIdRef};

/// The stream kind a notification belongs to, and the member that names what it is about
/// (checked against the granted names).
pub(crate) fn kind_of(method: &str) -> Option<(u8, Option<(Name, &'static str)>)> {
    Some(match method {
        "notifications/tools/list_changed" => (Kinds::TOOLS, None),
        "notifications/prompts/list_changed" => (Kinds::PROMPTS, None),
        "notifications/resources/list_changed" => (Kinds::RESOURCES, None),
        "notifications/resources/updated" => (Kinds::UPDATES, Some((Name::Uri, "uri"))),
        "notifications/tasks" => (Kinds::TASKS, Some((Name::Task, "taskId"))),
        _ => return None,
    })
}

/// Tags a notification for one listen stream, after checking its name is granted.
struct StreamTag<'d> {
    id: RequestIdRef<'d>,
    name: Option<(Name, &'static str)>,
    listen: Listen,
    tag: bool,
}

impl Amend for StreamTag<'_> {
    type Error = SendError;

    fn plan(&mut self, params: RawJson<'_>) -> Result<Plan, SendError> {
        if let Some((kind, key)) = self.name {
            let name = params.get(key).and_then(|v| v.as_str()).ok_or(SendError::NotSubscribed)?;
            if !self.listen.may_have(kind, name) {
                return Err(SendError::NotSubscribed);
            }
        }
        let meta = params.get("_meta");
        let meta_at = match meta {
            None => None,
            Some(m) if m.is_object() => m.offset_in(params.as_bytes()),
            Some(_) => return Err(SendError::Encode(EncodeError::NotAnObject)),
        };
        self.tag = meta.is_none_or(|m| !m.contains_key(meta_keys::SUBSCRIPTION_ID));
        Ok(Plan { top: false, meta: self.tag, meta_at })
    }

    fn top(&self, _: &Plan, _: &mut JsonOut<'_, '_>) -> Result<(), EncodeError> {
        Ok(())
    }

    fn meta(&self, _: &Plan, out: &mut JsonOut<'_, '_>) -> Result<(), EncodeError> {
        out.put(b"\"io.modelcontextprotocol/subscriptionId\":");
        out.raw(self.id.as_token());
        Ok(())
    }

    fn bound(&self) -> usize {
        52 + self.id.as_token().len()
    }
}

/// Lets a log message through only at or above the level its request asked for.
struct LogCheck {
    min: LoggingLevel,
}

impl Amend for LogCheck {
    type Error = SendError;

    fn plan(&mut self, params: RawJson<'_>) -> Result<Plan, SendError> {
        let level = params.get("level").and_then(|l| l.decode::<LoggingLevel>().ok());
        match level {
            Some(level) if level >= self.min => Ok(Plan::default()),
            _ => Err(SendError::LogLevelNotRequested),
        }
    }

    fn top(&self, _: &Plan, _: &mut JsonOut<'_, '_>) -> Result<(), EncodeError> {
        Ok(())
    }

    fn meta(&self, _: &Plan, _: &mut JsonOut<'_, '_>) -> Result<(), EncodeError> {
        Ok(())
    }

    fn bound(&self) -> usize {
        0
    }
}

/// A granted filter: the core fields, and the tasks extension's `taskIds`.
struct Granted<'a> {
    filter: SubscriptionFilter<'a>,
    task_ids: Option<Items<'a, JsonStr<'a>>>,
}

impl Serialize for Granted<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let f = &self.filter;
        let mut map = s.serialize_map(None)?;
        if let Some(v) = f.tools_list_changed {
            map.serialize_entry("toolsListChanged", &v)?;
        }
        if let Some(v) = f.prompts_list_changed {
            map.serialize_entry("promptsListChanged", &v)?;
        }
        if let Some(v) = f.resources_list_changed {
            map.serialize_entry("resourcesListChanged", &v)?;
        }
        if let Some(v) = &f.resource_subscriptions {
            map.serialize_entry("resourceSubscriptions", v)?;
        }
        if let Some(v) = &self.task_ids {
            map.serialize_entry("taskIds", v)?;
        }
        map.end()
    }
}

/// `notifications/subscriptions/acknowledged` params.
#[derive(Serialize)]
struct AckParams<'a> {
    notifications: Granted<'a>,
    #[serde(rename = "_meta")]
    meta: Meta<'a>,
}

/// The part of `asked` this server can honour: the kinds it declared (`listChanged`,
/// `subscribe`), task ids only with the tasks extension on both sides.
fn grantable<'a>(
    asked: &SubscriptionFilter<'a>,
    task_ids: Option<Items<'a, JsonStr<'a>>>,
    own: CapabilitySet,
    tasks: bool,
) -> Granted<'a> {
    let yes = |wanted: Option<bool>, cap| (wanted == Some(true) && own.contains(cap)).then_some(true);
    let filter = SubscriptionFilter {
        tools_list_changed: yes(asked.tools_list_changed, Capability::ToolsListChanged),
        prompts_list_changed: yes(asked.prompts_list_changed, Capability::PromptsListChanged),
        resources_list_changed: yes(asked.resources_list_changed, Capability::ResourcesListChanged),
        resource_subscriptions: asked.resource_subscriptions.filter(|_| own.contains(Capability::ResourcesSubscribe)),
    };
    Granted { filter, task_ids: task_ids.filter(|_| tasks) }
}

impl Responder<'_> {
    /// Acknowledges this listen stream with what of `granted` (and of `task_ids`, the
    /// tasks extension's part of the filter) the server can honour.
    pub fn acknowledge(
        &mut self,
        granted: &SubscriptionFilter<'_>,
        task_ids: Option<Items<'_, JsonStr<'_>>>,
    ) -> Result<Responded, SendError> {
        let own = self.config.own_flags();
        let own_tasks = self.config.capabilities.declares_tasks();
        let (entry, ctx, tx) = match self.live() {
            Ok(parts) => parts,
            Err(outcome) => return outcome,
        };
        let Some(ctx) = ctx else { return Err(SendError::NotSubscribed) };
        let client_tasks = ctx.tasks;
        let Some(listen) = ctx.listen.as_mut().filter(|l| !l.acked) else { return Err(SendError::NotSubscribed) };
        let granted = grantable(granted, task_ids, own, own_tasks && client_tasks);
        let fields = MetaFields { subscription_id: Some(entry.id.as_ref()), ..MetaFields::default() };
        let params = AckParams { notifications: granted, meta: Meta::from(&fields) };
        tx.notification("notifications/subscriptions/acknowledged", Some(&params))?;
        let Granted { filter, task_ids } = params.notifications;
        let mut state = Listen { acked: true, ..Listen::default() };
        let flag = |on: Option<bool>, bit: u8| if on == Some(true) { bit } else { 0 };
        state.granted = flag(filter.tools_list_changed, Kinds::TOOLS)
            | flag(filter.prompts_list_changed, Kinds::PROMPTS)
            | flag(filter.resources_list_changed, Kinds::RESOURCES);
        if let Some(uris) = filter.resource_subscriptions {
            state.granted |= Kinds::UPDATES;
            uris.iter().flatten().for_each(|u| state.grant(Name::Uri, u));
        }
        if let Some(ids) = task_ids {
            state.granted |= Kinds::TASKS;
            ids.iter().flatten().for_each(|t| state.grant(Name::Task, t));
        }
        *listen = state;
        Ok(Responded::Sent)
    }

    /// Sends a notification about this request: a log message (if the request asked for
    /// its level), one on this listen stream (acknowledged, granted, tagged), or another
    /// notification of a stateless request as it is. A handshake-era request's goes out
    /// as it is too. Nothing goes out for a request that is over.
    pub fn notify<P: Serialize + ?Sized>(&mut self, method: &str, params: Option<&P>) -> Result<Responded, SendError> {
        let (entry, modern, tx) = match self.live() {
            Ok(parts) => parts,
            Err(Ok(suppressed)) => return Ok(suppressed),
            Err(Err(SendError::AlreadyAnswered | SendError::UnknownRequest)) => return Ok(Responded::Suppressed),
            Err(Err(e)) => return Err(e),
        };
        let Some(ctx) = modern.copied() else {
            tx.notification(method, params)?;
            return Ok(Responded::Sent);
        };
        if method == "notifications/message" {
            let min = ctx.log.ok_or(SendError::LogLevelNotRequested)?;
            tx.notification_amended(method, params, &mut LogCheck { min })?;
            return Ok(Responded::Sent);
        }
        if let Some(listen) = ctx.listen {
            let (kind, name) = kind_of(method).ok_or(SendError::NotSubscribed)?;
            if !listen.acked || listen.granted & kind == 0 {
                return Err(SendError::NotSubscribed);
            }
            let mut tag = StreamTag { id: entry.id.as_ref(), name, listen, tag: false };
            tx.notification_amended(method, params, &mut tag)?;
            return Ok(Responded::Sent);
        }
        tx.notification(method, params)?;
        Ok(Responded::Sent)
    }
}

impl<const OUT: usize, const IN: usize, B: Buffer, E: Profile> Core<'_, OUT, IN, B, E> {
    /// The client's input ended, so no cancellation can come for its listen streams any
    /// more: they end from this side, gracefully (the specification's "the server tears
    /// it down"): an acknowledged one with its closing result, one not yet acknowledged
    /// with -32603. Streams whose end does not fit the transmit buffer now stay open until
    /// the application answers them.
    pub fn end_listens(&mut self) {
        let mut streams = [None; IN];
        for (n, (slot, entry)) in self.inb.live_entries().enumerate().take(IN) {
            if let Some(listen) = self.inb.modern_at(slot).and_then(|m| m.listen) {
                streams[n] = Some((slot, entry.serial, listen.acked));
            }
        }
        for (slot, serial, acked) in streams.into_iter().flatten() {
            let _ = self.responder(Some(slot), serial).end_listen(acked);
        }
    }

    /// Sends a change notification to every acknowledged listen stream granted it: all of
    /// them or, if the transmit buffer cannot take them all, none.
    pub fn broadcast<P: Serialize + ?Sized>(&mut self, method: &str, params: Option<&P>) -> Result<(), SendError> {
        let (kind, name) = kind_of(method).ok_or(SendError::MethodNotAllowed)?;
        let before = self.tx.queued();
        for (slot, entry) in self.inb.live_entries() {
            let Some(listen) = self.inb.modern_at(slot).and_then(|m| m.listen) else { continue };
            if !listen.acked || listen.granted & kind == 0 {
                continue;
            }
            let mut tag = StreamTag { id: entry.id.as_ref(), name, listen, tag: false };
            match self.tx.to(entry.origin).notification_amended(method, params, &mut tag) {
                Ok(_) | Err(SendError::NotSubscribed) => {}
                Err(e) => {
                    self.tx.truncate(before);
                    return Err(e);
                }
            }
        }
        Ok(())
    }
}
