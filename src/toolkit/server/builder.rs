//! [`ServerBuilder`] (`alloc`): a server made at run time from closures and owned strings.

use alloc::boxed::Box;
use alloc::string::String;
use core::fmt::Display;
use core::marker::PhantomData;

use super::complete::{Complete, Completer, Target};
use super::dispatch::Kind;
use super::list::List;
use super::output::ToolOutput;
use super::prompt::{Get, PromptHandler, PromptInfo, PromptOutput, all_strings, prompt_arguments};
use super::resource::{Read, ResourceHandler, ResourceOutput, TemplateHandler};
use super::server::Server;
use super::step::NoJob;
use super::table::Table;
use super::tool::{Call, ToolHandler, arguments};
use super::uri_template::Vars;
use crate::mcp::{CompletionContext, Implementation, Resource, ResourceTemplate, Tool};
use crate::toolkit::schema::Arguments;
use crate::wire::{JsonStr, RawJson};

/// Builds a [`Server`] from closures, which capture whatever state they need.
///
/// ```
/// use mcp_sansio::toolkit::server::ServerBuilder;
/// mcp_sansio::schema! {
///     #[derive(serde::Deserialize)]
///     pub struct Greet { name: String }
/// }
/// let server = ServerBuilder::new("greeter", "1.0.0")
///     .tool("greet", "Greets someone", |Greet { name }| format!("Hello, {name}!"))
///     .resource("greeter://motd", "motd", || "Be kind.")
///     .build();
/// assert!(server.capabilities().tools.is_some() && server.capabilities().resources.is_some());
/// ```
pub struct ServerBuilder<S: 'static = ()> {
    server: Server<'static, S>,
}

impl ServerBuilder {
    /// A server called `name`, at `version` (its `serverInfo`). Cursors are signed with a
    /// key drawn from the process's random seed (with `std`).
    pub fn new(name: &'static str, version: &'static str) -> Self {
        Self::with_state(name, version)
    }
}

