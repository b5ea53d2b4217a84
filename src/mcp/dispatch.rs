//! Decoding by method: params by the method that carries them, results by the method of
//! the request they answer. Nothing here guesses a shape from the members it finds.
//!
//! ```
//! use mcp_sansio::mcp::{decode_request, decode_result, AnyRequest, AnyResult, Method};
//! use mcp_sansio::wire::RawJson;
//!
//! let params = RawJson::parse(br#"{"name":"add","arguments":{"a":2,"b":3}}"#).unwrap();
//! let AnyRequest::CallTool(call) = decode_request(Method::ToolsCall, Some(params)).unwrap() else { panic!() };
//! assert_eq!(call.name, "add");
//!
//! // The same bytes mean different things as answers to different requests.
//! let result = RawJson::parse(br#"{"content":[],"tools":[]}"#).unwrap();
//! assert!(matches!(decode_result(Method::ToolsCall, result), Ok(AnyResult::CallTool(_))));
//! assert!(matches!(decode_result(Method::ToolsList, result), Ok(AnyResult::ListTools(_))));
//! ```

use core::fmt;

use serde::Deserialize;

use super::basic::cancellation::CancelledParams;
use super::basic::lifecycle::{InitializeParams, InitializeResult};
use super::basic::mrtr::InputRequiredResult;
use super::basic::progress::ProgressParams;
use super::basic::subscriptions::SubscriptionParams;
use super::basic::tasks::{CreateTaskResult, ListTasksResult, Task, TaskIdParams};
use super::basic::{EmptyParams, EmptyResult, ResultType};
use super::client::elicitation::{ElicitParams, ElicitResult, ElicitationCompleteParams};
use super::client::roots::ListRootsResult;
use super::client::sampling::{CreateMessageParams, CreateMessageResult};
use super::server::completion::{CompleteParams, CompleteResult};
use super::server::discover::DiscoverResult;
use super::server::logging::{LoggingMessageParams, SetLevelParams};
use super::server::pagination::PaginatedParams;
use super::server::prompts::{GetPromptParams, GetPromptResult, ListPromptsResult};
use super::server::resources::{
    ListResourceTemplatesResult, ListResourcesResult, ReadResourceParams, ReadResourceResult, ResourceUriParams,
};
use super::server::tools::{CallToolParams, CallToolResult, ListToolsResult};
use super::{Method, MethodKind, direct};
use crate::wire::fields::{Source, Text};
use crate::wire::{DecodeError, JsonKind, MemberSpans, RawJson, Recorded};

/// Why params or a result could not be decoded for their method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum DispatchError {
    /// The method is a notification, but was used as a request (or the reverse).
    WrongKind,
    /// The method requires `params` and there were none.
    MissingParams,
    /// `params` or the result is not a JSON object.
    NotAnObject,
    /// `resultType` is not a string.
    BadResultType,
    /// `resultType` has a value this crate does not know: the result is invalid (2026-07-28).
    UnknownResultType,
    /// An `input_required` result answering a method that cannot return one.
    InputRequiredNotAllowed,
    /// The params or result do not decode as the method's type.
    Decode(DecodeError),
}

impl fmt::Display for DispatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::WrongKind => f.write_str("a notification method used as a request, or the reverse"),
            Self::MissingParams => f.write_str("the method requires params"),
            Self::NotAnObject => f.write_str("params and results must be JSON objects"),
            Self::BadResultType => f.write_str("resultType is not a string"),
            Self::UnknownResultType => f.write_str("unknown resultType"),
            Self::InputRequiredNotAllowed => f.write_str("input_required result for a method that cannot return one"),
            Self::Decode(e) => write!(f, "params or result do not match the method: {e}"),
        }
    }
}

impl core::error::Error for DispatchError {}

impl From<DecodeError> for DispatchError {
    fn from(e: DecodeError) -> Self {
        Self::Decode(e)
    }
}

