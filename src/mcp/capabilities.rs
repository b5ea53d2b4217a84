//! Capability flags: what each side declared, in a few bytes.
//!
//! The session must remember both sides' capabilities for the whole connection, long after
//! the `initialize` frame that carried them is gone, so it keeps them as a bit set. The
//! typed capability objects (with `experimental` and `extensions` payloads) are part of the
//! vocabulary; this is the part that gates what may be sent and received.

use core::fmt;

use crate::wire::{JsonStr, RawJson, walk_object};

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

    /// The flags `table` finds in a `capabilities` object: one walk of the object for both
    /// sides, the names and paths as data. Each member's name is matched against the
    /// table's capabilities (by length first), and a capability's object is walked once
    /// for all its sub-flags (see [`sub_flags`]).
    fn from_table(caps: RawJson<'_>, table: &FlagTable) -> Self {
        let mut set = 0;
        let top_name = |at: &(u8, u8)| table.names.get(usize::from(at.0)).copied().unwrap_or_default();
        let known = |rest: &[u8]| {
            let at = table.tops.iter().position(|at| literal_name(rest, top_name(at)))?;
            Some((at, top_name(table.tops.get(at)?).len()))
        };
        let _ = walk_object(caps.as_bytes(), known, |name, value| {
            if value.first() != Some(&b'{') {
                return literal_len(value);
            }
            let at = match name {
                Ok(at) => at,
                Err(name) => table.tops.iter().position(|at| name_is(name, top_name(at)))?,
            };
            let &(top, first) = table.tops.get(at)?;
            let (top, end) = (usize::from(top), table.tops.get(at + 1).map_or(table.names.len(), |t| usize::from(t.0)));
            let code = table.codes.get(top).copied().unwrap_or_default();
            let (names, codes) = (table.names.get(top + 1..end)?, table.codes.get(top + 1..end)?);
            // `{}`, what most capabilities declare, has no sub-flags: nothing to walk.
            let (mut found, len) = if value.get(1) == Some(&b'}') {
                (0, Some(2))
            } else {
                sub_flags(value, names, codes, u32::from(first))
            };
            found |= 1 << (code & CAP);
            // An `elicitation` object without `url` means form mode.
            if found & (1 << Capability::Elicitation as u32 | 1 << Capability::ElicitationUrl as u32)
                == 1 << Capability::Elicitation as u32
            {
                found |= 1 << Capability::ElicitationForm as u32;
            }
            set |= found;
            len
        });
        CapabilitySet(set)
    }

    /// The first implementation of [`from_table`](Self::from_table), kept as its
    /// reference: for each member, the name compared with every entry of the table, and
    /// each sub-flag's path looked up with [`RawJson::get`] (the first member of a name).
    #[cfg(test)]
    fn reference_from_table(caps: RawJson<'_>, table: &FlagTable) -> Self {
        let mut set = 0;
        for (name, value) in caps.members() {
            if !value.is_object() {
                continue;
            }
            let mut found = 0u32;
            let mut at = value;
            for (n, &code) in table.names.iter().zip(table.codes) {
                let kind = code & KIND;
                if kind == TOP {
                    if found != 0 {
                        break;
                    }
                    if name.eq_str(n) {
                        found = 1 << (code & CAP);
                    }
                    continue;
                }
                if found == 0 {
                    continue;
                }
                let member = at.get(n).unwrap_or(RawJson::NULL);
                let on = match kind {
                    STEP => {
                        at = member;
                        continue;
                    }
                    TRUE => member.as_bytes() == b"true",
                    _ => member.is_object(),
                };
                found |= u32::from(on) << (code & CAP);
                at = value;
            }
            if found & (1 << Capability::Elicitation as u32 | 1 << Capability::ElicitationUrl as u32)
                == 1 << Capability::Elicitation as u32
            {
                found |= 1 << Capability::ElicitationForm as u32;
            }
            set |= found;
        }
        CapabilitySet(set)
    }

    fn iter(self) -> impl Iterator<Item = Capability> {
        ALL_CAPABILITIES.into_iter().filter(move |c| self.contains(*c))
    }
}

/// Whether a member's name is `n`: the raw bytes when the name has no escapes (their
/// lengths compared first), the unescaped text otherwise (`"s\u0061mpling"` is `sampling`).
#[inline(always)]
fn name_is(name: JsonStr<'_>, n: &str) -> bool {
    let raw = name.raw();
    if name.is_escaped() { name.eq_str(n) } else { raw.len() == n.len() && raw == n.as_bytes() }
}

/// Whether `rest`, the bytes after a name's opening quote, start with `n` (written
/// without escapes: the walk checks that the closing quote follows).
#[inline(always)]
fn literal_name(rest: &[u8], n: &str) -> bool {
    let n = n.as_bytes();
    rest.first() == n.first() && rest.get(..n.len()) == Some(n)
}

