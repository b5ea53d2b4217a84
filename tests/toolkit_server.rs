//! The toolkit's server through a real endpoint, on a virtual clock: listing and
//! pagination, typed calls and the errors a model gets for bad arguments, reads, prompts,
//! completions, capabilities from what is declared, step jobs with progress and
//! cancellation, and answers that wait for room.

use core::task::Poll;

use mcp_sansio::mcp::{Resource, ResourceTemplate};
use mcp_sansio::session::{Config, Endpoint, Event, Output};
use mcp_sansio::time::Instant;
use mcp_sansio::toolkit::Bounded;
use mcp_sansio::toolkit::server::{
    CompleteFrom, List, PromptFn, ResourceList, Server, Step, StepContext, StepTool, Table, Target, TemplateFn, ToolFn,
    Vars,
};
use mcp_sansio::wire::JsonStr;
use serde_json::{Value, json};

mcp_sansio::schema! {
    /// Which forecast.
    #[derive(serde::Deserialize)]
    pub struct Forecast<'a> {
        /// City name
        #[serde(borrow)]
        city: JsonStr<'a>,
        /// Days ahead
        days: Bounded<1, 7>,
        units: Option<Units>,
    }

    #[derive(serde::Deserialize, Clone, Copy)]
    #[serde(rename_all = "lowercase")]
    pub enum Units { Metric, Imperial }

    #[derive(serde::Deserialize)]
    pub struct Count { to: u32 }

    #[derive(serde::Deserialize)]
    pub struct Greeting { name: String, mood: Option<String> }
}

/// The application's state.
#[derive(Default)]
struct App {
    calls: u32,
    cancelled: Vec<u32>,
}

/// `count`: counts to `to`, one step per 100 ms of virtual time.
enum Job {
    Count { at: u32, to: u32, next: Option<Instant> },
}

impl Step<App> for Job {
    type Output<'a> = String;

    fn step(&mut self, _: &mut App, cx: &mut impl StepContext) -> Poll<String> {
        let Job::Count { at, to, next } = self;
        if let Some(t) = *next
            && cx.now() < t
        {
            cx.wake_at(t);
            return Poll::Pending;
        }
        if *at == *to {
            return Poll::Ready(format!("counted to {to}"));
        }
        *at += 1;
        cx.progress(*at, Some(*to), None);
        let t = Instant::from_millis(cx.now().as_millis() + 100);
        *next = Some(t);
        cx.wake_at(t);
        Poll::Pending
    }

    fn cancelled(&mut self, app: &mut App) {
        let Job::Count { at, .. } = self;
        app.cancelled.push(*at);
    }
}

static FORECAST: ToolFn<Forecast<'static>, App, String> =
    ToolFn::borrowed("get_forecast", |app: &mut App, Forecast { city, days, units }| {
        app.calls += 1;
        let units = match units {
            Some(Units::Imperial) => "°F",
            _ => "°C",
        };
        format!("{city}: {} days, {units}", days.get())
    })
    .description("Weather forecast for a city");
static COUNT: StepTool<Count, App, Job> =
    StepTool::new("count", |_, Count { to }| Job::Count { at: 0, to, next: None }).description("Counts slowly");

static STATIONS: [Resource<'static>; 25] = {
    let mut list = [Resource::new("", ""); 25];
    let mut i = 0;
    while i < 25 {
        list[i] = Resource::new(URIS[i], NAMES[i]);
        i += 1;
    }
    list
};
const URIS: [&str; 25] = [
    "w://1", "w://2", "w://3", "w://4", "w://5", "w://6", "w://7", "w://8", "w://9", "w://10", "w://11", "w://12",
    "w://13", "w://14", "w://15", "w://16", "w://17", "w://18", "w://19", "w://20", "w://21", "w://22", "w://23",
    "w://24", "w://25",
];
const NAMES: [&str; 25] = [
    "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "s12", "s13", "s14", "s15", "s16", "s17",
    "s18", "s19", "s20", "s21", "s22", "s23", "s24", "s25",
];
static READINGS: ResourceList<App, String> = ResourceList::new(&STATIONS, |_, i| format!("station {}: 20 °C", i + 1));
static CITY: TemplateFn<App, Result<String, &str>> =
    TemplateFn::new(ResourceTemplate::new("w://city/{name}/today", "today"), |_, vars: &Vars<'_>| {
        match vars.get("name") {
            Some("atlantis") => Err("no weather under the sea"),
            Some(name) => Ok(format!("{name}: sunny")),
            None => Err("no city"),
        }
    });
