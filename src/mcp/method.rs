//! Every MCP method, and the table saying where each one is legal.
//!
//! "Registry membership is the deletion story": a method that does not exist in the
//! negotiated version, or not in the direction it travelled, is answered with -32601
//! exactly like an unknown method. The table below is transcribed from
//! `schema/<version>/schema.ts` of the specification repository.

use core::fmt;

use super::capabilities::Capability;
use super::version::{ProtocolVersion, VersionSet};
use crate::wire::JsonStr;

/// Which side sends a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Direction {
    /// From client to server.
    ClientToServer,
    /// From server to client.
    ServerToClient,
    /// Either way.
    Both,
}

impl Direction {
    /// Whether a message in this direction may be sent by `sender`.
    pub const fn allows(self, sender: Role) -> bool {
        matches!(
            (self, sender),
            (Direction::Both, _)
                | (Direction::ClientToServer, Role::Client)
                | (Direction::ServerToClient, Role::Server)
        )
    }
}

/// The two sides of an MCP connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Role {
    /// The side that sends `initialize` (or, in 2026-07-28, every request).
    Client,
    /// The side that offers tools, resources and prompts.
    Server,
}

impl Role {
    /// The other side.
    pub const fn peer(self) -> Role {
        match self {
            Role::Client => Role::Server,
            Role::Server => Role::Client,
        }
    }
}

/// Request or notification.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum MethodKind {
    /// Expects a response.
    Request,
    /// Never answered.
    Notification,
}

/// Where and how a known method may be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MethodSpec {
    /// The method name on the wire.
    pub name: &'static str,
    /// Request or notification.
    pub kind: MethodKind,
    /// The versions whose schema defines it as a JSON-RPC message.
    pub versions: VersionSet,
    /// Who may send it in the handshake versions (2024-11-05 to 2025-11-25).
    pub handshake_direction: Direction,
    /// Who may send it in 2026-07-28.
    pub stateless_direction: Direction,
    /// The capability the *receiver* must have declared for it to be sent, if any.
    pub requires: Option<Capability>,
    /// Whether the method's params and result are paginated (`cursor` / `nextCursor`).
    pub paginated: bool,
}

impl MethodSpec {
    /// Whether `sender` may send this method under `version`.
    pub fn allowed(&self, version: ProtocolVersion, sender: Role) -> bool {
        let direction = if version.has_handshake() { self.handshake_direction } else { self.stateless_direction };
        self.versions.contains(version) && direction.allows(sender)
    }
}

