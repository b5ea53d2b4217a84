//! The tools the conformance suite's `tasks-*` scenarios call (the tasks extension,
//! `io.modelcontextprotocol/tasks`, 2026-07-28), on the toolkit, for any server to add
//! with [`add_task_fixtures`]: `examples/tasks_server.rs` serves them alone, and a larger
//! server can include this file (`#[path = "../tasks/fixtures.rs"] mod tasks_fixtures;`).
//!
//! | tool | task support | what it does |
//! |---|---|---|
//! | `greet` | none | `Hello, {name}!` at once |
//! | `slow_compute` | optional | sleeps `seconds`, then answers; `tasks/cancel` ends it `cancelled` |
//! | `failing_job` | required | after about a second, a tool error (`isError`: a *completed* task) |
//! | `protocol_error_job` | optional | panics: the task *fails* with -32603 |
//! | `confirm_delete` | optional | asks the user to confirm (one `elicitation/create` input request) |
//! | `multi_input` | optional | asks two questions at once (two input requests pending together) |
//! | `test_tool_with_task` | required | an `input_required` round for `user_name` first (MRTR), then a task whose result names the user |

use std::time::Duration;

use mcp_sansio::toolkit::server::{Call, Cancelled, Input, Job, ServerBuilder, TaskStore, TaskSupport, ToolHandler};
use mcp_sansio::wire::{JsonStr, RawJson};
use serde_json::{Value, json};

mcp_sansio::schema! {
    #[derive(serde::Deserialize)]
    pub struct Greet {
        /// Who to greet
        name: String,
    }
}

mcp_sansio::schema! {
    #[derive(serde::Deserialize)]
    pub struct SlowCompute {
        /// How long the computation takes, in seconds
        seconds: u32,
        /// A label echoed in the result
        label: Option<String>,
    }
}

mcp_sansio::schema! {
    #[derive(serde::Deserialize)]
    pub struct NoArguments {}
}

mcp_sansio::schema! {
    #[derive(serde::Deserialize)]
    pub struct ConfirmDelete {
        /// The file to delete
        filename: String,
    }
}

/// The answer to an elicitation, as JSON.
fn elicited(answer: Result<mcp_sansio::toolkit::client::Answer, mcp_sansio::toolkit::client::ClientError>) -> Value {
    answer.ok().and_then(|a| serde_json::from_slice(a.json().as_bytes()).ok()).unwrap_or(Value::Null)
}

fn slow_compute(job: Job, SlowCompute { seconds, label }: SlowCompute) -> Result<String, Cancelled> {
    job.sleep(Duration::from_secs(u64::from(seconds.min(3600))))?;
    Ok(format!("Computed {} after {seconds}s", label.as_deref().unwrap_or("a result")))
}

fn failing_job(job: Job, _: NoArguments) -> Result<String, String> {
    job.sleep(Duration::from_secs(1)).map_err(|_| String::from("cancelled"))?;
    Err("The job failed: the simulated backend is unavailable".into())
}

fn protocol_error_job(_: Job, _: NoArguments) -> String {
    // A handler that panics: the toolkit turns it into a JSON-RPC error (-32603), which
    // a task reports as `failed`.
    std::panic::panic_any("protocol_error_job: simulated internal failure")
}

fn confirm_delete(job: Job, ConfirmDelete { filename }: ConfirmDelete) -> String {
    let schema = json!({"type": "object", "properties": {"confirm": {"type": "boolean"}}, "required": ["confirm"]});
    let answer = elicited(job.elicit(&json!({"message": format!("Delete {filename}?"), "requestedSchema": schema})));
    if answer["action"] == "accept" && answer["content"]["confirm"] != false {
        format!("Deleted {filename}")
    } else {
        format!("Kept {filename}")
    }
}

fn multi_input(job: Job, _: NoArguments) -> String {
    let ask = |message: &str, property: &str, kind: &str| {
        let schema = json!({"type": "object", "properties": {property: {"type": kind}}, "required": [property]});
        json!({"message": message, "requestedSchema": schema})
    };
    let questions = [
        (Input::Elicitation, ask("Your name?", "name", "string")),
        (Input::Elicitation, ask("Proceed?", "confirm", "boolean")),
    ];
    let answers: Vec<Value> = job.ask_all(&questions).into_iter().map(elicited).collect();
    let accepted = answers.iter().filter(|a| a["action"] == "accept").count();
    format!("Both questions answered ({accepted} accepted)")
}

/// `test_tool_with_task`: the MRTR round, then the task (the extension's "resolve the
/// input rounds synchronously before creating the task").
struct ToolWithTask {
    store: TaskStore,
}

const WITH_TASK_SCHEMA: RawJson<'static> = RawJson::from_static(r#"{"type":"object","properties":{}}"#);

impl<S, J> ToolHandler<S, J> for ToolWithTask {
    fn tool(&self) -> mcp_sansio::mcp::Tool<'_> {
        let mut tool = mcp_sansio::mcp::Tool::new("test_tool_with_task", WITH_TASK_SCHEMA)
            .with_description("Asks for a name (input_required), then greets it as a task");
        tool.execution = Some(mcp_sansio::mcp::ToolExecution { task_support: Some(TaskSupport::Required) });
        tool
    }

    fn name(&self) -> JsonStr<'_> {
        JsonStr::from_text("test_tool_with_task")
    }

    fn call(&self, _: &mut S, call: Call<'_, '_, J>) {
        let modern = call.request().modern();
        let params = call.request().params;
        let answer = params.and_then(|p| p.get("inputResponses")).and_then(|r| r.get("user_name"));
        let name = answer.and_then(|a| a.get("content")).and_then(|c| c.get("name")).and_then(|n| n.as_str());
        let name = name.map(|n| n.chars().collect::<String>());
        match name {
            // Not answered yet, from a client that can take the task at the end: ask.
            None if modern.is_some_and(|m| m.tasks_extension) => {
                let round = json!({
                    "resultType": "input_required",
                    "inputRequests": {"user_name": {"method": "elicitation/create", "params": {
                        "message": "What is your name?",
                        "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
                    }}}
                });
                call.respond_result(&round);
            }
            // A client without the extension gets -32021 from here.
            None => call.spawn_task_blocking(&self.store, TaskSupport::Required, |_| String::new()),
            Some(name) => call.spawn_task_blocking(&self.store, TaskSupport::Required, move |job| {
                job.sleep(Duration::from_millis(300)).map(|()| format!("Hello, {name}! (gathered before the task)"))
            }),
        }
    }
}

/// Adds the tasks scenarios' tools to `builder`, their tasks kept in `store`.
pub fn add_task_fixtures<S: 'static>(builder: ServerBuilder<S>, store: TaskStore) -> ServerBuilder<S> {
    builder
        .task_store(store.clone())
        .tool("greet", "Greets someone (synchronous only)", |Greet { name }| format!("Hello, {name}!"))
        .blocking_task_tool("slow_compute", "Sleeps `seconds`, then answers", TaskSupport::Optional, slow_compute)
        .blocking_task_tool("failing_job", "Fails with a tool error after a second", TaskSupport::Required, failing_job)
        .blocking_task_tool(
            "protocol_error_job",
            "Fails with a protocol error",
            TaskSupport::Optional,
            protocol_error_job,
        )
        .blocking_task_tool("confirm_delete", "Asks to confirm a deletion", TaskSupport::Optional, confirm_delete)
        .blocking_task_tool("multi_input", "Asks two questions at once", TaskSupport::Optional, multi_input)
        .tool_handler(ToolWithTask { store })
}