static GREET: PromptFn<Greeting, App, String> = PromptFn::new("greet", |_, Greeting { name, mood }| {
    format!("Greet {name}{}", mood.map(|m| format!(", who is {m}")).unwrap_or_default())
})
.description("A greeting");
static CITIES: CompleteFrom =
    CompleteFrom::new(Target::Template("w://city/{name}/today"), "name", &["oslo", "osaka", "bergen"]);

static TABLE: Table<'static, App, Job> = Table::new()
    .tools(&[&FORECAST, &COUNT])
    .resources(&[&READINGS])
    .templates(&[&CITY])
    .prompts(&[&GREET])
    .completions(&[&CITIES]);

type Ep = Endpoint<'static, 4, 8>;

/// A server endpoint, its toolkit server, and what came out.
struct Harness {
    ep: Ep,
    server: Server<'static, App, Job, 2>,
    app: App,
    now: Instant,
    out: Vec<Value>,
    unhandled: Vec<String>,
}

fn leak(n: usize) -> &'static mut [u8] {
    Box::leak(vec![0u8; n].into_boxed_slice())
}

impl Harness {
    fn new(server: Server<'static, App, Job, 2>) -> Self {
        Self::with(server, |c| c, 16 * 1024)
    }

    fn with(
        server: Server<'static, App, Job, 2>,
        config: impl FnOnce(Config<'static>) -> Config<'static>,
        tx: usize,
    ) -> Self {
        let ep = Ep::new(config(server.config()), leak(16 * 1024), leak(tx), Instant::ZERO).unwrap();
        let mut h =
            Harness { ep, server, app: App::default(), now: Instant::ZERO, out: Vec::new(), unhandled: Vec::new() };
        h.send(json!({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}));
        h.send(json!({"jsonrpc":"2.0","method":"notifications/initialized"}));
        h.out.clear();
        h.unhandled.clear();
        h
    }

    /// Drains the endpoint into the server; returns whether anything came out.
    fn drain_endpoint(&mut self) -> bool {
        let mut any = false;
        loop {
            match self.ep.poll_output() {
                Output::Transmit(bytes) => {
                    for line in bytes.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
                        self.out.push(serde_json::from_slice(line).unwrap());
                    }
                }
                Output::Event(event) => {
                    if let Some(e) = self.server.handle(&mut self.app, event) {
                        match e {
                            Event::Request(mut r) => {
                                self.unhandled.push(r.method.name().to_string());
                                let _ = r.respond_empty();
                            }
                            other => self.unhandled.push(format!("{other:?}").split(' ').next().unwrap().into()),
                        }
                    }
                }
                Output::Idle { .. } => return any,
            }
            any = true;
        }
    }

    /// Drains, polls the server, and again until nothing more happens (what a loop does
    /// before it waits).
    fn drain(&mut self) {
        self.drain_endpoint();
        loop {
            let _ = self.server.poll(&mut self.app, &mut self.ep, self.now);
            if !self.drain_endpoint() {
                return;
            }
        }
    }

    fn send(&mut self, message: Value) {
        let mut line = serde_json::to_vec(&message).unwrap();
        line.push(b'\n');
        let taken = self.ep.handle_input(self.now, &line);
        assert_eq!(taken, line.len());
        self.drain();
    }