macro_rules! methods {
    ($( $(#[$doc:meta])* $variant:ident = $name:literal, $kind:ident, $versions:expr,
        $hs:ident, $sl:ident, $requires:expr, $paginated:expr; )*) => {
        /// An MCP method: every method of every published version, or another name.
        ///
        /// Parsing compares the unescaped name, so `"tools\/call"` is [`Method::ToolsCall`].
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[cfg_attr(feature = "defmt", derive(defmt::Format))]
        #[non_exhaustive]
        pub enum Method<'a> {
            $( $(#[$doc])* $variant, )*
            /// A method this crate does not know (an extension, a newer version, a typo).
            Other(JsonStr<'a>),
        }

        /// Each known method's position in [`SPECS`] (the order of the variants).
        #[allow(clippy::upper_case_acronyms, dead_code)]
        enum Index {
            $( $variant, )*
        }

        /// The known methods' entries, in the order of the variants: a method's entry is
        /// found by its position, and a position gives the method back
        /// ([`Method::known_at`]), so the table holds no `Method` column (12 bytes an
        /// entry on 32-bit targets).
        const SPECS: &[MethodSpec] = &[
            $( MethodSpec {
                name: $name,
                kind: MethodKind::$kind,
                versions: $versions,
                handshake_direction: Direction::$hs,
                stateless_direction: Direction::$sl,
                requires: $requires,
                paginated: $paginated,
            }, )*
        ];

        impl<'a> Method<'a> {
            /// The position of a known method's entry in [`SPECS`], or `SPECS.len()` for
            /// [`Method::Other`].
            ///
            /// `Other` maps to the position just past the table, so every arm is the
            /// variant's place in declaration order and the match compiles to one
            /// subtraction; with `Some`/`None` arms LLVM built two 34-entry lookup tables
            /// instead (276 bytes of flash on 32-bit targets).
            fn position(&self) -> usize {
                match self {
                    $( Method::$variant => Index::$variant as usize, )*
                    Method::Other(_) => SPECS.len(),
                }
            }

            /// The known method whose entry is at `at` in [`SPECS`].
            fn known_at(at: usize) -> Option<Method<'static>> {
                $( if at == Index::$variant as usize {
                    return Some(Method::$variant);
                } )*
                None
            }

            /// The method named `name` (compared after unescaping).
            pub fn parse(name: JsonStr<'a>) -> Method<'a> {
                // With the compact searches (microcontrollers), one loop over the table
                // instead of a comparison per method inlined (see `from_known_bytes`).
                if crate::wire::COMPACT {
                    let known = SPECS.iter().position(|s| name.eq_str(s.name)).and_then(Self::known_at);
                    return known.unwrap_or(Method::Other(name));
                }
                let known = match name.is_escaped() {
                    false => Self::from_known_bytes(name.raw()),
                    true => SPECS.iter().position(|s| name.eq_str(s.name)).and_then(Self::known_at),
                };
                known.unwrap_or(Method::Other(name))
            }

            /// Request or notification, for known methods.
            pub fn kind(&self) -> Option<MethodKind> {
                if crate::wire::COMPACT {
                    return self.spec().map(|s| s.kind);
                }
                match self {
                    $( Method::$variant => Some(MethodKind::$kind), )*
                    Method::Other(_) => None,
                }
            }

            /// The known method with this exact name, compared as bytes (no UTF-8 check:
            /// the names are ASCII, and only equal bytes match).
            fn from_known_bytes(name: &[u8]) -> Option<Method<'static>> {
                $( if name == $name.as_bytes() {
                    return Some(Method::$variant);
                } )*
                None
            }

            /// The known method with this exact name.
            pub fn from_known_name(name: &str) -> Option<Method<'static>> {
                if crate::wire::COMPACT {
                    return SPECS.iter().position(|s| s.name == name).and_then(Self::known_at);
                }
                match name {
                    $( $name => Some(Method::$variant), )*
                    _ => None,
                }
            }

            /// The name on the wire: the specification's for known methods, the raw text
            /// (still escaped, if it was) for others.
            pub fn name(&self) -> &'a str {
                if crate::wire::COMPACT {
                    return match self.spec() {
                        Some(spec) => spec.name,
                        None => match self {
                            Method::Other(s) => core::str::from_utf8(s.raw()).unwrap_or_default(),
                            _ => "",
                        },
                    };
                }
                match self {
                    $( Method::$variant => $name, )*
                    Method::Other(s) => core::str::from_utf8(s.raw()).unwrap_or_default(),
                }
            }
        }
    };
}

use ProtocolVersion as V;

const ALL: VersionSet = VersionSet::ALL;
const HS: VersionSet = VersionSet::HANDSHAKE;
const fn only(v: ProtocolVersion) -> VersionSet {
    VersionSet::only(v)
}
const fn hs_since(v: ProtocolVersion) -> VersionSet {
    VersionSet::since(v).intersect(VersionSet::HANDSHAKE)
}

use Capability as C;

