//! Lifecycle: `initialize`, implementation info and icons, and the capability objects.

use serde::{Deserialize, Serialize};

use super::ResultType;
use super::meta::Meta;
use crate::mcp::capabilities::{Capability, CapabilitySet};
use crate::mcp::seq::Items;
use crate::wire::{JsonStr, RawJson};

/// An icon for an implementation, tool, prompt or resource (2025-11-25 on).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "camelCase")]
pub struct Icon<'a> {
    /// An `https:` URL or a `data:` URI.
    #[serde(borrow)]
    pub src: JsonStr<'a>,
    /// The image's MIME type.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<JsonStr<'a>>,
    /// Sizes it fits, like `"48x48"` or `"any"`.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub sizes: Option<Items<'a, JsonStr<'a>>>,
    /// The background theme it is made for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub theme: Option<IconTheme>,
}

impl<'a> Icon<'a> {
    /// An icon at `src`, nothing else said.
    pub const fn new(src: &'a str) -> Self {
        Self { src: JsonStr::from_text(src), mime_type: None, sizes: None, theme: None }
    }
}

/// `Icon.theme`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "lowercase")]
pub enum IconTheme {
    /// For a light background.
    Light,
    /// For a dark background.
    Dark,
}

/// Name and version of a client or server (`clientInfo`, `serverInfo`).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "camelCase")]
pub struct Implementation<'a> {
    /// Programmatic name.
    #[serde(borrow)]
    pub name: JsonStr<'a>,
    /// Display name (2025-06-18 on).
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub title: Option<JsonStr<'a>>,
    /// Version.
    #[serde(borrow)]
    pub version: JsonStr<'a>,
    /// What it is (2025-11-25 on).
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub description: Option<JsonStr<'a>>,
    /// Icons (2025-11-25 on).
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub icons: Option<Items<'a, Icon<'a>>>,
    /// Its website (2025-11-25 on).
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub website_url: Option<JsonStr<'a>>,
}

impl<'a> Implementation<'a> {
    /// `name` and `version` only.
    pub const fn new(name: &'a str, version: &'a str) -> Self {
        Self {
            name: JsonStr::from_text(name),
            title: None,
            version: JsonStr::from_text(version),
            description: None,
            icons: None,
            website_url: None,
        }
    }
}

/// `{"listChanged": bool}`, the shape of several capabilities.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "camelCase")]
pub struct ListChanged {
    /// Whether `list_changed` notifications are sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list_changed: Option<bool>,
}

impl ListChanged {
    /// `{}`
    pub const NO: ListChanged = ListChanged { list_changed: None };
    /// `{"listChanged":true}`
    pub const YES: ListChanged = ListChanged { list_changed: Some(true) };
}

/// Server `resources` capability.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "camelCase")]
pub struct ResourcesCapability {
    /// `resources/subscribe` is supported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subscribe: Option<bool>,
    /// `notifications/resources/list_changed` is sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub list_changed: Option<bool>,
}

/// Client `sampling` capability.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct SamplingCapability<'a> {
    /// `includeContext` values other than `none` are supported (2025-11-25 on).
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub context: Option<RawJson<'a>>,
    /// `tools` / `toolChoice` are supported (2025-11-25 on).
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<RawJson<'a>>,
}

/// Client `elicitation` capability (2025-06-18 on). An object with neither member means
/// form mode only.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ElicitationCapability<'a> {
    /// Form mode (2025-11-25 on).
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub form: Option<RawJson<'a>>,
    /// URL mode (2025-11-25 on).
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub url: Option<RawJson<'a>>,
}

/// `tasks` capability of either side (2025-11-25). `requests` says which requests may
/// be task-augmented (server: `tools.call`; client: `sampling.createMessage`,
/// `elicitation.create`), kept raw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct TasksCapability<'a> {
    /// `tasks/list` is supported.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub list: Option<RawJson<'a>>,
    /// `tasks/cancel` is supported.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub cancel: Option<RawJson<'a>>,
    /// Which requests may be augmented with a task.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub requests: Option<RawJson<'a>>,
}

/// What a client supports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ClientCapabilities<'a> {
    /// Non-standard capabilities, kept raw.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub experimental: Option<RawJson<'a>>,
    /// `roots` (`listChanged` until 2025-11-25; `{}` in 2026-07-28).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roots: Option<ListChanged>,
    /// `sampling`.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub sampling: Option<SamplingCapability<'a>>,
    /// `elicitation` (2025-06-18 on).
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub elicitation: Option<ElicitationCapability<'a>>,
    /// `tasks` (2025-11-25).
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub tasks: Option<TasksCapability<'a>>,
    /// Extensions by name (2026-07-28), kept raw.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub extensions: Option<RawJson<'a>>,
}

