//! Capability flags: what each side declared, in a few bytes.
//!
//! The session must remember both sides' capabilities for the whole connection, long after
//! the `initialize` frame that carried them is gone, so it keeps them as a bit set. The
//! typed capability objects (with `experimental` and `extensions` payloads) are part of the
//! vocabulary; this is the part that gates what may be sent and received.

use core::fmt;

use crate::wire::RawJson;

/// One capability, or one sub-feature of one, that gates a method.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(u8)]
#[non_exhaustive]
pub enum Capability {
    // ---- server capabilities ----
    /// `tools`
    Tools,
    /// `tools.listChanged`
    ToolsListChanged,
    /// `resources`
    Resources,
    /// `resources.subscribe`
    ResourcesSubscribe,
    /// `resources.listChanged`
    ResourcesListChanged,
    /// `prompts`
    Prompts,
    /// `prompts.listChanged`
    PromptsListChanged,
    /// `logging`
    Logging,
    /// `completions` (2025-03-26 on)
    Completions,
    /// server `tasks` (2025-11-25)
    ServerTasks,
    /// server `tasks.list`
    ServerTasksList,
    /// server `tasks.cancel`
    ServerTasksCancel,
    /// server `tasks.requests.tools.call`
    ServerTasksToolsCall,
    // ---- client capabilities ----
    /// `roots`
    Roots,
    /// `roots.listChanged`
    RootsListChanged,
    /// `sampling`
    Sampling,
    /// `sampling.tools` (2025-11-25)
    SamplingTools,
    /// `sampling.context` (2025-11-25)
    SamplingContext,
    /// `elicitation` (2025-06-18 on), in any mode
    Elicitation,
    /// form-mode elicitation: `elicitation.form`, or an empty `elicitation` object
    ElicitationForm,
    /// URL-mode elicitation: `elicitation.url` (2025-11-25)
    ElicitationUrl,
    /// client `tasks` (2025-11-25)
    ClientTasks,
    /// client `tasks.list`
    ClientTasksList,
    /// client `tasks.cancel`
    ClientTasksCancel,
    /// client `tasks.requests.sampling.createMessage`
    ClientTasksSampling,
    /// client `tasks.requests.elicitation.create`
    ClientTasksElicitation,
    // ---- either side ----
    /// `experimental` (any content)
    Experimental,
    /// `extensions` (2026-07-28, any content)
    Extensions,
}

impl Capability {
    /// The dotted path of the capability in the capabilities object.
    pub const fn path(self) -> &'static str {
        match self {
            Self::Tools => "tools",
            Self::ToolsListChanged => "tools.listChanged",
            Self::Resources => "resources",
            Self::ResourcesSubscribe => "resources.subscribe",
            Self::ResourcesListChanged => "resources.listChanged",
            Self::Prompts => "prompts",
            Self::PromptsListChanged => "prompts.listChanged",
            Self::Logging => "logging",
            Self::Completions => "completions",
            Self::ServerTasks | Self::ClientTasks => "tasks",
            Self::ServerTasksList | Self::ClientTasksList => "tasks.list",
            Self::ServerTasksCancel | Self::ClientTasksCancel => "tasks.cancel",
            Self::ServerTasksToolsCall => "tasks.requests.tools.call",
            Self::Roots => "roots",
            Self::RootsListChanged => "roots.listChanged",
            Self::Sampling => "sampling",
            Self::SamplingTools => "sampling.tools",
            Self::SamplingContext => "sampling.context",
            Self::Elicitation => "elicitation",
            Self::ElicitationForm => "elicitation.form",
            Self::ElicitationUrl => "elicitation.url",
            Self::ClientTasksSampling => "tasks.requests.sampling.createMessage",
            Self::ClientTasksElicitation => "tasks.requests.elicitation.create",
            Self::Experimental => "experimental",
            Self::Extensions => "extensions",
        }
    }
}

/// A set of [`Capability`] flags.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct CapabilitySet(u32);

const _: () = assert!((Capability::Extensions as u32) < 32);

impl CapabilitySet {
    /// No capabilities.
    pub const EMPTY: CapabilitySet = CapabilitySet(0);