methods! {
    /// `initialize`
    Initialize = "initialize", Request, HS, ClientToServer, ClientToServer, None, false;
    /// `ping`
    Ping = "ping", Request, HS, Both, Both, None, false;
    /// `server/discover`
    ServerDiscover = "server/discover", Request, only(V::V2026_07_28), ClientToServer, ClientToServer, None, false;
    /// `completion/complete`
    CompletionComplete = "completion/complete", Request, ALL, ClientToServer, ClientToServer, Some(C::Completions), false;
    /// `logging/setLevel`
    LoggingSetLevel = "logging/setLevel", Request, HS, ClientToServer, ClientToServer, Some(C::Logging), false;
    /// `prompts/list`
    PromptsList = "prompts/list", Request, ALL, ClientToServer, ClientToServer, Some(C::Prompts), true;
    /// `prompts/get`
    PromptsGet = "prompts/get", Request, ALL, ClientToServer, ClientToServer, Some(C::Prompts), false;
    /// `resources/list`
    ResourcesList = "resources/list", Request, ALL, ClientToServer, ClientToServer, Some(C::Resources), true;
    /// `resources/templates/list`
    ResourcesTemplatesList = "resources/templates/list", Request, ALL, ClientToServer, ClientToServer, Some(C::Resources), true;
    /// `resources/read`
    ResourcesRead = "resources/read", Request, ALL, ClientToServer, ClientToServer, Some(C::Resources), false;
    /// `resources/subscribe`
    ResourcesSubscribe = "resources/subscribe", Request, HS, ClientToServer, ClientToServer, Some(C::ResourcesSubscribe), false;
    /// `resources/unsubscribe`
    ResourcesUnsubscribe = "resources/unsubscribe", Request, HS, ClientToServer, ClientToServer, Some(C::ResourcesSubscribe), false;
    /// `subscriptions/listen`
    SubscriptionsListen = "subscriptions/listen", Request, only(V::V2026_07_28), ClientToServer, ClientToServer, None, false;
    /// `tools/list`
    ToolsList = "tools/list", Request, ALL, ClientToServer, ClientToServer, Some(C::Tools), true;
    /// `tools/call`
    ToolsCall = "tools/call", Request, ALL, ClientToServer, ClientToServer, Some(C::Tools), false;
    /// `sampling/createMessage` (in 2026-07-28 only as an input request inside a result)
    SamplingCreateMessage = "sampling/createMessage", Request, HS, ServerToClient, ServerToClient, Some(C::Sampling), false;
    /// `roots/list` (in 2026-07-28 only as an input request inside a result)
    RootsList = "roots/list", Request, HS, ServerToClient, ServerToClient, Some(C::Roots), false;
    /// `elicitation/create` (2025-06-18 on; in 2026-07-28 only as an input request)
    ElicitationCreate = "elicitation/create", Request, hs_since(V::V2025_06_18), ServerToClient, ServerToClient, Some(C::Elicitation), false;
    /// `tasks/get` (2025-11-25; an extension in 2026-07-28)
    TasksGet = "tasks/get", Request, only(V::V2025_11_25), Both, Both, None, false;
    /// `tasks/result` (2025-11-25)
    TasksResult = "tasks/result", Request, only(V::V2025_11_25), Both, Both, None, false;
    /// `tasks/list` (2025-11-25)
    TasksList = "tasks/list", Request, only(V::V2025_11_25), Both, Both, None, true;
    /// `tasks/cancel` (2025-11-25)
    TasksCancel = "tasks/cancel", Request, only(V::V2025_11_25), Both, Both, None, false;
    /// `notifications/initialized`
    Initialized = "notifications/initialized", Notification, HS, ClientToServer, ClientToServer, None, false;
    /// `notifications/cancelled` (2026-07-28: client to server; a server uses it only to end a listen)
    Cancelled = "notifications/cancelled", Notification, ALL, Both, Both, None, false;
    /// `notifications/progress` (2026-07-28: server to client)
    Progress = "notifications/progress", Notification, ALL, Both, ServerToClient, None, false;
    /// `notifications/message`
    LogMessage = "notifications/message", Notification, ALL, ServerToClient, ServerToClient, None, false;
    /// `notifications/resources/list_changed`
    ResourcesListChanged = "notifications/resources/list_changed", Notification, ALL, ServerToClient, ServerToClient, None, false;
    /// `notifications/resources/updated`
    ResourcesUpdated = "notifications/resources/updated", Notification, ALL, ServerToClient, ServerToClient, None, false;
    /// `notifications/prompts/list_changed`
    PromptsListChanged = "notifications/prompts/list_changed", Notification, ALL, ServerToClient, ServerToClient, None, false;
    /// `notifications/tools/list_changed`
    ToolsListChanged = "notifications/tools/list_changed", Notification, ALL, ServerToClient, ServerToClient, None, false;
    /// `notifications/roots/list_changed`
    RootsListChanged = "notifications/roots/list_changed", Notification, HS, ClientToServer, ClientToServer, None, false;
    /// `notifications/elicitation/complete` (2025-11-25)
    ElicitationComplete = "notifications/elicitation/complete", Notification, only(V::V2025_11_25), ServerToClient, ServerToClient, None, false;
    /// `notifications/tasks/status` (2025-11-25)
    TasksStatus = "notifications/tasks/status", Notification, only(V::V2025_11_25), Both, Both, None, false;
    /// `notifications/subscriptions/acknowledged` (2026-07-28)
    SubscriptionsAcknowledged = "notifications/subscriptions/acknowledged", Notification, only(V::V2026_07_28), ServerToClient, ServerToClient, None, false;
}