/// A builder where a typo does not compile: each capability is a method.
///
/// ```
/// use mcp_sansio::mcp::{ClientCapabilities, ListChanged};
/// const CAPS: ClientCapabilities<'static> = ClientCapabilities::new().roots(ListChanged::YES).sampling();
/// assert!(CAPS.flags().contains(mcp_sansio::mcp::Capability::RootsListChanged));
/// ```
impl<'a> ClientCapabilities<'a> {
    /// No capabilities.
    pub const fn new() -> Self {
        Self { experimental: None, roots: None, sampling: None, elicitation: None, tasks: None, extensions: None }
    }

    /// `roots`, saying whether `notifications/roots/list_changed` is sent.
    pub const fn roots(mut self, list_changed: ListChanged) -> Self {
        self.roots = Some(list_changed);
        self
    }

    /// `sampling: {}`.
    pub const fn sampling(mut self) -> Self {
        self.sampling = Some(SamplingCapability { context: None, tools: None });
        self
    }

    /// `sampling` with its sub-capabilities (2025-11-25).
    pub const fn sampling_with(mut self, sampling: SamplingCapability<'a>) -> Self {
        self.sampling = Some(sampling);
        self
    }

    /// `elicitation: {}` (form mode; 2025-06-18 on).
    pub const fn elicitation(mut self) -> Self {
        self.elicitation = Some(ElicitationCapability { form: None, url: None });
        self
    }

    /// `elicitation` with its modes (2025-11-25).
    pub const fn elicitation_with(mut self, elicitation: ElicitationCapability<'a>) -> Self {
        self.elicitation = Some(elicitation);
        self
    }

    /// `tasks` (2025-11-25).
    pub const fn tasks(mut self, tasks: TasksCapability<'a>) -> Self {
        self.tasks = Some(tasks);
        self
    }

    /// `experimental`, kept raw.
    pub const fn experimental(mut self, experimental: RawJson<'a>) -> Self {
        self.experimental = Some(experimental);
        self
    }

    /// `extensions` (2026-07-28), kept raw.
    pub const fn extensions(mut self, extensions: RawJson<'a>) -> Self {
        self.extensions = Some(extensions);
        self
    }
}

impl ClientCapabilities<'_> {
    /// The flags the session gates methods with (see [`CapabilitySet::from_client_json`]).
    pub fn flags(&self) -> CapabilitySet {
        let mut set = CapabilitySet::EMPTY;
        let mut add = |cond: bool, c: Capability| {
            if cond {
                set = set.with(c);
            }
        };
        add(self.experimental.is_some(), Capability::Experimental);
        add(self.extensions.is_some(), Capability::Extensions);
        if let Some(r) = self.roots {
            add(true, Capability::Roots);
            add(r.list_changed == Some(true), Capability::RootsListChanged);
        }
        if let Some(s) = self.sampling {
            add(true, Capability::Sampling);
            add(s.tools.is_some(), Capability::SamplingTools);
            add(s.context.is_some(), Capability::SamplingContext);
        }
        if let Some(e) = self.elicitation {
            add(true, Capability::Elicitation);
            add(e.form.is_some() || e.url.is_none(), Capability::ElicitationForm);
            add(e.url.is_some(), Capability::ElicitationUrl);
        }
        if let Some(t) = self.tasks {
            let nested = |a: &str, b: &str| {
                t.requests.and_then(|r| r.get(a)).and_then(|x| x.get(b)).is_some_and(|v| v.is_object())
            };
            add(true, Capability::ClientTasks);
            add(t.list.is_some(), Capability::ClientTasksList);
            add(t.cancel.is_some(), Capability::ClientTasksCancel);
            add(nested("sampling", "createMessage"), Capability::ClientTasksSampling);
            add(nested("elicitation", "create"), Capability::ClientTasksElicitation);
        }
        set
    }
}