    /// Sends a request and returns the answer with that id (and keeps the rest).
    fn request(&mut self, id: u64, method: &str, params: Value) -> Value {
        self.send(json!({"jsonrpc":"2.0","id":id,"method":method,"params":params}));
        self.answer(id).unwrap_or_else(|| panic!("no answer to {method}: {:?}", self.out))
    }

    fn answer(&mut self, id: u64) -> Option<Value> {
        let at = self.out.iter().position(|m| m["id"] == id)?;
        Some(self.out.remove(at))
    }

    fn advance(&mut self, ms: u64) {
        self.now = Instant::from_millis(self.now.as_millis() + ms);
        self.ep.handle_timeout(self.now);
        self.drain();
    }
}

fn server() -> Server<'static, App, Job, 2> {
    Server::new(TABLE).page_size(10).cursor_key(*b"0123456789abcdef")
}

#[test]
fn capabilities_come_from_what_is_declared() {
    let caps = serde_json::to_value(server().capabilities()).unwrap();
    assert_eq!(caps, json!({"tools":{},"resources":{},"prompts":{},"completions":{}}));
    static ONLY_TOOLS: Table<'static, App, Job> = Table::new().tools(&[&FORECAST]);
    let tools_only: Server<'static, App, Job, 2> = Server::new(ONLY_TOOLS).announce_changes(List::Tools);
    assert_eq!(serde_json::to_value(tools_only.capabilities()).unwrap(), json!({"tools":{"listChanged":true}}));
    // The endpoint refuses what was not declared.
    let mut h = Harness::new(tools_only);
    let r = h.request(1, "resources/list", json!({}));
    assert_eq!(r["error"]["code"], -32601);
    assert_eq!(
        h.unhandled,
        ["Misbehavior(RequestRefused"],
        "refused by the endpoint (a RequestRefused event), never delivered"
    );
}