impl<'a> Method<'a> {
    /// The table entry, for known methods.
    pub fn spec(&self) -> Option<&'static MethodSpec> {
        SPECS.get(self.position())
    }

    /// Whether this is a known method.
    pub fn is_known(&self) -> bool {
        !matches!(self, Method::Other(_))
    }

    /// The method without its borrowed name: `None` for [`Method::Other`].
    pub fn to_known(self) -> Option<Method<'static>> {
        match self {
            Method::Other(_) => None,
            known => Self::known_at(known.position()),
        }
    }

    /// Whether `sender` may send this method under `version` (unknown methods: never).
    pub fn allowed(&self, version: ProtocolVersion, sender: Role) -> bool {
        self.spec().is_some_and(|s| s.allowed(version, sender))
    }

    /// The capability the receiver must have declared before this method may be sent
    /// under `version`. Beyond the table this knows that `completion/complete` had no
    /// capability before 2025-03-26, and that `tasks/*` need the sender's peer to have
    /// declared `tasks` (with `tasks.list` / `tasks.cancel` for those methods).
    pub fn required_capability(&self, version: ProtocolVersion, receiver: Role) -> Option<Capability> {
        match (self, receiver) {
            (Method::CompletionComplete, _) if version == V::V2024_11_05 => None,
            (Method::TasksList, Role::Server) => Some(C::ServerTasksList),
            (Method::TasksList, Role::Client) => Some(C::ClientTasksList),
            (Method::TasksCancel, Role::Server) => Some(C::ServerTasksCancel),
            (Method::TasksCancel, Role::Client) => Some(C::ClientTasksCancel),
            (Method::TasksGet | Method::TasksResult | Method::TasksStatus, Role::Server) => Some(C::ServerTasks),
            (Method::TasksGet | Method::TasksResult | Method::TasksStatus, Role::Client) => Some(C::ClientTasks),
            _ => self.spec().and_then(|s| s.requires),
        }
    }

    /// The capability the *sender* must have declared to send this notification: a
    /// `list_changed` notification needs the sender's own `listChanged` flag, and so on.
    pub fn sender_capability(&self) -> Option<Capability> {
        match self {
            Method::ToolsListChanged => Some(C::ToolsListChanged),
            Method::PromptsListChanged => Some(C::PromptsListChanged),
            Method::ResourcesListChanged => Some(C::ResourcesListChanged),
            Method::ResourcesUpdated => Some(C::ResourcesSubscribe),
            Method::RootsListChanged => Some(C::RootsListChanged),
            Method::LogMessage => Some(C::Logging),
            _ => None,
        }
    }
}