    /// The set with `caps` in it.
    pub const fn of(caps: &[Capability]) -> Self {
        let mut bits = 0;
        let mut i = 0;
        while i < caps.len() {
            bits |= 1 << caps[i] as u32;
            i += 1;
        }
        CapabilitySet(bits)
    }

    /// The flags as a bit mask (bit `n` is the capability with discriminant `n`), for
    /// compact storage: a session snapshot, a signed HTTP session id. Each capability keeps
    /// its bit across releases; new ones take new bits.
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// The set a bit mask from [`bits`](Self::bits) stands for; bits that name no
    /// capability are dropped.
    pub const fn from_bits(bits: u32) -> Self {
        CapabilitySet(bits & ((1 << (Capability::Extensions as u32 + 1)) - 1))
    }

    /// This set plus `cap`.
    pub const fn with(self, cap: Capability) -> Self {
        CapabilitySet(self.0 | 1 << cap as u32)
    }

    /// Whether `cap` is in the set.
    pub const fn contains(self, cap: Capability) -> bool {
        self.0 & (1 << cap as u32) != 0
    }

    /// The flags in a server's `capabilities` object. Unknown members are ignored; a
    /// boolean sub-flag counts only when `true`, an object sub-flag whenever present.
    pub fn from_server_json(caps: RawJson<'_>) -> Self {
        let mut set = Self::EMPTY;
        for (name, value) in caps.members() {
            let flag = |sub: &str| value.get(sub).and_then(|v| v.as_bool()) == Some(true);
            let present = |sub: &str| value.get(sub).is_some_and(|v| v.is_object());
            if !value.is_object() {
                continue;
            }
            if name.eq_str("tools") {
                set = set.with(Capability::Tools).with_if(flag("listChanged"), Capability::ToolsListChanged);
            } else if name.eq_str("resources") {
                set = set
                    .with(Capability::Resources)
                    .with_if(flag("subscribe"), Capability::ResourcesSubscribe)
                    .with_if(flag("listChanged"), Capability::ResourcesListChanged);
            } else if name.eq_str("prompts") {
                set = set.with(Capability::Prompts).with_if(flag("listChanged"), Capability::PromptsListChanged);
            } else if name.eq_str("logging") {
                set = set.with(Capability::Logging);
            } else if name.eq_str("completions") {
                set = set.with(Capability::Completions);
            } else if name.eq_str("tasks") {
                let tools_call = value.get("requests").and_then(|r| r.get("tools")).and_then(|t| t.get("call"));
                set = set
                    .with(Capability::ServerTasks)
                    .with_if(present("list"), Capability::ServerTasksList)
                    .with_if(present("cancel"), Capability::ServerTasksCancel)
                    .with_if(tools_call.is_some_and(|v| v.is_object()), Capability::ServerTasksToolsCall);
            } else if name.eq_str("experimental") {
                set = set.with(Capability::Experimental);
            } else if name.eq_str("extensions") {
                set = set.with(Capability::Extensions);
            }
        }
        set
    }

    /// The flags in a client's `capabilities` object (same rules as
    /// [`from_server_json`](Self::from_server_json)). An `elicitation` object with
    /// neither `form` nor `url` means form mode, as the 2025-11-25 specification says.
    pub fn from_client_json(caps: RawJson<'_>) -> Self {
        let mut set = Self::EMPTY;
        for (name, value) in caps.members() {
            let present = |sub: &str| value.get(sub).is_some_and(|v| v.is_object());
            if !value.is_object() {
                continue;
            }
            if name.eq_str("roots") {
                let list_changed = value.get("listChanged").and_then(|v| v.as_bool()) == Some(true);
                set = set.with(Capability::Roots).with_if(list_changed, Capability::RootsListChanged);
            } else if name.eq_str("sampling") {
                set = set
                    .with(Capability::Sampling)
                    .with_if(present("tools"), Capability::SamplingTools)
                    .with_if(present("context"), Capability::SamplingContext);
            } else if name.eq_str("elicitation") {
                let (form, url) = (present("form"), present("url"));
                set = set
                    .with(Capability::Elicitation)
                    .with_if(form || !url, Capability::ElicitationForm)
                    .with_if(url, Capability::ElicitationUrl);
            } else if name.eq_str("tasks") {
                let requests = value.get("requests");
                let nested = |a: &str, b: &str| {
                    requests.and_then(|r| r.get(a)).and_then(|x| x.get(b)).is_some_and(|v| v.is_object())
                };
                set = set
                    .with(Capability::ClientTasks)
                    .with_if(present("list"), Capability::ClientTasksList)
                    .with_if(present("cancel"), Capability::ClientTasksCancel)
                    .with_if(nested("sampling", "createMessage"), Capability::ClientTasksSampling)
                    .with_if(nested("elicitation", "create"), Capability::ClientTasksElicitation);
            } else if name.eq_str("experimental") {
                set = set.with(Capability::Experimental);
            } else if name.eq_str("extensions") {
                set = set.with(Capability::Extensions);
            }
        }
        set
    }

