//! Tasks (2025-11-25): task-augmented requests, `tasks/get|result|list|cancel`,
//! `notifications/tasks/status`. (2026-07-28 moved tasks to an extension with another
//! shape; this is the 2025-11-25 one.)

use serde::{Deserialize, Serialize};

use super::meta::Meta;
use super::{ResultType, nullable};
use crate::mcp::seq::Items;
use crate::wire::JsonStr;

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
}