impl fmt::Display for Method<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Method::Other(s) => fmt::Display::fmt(s, f),
            known => f.write_str(known.name()),
        }
    }
}

/// Every known method with its table entry.
pub fn all_methods() -> impl Iterator<Item = (Method<'static>, &'static MethodSpec)> {
    SPECS.iter().enumerate().filter_map(|(at, s)| Some((Method::known_at(at)?, s)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::RawJson;

    fn parse(json: &'static [u8]) -> Method<'static> {
        Method::parse(RawJson::parse(json).unwrap().as_str().unwrap())
    }

    #[test]
    fn names_round_trip_and_escapes_are_resolved() {
        // Every entry gives its method back, and the method finds the same entry.
        assert_eq!(all_methods().count(), SPECS.len());
        for (m, spec) in all_methods() {
            assert_eq!(m.spec(), Some(spec));
            assert_eq!(m.name(), spec.name);
            assert_eq!(Method::from_known_name(spec.name), Some(m));
            assert_eq!(m.to_known(), Some(m));
        }
        assert_eq!(parse(br#""tools\/call""#), Method::ToolsCall);
        assert!(matches!(parse(br#""tools/calls""#), Method::Other(_)));
        assert_eq!(parse(br#""tools/calls""#).name(), "tools/calls");
    }

    #[test]
    fn per_version_and_direction() {
        use Role::*;
        assert!(Method::Ping.allowed(V::V2024_11_05, Server));
        assert!(!Method::Ping.allowed(V::V2026_07_28, Client));
        assert!(!Method::ElicitationCreate.allowed(V::V2025_03_26, Server));
        assert!(Method::ElicitationCreate.allowed(V::V2025_06_18, Server));
        assert!(!Method::ElicitationCreate.allowed(V::V2025_06_18, Client));
        assert!(Method::TasksGet.allowed(V::V2025_11_25, Client));
        assert!(!Method::TasksGet.allowed(V::V2025_06_18, Client));
        assert!(Method::ServerDiscover.allowed(V::V2026_07_28, Client));
        assert!(!Method::Initialize.allowed(V::V2026_07_28, Client));
        assert!(Method::Progress.allowed(V::V2025_06_18, Client));
        assert!(!Method::Progress.allowed(V::V2026_07_28, Client));
        assert!(!parse(br#""x/y""#).allowed(V::V2025_06_18, Client));
    }

    #[test]
    fn capability_requirements() {
        assert_eq!(
            Method::ResourcesSubscribe.required_capability(V::V2025_06_18, Role::Server),
            Some(C::ResourcesSubscribe)
        );
        assert_eq!(Method::SamplingCreateMessage.required_capability(V::V2025_06_18, Role::Client), Some(C::Sampling));
        assert_eq!(Method::CompletionComplete.required_capability(V::V2024_11_05, Role::Server), None);
        assert_eq!(Method::CompletionComplete.required_capability(V::V2025_03_26, Role::Server), Some(C::Completions));
        assert_eq!(Method::TasksList.required_capability(V::V2025_11_25, Role::Client), Some(C::ClientTasksList));
        assert_eq!(Method::ToolsListChanged.sender_capability(), Some(C::ToolsListChanged));
    }

    #[test]
    fn table_matches_the_schema_method_sets() {
        // From `grep 'method: "' schema/<version>/schema.ts` at commit b0f60ba5.
        let expected: [(&str, usize); 5] =
            [("2024-11-05", 24), ("2025-03-26", 24), ("2025-06-18", 25), ("2025-11-25", 31), ("2026-07-28", 18)];
        for (name, count) in expected {
            let v = ProtocolVersion::from_name(name).unwrap();
            let n = all_methods().filter(|(_, s)| s.versions.contains(v)).count();
            assert_eq!(n, count, "{name}");
        }
    }
}
