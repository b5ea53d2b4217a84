//! Tasks (2025-11-25): task-augmented requests, `tasks/get|result|list|cancel`,
//! `notifications/tasks/status`; and the 2026-07-28 tasks extension
//! (`io.modelcontextprotocol/tasks`, specified in the `ext-tasks` repository): a
//! `tools/call` answered with a flat task handle ([`TaskHandle`], `resultType: "task"`),
//! polled with `tasks/get` ([`DetailedTask`]: the result, the error or the input requests
//! inlined), given input with `tasks/update` ([`UpdateTaskParams`]), cancelled with
//! `tasks/cancel`; `notifications/tasks` carries a `DetailedTask` on a listen stream.

use serde::{Deserialize, Serialize};

use super::meta::Meta;
use super::mrtr::InputRequest;
use super::{ResultType, nullable};
use crate::mcp::seq::{Items, Map};
use crate::wire::{JsonStr, RawJson};

/// `task` in the params of a task-augmented request.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct TaskMetadata {
    /// How long to keep the task after it ends, in ms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttl: Option<u64>,
}

/// A task's state. `Completed`, `Failed` and `Cancelled` are terminal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "snake_case")]
pub enum TaskStatus {
    /// `working`
    Working,
    /// `input_required`
    InputRequired,
    /// `completed`
    Completed,
    /// `failed`
    Failed,
    /// `cancelled`
    Cancelled,
}

impl TaskStatus {
    /// Whether the task has ended for good.
    pub const fn is_terminal(self) -> bool {
        matches!(self, Self::Completed | Self::Failed | Self::Cancelled)
    }
}

/// A task: the `tasks/get` and `tasks/cancel` result, the `notifications/tasks/status`
/// params, and an element of `tasks/list`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "camelCase")]
pub struct Task<'a> {
    /// The receiver-chosen id.
    #[serde(borrow)]
    pub task_id: JsonStr<'a>,
    /// State.
    pub status: TaskStatus,
    /// A human-readable note on the state.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub status_message: Option<JsonStr<'a>>,
    /// ISO 8601 creation time.
    #[serde(borrow)]
    pub created_at: JsonStr<'a>,
    /// ISO 8601 time of the last change.
    #[serde(borrow)]
    pub last_updated_at: JsonStr<'a>,
    /// How long it is kept after it ends, in ms; `null` (`None`): unlimited. Required,
    /// so `None` is written as `null`.
    #[serde(default, serialize_with = "nullable")]
    pub ttl: Option<u64>,
    /// Suggested polling interval, in ms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub poll_interval: Option<u64>,
    /// `resultType`, when the task is a result (2026-07-28 servers add it).
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub result_type: Option<ResultType<'a>>,
    /// `_meta`
    #[serde(borrow, rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta<'a>>,
}

/// The immediate result of a task-augmented request.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "camelCase")]
pub struct CreateTaskResult<'a> {
    /// The task created.
    #[serde(borrow)]
    pub task: Task<'a>,
    /// `resultType`
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub result_type: Option<ResultType<'a>>,
    /// `_meta` (may hold `io.modelcontextprotocol/model-immediate-response`).
    #[serde(borrow, rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta<'a>>,
}

/// Params naming a task: `tasks/get`, `tasks/result`, `tasks/cancel`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "camelCase")]
pub struct TaskIdParams<'a> {
    /// The task's id.
    #[serde(borrow)]
    pub task_id: JsonStr<'a>,
    /// `_meta`
    #[serde(borrow, rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta<'a>>,
}

/// `tasks/list` result.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "camelCase")]
pub struct ListTasksResult<'a> {
    /// The tasks of this page.
    #[serde(borrow)]
    pub tasks: Items<'a, Task<'a>>,
    /// Cursor of the next page; absent on the last.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<JsonStr<'a>>,
    /// `resultType`
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub result_type: Option<ResultType<'a>>,
    /// `_meta`
    #[serde(borrow, rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta<'a>>,
}

