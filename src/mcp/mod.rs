//! The MCP vocabulary: versions, methods, capabilities, and a typed, borrowed type for
//! every message of every published protocol version.
//!
//! Every type has exactly one path: `mcp_sansio::mcp::Tool`, `mcp_sansio::mcp::Meta`,
//! `mcp_sansio::mcp::decode_result`. The vocabulary is one flat namespace because that is
//! how it is used: a handler needs `CallToolParams`, `CallToolResult` and `ContentBlock`
//! together, whatever part of the specification defines each, and a type reachable by two
//! paths (`mcp::server::tools::Tool` and `mcp::Tool`) shows up twice in the documentation
//! and in code completion, and lets two files of one program import it two ways. The
//! folders inside follow the specification's table of contents, so that the code for a
//! page of the specification sits in one place; they are private.
//!
//! | area | types |
//! |---|---|
//! | base protocol | lifecycle ([`InitializeParams`], [`InitializeResult`], [`Implementation`], [`ClientCapabilities`], [`ServerCapabilities`]), [`Meta`], [`CancelledParams`], [`ProgressParams`], tasks ([`Task`]), [`ResultType`], input requests ([`InputRequiredResult`]), [`SubscriptionParams`], error data |
//! | server features | tools ([`Tool`], [`CallToolParams`], [`CallToolResult`], [`TextToolResult`]), resources ([`Resource`], [`ReadResourceResult`]), prompts ([`Prompt`], [`GetPromptResult`]), [`CompleteParams`], logging ([`LoggingMessageParams`]), pagination and caching ([`ListResult`], [`PaginatedParams`]), [`DiscoverResult`] |
//! | client features | [`Root`], sampling ([`CreateMessageParams`]), elicitation ([`ElicitParams`]) |
//! | content | [`ContentBlock`] and its variants, [`Annotations`] |
//! | decoding by method | [`decode_request`], [`decode_notification`], [`decode_result`]; their `_with_spans` forms read the members [`Message::parse_with_spans`](crate::wire::Message::parse_with_spans) recorded |
//! | lazy sequences and params | [`Items`], [`Map`], [`Lazy`] (params read member by member) |
//! | methods and versions | [`Method`], [`ProtocolVersion`], [`Capability`] |
//!
//! One type per concept covers all five versions: a field that exists only in some
//! versions is an `Option`, and its documentation says from which version on. Unknown
//! members are ignored when decoding, and `_meta` is kept wherever the schema allows it.
//! Every type decodes from a [`RawJson`](crate::wire::RawJson) span without copying
//! (free text is [`JsonStr`](crate::wire::JsonStr), sequences are [`Items`]), and
//! serializes with this crate's [`FrameWriter`](crate::wire::FrameWriter) or with
//! `serde_json`.
//!
//! Writing a server's answers needs no allocation:
//!
//! ```
//! use mcp_sansio::mcp::{CallToolResult, ListToolsResult, Tool};
//! use mcp_sansio::wire::{FrameWriter, RawJson, RequestId};
//!
//! let schema = RawJson::parse(br#"{"type":"object","properties":{"a":{"type":"number"}}}"#).unwrap();
//! let tools = [Tool::new("double", schema).with_description("Doubles a")];
//! let mut buf = [0u8; 512];
//! let mut w = FrameWriter::new(&mut buf);
//! w.result(RequestId::from_u64(1).as_ref(), &ListToolsResult::new(&tools)).unwrap();
//! w.result(RequestId::from_u64(2).as_ref(), &CallToolResult::text("4")).unwrap();
//! w.result(RequestId::from_u64(3).as_ref(), &CallToolResult::error("a is not a number")).unwrap();
//! ```

mod basic;
mod capabilities;
mod client;
mod content;
mod direct;
mod dispatch;
mod lazy;
mod method;
mod seq;
mod server;
mod version;

pub use basic::cancellation::CancelledParams;
pub use basic::errors::{MissingCapabilityData, UnsupportedVersionData, UrlElicitationRequiredData};
pub use basic::lifecycle::{
    ClientCapabilities, ElicitationCapability, Icon, IconTheme, Implementation, InitializeParams, InitializeResult,
    ListChanged, ResourcesCapability, SamplingCapability, ServerCapabilities, TasksCapability,
};
pub use basic::meta::{Meta, MetaFields, is_reserved_key, keys as meta_keys};
pub use basic::mrtr::{
    InputAnswers, InputKind, InputRequest, InputRequestError, InputRequiredResult, InputResponse, InputResponsesError,
};
pub use basic::progress::{ProgressParams, ProgressToken};
pub use basic::subscriptions::{SubscriptionFilter, SubscriptionParams};
pub use basic::tasks::{
    CreateTaskResult, DetailedTask, ListTasksResult, TASK_NOT_FOUND, Task, TaskHandle, TaskIdParams, TaskMetadata,
    TaskRequest, TaskStatus, UpdateTaskParams,
};
pub use basic::{EmptyParams, EmptyResult, ResultType};
pub use capabilities::{Capability, CapabilitySet};
pub use client::elicitation::{
    ElicitAction, ElicitFormParams, ElicitParams, ElicitResult, ElicitUrlParams, ElicitationCompleteParams, FormMode,
};
pub use client::roots::{ListRootsResult, Root};
pub use client::sampling::{
    CreateMessageParams, CreateMessageResult, IncludeContext, ModelHint, ModelPreferences, SamplingMessage, StopReason,
    ToolChoice, ToolChoiceMode,
};
pub use content::{
    Annotations, AudioContent, ContentBlock, ContentList, EmbeddedResource, ImageContent, MessageRole, OneOrMany,
    ResourceLink, TextContent, ToolResultContent, ToolUseContent,
};
pub use dispatch::{
    Answering, AnyNotification, AnyRequest, AnyResult, DispatchError, decode_notification,
    decode_notification_with_spans, decode_request, decode_request_with_spans, decode_result, decode_result_with_spans,
};
pub use lazy::Lazy;
pub use method::{Direction, Method, MethodKind, MethodSpec, Role, all_methods};
pub use seq::{Items, ItemsIter, Map, MapIter};
pub use server::completion::{
    CompleteParams, CompleteResult, Completion, CompletionArgument, CompletionContext, CompletionReference,
    PromptReference, ResourceTemplateReference,
};
pub use server::discover::DiscoverResult;
pub use server::logging::{LogData, LoggingLevel, LoggingMessageParams, SetLevelParams};
pub use server::pagination::{CacheScope, ListResult, Listed, PaginatedParams};
pub use server::prompts::{GetPromptParams, GetPromptResult, ListPromptsResult, Prompt, PromptArgument, PromptMessage};
pub use server::resources::{
    BlobResourceContents, ListResourceTemplatesResult, ListResourcesResult, ReadResourceParams, ReadResourceResult,
    Resource, ResourceContents, ResourceTemplate, ResourceUriParams, TextResourceContents,
};
pub use server::tools::{
    CallToolParams, CallToolResult, ListToolsResult, NO_ARGUMENTS, TaskSupport, TextToolResult, Tool, ToolAnnotations,
    ToolExecution,
};
pub use version::{ProtocolVersion, VersionSet};

/// `{"type":"object"}`
pub(crate) const EMPTY_OBJECT_SCHEMA: crate::wire::RawJson<'static> =
    crate::wire::RawJson::from_validated(br#"{"type":"object"}"#);