    const fn with_if(self, cond: bool, cap: Capability) -> Self {
        if cond { self.with(cap) } else { self }
    }

    fn iter(self) -> impl Iterator<Item = Capability> {
        ALL_CAPABILITIES.into_iter().filter(move |c| self.contains(*c))
    }
}

const ALL_CAPABILITIES: [Capability; 28] = [
    Capability::Tools,
    Capability::ToolsListChanged,
    Capability::Resources,
    Capability::ResourcesSubscribe,
    Capability::ResourcesListChanged,
    Capability::Prompts,
    Capability::PromptsListChanged,
    Capability::Logging,
    Capability::Completions,
    Capability::ServerTasks,
    Capability::ServerTasksList,
    Capability::ServerTasksCancel,
    Capability::ServerTasksToolsCall,
    Capability::Roots,
    Capability::RootsListChanged,
    Capability::Sampling,
    Capability::SamplingTools,
    Capability::SamplingContext,
    Capability::Elicitation,
    Capability::ElicitationForm,
    Capability::ElicitationUrl,
    Capability::ClientTasks,
    Capability::ClientTasksList,
    Capability::ClientTasksCancel,
    Capability::ClientTasksSampling,
    Capability::ClientTasksElicitation,
    Capability::Experimental,
    Capability::Extensions,
];

impl fmt::Debug for CapabilitySet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter().map(Capability::path)).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_flags() {
        let caps = RawJson::parse(
            br#"{"tools":{"listChanged":true},"resources":{"subscribe":false,"listChanged":true},
                "logging":{},"x":1,"prompts":{},"tasks":{"list":{},"requests":{"tools":{"call":{}}}}}"#,
        )
        .unwrap();
        let set = CapabilitySet::from_server_json(caps);
        for c in [
            Capability::Tools,
            Capability::ToolsListChanged,
            Capability::Resources,
            Capability::ResourcesListChanged,
            Capability::Logging,
            Capability::Prompts,
            Capability::ServerTasks,
            Capability::ServerTasksList,
            Capability::ServerTasksToolsCall,
        ] {
            assert!(set.contains(c), "{c:?}");
        }
        for c in [Capability::ResourcesSubscribe, Capability::PromptsListChanged, Capability::ServerTasksCancel] {
            assert!(!set.contains(c), "{c:?}");
        }
    }

    #[test]
    fn client_flags_and_elicitation_default() {
        let set = CapabilitySet::from_client_json(RawJson::parse(br#"{"elicitation":{},"sampling":{}}"#).unwrap());
        assert!(set.contains(Capability::ElicitationForm) && !set.contains(Capability::ElicitationUrl));
        assert!(set.contains(Capability::Sampling) && !set.contains(Capability::SamplingTools));
        let set = CapabilitySet::from_client_json(RawJson::parse(br#"{"elicitation":{"url":{}}}"#).unwrap());
        assert!(!set.contains(Capability::ElicitationForm) && set.contains(Capability::ElicitationUrl));
        let set = CapabilitySet::from_client_json(RawJson::parse(br#"{"roots":{"listChanged":true}}"#).unwrap());
        assert!(set.contains(Capability::RootsListChanged));
    }
}