/// The tasks extension's task handle (2026-07-28): the flat `CreateTaskResult` a server
/// answers `tools/call` with when it runs the call as a task. `resultType` is `task`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "camelCase")]
pub struct TaskHandle<'a> {
    /// `resultType`: `task`.
    #[serde(borrow)]
    pub result_type: ResultType<'a>,
    /// The task's id (unguessable: it may be a bearer token for the task's state).
    #[serde(borrow)]
    pub task_id: JsonStr<'a>,
    /// State (`working` when just created).
    pub status: TaskStatus,
    /// A human-readable note on the state.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub status_message: Option<JsonStr<'a>>,
    /// ISO 8601 creation time.
    #[serde(borrow)]
    pub created_at: JsonStr<'a>,
    /// ISO 8601 time of the last change.
    #[serde(borrow)]
    pub last_updated_at: JsonStr<'a>,
    /// How long the task is kept from its creation, in ms; `None` (`null`): unlimited.
    /// Required, so `None` is written as `null`.
    #[serde(default, serialize_with = "nullable")]
    pub ttl_ms: Option<u64>,
    /// Suggested polling interval, in ms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub poll_interval_ms: Option<u64>,
    /// `_meta`
    #[serde(borrow, rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta<'a>>,
}

impl<'a> TaskHandle<'a> {
    /// A new task in `working` state, created (and last updated) at `created_at`.
    pub const fn working(task_id: JsonStr<'a>, created_at: JsonStr<'a>, ttl_ms: Option<u64>) -> Self {
        Self {
            result_type: ResultType::Other(JsonStr::from_text("task")),
            task_id,
            status: TaskStatus::Working,
            status_message: None,
            created_at,
            last_updated_at: created_at,
            ttl_ms,
            poll_interval_ms: None,
            meta: None,
        }
    }
}

/// The tasks extension's task with what its status brings inlined (2026-07-28): the
/// `tasks/get` result (`resultType: "complete"`) and the `notifications/tasks` params.
/// `input_required` carries `inputRequests`, `completed` the original request's
/// `result`, `failed` the JSON-RPC `error`; see [`is_consistent`](Self::is_consistent).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "camelCase")]
pub struct DetailedTask<'a> {
    /// `resultType` (`complete` on a `tasks/get` result; absent on the notification).
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub result_type: Option<ResultType<'a>>,
    /// The task's id.
    #[serde(borrow)]
    pub task_id: JsonStr<'a>,
    /// State.
    pub status: TaskStatus,
    /// A human-readable note on the state.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub status_message: Option<JsonStr<'a>>,
    /// ISO 8601 creation time.
    #[serde(borrow)]
    pub created_at: JsonStr<'a>,
    /// ISO 8601 time of the last change.
    #[serde(borrow)]
    pub last_updated_at: JsonStr<'a>,
    /// How long the task is kept from its creation, in ms; `None` (`null`): unlimited.
    #[serde(default, serialize_with = "nullable")]
    pub ttl_ms: Option<u64>,
    /// Suggested polling interval, in ms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub poll_interval_ms: Option<u64>,
    /// `input_required`: the requests to fulfil (with `tasks/update`), by key.
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub input_requests: Option<Map<'a, InputRequest<'a>>>,
    /// `completed`: what the original request would have returned (decode it by that
    /// request's method).
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub result: Option<RawJson<'a>>,
    /// `failed`: the JSON-RPC error object (`code`, `message`, `data`).
    #[serde(borrow, default, skip_serializing_if = "Option::is_none")]
    pub error: Option<RawJson<'a>>,
    /// `_meta`
    #[serde(borrow, rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta<'a>>,
}