/// What a server supports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ServerCapabilities<'a> {
    /// Non-standard capabilities, kept raw.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub experimental: Option<RawJson<'a>>,
    /// `logging`: the server sends log messages.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub logging: Option<RawJson<'a>>,
    /// `completions` (2025-03-26 on).
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub completions: Option<RawJson<'a>>,
    /// `prompts`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompts: Option<ListChanged>,
    /// `resources`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resources: Option<ResourcesCapability>,
    /// `tools`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tools: Option<ListChanged>,
    /// `tasks` (2025-11-25).
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub tasks: Option<TasksCapability<'a>>,
    /// Extensions by name (2026-07-28), kept raw.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub extensions: Option<RawJson<'a>>,
}

/// A builder where a typo does not compile: each capability is a method.
///
/// ```
/// use mcp_sansio::mcp::{Capability, ListChanged, ServerCapabilities};
/// const CAPS: ServerCapabilities<'static> =
///     ServerCapabilities::new().tools(ListChanged::YES).resources(true, ListChanged::NO).logging();
/// let flags = CAPS.flags();
/// assert!(flags.contains(Capability::ToolsListChanged) && flags.contains(Capability::ResourcesSubscribe));
/// assert!(!flags.contains(Capability::Prompts));
/// ```
impl<'a> ServerCapabilities<'a> {
    /// No capabilities.
    pub const fn new() -> Self {
        Self {
            experimental: None,
            logging: None,
            completions: None,
            prompts: None,
            resources: None,
            tools: None,
            tasks: None,
            extensions: None,
        }
    }

    /// `tools`, saying whether `notifications/tools/list_changed` is sent.
    pub const fn tools(mut self, list_changed: ListChanged) -> Self {
        self.tools = Some(list_changed);
        self
    }

    /// `prompts`, saying whether `notifications/prompts/list_changed` is sent.
    pub const fn prompts(mut self, list_changed: ListChanged) -> Self {
        self.prompts = Some(list_changed);
        self
    }

    /// `resources`: whether `resources/subscribe` is supported, and whether
    /// `notifications/resources/list_changed` is sent.
    pub const fn resources(mut self, subscribe: bool, list_changed: ListChanged) -> Self {
        self.resources = Some(ResourcesCapability {
            subscribe: if subscribe { Some(true) } else { None },
            list_changed: list_changed.list_changed,
        });
        self
    }

    /// `logging: {}`: the server sends log messages.
    pub const fn logging(mut self) -> Self {
        self.logging = Some(RawJson::EMPTY_OBJECT);
        self
    }

    /// `completions: {}` (2025-03-26 on).
    pub const fn completions(mut self) -> Self {
        self.completions = Some(RawJson::EMPTY_OBJECT);
        self
    }

    /// `tasks` (2025-11-25).
    pub const fn tasks(mut self, tasks: TasksCapability<'a>) -> Self {
        self.tasks = Some(tasks);
        self
    }

    /// `experimental`, kept raw.
    pub const fn experimental(mut self, experimental: RawJson<'a>) -> Self {
        self.experimental = Some(experimental);
        self
    }

    /// `extensions` (2026-07-28), kept raw.
    pub const fn extensions(mut self, extensions: RawJson<'a>) -> Self {
        self.extensions = Some(extensions);
        self
    }
}

impl ServerCapabilities<'_> {
    /// The flags the session gates methods with (see [`CapabilitySet::from_server_json`]).
    pub fn flags(&self) -> CapabilitySet {
        let mut set = CapabilitySet::EMPTY;
        let mut add = |cond: bool, c: Capability| {
            if cond {
                set = set.with(c);
            }
        };
        add(self.experimental.is_some(), Capability::Experimental);
        add(self.extensions.is_some(), Capability::Extensions);
        add(self.logging.is_some(), Capability::Logging);
        add(self.completions.is_some(), Capability::Completions);
        if let Some(p) = self.prompts {
            add(true, Capability::Prompts);
            add(p.list_changed == Some(true), Capability::PromptsListChanged);
        }
        if let Some(r) = self.resources {
            add(true, Capability::Resources);
            add(r.subscribe == Some(true), Capability::ResourcesSubscribe);
            add(r.list_changed == Some(true), Capability::ResourcesListChanged);
        }
        if let Some(t) = self.tools {
            add(true, Capability::Tools);
            add(t.list_changed == Some(true), Capability::ToolsListChanged);
        }
        if let Some(t) = self.tasks {
            let call = t.requests.and_then(|r| r.get("tools")).and_then(|x| x.get("call"));
            add(true, Capability::ServerTasks);
            add(t.list.is_some(), Capability::ServerTasksList);
            add(t.cancel.is_some(), Capability::ServerTasksCancel);
            add(call.is_some_and(|v| v.is_object()), Capability::ServerTasksToolsCall);
        }
        set
    }
}