#[test]
fn tools_are_listed_with_their_schemas_and_called_with_typed_arguments() {
    let mut h = Harness::new(server());
    let list = h.request(1, "tools/list", json!({}));
    let tools = list["result"]["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 2);
    assert_eq!(tools[0]["name"], "get_forecast");
    assert_eq!(tools[0]["description"], "Weather forecast for a city");
    assert_eq!(
        tools[0]["inputSchema"]["properties"]["days"],
        json!({"type":"integer","description":"Days ahead","minimum":1,"maximum":7})
    );
    assert_eq!(tools[0]["inputSchema"]["required"], json!(["city", "days"]));
    let r = h.request(
        2,
        "tools/call",
        json!({"name":"get_forecast","arguments":{"city":"Bergen","days":3,"units":"imperial"}}),
    );
    assert_eq!(r["result"], json!({"content":[{"type":"text","text":"Bergen: 3 days, °F"}]}));
    // Escaped text borrows nothing wrong: the handler sees it unescaped.
    let r = h.request(3, "tools/call", json!({"name":"get_forecast","arguments":{"city":"Troms\u{f8}","days":1}}));
    assert_eq!(r["result"]["content"][0]["text"], "Tromsø: 1 days, °C");
    assert_eq!(h.app.calls, 2);
}

#[test]
fn bad_arguments_get_an_error_result_that_names_the_field_and_what_it_must_be() {
    let mut h = Harness::new(server());
    let cases = [
        (
            json!({"city":"Oslo","days":"three"}),
            "Invalid arguments for get_forecast: `days` must be an integer from 1 to 7, not a string.",
        ),
        (json!({"city":"Oslo","days":9}), "Invalid arguments for get_forecast: `days` must be an integer from 1 to 7."),
        (json!({"days":2}), "Invalid arguments for get_forecast: `city` is required (a string)."),
        (
            json!({"city":"Oslo","days":2,"units":"kelvin"}),
            "Invalid arguments for get_forecast: `units` must be one of \"metric\", \"imperial\".",
        ),
        (json!({"city":7,"days":2}), "Invalid arguments for get_forecast: `city` must be a string, not a number."),
        (json!([1]), "Invalid arguments for get_forecast: the arguments must be an object, not an array."),
    ];
    for (i, (arguments, text)) in cases.into_iter().enumerate() {
        let r = h.request(10 + i as u64, "tools/call", json!({"name":"get_forecast","arguments":arguments}));
        assert_eq!(r["result"]["isError"], true, "{r}");
        let got = r["result"]["content"][0]["text"].as_str().unwrap();
        assert!(got.starts_with(text), "{got}\n  expected: {text}");
    }
    // Missing arguments are an empty object: the required member is named.
    let r = h.request(20, "tools/call", json!({"name":"get_forecast"}));
    assert!(r["result"]["content"][0]["text"].as_str().unwrap().contains("`city` is required"));
    assert_eq!(h.app.calls, 0, "no handler ran");
    // A tool that does not exist is a protocol error.
    let r = h.request(21, "tools/call", json!({"name":"nope","arguments":{}}));
    assert_eq!(r["error"], json!({"code":-32602,"message":"Unknown tool: nope"}));
    let r = h.request(22, "tools/call", json!({"arguments":{}}));
    assert_eq!(r["error"]["code"], -32602);
}

#[test]
fn resources_are_served_ten_per_page_with_signed_cursors() {
    let mut h = Harness::new(server());
    let mut uris = Vec::new();
    let mut params = json!({});
    let mut pages = 0;
    loop {
        let r = h.request(100 + pages, "resources/list", params);
        pages += 1;
        let result = &r["result"];
        for res in result["resources"].as_array().unwrap() {
            uris.push(res["uri"].as_str().unwrap().to_string());
        }
        match result.get("nextCursor") {
            Some(c) => params = json!({"cursor": c}),
            None => break,
        }
    }
    assert_eq!(pages, 3);
    assert_eq!(uris, URIS);
    // A forged cursor, and one of another list, are refused.
    let first = h.request(200, "resources/list", json!({}));
    let cursor = first["result"]["nextCursor"].as_str().unwrap().to_string();
    let mut forged = cursor.clone().into_bytes();
    forged[7] = if forged[7] == b'0' { b'1' } else { b'0' };
    let r = h.request(201, "resources/list", json!({"cursor": String::from_utf8(forged).unwrap()}));
    assert_eq!(r["error"], json!({"code":-32602,"message":"Invalid cursor"}));
    let r = h.request(202, "prompts/list", json!({"cursor": cursor}));
    assert_eq!(r["error"]["code"], -32602, "a resources cursor is no good for prompts");
    // After a change, old cursors are stale.
    h.server.changed(List::Resources);
    let r = h.request(203, "resources/list", json!({"cursor": cursor}));
    assert_eq!(r["error"]["message"], "Stale cursor: the list changed; start again without a cursor");
}

#[test]
fn list_changes_are_announced_when_declared() {
    let mut h = Harness::new(server().announce_changes(List::Prompts));
    h.server.changed(List::Prompts);
    h.server.changed(List::Tools);
    h.drain();
    let methods: Vec<&str> = h.out.iter().filter_map(|m| m["method"].as_str()).collect();
    assert_eq!(methods, ["notifications/prompts/list_changed"], "only the declared one");
}

#[test]
fn reads_find_resources_then_templates() {
    let mut h = Harness::new(server());
    let r = h.request(1, "resources/read", json!({"uri":"w://7"}));
    assert_eq!(r["result"], json!({"contents":[{"uri":"w://7","text":"station 7: 20 °C"}]}));
    let r = h.request(2, "resources/read", json!({"uri":"w://city/oslo/today"}));
    assert_eq!(r["result"]["contents"][0], json!({"uri":"w://city/oslo/today","text":"oslo: sunny"}));
    let r = h.request(3, "resources/read", json!({"uri":"w://city/atlantis/today"}));
    assert_eq!(r["error"], json!({"code":-32603,"message":"no weather under the sea"}));
    let r = h.request(4, "resources/read", json!({"uri":"w://99"}));
    assert_eq!(r["error"], json!({"code":-32602,"message":"Resource not found","data":{"uri":"w://99"}}));
    let r = h.request(5, "resources/templates/list", json!({}));
    assert_eq!(r["result"]["resourceTemplates"], json!([{"uriTemplate":"w://city/{name}/today","name":"today"}]));
}

#[test]
fn prompts_take_typed_arguments() {
    let mut h = Harness::new(server());
    let r = h.request(1, "prompts/list", json!({}));
    assert_eq!(
        r["result"]["prompts"],
        json!([{"name":"greet","description":"A greeting","arguments":[{"name":"name","required":true},{"name":"mood","required":false}]}])
    );
    let r = h.request(2, "prompts/get", json!({"name":"greet","arguments":{"name":"Ada","mood":"curious"}}));
    assert_eq!(
        r["result"],
        json!({"messages":[{"role":"user","content":{"type":"text","text":"Greet Ada, who is curious"}}]})
    );
    let r = h.request(3, "prompts/get", json!({"name":"greet","arguments":{}}));
    assert_eq!(r["error"]["code"], -32602);
    assert!(r["error"]["message"].as_str().unwrap().contains("`name` is required"), "{r}");
    let r = h.request(4, "prompts/get", json!({"name":"nope"}));
    assert_eq!(r["error"], json!({"code":-32602,"message":"Unknown prompt: nope"}));
}

#[test]
fn completions_filter_by_what_was_typed() {
    let mut h = Harness::new(server());
    let r = h.request(
        1,
        "completion/complete",
        json!({"ref":{"type":"ref/resource","uri":"w://city/{name}/today"},"argument":{"name":"name","value":"os"}}),
    );
    assert_eq!(r["result"], json!({"completion":{"values":["oslo","osaka"],"total":2,"hasMore":false}}));
    let r = h.request(
        2,
        "completion/complete",
        json!({"ref":{"type":"ref/prompt","name":"greet"},"argument":{"name":"name","value":"A"}}),
    );
    assert_eq!(r["result"]["completion"]["values"], json!([]), "nothing completes it");
}

#[test]
fn step_jobs_report_progress_on_the_virtual_clock_and_finish() {
    let mut h = Harness::new(server());
    h.send(json!({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"count","arguments":{"to":3},"_meta":{"progressToken":"t"}}}));
    assert_eq!(h.server.jobs(), 1);
    let progress = |h: &Harness| h.out.iter().filter(|m| m["method"] == "notifications/progress").count();
    assert_eq!(progress(&h), 1, "the first step ran at once");
    h.advance(50);
    assert_eq!(progress(&h), 1, "not due yet");
    h.advance(50);
    h.advance(100);
    assert_eq!(progress(&h), 3);
    assert!(h.answer(1).is_none());
    h.advance(100);
    assert_eq!(h.answer(1).unwrap()["result"]["content"][0]["text"], "counted to 3");
    assert_eq!(h.server.jobs(), 0);
    let values: Vec<&Value> =
        h.out.iter().filter(|m| m["method"] == "notifications/progress").map(|m| &m["params"]["progress"]).collect();
    assert_eq!(values, [1, 2, 3]);
}