impl DetailedTask<'_> {
    /// Whether the status-specific members are as the extension requires: `inputRequests`
    /// on `input_required`, `result` (and no `error`) on `completed`, `error` (and no
    /// `result`) on `failed`.
    pub fn is_consistent(&self) -> bool {
        match self.status {
            TaskStatus::InputRequired => self.input_requests.is_some(),
            TaskStatus::Completed => self.result.is_some() && self.error.is_none(),
            TaskStatus::Failed => self.error.is_some() && self.result.is_none(),
            TaskStatus::Working | TaskStatus::Cancelled => true,
        }
    }

    /// The code of a failed task's error.
    pub fn error_code(&self) -> Option<i64> {
        self.error?.get("code")?.as_i64()
    }
}

/// `tasks/update` params (tasks extension): answers to a task's outstanding input
/// requests, by key. The server acknowledges with an empty result.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[serde(rename_all = "camelCase")]
pub struct UpdateTaskParams<'a> {
    /// The task's id.
    #[serde(borrow)]
    pub task_id: JsonStr<'a>,
    /// The answers: `{key: ElicitResult | CreateMessageResult | ListRootsResult}`.
    #[serde(borrow)]
    pub input_responses: RawJson<'a>,
    /// `_meta`
    #[serde(borrow, rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta<'a>>,
}

/// The message of the -32602 a server answers a `tasks/*` request for a task it does not
/// hold (never had, or dropped after its TTL), as the extension's example words it.
pub const TASK_NOT_FOUND: &str = "Failed to retrieve task: Task not found";