impl<S: 'static> ServerBuilder<S> {
    /// The same for a server whose [`Table`] handlers take a state `S`.
    pub fn with_state(name: &'static str, version: &'static str) -> Self {
        let server = Server::new(Table::new()).info(Implementation::new(name, version));
        #[cfg(feature = "std")]
        let server = server.cursor_key(random_key()).state_key(random_key());
        ServerBuilder { server }
    }

    /// Starts from a table of `static` handlers; what is added next comes after them.
    pub fn table(mut self, table: Table<'static, S>) -> Self {
        self.server.items.table = table;
        self
    }

    /// Items per page of every list.
    pub fn page_size(mut self, size: usize) -> Self {
        self.server = self.server.page_size(size);
        self
    }

    /// The key the `requestState` of jobs' `input_required` rounds is sealed with (see
    /// [`Server::state_key`]; drawn from the process's random seed by default, which a
    /// server behind a load balancer replaces with one key shared by its instances).
    #[cfg(feature = "std")]
    pub fn state_key(mut self, key: [u8; 16]) -> Self {
        self.server = self.server.state_key(key);
        self
    }

    /// The key cursors are signed with.
    pub fn cursor_key(mut self, key: [u8; 16]) -> Self {
        self.server = self.server.cursor_key(key);
        self
    }

    /// The `instructions` of the `initialize` result.
    pub fn instructions(mut self, instructions: &'static str) -> Self {
        self.server = self.server.instructions(instructions);
        self
    }

    /// Declares that `list` changes and that changes are announced (see
    /// [`Server::changed`]).
    pub fn announce_changes(mut self, list: List) -> Self {
        self.server = self.server.announce_changes(list);
        self
    }

    /// Declares `resources.subscribe` (the application handles the requests).
    pub fn subscriptions(mut self) -> Self {
        self.server = self.server.subscriptions();
        self
    }

    /// Declares `logging` (see [`Server::logging`]).
    pub fn logging(mut self) -> Self {
        self.server = self.server.logging();
        self
    }

    /// Adds any [`ToolHandler`].
    pub fn tool_handler(mut self, tool: impl ToolHandler<S> + 'static) -> Self {
        self.server.items.owned.tools.push(Box::new(tool));
        self.server.items.owned.kinds.tools = Some(Kind::TOOLS);
        self
    }

    /// Adds a tool answered inline by `run`, a function of its arguments (a
    /// [`schema!`](crate::schema) struct) returning a [`ToolOutput`].
    pub fn tool<A, R, F>(self, name: &str, description: &str, run: F) -> Self
    where
        A: for<'x> Arguments<Decoded<'x> = A> + 'static,
        R: ToolOutput,
        F: Fn(A) -> R + 'static,
    {
        self.tool_handler(Closure { spec: Spec::new(name, description), run, _args: PhantomData::<fn(A)> })
    }

    /// Adds a resource read by `read`.
    pub fn resource<R, F>(self, uri: &str, name: &str, read: F) -> Self
    where
        R: ResourceOutput,
        F: Fn() -> R + 'static,
    {
        self.resource_with(uri, name, None, read)
    }

    /// Adds a resource with a MIME type, read by `read`.
    pub fn resource_with<R, F>(mut self, uri: &str, name: &str, mime_type: Option<&str>, read: F) -> Self
    where
        R: ResourceOutput,
        F: Fn() -> R + 'static,
    {
        let one = OneResource { uri: uri.into(), name: name.into(), mime_type: mime_type.map(String::from), read };
        self.server.items.owned.resources.push(Box::new(one));
        self.server.items.owned.kinds.resources = Some(Kind::RESOURCES);
        self
    }

    /// Adds any [`ResourceHandler`] (a set of resources).
    pub fn resources(mut self, set: impl ResourceHandler<S> + 'static) -> Self {
        self.server.items.owned.resources.push(Box::new(set));
        self.server.items.owned.kinds.resources = Some(Kind::RESOURCES);
        self
    }

    /// Adds a resource template; a read of a matching URI is answered by `read` with the
    /// template's variables.
    pub fn template<R, F>(mut self, uri_template: &str, name: &str, read: F) -> Self
    where
        R: ResourceOutput,
        F: Fn(&Vars<'_>) -> R + 'static,
    {
        let t = TemplateClosure { uri_template: uri_template.into(), name: name.into(), read };
        self.server.items.owned.templates.push(Box::new(t));
        self.server.items.owned.kinds.resources = Some(Kind::RESOURCES);
        self
    }

    /// Adds any [`TemplateHandler`] (a resource template answered by the application's own type).
    pub fn template_handler(mut self, template: impl TemplateHandler<S> + 'static) -> Self {
        self.server.items.owned.templates.push(Box::new(template));
        self.server.items.owned.kinds.resources = Some(Kind::RESOURCES);
        self
    }

    /// Adds any [`PromptHandler`] (one with a result of its own making, or
    /// [`Offered`](super::Offered) only sometimes).
    pub fn prompt_handler(mut self, prompt: impl PromptHandler<S> + 'static) -> Self {
        self.server.items.owned.prompts.push(Box::new(prompt));
        self.server.items.owned.kinds.prompts = Some(Kind::PROMPTS);
        self
    }

    /// Adds a prompt given by `run`, a function of its arguments (a
    /// [`schema!`](crate::schema) struct of strings).
    pub fn prompt<A, R, F>(mut self, name: &str, description: &str, run: F) -> Self
    where
        A: for<'x> Arguments<Decoded<'x> = A> + 'static,
        R: PromptOutput,
        F: Fn(A) -> R + 'static,
    {
        const { assert!(all_strings(A::FIELDS), "prompt arguments must be strings") };
        let p = PromptClosure { spec: Spec::new(name, description), run, _args: PhantomData::<fn(A)> };
        self.server.items.owned.prompts.push(Box::new(p));
        self.server.items.owned.kinds.prompts = Some(Kind::PROMPTS);
        self
    }

    /// Adds completion of `argument` of `target`: `complete` gets what was typed and
    /// returns the values.
    pub fn complete<I, F>(mut self, target: Target, argument: &str, complete: F) -> Self
    where
        I: IntoIterator + Clone,
        I::Item: Display,
        F: Fn(&str) -> I + 'static,
    {
        let c = CompleteClosure { target, argument: argument.into(), complete };
        self.server.items.owned.completions.push(Box::new(c));
        self.server.items.owned.kinds.completions = Some(Kind::COMPLETIONS);
        self
    }

    /// The server.
    pub fn build(self) -> Server<'static, S> {
        self.server
    }
}