/// `initialize` params (2024-11-05 to 2025-11-25).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "camelCase")]
pub struct InitializeParams<'a> {
    /// The newest version the client supports (a string: it may be one this crate does
    /// not know).
    #[serde(borrow)]
    pub protocol_version: JsonStr<'a>,
    /// What the client supports.
    #[serde(borrow)]
    pub capabilities: ClientCapabilities<'a>,
    /// Who the client is.
    #[serde(borrow)]
    pub client_info: Implementation<'a>,
    /// `_meta`
    #[serde(borrow, rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta<'a>>,
}

/// `initialize` result.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "camelCase")]
pub struct InitializeResult<'a> {
    /// The version the server chose.
    #[serde(borrow)]
    pub protocol_version: JsonStr<'a>,
    /// What the server supports.
    #[serde(borrow)]
    pub capabilities: ServerCapabilities<'a>,
    /// Who the server is.
    #[serde(borrow)]
    pub server_info: Implementation<'a>,
    /// How to use the server, for the model (all versions).
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub instructions: Option<JsonStr<'a>>,
    /// `resultType` (not used by handshake versions; kept if sent).
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub result_type: Option<ResultType<'a>>,
    /// `_meta`
    #[serde(borrow, rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta<'a>>,
}

impl<'a> InitializeResult<'a> {
    /// A result choosing `version`, with these capabilities and server info.
    pub const fn new(
        version: crate::mcp::ProtocolVersion,
        capabilities: ServerCapabilities<'a>,
        server_info: Implementation<'a>,
    ) -> Self {
        Self {
            protocol_version: JsonStr::from_text(version.as_str()),
            capabilities,
            server_info,
            instructions: None,
            result_type: None,
            meta: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn initialize_params_from_the_lifecycle_page() {
        // docs/specification/2025-11-25/basic/lifecycle.mdx, plus an unknown member.
        let p: InitializeParams<'_> = RawJson::parse(
            br#"{"protocolVersion":"2025-11-25","capabilities":{"roots":{"listChanged":true},"sampling":{},
                "elicitation":{"form":{},"url":{}},"x":1},
                "clientInfo":{"name":"ExampleClient","title":"Example Client Display Name","version":"1.0.0",
                "description":"An example MCP client application","icons":[{"src":"https://example.com/icon.png",
                "mimeType":"image/png","sizes":["48x48"]}],"websiteUrl":"https://example.com"}}"#,
        )
        .unwrap()
        .decode()
        .unwrap();
        assert_eq!(p.protocol_version, "2025-11-25");
        let flags = p.capabilities.flags();
        assert!(flags.contains(Capability::RootsListChanged));
        assert!(flags.contains(Capability::ElicitationUrl) && flags.contains(Capability::ElicitationForm));
        assert_eq!(p.client_info.title.unwrap(), "Example Client Display Name");
        let icon = p.client_info.icons.unwrap().get(0).unwrap().unwrap();
        assert_eq!(icon.sizes.unwrap().get(0).unwrap().unwrap(), "48x48");
        assert_eq!(p.client_info.website_url.unwrap(), "https://example.com");
    }

    #[test]
    fn capability_flags_agree_with_the_bit_set_parser() {
        let samples: [&[u8]; 4] = [
            br#"{"tools":{"listChanged":true},"resources":{"subscribe":true},"logging":{},"completions":{},
                "tasks":{"list":{},"cancel":{},"requests":{"tools":{"call":{}}}},"experimental":{"a":{}}}"#,
            br#"{"prompts":{},"resources":{"listChanged":true},"extensions":{"io.modelcontextprotocol/tasks":{}}}"#,
            br#"{"roots":{"listChanged":false},"sampling":{"tools":{},"context":{}},"elicitation":{}}"#,
            br#"{"tasks":{"requests":{"sampling":{"createMessage":{}},"elicitation":{"create":{}}}},"elicitation":{"url":{}}}"#,
        ];
        for text in samples {
            let raw = RawJson::parse(text).unwrap();
            let s: ServerCapabilities<'_> = raw.decode().unwrap();
            let c: ClientCapabilities<'_> = raw.decode().unwrap();
            assert_eq!(s.flags(), CapabilitySet::from_server_json(raw));
            assert_eq!(c.flags(), CapabilitySet::from_client_json(raw));
        }
    }
}