#[test]
fn a_cancelled_step_job_is_told_and_dropped_and_nothing_is_sent() {
    let mut h = Harness::new(server());
    h.send(json!({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"count","arguments":{"to":5}}}));
    h.advance(100);
    h.send(json!({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}));
    assert_eq!((h.server.jobs(), h.app.cancelled.as_slice()), (0, &[2][..]));
    h.advance(1000);
    assert!(h.answer(1).is_none(), "a cancelled request is not answered");
    assert!(h.out.iter().all(|m| m["method"] != "notifications/progress"), "no progress without a token");
    assert_eq!(h.unhandled, ["Cancelled"], "the event still reaches the application");
}

#[test]
fn a_call_beyond_the_job_slots_is_told_the_server_is_busy() {
    let mut h = Harness::new(server());
    for id in 1..=3 {
        h.send(json!({"jsonrpc":"2.0","id":id,"method":"tools/call","params":{"name":"count","arguments":{"to":5}}}));
    }
    let busy = h.answer(3).unwrap();
    assert_eq!(busy["result"]["isError"], true);
    assert!(busy["result"]["content"][0]["text"].as_str().unwrap().contains("busy"));
    assert_eq!(h.server.jobs(), 2);
}

#[test]
fn a_page_is_never_left_waiting_for_room() {
    // The configuration's reply reserve holds the largest page, so an endpoint that took
    // the request has room for its answer whatever else is queued.
    let s = server();
    assert!(s.reply_reserve() > mcp_sansio::session::DEFAULT_REPLY_RESERVE);
    let tx = s.reply_reserve() + 64;
    let mut h = Harness::with(s, |c| c, tx);
    h.send(json!({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"count","arguments":{"to":1},"_meta":{"progressToken":1}}}));
    for id in 2..6 {
        h.send(json!({"jsonrpc":"2.0","id":id,"method":"tools/list"}));
        assert_eq!(h.answer(id).unwrap()["result"]["tools"].as_array().unwrap().len(), 2);
    }
}