/// A request's params, by method.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
#[allow(missing_docs)] // each variant is named after its method
pub enum AnyRequest<'a> {
    Initialize(InitializeParams<'a>),
    Ping(EmptyParams<'a>),
    Discover(EmptyParams<'a>),
    Complete(CompleteParams<'a>),
    SetLevel(SetLevelParams<'a>),
    ListPrompts(PaginatedParams<'a>),
    GetPrompt(GetPromptParams<'a>),
    ListResources(PaginatedParams<'a>),
    ListResourceTemplates(PaginatedParams<'a>),
    ReadResource(ReadResourceParams<'a>),
    Subscribe(ResourceUriParams<'a>),
    Unsubscribe(ResourceUriParams<'a>),
    SubscriptionsListen(SubscriptionParams<'a>),
    ListTools(PaginatedParams<'a>),
    CallTool(CallToolParams<'a>),
    CreateMessage(CreateMessageParams<'a>),
    ListRoots(EmptyParams<'a>),
    Elicit(ElicitParams<'a>),
    GetTask(TaskIdParams<'a>),
    GetTaskResult(TaskIdParams<'a>),
    ListTasks(PaginatedParams<'a>),
    CancelTask(TaskIdParams<'a>),
    /// A method this crate does not know: its params, untouched.
    Other(Option<RawJson<'a>>),
}

/// A notification's params, by method.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
#[allow(missing_docs)] // each variant is named after its method
pub enum AnyNotification<'a> {
    Initialized(EmptyParams<'a>),
    Cancelled(CancelledParams<'a>),
    Progress(ProgressParams<'a>),
    LogMessage(LoggingMessageParams<'a>),
    ResourcesListChanged(EmptyParams<'a>),
    ResourceUpdated(ResourceUriParams<'a>),
    PromptsListChanged(EmptyParams<'a>),
    ToolsListChanged(EmptyParams<'a>),
    RootsListChanged(EmptyParams<'a>),
    ElicitationComplete(ElicitationCompleteParams<'a>),
    TaskStatus(Task<'a>),
    SubscriptionsAcknowledged(SubscriptionParams<'a>),
    /// A method this crate does not know: its params, untouched.
    Other(Option<RawJson<'a>>),
}

/// A result, decoded as the answer to a request of a known method.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum AnyResult<'a> {
    /// `ping`, `logging/setLevel`, `resources/subscribe`, `resources/unsubscribe`,
    /// `subscriptions/listen` (its closing result).
    Empty(EmptyResult<'a>),
    /// `initialize`
    Initialize(InitializeResult<'a>),
    /// `server/discover`
    Discover(DiscoverResult<'a>),
    /// `completion/complete`
    Complete(CompleteResult<'a>),
    /// `prompts/get`
    GetPrompt(GetPromptResult<'a>),
    /// `prompts/list`
    ListPrompts(ListPromptsResult<'a>),
    /// `resources/list`
    ListResources(ListResourcesResult<'a>),
    /// `resources/templates/list`
    ListResourceTemplates(ListResourceTemplatesResult<'a>),
    /// `resources/read`
    ReadResource(ReadResourceResult<'a>),
    /// `tools/list`
    ListTools(ListToolsResult<'a>),
    /// `tools/call`
    CallTool(CallToolResult<'a>),
    /// `sampling/createMessage`
    CreateMessage(CreateMessageResult<'a>),
    /// `roots/list`
    ListRoots(ListRootsResult<'a>),
    /// `elicitation/create`
    Elicit(ElicitResult<'a>),
    /// `tasks/get`, `tasks/cancel`
    Task(Task<'a>),
    /// `tasks/list`
    ListTasks(ListTasksResult<'a>),
    /// `tasks/result`: the underlying request's result; decode it with
    /// [`decode_result`] and that request's method.
    TaskPayload(RawJson<'a>),
    /// A task-augmented request's immediate answer (2025-11-25).
    CreateTask(CreateTaskResult<'a>),
    /// `resultType: input_required` for `tools/call`, `prompts/get`, `resources/read`
    /// (2026-07-28).
    InputRequired(InputRequiredResult<'a>),
    /// The answer to a method this crate does not know, untouched.
    Other(RawJson<'a>),
}

/// What the result decoder must know about the request a result answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Answering<'m> {
    /// The request's method.
    pub method: Method<'m>,
    /// Whether the request carried `task` (2025-11-25), so the answer is a
    /// [`CreateTaskResult`].
    pub task_augmented: bool,
}

impl<'m> Answering<'m> {
    /// The answer to a task-augmented request of `method`.
    pub const fn task(method: Method<'m>) -> Self {
        Self { method, task_augmented: true }
    }
}

impl<'m> From<Method<'m>> for Answering<'m> {
    fn from(method: Method<'m>) -> Self {
        Self { method, task_augmented: false }
    }
}

fn object(raw: RawJson<'_>) -> Result<RawJson<'_>, DispatchError> {
    if raw.kind() == JsonKind::Object { Ok(raw) } else { Err(DispatchError::NotAnObject) }
}

fn required<'a, T: Deserialize<'a>>(params: Option<RawJson<'a>>, src: impl Source<'a>) -> Result<T, DispatchError> {
    Ok(src.decode(object(params.ok_or(DispatchError::MissingParams)?)?)?)
}

/// [`required`], read by a direct decoder (see [`direct`](super::direct)) where it can.
/// Inlined, as the direct decoders of the large types are, so that the value is built in
/// the caller's result rather than copied there.
#[inline(always)]
fn required_direct<'a, T: Deserialize<'a>, S: Source<'a>>(
    params: Option<RawJson<'a>>,
    direct: fn(RawJson<'a>, S) -> Option<T>,
    src: S,
) -> Result<T, DispatchError> {
    let params = object(params.ok_or(DispatchError::MissingParams)?)?;
    match direct::ENABLED.then(|| direct(params, src)).flatten() {
        Some(v) => Ok(v),
        None => Ok(src.decode(params)?),
    }
}

fn optional<'a, T: Deserialize<'a> + Default>(
    params: Option<RawJson<'a>>,
    src: impl Source<'a>,
) -> Result<T, DispatchError> {
    match params {
        None => Ok(T::default()),
        Some(p) => Ok(src.decode(object(p)?)?),
    }
}

fn kind_is(method: Method<'_>, kind: MethodKind) -> Result<(), DispatchError> {
    match method.kind() {
        Some(k) if k != kind => Err(DispatchError::WrongKind),
        _ => Ok(()),
    }
}

/// Decodes a request's `params` as its method defines them. Methods whose params are
/// optional accept `None`; an unknown method's params come back untouched.
pub fn decode_request<'a>(method: Method<'_>, params: Option<RawJson<'a>>) -> Result<AnyRequest<'a>, DispatchError> {
    request_from(method, params, Text)
}

/// [`decode_request`], reading the params' members from the table that
/// [`Message::parse_with_spans`](crate::wire::Message::parse_with_spans) recorded for them
/// rather than walking them again: the same answer, value or error, for less work (values
/// kept raw, such as `arguments` and `_meta`, and members the type ignores are not walked
/// at all). A table recorded for other params, or one that overflowed, is not used; the
/// params are then read as [`decode_request`] reads them.
///
/// Use it with [`Message::parse_with_spans`](crate::wire::Message::parse_with_spans) when
/// every message is decoded by its method (a server's or client's dispatch loop); use
/// [`decode_request`] when the params come from elsewhere or the message was parsed with
/// [`Message::parse`](crate::wire::Message::parse).
pub fn decode_request_with_spans<'a, const N: usize>(
    method: Method<'_>,
    params: Option<RawJson<'a>>,
    spans: &MemberSpans<'a, N>,
) -> Result<AnyRequest<'a>, DispatchError> {
    request_recorded(method, params, params.and_then(|p| spans.recorded_for(p)))
}

/// [`decode_request_with_spans`] for a table of any capacity: not generic, so compiled
/// once, in this crate (see `wire::spans::Table`).
fn request_recorded<'a>(
    method: Method<'_>,
    params: Option<RawJson<'a>>,
    recorded: Option<Recorded<'a, '_>>,
) -> Result<AnyRequest<'a>, DispatchError> {
    match recorded {
        Some(recorded) => request_from(method, params, recorded),
        None => request_from(method, params, Text),
    }
}

fn request_from<'a, S: Source<'a>>(
    method: Method<'_>,
    params: Option<RawJson<'a>>,
    src: S,
) -> Result<AnyRequest<'a>, DispatchError> {
    use AnyRequest as R;
    kind_is(method, MethodKind::Request)?;
    // Each arm makes the result itself (`map`), so that it is built where it is returned.
    match method {
        Method::Initialize => required(params, src).map(R::Initialize),
        Method::Ping => optional(params, src).map(R::Ping),
        Method::ServerDiscover => optional(params, src).map(R::Discover),
        Method::CompletionComplete => required(params, src).map(R::Complete),
        Method::LoggingSetLevel => required(params, src).map(R::SetLevel),
        Method::PromptsList => optional(params, src).map(R::ListPrompts),
        Method::PromptsGet => required(params, src).map(R::GetPrompt),
        Method::ResourcesList => optional(params, src).map(R::ListResources),
        Method::ResourcesTemplatesList => optional(params, src).map(R::ListResourceTemplates),
        Method::ResourcesRead => required(params, src).map(R::ReadResource),
        Method::ResourcesSubscribe => required_direct(params, direct::resource_uri, src).map(R::Subscribe),
        Method::ResourcesUnsubscribe => required_direct(params, direct::resource_uri, src).map(R::Unsubscribe),
        Method::SubscriptionsListen => required(params, src).map(R::SubscriptionsListen),
        Method::ToolsList => optional(params, src).map(R::ListTools),
        Method::ToolsCall => required_direct(params, direct::call_tool, src).map(R::CallTool),
        Method::SamplingCreateMessage => required(params, src).map(R::CreateMessage),
        Method::RootsList => optional(params, src).map(R::ListRoots),
        Method::ElicitationCreate => required(params, src).map(R::Elicit),
        Method::TasksGet => required(params, src).map(R::GetTask),
        Method::TasksResult => required(params, src).map(R::GetTaskResult),
        Method::TasksList => optional(params, src).map(R::ListTasks),
        Method::TasksCancel => required(params, src).map(R::CancelTask),
        _ => Ok(R::Other(params)),
    }
}

/// Decodes a notification's `params` as its method defines them.
pub fn decode_notification<'a>(
    method: Method<'_>,
    params: Option<RawJson<'a>>,
) -> Result<AnyNotification<'a>, DispatchError> {
    notification_from(method, params, Text)
}

/// [`decode_notification`], reading the params' members from the table that
/// [`Message::parse_with_spans`](crate::wire::Message::parse_with_spans) recorded (see
/// [`decode_request_with_spans`]): the same answer for less work.
pub fn decode_notification_with_spans<'a, const N: usize>(
    method: Method<'_>,
    params: Option<RawJson<'a>>,
    spans: &MemberSpans<'a, N>,
) -> Result<AnyNotification<'a>, DispatchError> {
    notification_recorded(method, params, params.and_then(|p| spans.recorded_for(p)))
}

/// [`decode_notification_with_spans`] for a table of any capacity (see
/// [`request_recorded`]).
fn notification_recorded<'a>(
    method: Method<'_>,
    params: Option<RawJson<'a>>,
    recorded: Option<Recorded<'a, '_>>,
) -> Result<AnyNotification<'a>, DispatchError> {
    match recorded {
        Some(recorded) => notification_from(method, params, recorded),
        None => notification_from(method, params, Text),
    }
}

fn notification_from<'a, S: Source<'a>>(
    method: Method<'_>,
    params: Option<RawJson<'a>>,
    src: S,
) -> Result<AnyNotification<'a>, DispatchError> {
    use AnyNotification as N;
    kind_is(method, MethodKind::Notification)?;
    // Each arm makes the result itself (`map`), so that it is built where it is returned.
    match method {
        Method::Initialized => optional(params, src).map(N::Initialized),
        Method::Cancelled => required_direct(params, direct::cancelled, src).map(N::Cancelled),
        Method::Progress => required_direct(params, direct::progress, src).map(N::Progress),
        Method::LogMessage => required_direct(params, direct::log_message, src).map(N::LogMessage),
        Method::ResourcesListChanged => optional(params, src).map(N::ResourcesListChanged),
        Method::ResourcesUpdated => required_direct(params, direct::resource_uri, src).map(N::ResourceUpdated),
        Method::PromptsListChanged => optional(params, src).map(N::PromptsListChanged),
        Method::ToolsListChanged => optional(params, src).map(N::ToolsListChanged),
        Method::RootsListChanged => optional(params, src).map(N::RootsListChanged),
        Method::ElicitationComplete => required(params, src).map(N::ElicitationComplete),
        Method::TasksStatus => required(params, src).map(N::TaskStatus),
        Method::SubscriptionsAcknowledged => required(params, src).map(N::SubscriptionsAcknowledged),
        _ => Ok(N::Other(params)),
    }
}

/// Decodes `result` as the answer to the request it is for: by that request's method,
/// never by the members it happens to have.
///
/// ```
/// use mcp_sansio::mcp::{decode_request, decode_result, AnyRequest, AnyResult, Method};
/// use mcp_sansio::wire::RawJson;
///
/// let params = RawJson::parse(br#"{"name":"add","arguments":{"a":2,"b":3}}"#).unwrap();
/// let AnyRequest::CallTool(call) = decode_request(Method::ToolsCall, Some(params)).unwrap() else { panic!() };
/// assert_eq!(call.name, "add");
///
/// // The same bytes mean different things as answers to different requests.
/// let result = RawJson::parse(br#"{"content":[],"tools":[]}"#).unwrap();
/// assert!(matches!(decode_result(Method::ToolsCall, result), Ok(AnyResult::CallTool(_))));
/// assert!(matches!(decode_result(Method::ToolsList, result), Ok(AnyResult::ListTools(_))));
/// ```
///
/// `resultType` (2026-07-28) decides first: absent or `complete` means the method's own
/// result; `input_required` is an [`InputRequiredResult`] for the three methods that may
/// return one and an error otherwise; anything else is
/// [`DispatchError::UnknownResultType`]; a `resultType` that is not a string is
/// [`DispatchError::BadResultType`] (`null` counts as absent, as for every optional
/// member). A task-augmented request (see [`Answering`]) is answered by a
/// [`CreateTaskResult`].
///
/// The result is read once: it is decoded as the method's type, whose `resultType` field
/// then says whether that was right. Only when that decoding fails is `resultType` looked
/// up on its own, to tell a result of another kind from a malformed one.
pub fn decode_result<'a, 'm>(
    answering: impl Into<Answering<'m>>,
    result: RawJson<'a>,
) -> Result<AnyResult<'a>, DispatchError> {
    result_from(answering.into(), result, Text)
}

/// [`decode_result`], reading the result's members from the table that
/// [`Message::parse_with_spans`](crate::wire::Message::parse_with_spans) recorded (see
/// [`decode_request_with_spans`]): the same answer for less work. A tool's `content`, a
/// list's items, a resource's `contents` are kept as their spans without being walked,
/// and `resultType` is read from the decoded members, never looked for on its own unless
/// decoding fails.
pub fn decode_result_with_spans<'a, 'm, const N: usize>(
    answering: impl Into<Answering<'m>>,
    result: RawJson<'a>,
    spans: &MemberSpans<'a, N>,
) -> Result<AnyResult<'a>, DispatchError> {
    result_recorded(answering.into(), result, spans.recorded_for(result))
}

/// [`decode_result_with_spans`] for a table of any capacity (see [`request_recorded`]).
fn result_recorded<'a>(
    answering: Answering<'_>,
    result: RawJson<'a>,
    recorded: Option<Recorded<'a, '_>>,
) -> Result<AnyResult<'a>, DispatchError> {
    match recorded {
        Some(recorded) => result_from(answering, result, recorded),
        None => result_from(answering, result, Text),
    }
}

fn result_from<'a, S: Source<'a>>(
    answering: Answering<'_>,
    result: RawJson<'a>,
    src: S,
) -> Result<AnyResult<'a>, DispatchError> {
    use AnyResult as A;
    let Answering { method, task_augmented } = answering;
    kind_is(method, MethodKind::Request)?;
    let r = Answer { method, result: object(result)?, src };
    if task_augmented && matches!(method, Method::ToolsCall | Method::SamplingCreateMessage | Method::ElicitationCreate)
    {
        return r.typed(A::CreateTask);
    }
    match method {
        Method::Initialize => r.typed(A::Initialize),
        Method::Ping
        | Method::LoggingSetLevel
        | Method::ResourcesSubscribe
        | Method::ResourcesUnsubscribe
        | Method::SubscriptionsListen => r.typed_direct(A::Empty, direct::empty_result),
        Method::ServerDiscover => r.typed(A::Discover),
        Method::CompletionComplete => r.typed(A::Complete),
        Method::PromptsList => r.typed(A::ListPrompts),
        Method::PromptsGet => r.typed(A::GetPrompt),
        Method::ResourcesList => r.typed(A::ListResources),
        Method::ResourcesTemplatesList => r.typed(A::ListResourceTemplates),
        Method::ResourcesRead => r.typed(A::ReadResource),
        Method::ToolsList => r.typed(A::ListTools),
        Method::ToolsCall => r.typed_direct(A::CallTool, direct::call_tool_result),
        Method::SamplingCreateMessage => r.typed(A::CreateMessage),
        Method::RootsList => r.typed(A::ListRoots),
        Method::ElicitationCreate => r.typed(A::Elicit),
        Method::TasksGet | Method::TasksCancel => r.typed(A::Task),
        Method::TasksList => r.typed(A::ListTasks),
        Method::TasksResult => r.raw(A::TaskPayload),
        _ => r.raw(A::Other),
    }
}

/// A result object, the method of the request it answers, and where its members are read.
struct Answer<'a, 'm, S> {
    method: Method<'m>,
    result: RawJson<'a>,
    src: S,
}

impl<'a, S: Source<'a>> Answer<'a, '_, S> {
    /// Decoded as the method's own result type `T`, checked by its `resultType`.
    fn typed<T: Deserialize<'a> + CarriesResultType<'a>>(
        &self,
        wrap: fn(T) -> AnyResult<'a>,
    ) -> Result<AnyResult<'a>, DispatchError> {
        match self.src.decode::<T>(self.result) {
            Ok(v) => self.checked(v, wrap),
            Err(e) => match ResultType::of(self.result) {
                None => Err(DispatchError::BadResultType),
                Some(ResultType::Complete) => Err(DispatchError::Decode(e)),
                Some(other) => self.not_complete(other),
            },
        }
    }

    /// [`typed`](Self::typed), read by a direct decoder (see [`direct`](super::direct))
    /// where it can (inlined, see [`required_direct`]).
    #[inline(always)]
    fn typed_direct<T: Deserialize<'a> + CarriesResultType<'a>>(
        &self,
        wrap: fn(T) -> AnyResult<'a>,
        direct: fn(RawJson<'a>, S) -> Option<T>,
    ) -> Result<AnyResult<'a>, DispatchError> {
        match direct::ENABLED.then(|| direct(self.result, self.src)).flatten() {
            Some(v) => self.checked(v, wrap),
            None => self.typed(wrap),
        }
    }

    /// A result decoded as the method's own type, checked by its `resultType`.
    fn checked<T: CarriesResultType<'a>>(
        &self,
        v: T,
        wrap: fn(T) -> AnyResult<'a>,
    ) -> Result<AnyResult<'a>, DispatchError> {
        match v.result_type() {
            None | Some(ResultType::Complete) => Ok(wrap(v)),
            Some(other) => self.not_complete(other),
        }
    }

    /// Kept raw, after a look at `resultType`.
    fn raw(&self, wrap: fn(RawJson<'a>) -> AnyResult<'a>) -> Result<AnyResult<'a>, DispatchError> {
        match ResultType::of(self.result) {
            None => Err(DispatchError::BadResultType),
            Some(ResultType::Complete) => Ok(wrap(self.result)),
            Some(other) => self.not_complete(other),
        }
    }

    /// A result whose `resultType` is neither absent nor `complete`.
    fn not_complete(&self, result_type: ResultType<'a>) -> Result<AnyResult<'a>, DispatchError> {
        match result_type {
            ResultType::InputRequired => match self.method {
                Method::ToolsCall | Method::PromptsGet | Method::ResourcesRead => {
                    Ok(AnyResult::InputRequired(self.result.decode()?))
                }
                _ => Err(DispatchError::InputRequiredNotAllowed),
            },
            _ => Err(DispatchError::UnknownResultType),
        }
    }
}

/// A result type with a `resultType` member of its own.
trait CarriesResultType<'a> {
    fn result_type(&self) -> Option<ResultType<'a>>;
}

macro_rules! carries_result_type {
    ($($t:ty),* $(,)?) => {
        $(impl<'a> CarriesResultType<'a> for $t {
            fn result_type(&self) -> Option<ResultType<'a>> {
                self.result_type
            }
        })*
    };
}

carries_result_type!(
    InitializeResult<'a>,
    EmptyResult<'a>,
    DiscoverResult<'a>,
    CompleteResult<'a>,
    ListPromptsResult<'a>,
    GetPromptResult<'a>,
    ListResourcesResult<'a>,
    ListResourceTemplatesResult<'a>,
    ReadResourceResult<'a>,
    ListToolsResult<'a>,
    CallToolResult<'a>,
    CreateMessageResult<'a>,
    ListRootsResult<'a>,
    ElicitResult<'a>,
    Task<'a>,
    ListTasksResult<'a>,
    CreateTaskResult<'a>,
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::JsonStr;

    fn raw(t: &'static str) -> RawJson<'static> {
        RawJson::parse(t.as_bytes()).unwrap()
    }

    #[test]
    fn requests_by_method() {
        assert!(matches!(decode_request(Method::Ping, None), Ok(AnyRequest::Ping(_))));
        assert!(
            matches!(decode_request(Method::ToolsList, Some(raw(r#"{"cursor":"c"}"#))), Ok(AnyRequest::ListTools(p)) if p.cursor.unwrap() == "c")
        );
        assert_eq!(decode_request(Method::ToolsCall, None), Err(DispatchError::MissingParams));
        assert_eq!(decode_request(Method::ToolsCall, Some(raw("[]"))), Err(DispatchError::NotAnObject));
        assert!(matches!(decode_request(Method::ToolsCall, Some(raw("{}"))), Err(DispatchError::Decode(_))));
        assert_eq!(decode_request(Method::Progress, None), Err(DispatchError::WrongKind));
        let other = Method::Other(JsonStr::from_text("x/y"));
        assert_eq!(decode_request(other, Some(raw("{}"))), Ok(AnyRequest::Other(Some(raw("{}")))));
    }

    #[test]
    fn notifications_by_method() {
        assert!(matches!(decode_notification(Method::Initialized, None), Ok(AnyNotification::Initialized(_))));
        assert!(matches!(
            decode_notification(Method::Cancelled, Some(raw(r#"{"requestId":3}"#))),
            Ok(AnyNotification::Cancelled(c)) if c.request_id.unwrap().as_i64() == Some(3)
        ));
        assert_eq!(decode_notification(Method::ToolsCall, None), Err(DispatchError::WrongKind));
    }

    #[test]
    fn results_by_method_and_result_type() {
        let r = raw(r#"{"content":[{"type":"text","text":"x"}]}"#);
        assert!(matches!(decode_result(Method::ToolsCall, r), Ok(AnyResult::CallTool(_))));
        assert!(matches!(decode_result(Method::ToolsList, r), Err(DispatchError::Decode(_))));
        assert!(matches!(decode_result(Method::Ping, raw("{}")), Ok(AnyResult::Empty(_))));
        let ir = raw(r#"{"resultType":"input_required","requestState":"s"}"#);
        assert!(matches!(decode_result(Method::ToolsCall, ir), Ok(AnyResult::InputRequired(_))));
        assert_eq!(decode_result(Method::ToolsList, ir), Err(DispatchError::InputRequiredNotAllowed));
        let unknown = raw(r#"{"resultType":"task","content":[]}"#);
        assert_eq!(decode_result(Method::ToolsCall, unknown), Err(DispatchError::UnknownResultType));
        assert_eq!(decode_result(Method::ToolsCall, raw(r#"{"resultType":1}"#)), Err(DispatchError::BadResultType));
        let created =
            raw(r#"{"task":{"taskId":"t","status":"working","createdAt":"a","lastUpdatedAt":"b","ttl":null}}"#);
        assert!(matches!(decode_result(Answering::task(Method::ToolsCall), created), Ok(AnyResult::CreateTask(_))));
        assert!(matches!(decode_result(Method::ToolsCall, created), Err(DispatchError::Decode(_))));
        assert!(matches!(decode_result(Method::TasksResult, r), Ok(AnyResult::TaskPayload(_))));
        assert_eq!(decode_result(Method::Progress, r), Err(DispatchError::WrongKind));
    }
}