/// A request of the tasks extension (2026-07-28), decoded by its method: what a server
/// answers from its task store. `tasks/get` is answered with a [`DetailedTask`]
/// (`resultType: "complete"`), `tasks/update` and `tasks/cancel` with an empty result
/// (an acknowledgement; a cancel of a task that ended is acknowledged all the same), an
/// unknown task with -32602 ([`TASK_NOT_FOUND`]).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum TaskRequest<'a> {
    /// `tasks/get`
    Get(TaskIdParams<'a>),
    /// `tasks/update`
    Update(UpdateTaskParams<'a>),
    /// `tasks/cancel`
    Cancel(TaskIdParams<'a>),
}

impl<'a> TaskRequest<'a> {
    /// The request of `method` with `params`: `None` for another method, `Err` for
    /// params that are not the method's (answer -32602).
    pub fn decode(method: &str, params: Option<RawJson<'a>>) -> Option<Result<Self, crate::wire::DecodeError>> {
        let params = params.unwrap_or(RawJson::EMPTY_OBJECT);
        Some(match method {
            "tasks/get" => params.decode().map(Self::Get),
            "tasks/update" => params.decode().map(Self::Update),
            "tasks/cancel" => params.decode().map(Self::Cancel),
            _ => return None,
        })
    }

    /// The task it names.
    pub fn task_id(&self) -> JsonStr<'a> {
        match self {
            Self::Get(p) | Self::Cancel(p) => p.task_id,
            Self::Update(p) => p.task_id,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::RawJson;

    #[test]
    fn tasks_and_nullable_ttl() {
        let r: CreateTaskResult<'_> = RawJson::parse(
            br#"{"task":{"taskId":"786512e2-9e0d-44bd-8f29-789f320fe840","status":"working","statusMessage":"The operation is now in progress.",
                "createdAt":"2025-11-25T10:30:00Z","lastUpdatedAt":"2025-11-25T10:40:00Z","ttl":60000,"pollInterval":5000},
                "_meta":{"io.modelcontextprotocol/model-immediate-response":"Working on it"}}"#,
        )
        .unwrap()
        .decode()
        .unwrap();
        assert_eq!(r.task.status, TaskStatus::Working);
        assert_eq!(r.task.ttl, Some(60000));
        assert_eq!(r.meta.unwrap().model_immediate_response().unwrap(), "Working on it");
        let t: Task<'_> = RawJson::parse(
            br#"{"taskId":"t","status":"input_required","createdAt":"a","lastUpdatedAt":"b","ttl":null}"#,
        )
        .unwrap()
        .decode()
        .unwrap();
        assert_eq!((t.ttl, t.status.is_terminal()), (None, false));
        assert_eq!(
            serde_json::to_string(&t).unwrap(),
            r#"{"taskId":"t","status":"input_required","createdAt":"a","lastUpdatedAt":"b","ttl":null}"#
        );
    }

    #[test]
    fn task_requests_decode_by_method() {
        let get = RawJson::parse(br#"{"taskId":"t","_meta":{}}"#).unwrap();
        let r = TaskRequest::decode("tasks/get", Some(get)).unwrap().unwrap();
        assert!(matches!(r, TaskRequest::Get(_)) && r.task_id() == "t");
        let update = RawJson::parse(br#"{"taskId":"u","inputResponses":{"q0":{"action":"accept"}}}"#).unwrap();
        let r = TaskRequest::decode("tasks/update", Some(update)).unwrap().unwrap();
        assert!(matches!(r, TaskRequest::Update(p) if p.input_responses.is_object()) && r.task_id() == "u");
        assert!(TaskRequest::decode("tasks/cancel", None).unwrap().is_err(), "no taskId");
        assert!(TaskRequest::decode("tasks/update", Some(get)).unwrap().is_err(), "no inputResponses");
        assert!(TaskRequest::decode("tasks/result", Some(get)).is_none(), "not a method of the extension");
    }

    #[test]
    fn the_extension_shapes() {
        // ext-tasks specification/draft/tasks.md, "Creating a task" and "Polling".
        let h: TaskHandle<'_> = RawJson::parse(
            br#"{"resultType":"task","taskId":"786512e2","status":"working","createdAt":"2026-01-01T00:00:00Z",
                "lastUpdatedAt":"2026-01-01T00:00:00Z","ttlMs":60000,"pollIntervalMs":5000}"#,
        )
        .unwrap()
        .decode()
        .unwrap();
        assert_eq!((h.status, h.ttl_ms, h.poll_interval_ms), (TaskStatus::Working, Some(60000), Some(5000)));
        assert_eq!(h.result_type, ResultType::Other(JsonStr::from_text("task")));
        let done: DetailedTask<'_> = RawJson::parse(
            br#"{"resultType":"complete","taskId":"t","status":"completed","createdAt":"a","lastUpdatedAt":"b",
                "ttlMs":null,"result":{"content":[{"type":"text","text":"ok"}],"isError":false}}"#,
        )
        .unwrap()
        .decode()
        .unwrap();
        assert!(done.is_consistent() && done.ttl_ms.is_none());
        let failed: DetailedTask<'_> = RawJson::parse(
            br#"{"taskId":"t","status":"failed","createdAt":"a","lastUpdatedAt":"b","ttlMs":1,"error":{"code":-32603,"message":"x"}}"#,
        )
        .unwrap()
        .decode()
        .unwrap();
        assert_eq!((failed.is_consistent(), failed.error_code()), (true, Some(-32603)));
        let waiting: DetailedTask<'_> = RawJson::parse(
            br#"{"taskId":"t","status":"input_required","createdAt":"a","lastUpdatedAt":"b","ttlMs":1,
                "inputRequests":{"ok":{"method":"elicitation/create","params":{"message":"?","requestedSchema":{"type":"object"}}}}}"#,
        )
        .unwrap()
        .decode()
        .unwrap();
        assert!(waiting.is_consistent());
        let handle = TaskHandle::working(JsonStr::from_text("t1"), JsonStr::from_text("2026-01-01T00:00:00Z"), None);
        let text = serde_json::to_string(&handle).unwrap();
        assert_eq!(
            text,
            r#"{"resultType":"task","taskId":"t1","status":"working","createdAt":"2026-01-01T00:00:00Z","lastUpdatedAt":"2026-01-01T00:00:00Z","ttlMs":null}"#
        );
    }
}