/// The length of the value `value` starts with if it is `true`, `false`, `null` or `{}`
/// (which the walk would otherwise skip byte by byte), else `None`. In validated text a
/// value that starts with `t` is `true`, and so on.
#[inline(always)]
fn literal_len(value: &[u8]) -> Option<usize> {
    match value {
        [b't' | b'n', ..] => Some(4),
        [b'f', ..] => Some(5),
        [b'{', b'}', ..] => Some(2),
        _ => None,
    }
}

/// The sub-flags of a capability found in the object `obj` starts with, one walk of it,
/// and the object's length (`None`: not an object): `names` and `codes` are the
/// capability's entries after its [`TOP`] one, and `active` has a bit for each path
/// still looked for at this depth, at the index of the path's entry for this depth (a
/// [`STEP`] or its test). As [`RawJson::get`] would, each entry takes the first member
/// of its name: a match takes the entry out of `active`; a [`STEP`]'s object is walked
/// in turn (once for all the paths through that member, each at its next entry), a
/// test's value tested.
fn sub_flags(obj: &[u8], names: &[&str], codes: &[u8], active: u32) -> (u32, Option<usize>) {
    let mut found = 0;
    // Read by `known`, taken from by the member callback.
    let active = core::cell::Cell::new(active);
    let known = |rest: &[u8]| {
        let mut rest_bits = active.get();
        while rest_bits != 0 {
            let j = rest_bits.trailing_zeros() as usize;
            rest_bits &= rest_bits - 1;
            let n = names.get(j).copied().unwrap_or_default();
            if literal_name(rest, n) {
                return Some((j, n.len()));
            }
        }
        None
    };
    let len = walk_object(obj, known, |name, value| {
        let mut deeper = 0u32;
        let mut rest = active.get();
        while rest != 0 {
            let j = rest.trailing_zeros();
            let bit = rest & rest.wrapping_neg();
            rest &= !bit;
            let (Some(n), Some(&code)) = (names.get(j as usize), codes.get(j as usize)) else { continue };
            let matches = match name {
                Ok(k) => k == j as usize || names.get(k) == Some(n),
                Err(name) => name_is(name, n),
            };
            if !matches {
                continue;
            }
            active.set(active.get() & !bit);
            found |= match code & KIND {
                STEP => {
                    // The entry after a step is the path's next one (the table ends no
                    // capability with a step).
                    deeper |= bit << 1;
                    0
                }
                // A value that starts with `true` is `true`: the object was validated.
                TRUE => u32::from(value.starts_with(b"true")) << (code & CAP),
                _ => u32::from(value.first() == Some(&b'{')) << (code & CAP),
            };
        }
        if deeper == 0 {
            return literal_len(value);
        }
        let (more, len) = sub_flags(value, names, codes, deeper);
        found |= more;
        len
    });
    (found, len)
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

/// A side's capability table, flattened so that an entry costs 9 bytes of flash on a
/// 32-bit target (the nested form, paths as string slices inside tuples, took about 640
/// bytes of tables for both sides; this one 36 entries, about 360 with its two headers:
/// the session probe's .rodata fell by 260 bytes). Each entry is a member name and a code: the
/// entry's kind in [`KIND`], a flag's bit number in [`CAP`]. A [`TOP`] entry is a
/// capability; the entries after it, up to the next [`TOP`], are its sub-flags: a
/// [`TRUE`] or [`OBJECT`] entry tests a member of the capability's object, after the
/// [`STEP`] entries before it, each one member deeper. `tops` indexes the [`TOP`]
/// entries, each with the mask of its sub-flags' paths' first entries (bit `i`: the
/// `i`-th entry after the [`TOP`] one), so that a walk goes straight to the capabilities.
struct FlagTable {
    names: &'static [&'static str],
    codes: &'static [u8],
    tops: &'static [(u8, u8)],
}

/// The kind bits of a code.
const KIND: u8 = 0b1110_0000;
/// The flag bits of a code: a [`Capability`]'s discriminant.
const CAP: u8 = 0b0001_1111;
/// A capability: its member must be an object.
const TOP: u8 = 0;
/// A sub-flag that counts only when `true`.
const TRUE: u8 = 1 << 5;
/// A sub-flag that counts whenever it is an object.
const OBJECT: u8 = 2 << 5;
/// One member deeper on the way to a sub-flag (no flag of its own).
const STEP: u8 = 3 << 5;

const _: () = assert!((Capability::Extensions as u8) <= CAP);

/// One entry of a [`FlagTable`] listing.
const fn at(kind: u8, name: &'static str, cap: Capability) -> (&'static str, u8) {
    (name, kind | cap as u8)
}