#[cfg(feature = "alloc")]
#[test]
fn a_result_that_does_not_fit_now_waits_and_goes_out_later() {
    static BIG: ToolFn<mcp_sansio::toolkit::NoArguments, App, String> = ToolFn::new("big", |_, _| "x".repeat(3000));
    static T: Table<'static, App, Job> = Table::new().tools(&[&BIG]);
    let mut h = Harness::with(Server::new(T), |c| c, 4096);
    // Two calls read in one go: the first answer fills the buffer, the second waits.
    let calls = concat!(
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"big"}}"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"big"}}"#,
        "\n"
    );
    assert_eq!(h.ep.handle_input(h.now, calls.as_bytes()), calls.len());
    h.drain();
    let texts: Vec<usize> = [1, 2]
        .iter()
        .map(|&id| h.answer(id).unwrap()["result"]["content"][0]["text"].as_str().unwrap().len())
        .collect();
    assert_eq!(texts, [3000, 3000]);
}

/// `info_json` renders what the typed info writes, and an endpoint configured with it
/// answers exactly as one that serializes the typed info (escapes included).
#[test]
fn the_rendered_info_is_what_the_typed_info_writes() {
    let s = server().info(mcp_sansio::mcp::Implementation::new("wea\"ther", "2.0"));
    let info = s.info_json();
    assert_eq!(serde_json::from_slice::<Value>(&info).unwrap(), json!({"name":"wea\"ther","version":"2.0"}));
    let answer = |config: Config<'_>| {
        let (mut rx, mut tx) = (vec![0u8; 4096], vec![0u8; 4096]);
        let mut ep: Endpoint<'_, 2, 2> = Endpoint::new(config, &mut rx, &mut tx, Instant::ZERO).unwrap();
        let line = br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}
"#;
        assert_eq!(ep.handle_input(Instant::ZERO, line), line.len());
        let mut sent = Vec::new();
        loop {
            match ep.poll_output() {
                Output::Transmit(bytes) => sent.extend_from_slice(&bytes),
                Output::Idle { .. } => break,
                Output::Event(_) => {}
            }
        }
        sent
    };
    let typed = answer(s.config());
    let needle = br#""serverInfo":{"name":"wea\"ther","version":"2.0"}"#;
    assert!(typed.windows(needle.len()).any(|w| w == needle), "{}", String::from_utf8_lossy(&typed));
    assert_eq!(answer(s.config_with_info(&info)), typed);
    assert!(s.config_with_info(&info).info.as_json().is_some());
}
