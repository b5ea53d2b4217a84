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
        Self::from_table(caps, &SERVER_FLAGS)
    }

    /// The flags in a client's `capabilities` object (same rules as
    /// [`from_server_json`](Self::from_server_json)). An `elicitation` object with
    /// neither `form` nor `url` means form mode, as the 2025-11-25 specification says.
    pub fn from_client_json(caps: RawJson<'_>) -> Self {
        Self::from_table(caps, &CLIENT_FLAGS)
    }

    /// The flags `table` finds in a `capabilities` object: one walk for both sides, the
    /// names and paths as data.
    fn from_table(caps: RawJson<'_>, table: &[Flags]) -> Self {
        let mut set = Self::EMPTY;
        for (name, value) in caps.members() {
            if !value.is_object() {
                continue;
            }
            let Some(&(_, cap, subs)) = table.iter().find(|(n, ..)| name.eq_str(n)) else { continue };
            let mut found = Self::EMPTY.with(cap);
            for &(path, test, flag) in subs {
                let member = path.iter().try_fold(value, |v, p| v.get(p));
                let on = match test {
                    Test::True => member.and_then(|v| v.as_bool()) == Some(true),
                    Test::Object => member.is_some_and(|v| v.is_object()),
                };
                found = found.with_if(on, flag);
            }
            // An `elicitation` object without `url` means form mode.
            if cap == Capability::Elicitation && !found.contains(Capability::ElicitationUrl) {
                found = found.with(Capability::ElicitationForm);
            }
            set = CapabilitySet(set.0 | found.0);
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

/// How a sub-flag's member counts: `true`, or any object.
#[derive(Clone, Copy)]
enum Test {
    True,
    Object,
}

/// A top-level capability: its name, its flag, and its sub-flags (each the path to its
/// member inside the capability's object, how the member counts, the flag).
type Flags = (&'static str, Capability, &'static [(&'static [&'static str], Test, Capability)]);

/// What [`CapabilitySet::from_server_json`] looks for.
const SERVER_FLAGS: [Flags; 8] = {
    use Capability::*;
    [
        ("tools", Tools, &[(&["listChanged"], Test::True, ToolsListChanged)]),
        (
            "resources",
            Resources,
            &[(&["subscribe"], Test::True, ResourcesSubscribe), (&["listChanged"], Test::True, ResourcesListChanged)],
        ),
        ("prompts", Prompts, &[(&["listChanged"], Test::True, PromptsListChanged)]),
        ("logging", Logging, &[]),
        ("completions", Completions, &[]),
        (
            "tasks",
            ServerTasks,
            &[
                (&["list"], Test::Object, ServerTasksList),
                (&["cancel"], Test::Object, ServerTasksCancel),
                (&["requests", "tools", "call"], Test::Object, ServerTasksToolsCall),
            ],
        ),
        ("experimental", Experimental, &[]),
        ("extensions", Extensions, &[]),
    ]
};

/// What [`CapabilitySet::from_client_json`] looks for (and the elicitation rule there).
const CLIENT_FLAGS: [Flags; 6] = {
    use Capability::*;
    [
        ("roots", Roots, &[(&["listChanged"], Test::True, RootsListChanged)]),
        (
            "sampling",
            Sampling,
            &[(&["tools"], Test::Object, SamplingTools), (&["context"], Test::Object, SamplingContext)],
        ),
        (
            "elicitation",
            Elicitation,
            &[(&["form"], Test::Object, ElicitationForm), (&["url"], Test::Object, ElicitationUrl)],
        ),
        (
            "tasks",
            ClientTasks,
            &[
                (&["list"], Test::Object, ClientTasksList),
                (&["cancel"], Test::Object, ClientTasksCancel),
                (&["requests", "sampling", "createMessage"], Test::Object, ClientTasksSampling),
                (&["requests", "elicitation", "create"], Test::Object, ClientTasksElicitation),
            ],
        ),
        ("experimental", Experimental, &[]),
        ("extensions", Extensions, &[]),
    ]
};

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

    fn set_of(caps: &[Capability]) -> CapabilitySet {
        caps.iter().fold(CapabilitySet::EMPTY, |s, &c| s.with(c))
    }

    /// Every flag of both sides, each sub-flag's rule (a boolean only when `true`, an
    /// object whenever present, a nested path only when every step is an object), names
    /// of the other side ignored, a capability that is not an object ignored, and a
    /// repeated member adding its flags.
    #[test]
    fn every_flag_and_its_rule() {
        use Capability::*;
        let server = |json: &[u8]| CapabilitySet::from_server_json(RawJson::parse(json).unwrap());
        let client = |json: &[u8]| CapabilitySet::from_client_json(RawJson::parse(json).unwrap());
        let all_server = br#"{"tools":{"listChanged":true},"resources":{"subscribe":true,"listChanged":true},
            "prompts":{"listChanged":true},"logging":{},"completions":{},"experimental":{},"extensions":{},
            "tasks":{"list":{},"cancel":{},"requests":{"tools":{"call":{}}}},"roots":{},"sampling":{}}"#;
        assert_eq!(
            server(all_server),
            set_of(&[
                Tools,
                ToolsListChanged,
                Resources,
                ResourcesSubscribe,
                ResourcesListChanged,
                Prompts,
                PromptsListChanged,
                Logging,
                Completions,
                Experimental,
                Extensions,
                ServerTasks,
                ServerTasksList,
                ServerTasksCancel,
                ServerTasksToolsCall,
            ])
        );
        let loose = br#"{"tools":{"listChanged":"true"},"resources":{"subscribe":1,"listChanged":{}},
            "prompts":true,"tasks":{"list":true,"cancel":[],"requests":{"tools":true}},"logging":null}"#;
        assert_eq!(server(loose), set_of(&[Tools, Resources, ServerTasks]));
        let all_client = br#"{"roots":{"listChanged":true},"sampling":{"tools":{},"context":{}},
            "elicitation":{"form":{},"url":{}},"experimental":{},"extensions":{},"tools":{},
            "tasks":{"list":{},"cancel":{},"requests":{"sampling":{"createMessage":{}},"elicitation":{"create":{}}}}}"#;
        assert_eq!(
            client(all_client),
            set_of(&[
                Roots,
                RootsListChanged,
                Sampling,
                SamplingTools,
                SamplingContext,
                Elicitation,
                ElicitationForm,
                ElicitationUrl,
                Experimental,
                Extensions,
                ClientTasks,
                ClientTasksList,
                ClientTasksCancel,
                ClientTasksSampling,
                ClientTasksElicitation,
            ])
        );
        let loose = br#"{"roots":{"listChanged":1},"sampling":{"tools":true},"elicitation":{"url":true},
            "tasks":{"requests":{"sampling":{"createMessage":true},"elicitation":[]}}}"#;
        assert_eq!(client(loose), set_of(&[Roots, Sampling, Elicitation, ElicitationForm, ClientTasks]));
        // Each `elicitation` member by itself: the second, without `url`, means form.
        assert_eq!(
            client(br#"{"elicitation":{"url":{}},"elicitation":{}}"#),
            set_of(&[Elicitation, ElicitationUrl, ElicitationForm])
        );
        assert_eq!(client(br#"{"elicitation":{"url":{}}}"#), set_of(&[Elicitation, ElicitationUrl]));
    }
}