#[cfg(feature = "std")]
impl<S: 'static> ServerBuilder<S> {
    /// Adds a tool answered by a blocking function, run off the loop (a thread per call
    /// by default, see [`spawner`](Self::spawner)); it gets a [`Job`](super::Job) for
    /// progress and cancellation.
    pub fn blocking_tool<A, R, F>(self, name: &str, description: &str, run: F) -> Self
    where
        A: for<'x> Arguments<Decoded<'x> = A> + Send + 'static,
        R: ToolOutput,
        F: Fn(super::Job, A) -> R + Send + Sync + 'static,
    {
        let run = std::sync::Arc::new(run);
        self.tool_handler(Blocking { spec: Spec::new(name, description), run, _args: PhantomData::<fn(A)> })
    }

    /// Adds a tool answered by an async function, run on the executor (see
    /// [`executor`](Self::executor)); the future is dropped if the call is cancelled.
    pub fn async_tool<A, R, Fut, F>(self, name: &str, description: &str, run: F) -> Self
    where
        A: for<'x> Arguments<Decoded<'x> = A> + 'static,
        R: ToolOutput + 'static,
        Fut: core::future::Future<Output = R> + Send + 'static,
        F: Fn(super::Job, A) -> Fut + 'static,
    {
        self.tool_handler(Async { spec: Spec::new(name, description), run, _args: PhantomData::<fn(A)> })
    }

    /// Adds a tool answered by a blocking function that runs as an MCP task (tasks
    /// extension, see `task_store.rs`) for a client that declared the extension: the
    /// call is answered at once with the task handle and `tasks/get` brings the result.
    /// For other clients an [`Optional`](super::TaskSupport::Optional) tool runs as
    /// [`blocking_tool`](Self::blocking_tool) does and a
    /// [`Required`](super::TaskSupport::Required) one is refused (-32021). The tasks go
    /// to the server's [`task_store`](Self::task_store) (a default one if none was set).
    pub fn blocking_task_tool<A, R, F>(
        mut self,
        name: &str,
        description: &str,
        support: super::TaskSupport,
        run: F,
    ) -> Self
    where
        A: for<'x> Arguments<Decoded<'x> = A> + Send + 'static,
        R: ToolOutput,
        F: Fn(super::Job, A) -> R + Send + Sync + 'static,
    {
        let store = self.server.task_store.get_or_insert_with(super::TaskStore::default).clone();
        let run = std::sync::Arc::new(run);
        let tool =
            TaskBlocking { spec: Spec::new(name, description), run, support, store, _args: PhantomData::<fn(A)> };
        self.tool_handler(tool)
    }

    /// [`blocking_task_tool`](Self::blocking_task_tool) for an async function, run on
    /// the [`executor`](Self::executor); a cancelled task's future is dropped.
    pub fn async_task_tool<A, R, Fut, F>(
        mut self,
        name: &str,
        description: &str,
        support: super::TaskSupport,
        run: F,
    ) -> Self
    where
        A: for<'x> Arguments<Decoded<'x> = A> + 'static,
        R: ToolOutput + 'static,
        Fut: core::future::Future<Output = R> + Send + 'static,
        F: Fn(super::Job, A) -> Fut + 'static,
    {
        let store = self.server.task_store.get_or_insert_with(super::TaskStore::default).clone();
        let tool = TaskAsync { spec: Spec::new(name, description), run, support, store, _args: PhantomData::<fn(A)> };
        self.tool_handler(tool)
    }

    /// Where the tasks of task tools are kept (bounded, with their TTL; see
    /// [`TaskStore`](super::TaskStore)); setting one declares the tasks extension. Set
    /// it before adding task tools.
    pub fn task_store(mut self, store: super::TaskStore) -> Self {
        self.server.task_store = Some(store);
        self
    }

    /// How the loop is woken when a job off the loop has progress or a result (the
    /// stdio binding sets it; other loops pass what wakes them).
    pub fn waker(mut self, wake: impl Fn() + Send + Sync + 'static) -> Self {
        self.server.work.tasks.wake = Some(std::sync::Arc::new(wake));
        self
    }

    /// Where blocking tools run (a thread pool, say); by default a thread per call.
    pub fn spawner(mut self, spawn: impl Fn(Box<dyn FnOnce() + Send>) + Send + Sync + 'static) -> Self {
        self.server.work.tasks.spawner = Some(std::sync::Arc::new(spawn));
        self
    }

    /// Where async tools run: `|f| smol::spawn(f).detach()`, `|f| drop(tokio::spawn(f))`…;
    /// by default a thread per call blocks on the future.
    pub fn executor(
        mut self,
        spawn: impl Fn(core::pin::Pin<Box<dyn core::future::Future<Output = ()> + Send>>) + Send + Sync + 'static,
    ) -> Self {
        self.server.work.tasks.executor = Some(std::sync::Arc::new(spawn));
        self
    }
}

#[cfg(feature = "std")]
impl<S, J: super::Step<S>, const N: usize> Server<'_, S, J, N> {
    /// Sets how the loop is woken when a job off the loop has something to send.
    pub fn set_waker(&mut self, wake: impl Fn() + Send + Sync + 'static) {
        self.work.tasks.wake = Some(std::sync::Arc::new(wake));
    }
}

