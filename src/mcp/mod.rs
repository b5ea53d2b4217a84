//! The MCP vocabulary: versions, methods, capabilities, and a typed, borrowed type for
//! every message of every published protocol version.
//!
//! The folders follow the specification's table of contents:
//!
//! | module | contents |
//! |---|---|
//! | [`basic`] | lifecycle (`initialize`, implementation info, capabilities), `_meta`, cancellation, progress, tasks, 2026-07-28 result types, input requests, subscriptions, error data |
//! | [`server`] | tools, resources, prompts, completion, logging, pagination and caching, discovery |
//! | [`client`] | roots, sampling, elicitation |
//! | [`content`] | content blocks and annotations |
//! | [`dispatch`] | params and results decoded by method |
//! | [`seq`] | lazy sequences and maps |
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

pub mod basic;
mod capabilities;
pub mod client;
pub mod content;
pub mod dispatch;
mod method;
pub mod seq;
pub mod server;
mod version;

pub use basic::cancellation::CancelledParams;
pub use basic::errors::{MissingCapabilityData, UnsupportedVersionData, UrlElicitationRequiredData};
pub use basic::lifecycle::{
    ClientCapabilities, ElicitationCapability, Icon, IconTheme, Implementation, InitializeParams, InitializeResult,
    ListChanged, ResourcesCapability, SamplingCapability, ServerCapabilities, TasksCapability,
};
pub use basic::meta::{Meta, MetaFields, is_reserved_key, keys as meta_keys};
pub use basic::mrtr::{InputRequest, InputRequiredResult};
pub use basic::progress::{ProgressParams, ProgressToken};
pub use basic::subscriptions::{SubscriptionFilter, SubscriptionParams};
pub use basic::tasks::{CreateTaskResult, ListTasksResult, Task, TaskIdParams, TaskMetadata, TaskStatus};
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
    Answering, AnyNotification, AnyRequest, AnyResult, DispatchError, decode_notification, decode_request,
    decode_result,
};
pub use method::{Direction, Method, MethodKind, MethodSpec, Role, all_methods};
pub use seq::{Items, Map};
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
    CallToolParams, CallToolResult, ListToolsResult, NO_ARGUMENTS, TaskSupport, Tool, ToolAnnotations, ToolExecution,
};
pub use version::{ProtocolVersion, VersionSet};

/// `{"type":"object"}`
pub(crate) const EMPTY_OBJECT_SCHEMA: crate::wire::RawJson<'static> =
    crate::wire::RawJson::from_validated(br#"{"type":"object"}"#);