/// A [`STEP`] entry (its flag bits unused).
const fn step(name: &'static str) -> (&'static str, u8) {
    (name, STEP)
}

/// The two columns of a listing.
const fn columns<const N: usize>(entries: [(&'static str, u8); N]) -> ([&'static str; N], [u8; N]) {
    let mut names = [""; N];
    let mut codes = [0; N];
    let mut i = 0;
    while i < N {
        names[i] = entries[i].0;
        codes[i] = entries[i].1;
        i += 1;
    }
    (names, codes)
}

/// The [`FlagTable::tops`] of `codes`, which has `K` [`TOP`] entries (checked when
/// built), the first one first, and no capability with more than eight entries after its
/// own, none of them ending with a [`STEP`].
const fn tops<const N: usize, const K: usize>(codes: &[u8; N]) -> [(u8, u8); K] {
    let mut tops = [(0, 0); K];
    let (mut i, mut k) = (0, 0);
    assert!(N > 0 && N <= u8::MAX as usize && codes[0] & KIND == TOP);
    while i < N {
        if codes[i] & KIND == TOP {
            assert!(k < K);
            tops[k] = (i as u8, 0);
            k += 1;
        } else {
            let sub = i - tops[k - 1].0 as usize - 1;
            assert!(sub < 8);
            // A path starts at a capability's first sub-entry and after each test.
            if sub == 0 || codes[i - 1] & KIND != STEP {
                tops[k - 1].1 |= 1 << sub;
            }
            assert!(codes[i] & KIND != STEP || (i + 1 < N && codes[i + 1] & KIND != TOP));
        }
        i += 1;
    }
    assert!(k == K);
    tops
}

const SERVER_COLUMNS: ([&str; 17], [u8; 17]) = {
    use Capability::*;
    columns([
        at(TOP, "tools", Tools),
        at(TRUE, "listChanged", ToolsListChanged),
        at(TOP, "resources", Resources),
        at(TRUE, "subscribe", ResourcesSubscribe),
        at(TRUE, "listChanged", ResourcesListChanged),
        at(TOP, "prompts", Prompts),
        at(TRUE, "listChanged", PromptsListChanged),
        at(TOP, "logging", Logging),
        at(TOP, "completions", Completions),
        at(TOP, "tasks", ServerTasks),
        at(OBJECT, "list", ServerTasksList),
        at(OBJECT, "cancel", ServerTasksCancel),
        step("requests"),
        step("tools"),
        at(OBJECT, "call", ServerTasksToolsCall),
        at(TOP, "experimental", Experimental),
        at(TOP, "extensions", Extensions),
    ])
};

/// What [`CapabilitySet::from_server_json`] looks for.
const SERVER_FLAGS: FlagTable =
    FlagTable { names: &SERVER_COLUMNS.0, codes: &SERVER_COLUMNS.1, tops: &tops::<17, 8>(&SERVER_COLUMNS.1) };

const CLIENT_COLUMNS: ([&str; 19], [u8; 19]) = {
    use Capability::*;
    columns([
        at(TOP, "roots", Roots),
        at(TRUE, "listChanged", RootsListChanged),
        at(TOP, "sampling", Sampling),
        at(OBJECT, "tools", SamplingTools),
        at(OBJECT, "context", SamplingContext),
        at(TOP, "elicitation", Elicitation),
        at(OBJECT, "form", ElicitationForm),
        at(OBJECT, "url", ElicitationUrl),
        at(TOP, "tasks", ClientTasks),
        at(OBJECT, "list", ClientTasksList),
        at(OBJECT, "cancel", ClientTasksCancel),
        step("requests"),
        step("sampling"),
        at(OBJECT, "createMessage", ClientTasksSampling),
        step("requests"),
        step("elicitation"),
        at(OBJECT, "create", ClientTasksElicitation),
        at(TOP, "experimental", Experimental),
        at(TOP, "extensions", Extensions),
    ])
};

/// What [`CapabilitySet::from_client_json`] looks for (and the elicitation rule there).
const CLIENT_FLAGS: FlagTable =
    FlagTable { names: &CLIENT_COLUMNS.0, codes: &CLIENT_COLUMNS.1, tops: &tops::<19, 6>(&CLIENT_COLUMNS.1) };

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

    /// Names in the capabilities objects the comparison generates, by depth: those of
    /// both tables at that depth, some of other depths, and unknown ones (near misses).
    const DEPTH_NAMES: [&[&str]; 4] = [
        &[
            "tools",
            "resources",
            "prompts",
            "logging",
            "completions",
            "tasks",
            "experimental",
            "extensions",
            "roots",
            "sampling",
            "elicitation",
            "listChanged",
            "x",
            "Tools",
            "sampl",
            "",
        ],
        &[
            "listChanged",
            "subscribe",
            "tools",
            "context",
            "form",
            "url",
            "list",
            "cancel",
            "requests",
            "sampling",
            "listchanged",
            "lis",
            "y",
        ],
        &["tools", "sampling", "elicitation", "requests", "call", "tool", "z"],
        &["call", "createMessage", "create", "tools", "creat", "w"],
    ];

    /// A name at `depth` as a JSON string: as it is, or with one of its characters
    /// escaped (`\u0061`, `\u0041`-style or `\/`-style escapes).
    fn json_name(depth: usize) -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        (proptest::sample::select(DEPTH_NAMES[depth]), 0..6usize, any::<proptest::sample::Index>()).prop_map(
            |(name, how, at)| {
                if name.is_empty() || how > 2 {
                    return format!("\"{name}\"");
                }
                let at = at.index(name.len());
                let (head, tail) = name.split_at(at);
                let mut chars = tail.chars();
                let c = chars.next().unwrap_or('a');
                let escaped = match how {
                    0 => format!("\\u{:04x}", c as u32),
                    1 => format!("\\u{:04X}", c as u32),
                    _ => format!("\\u00{:02x}", c as u32),
                };
                format!("\"{head}{escaped}{}\"", chars.as_str())
            },
        )
    }

    fn ws() -> impl proptest::strategy::Strategy<Value = &'static str> {
        proptest::sample::select(&["", "", "", " ", "\n  ", "\t"][..])
    }

    /// A value inside a capabilities object at `depth`: a scalar, an array, or an object
    /// of names for the next depth (up to four members, repeated names likely).
    fn json_value(depth: usize) -> proptest::strategy::BoxedStrategy<String> {
        use proptest::prelude::*;
        let leaf = proptest::sample::select(
            &["true", "false", "1", "\"true\"", "null", "[]", "{}", "{ }", "[{}]", "{\"x\":true}"][..],
        )
        .prop_map(String::from);
        if depth >= DEPTH_NAMES.len() {
            return leaf.boxed();
        }
        prop_oneof![1 => leaf, 3 => json_object(depth, 4)].boxed()
    }

    /// An object of up to `most` members named for `depth`.
    fn json_object(depth: usize, most: usize) -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        proptest::collection::vec((ws(), json_name(depth), ws(), ws(), json_value(depth + 1), ws()), 0..=most).prop_map(
            |members| {
                let members: Vec<String> =
                    members.into_iter().map(|(a, n, b, c, v, d)| format!("{a}{n}{b}:{c}{v}{d}")).collect();
                format!("{{{}}}", members.join(","))
            },
        )
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4000))]
        /// The one-walk reading finds what the first implementation found, for both sides.
        #[test]
        fn one_walk_agrees_with_the_reference(text in json_object(0, 8)) {
            let caps = RawJson::parse(text.as_bytes()).unwrap();
            proptest::prop_assert_eq!(
                CapabilitySet::from_client_json(caps),
                CapabilitySet::reference_from_table(caps, &CLIENT_FLAGS),
                "client {}", text
            );
            proptest::prop_assert_eq!(
                CapabilitySet::from_server_json(caps),
                CapabilitySet::reference_from_table(caps, &SERVER_FLAGS),
                "server {}", text
            );
        }
    }

    /// Escaped names, repeated members (the first of a name counts, at every depth) and
    /// paths through non-objects, read as the reference reads them.
    #[test]
    fn escapes_duplicates_and_paths() {
        use Capability::*;
        let client = |json: &[u8]| {
            let caps = RawJson::parse(json).unwrap();
            let set = CapabilitySet::from_client_json(caps);
            assert_eq!(set, CapabilitySet::reference_from_table(caps, &CLIENT_FLAGS));
            set
        };
        assert_eq!(
            client(br#"{"s\u0061mpling":{"\u0074ools":{}},"roots":{"listChanged":true}}"#),
            set_of(&[Sampling, SamplingTools, Roots, RootsListChanged])
        );
        assert_eq!(client(br#"{"roots":{"listChanged":false,"listChanged":true}}"#), set_of(&[Roots]));
        assert_eq!(
            client(br#"{"roots":{"listChanged":true,"listChanged":false}}"#),
            set_of(&[Roots, RootsListChanged])
        );
        assert_eq!(
            client(br#"{"tasks":{"requests":{"sampling":true},"requests":{"sampling":{"createMessage":{}}}}}"#),
            set_of(&[ClientTasks])
        );
        assert_eq!(
            client(br#"{"tasks":{"requests":{"elicitation":{"create":{}},"sampling":{"createMessage":{}}}}}"#),
            set_of(&[ClientTasks, ClientTasksSampling, ClientTasksElicitation])
        );
    }
}