/// A key drawn from the process's random hashing seed.
#[cfg(feature = "std")]
pub(crate) fn random_key() -> [u8; 16] {
    use std::hash::{BuildHasher, RandomState};
    let state = RandomState::new();
    let mut key = [0u8; 16];
    key[..8].copy_from_slice(&state.hash_one(1u8).to_le_bytes());
    key[8..].copy_from_slice(&state.hash_one(2u8).to_le_bytes());
    key
}

/// A tool's name and description, owned.
struct Spec {
    name: String,
    description: String,
}

impl Spec {
    fn new(name: &str, description: &str) -> Self {
        Spec { name: name.into(), description: description.into() }
    }

    fn tool(&self, schema: RawJson<'static>) -> Tool<'_> {
        let tool = Tool::new(&self.name, schema);
        if self.description.is_empty() { tool } else { tool.with_description(&self.description) }
    }
}

struct Closure<A, F> {
    spec: Spec,
    run: F,
    _args: PhantomData<fn(A)>,
}

impl<S, J, A, R, F> ToolHandler<S, J> for Closure<A, F>
where
    A: for<'x> Arguments<Decoded<'x> = A>,
    R: ToolOutput,
    F: Fn(A) -> R,
{
    fn tool(&self) -> Tool<'_> {
        self.spec.tool(A::SCHEMA)
    }

    fn name(&self) -> JsonStr<'_> {
        JsonStr::from_text(&self.spec.name)
    }

    fn call(&self, _: &mut S, call: Call<'_, '_, J>) {
        if let Some((args, call)) = arguments::<A, J>(JsonStr::from_text(&self.spec.name), call) {
            call.respond(&(self.run)(args));
        }
    }
}

#[cfg(feature = "std")]
struct Blocking<A, F> {
    spec: Spec,
    run: std::sync::Arc<F>,
    _args: PhantomData<fn(A)>,
}

#[cfg(feature = "std")]
impl<S, J, A, R, F> ToolHandler<S, J> for Blocking<A, F>
where
    A: for<'x> Arguments<Decoded<'x> = A> + Send + 'static,
    R: ToolOutput,
    F: Fn(super::Job, A) -> R + Send + Sync + 'static,
{
    fn tool(&self) -> Tool<'_> {
        self.spec.tool(A::SCHEMA)
    }

    fn name(&self) -> JsonStr<'_> {
        JsonStr::from_text(&self.spec.name)
    }

    fn call(&self, _: &mut S, call: Call<'_, '_, J>) {
        if let Some((args, call)) = arguments::<A, J>(JsonStr::from_text(&self.spec.name), call) {
            let run = std::sync::Arc::clone(&self.run);
            call.spawn_blocking(move |job| run(job, args));
        }
    }
}

#[cfg(feature = "std")]
struct TaskBlocking<A, F> {
    spec: Spec,
    run: std::sync::Arc<F>,
    support: super::TaskSupport,
    store: super::TaskStore,
    _args: PhantomData<fn(A)>,
}

#[cfg(feature = "std")]
impl<S, J, A, R, F> ToolHandler<S, J> for TaskBlocking<A, F>
where
    A: for<'x> Arguments<Decoded<'x> = A> + Send + 'static,
    R: ToolOutput,
    F: Fn(super::Job, A) -> R + Send + Sync + 'static,
{
    fn tool(&self) -> Tool<'_> {
        let mut tool = self.spec.tool(A::SCHEMA);
        tool.execution = Some(crate::mcp::ToolExecution { task_support: Some(self.support) });
        tool
    }

    fn name(&self) -> JsonStr<'_> {
        JsonStr::from_text(&self.spec.name)
    }

    fn call(&self, _: &mut S, call: Call<'_, '_, J>) {
        if let Some((args, call)) = arguments::<A, J>(JsonStr::from_text(&self.spec.name), call) {
            let run = std::sync::Arc::clone(&self.run);
            call.spawn_task_blocking(&self.store, self.support, move |job| run(job, args));
        }
    }
}

#[cfg(feature = "std")]
struct TaskAsync<A, F> {
    spec: Spec,
    run: F,
    support: super::TaskSupport,
    store: super::TaskStore,
    _args: PhantomData<fn(A)>,
}

#[cfg(feature = "std")]
impl<S, J, A, R, Fut, F> ToolHandler<S, J> for TaskAsync<A, F>
where
    A: for<'x> Arguments<Decoded<'x> = A>,
    R: ToolOutput + 'static,
    Fut: core::future::Future<Output = R> + Send + 'static,
    F: Fn(super::Job, A) -> Fut,
{
    fn tool(&self) -> Tool<'_> {
        let mut tool = self.spec.tool(A::SCHEMA);
        tool.execution = Some(crate::mcp::ToolExecution { task_support: Some(self.support) });
        tool
    }

    fn name(&self) -> JsonStr<'_> {
        JsonStr::from_text(&self.spec.name)
    }

    fn call(&self, _: &mut S, call: Call<'_, '_, J>) {
        if let Some((args, call)) = arguments::<A, J>(JsonStr::from_text(&self.spec.name), call) {
            call.spawn_task(&self.store, self.support, |job| (self.run)(job, args));
        }
    }
}

#[cfg(feature = "std")]
struct Async<A, F> {
    spec: Spec,
    run: F,
    _args: PhantomData<fn(A)>,
}

#[cfg(feature = "std")]
impl<S, J, A, R, Fut, F> ToolHandler<S, J> for Async<A, F>
where
    A: for<'x> Arguments<Decoded<'x> = A>,
    R: ToolOutput + 'static,
    Fut: core::future::Future<Output = R> + Send + 'static,
    F: Fn(super::Job, A) -> Fut,
{
    fn tool(&self) -> Tool<'_> {
        self.spec.tool(A::SCHEMA)
    }

    fn name(&self) -> JsonStr<'_> {
        JsonStr::from_text(&self.spec.name)
    }

    fn call(&self, _: &mut S, call: Call<'_, '_, J>) {
        if let Some((args, call)) = arguments::<A, J>(JsonStr::from_text(&self.spec.name), call) {
            call.spawn(|job| (self.run)(job, args));
        }
    }
}

struct OneResource<F> {
    uri: String,
    name: String,
    mime_type: Option<String>,
    read: F,
}

impl<S, R: ResourceOutput, F: Fn() -> R> ResourceHandler<S> for OneResource<F> {
    fn resource(&self, index: usize) -> Option<Resource<'_>> {
        let r = Resource::new(&self.uri, &self.name);
        (index == 0).then(|| match &self.mime_type {
            Some(m) => r.with_mime_type(m),
            None => r,
        })
    }

    fn find(&self, uri: JsonStr<'_>) -> Option<usize> {
        (uri == self.uri.as_str()).then_some(0)
    }

    fn read(&self, _: &mut S, _: usize, read: Read<'_, '_>) {
        let mime = self.mime_type.as_deref().map(JsonStr::from_text);
        read.respond(&(self.read)(), mime);
    }
}

struct TemplateClosure<F> {
    uri_template: String,
    name: String,
    read: F,
}

impl<S, R: ResourceOutput, F: Fn(&Vars<'_>) -> R> TemplateHandler<S> for TemplateClosure<F> {
    fn template(&self) -> ResourceTemplate<'_> {
        ResourceTemplate::new(&self.uri_template, &self.name)
    }

    fn read(&self, _: &mut S, vars: &Vars<'_>, read: Read<'_, '_>) {
        read.respond(&(self.read)(vars), None);
    }
}

struct PromptClosure<A, F> {
    spec: Spec,
    run: F,
    _args: PhantomData<fn(A)>,
}

impl<S, A, R, F> PromptHandler<S> for PromptClosure<A, F>
where
    A: for<'x> Arguments<Decoded<'x> = A>,
    R: PromptOutput,
    F: Fn(A) -> R,
{
    fn prompt(&self) -> PromptInfo<'_> {
        let description = (!self.spec.description.is_empty()).then_some(self.spec.description.as_str());
        PromptInfo { name: &self.spec.name, title: None, description, arguments: A::FIELDS }
    }

    fn get(&self, _: &mut S, get: Get<'_, '_>) {
        if let Some((args, get)) = prompt_arguments::<A>(&self.spec.name, get) {
            get.respond(&(self.run)(args));
        }
    }
}

struct CompleteClosure<F> {
    target: Target,
    argument: String,
    complete: F,
}

impl<S, I, F> Completer<S> for CompleteClosure<F>
where
    I: IntoIterator + Clone,
    I::Item: Display,
    F: Fn(&str) -> I,
{
    fn target(&self) -> (Target, &str) {
        (self.target, &self.argument)
    }

    fn complete(&self, _: &mut S, value: JsonStr<'_>, _: Option<CompletionContext<'_>>, reply: Complete<'_, '_>) {
        let mut scratch = [0u8; 256];
        match value.unescape_into(&mut scratch) {
            Ok(typed) => reply.respond((self.complete)(typed)),
            Err(_) => reply.none(),
        }
    }
}

/// The builder's default job type, named for the doc of [`Server`].
pub type BuiltServer<S = ()> = Server<'static, S, NoJob, 0>;
