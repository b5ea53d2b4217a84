//! A scripted driver for the HTTP client core on a virtual clock: it drains the client
//! after every input and keeps owned copies of everything it hands out, so a test plays
//! the server's side exchange by exchange and asserts on exact requests and events.
#![allow(dead_code)]

use std::collections::VecDeque;

use mcp_sansio::Instant;
use mcp_sansio::http::client::{
    ClientConfig, Event, ExchangeId, ExchangeKind, Expiry, Failure, HttpClient, HttpMethod, HttpMisbehavior,
    LostReason, Output, SendError, Transport,
};

/// An owned copy of a request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Req {
    pub exchange: ExchangeId,
    pub kind: ExchangeKind,
    pub method: HttpMethod,
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Req {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
    pub fn names(&self) -> Vec<&str> {
        self.headers.iter().map(|(n, _)| n.as_str()).collect()
    }
}

/// An owned copy of an event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ev {
    Connected { transport: Transport, session: Option<String> },
    FellBack(u16),
    StandaloneUnavailable(Option<u16>),
    Reconnecting { exchange: ExchangeId, attempt: u8, at: u64 },
    Auth { exchange: ExchangeId, status: u16, bearer: Option<Bearer>, www: Option<String>, retries_left: u8 },
    SessionExpired(Expiry),
    Lost { exchange: ExchangeId, request: Option<String>, reason: LostReason },
    Misbehavior { exchange: ExchangeId, what: HttpMisbehavior },
    Closed,
}

#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Bearer {
    pub resource_metadata: Option<String>,
    pub scope: Option<String>,
    pub error: Option<String>,
    pub error_description: Option<String>,
}

fn unq(v: Option<mcp_sansio::http::headers::ParamValue<'_>>) -> Option<String> {
    v.map(|v| {
        let mut scratch = vec![0u8; v.unescaped_len()];
        String::from_utf8(v.unescape(&mut scratch).unwrap().to_vec()).unwrap()
    })
}

pub const URL: &str = "http://localhost:3000/mcp";

pub struct Driver<const X: usize = 4> {
    pub client: HttpClient<'static, X>,
    pub now: u64,
    pub requests: VecDeque<Req>,
    pub aborts: Vec<ExchangeId>,
    pub messages: Vec<(ExchangeId, String)>,
    pub events: Vec<Ev>,
}

pub fn init_msg(id: u64) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"initialize","params":{{"protocolVersion":"2025-11-25","capabilities":{{}},"clientInfo":{{"name":"t","version":"1"}}}}}}"#
    )
}

pub fn init_result(id: u64, version: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"result":{{"protocolVersion":"{version}","capabilities":{{}},"serverInfo":{{"name":"s","version":"1"}}}}}}"#
    )
}

pub const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;

pub fn request(id: u64, method: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{{}}}}"#)
}

pub fn result(id: u64) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{}}}}"#)
}

/// One SSE message event.
pub fn sse(id: Option<&str>, data: &str) -> String {
    match id {
        Some(id) => format!("id: {id}\ndata: {data}\n\n"),
        None => format!("data: {data}\n\n"),
    }
}

impl<const X: usize> Driver<X> {
    pub fn new(config: ClientConfig<'static>) -> Self {
        Self::with_slot(config, 2048)
    }

    pub fn with_slot(config: ClientConfig<'static>, slot: usize) -> Self {
        let storage = vec![0u8; config.storage_len(X, slot)].leak();
        let client = HttpClient::new(config, storage).unwrap();
        Self { client, now: 0, requests: VecDeque::new(), aborts: Vec::new(), messages: Vec::new(), events: Vec::new() }
    }

    pub fn default_config() -> ClientConfig<'static> {
        ClientConfig::new(URL).unwrap()
    }

    pub fn at(&self) -> Instant {
        Instant::from_millis(self.now)
    }

    /// Polls until idle, taking every message.
    pub fn drain(&mut self) -> Option<Instant> {
        for _ in 0..10_000 {
            match self.client.poll_output() {
                Output::Request(r) => self.requests.push_back(Req {
                    exchange: r.exchange,
                    kind: r.kind,
                    method: r.method,
                    url: r.url.to_string(),
                    headers: r.headers().iter().map(|(n, v)| (n.to_string(), v.to_string())).collect(),
                    body: String::from_utf8(r.body.to_vec()).unwrap(),
                }),
                Output::Abort(x) => self.aborts.push(x),
                Output::Message(m) => {
                    self.messages.push((m.exchange, String::from_utf8(m.bytes.to_vec()).unwrap()));
                    self.client.consume_message();
                }
                Output::Event(e) => {
                    let ev = own(e);
                    self.events.push(ev);
                }
                Output::Idle { next_timeout } => return next_timeout,
            }
        }
        panic!("the client never went idle");
    }

    pub fn send(&mut self, msg: &str) -> ExchangeId {
        let x = self.client.send_message(self.at(), msg.as_bytes()).unwrap();
        self.drain();
        x
    }

    pub fn try_send(&mut self, msg: &str) -> Result<ExchangeId, SendError> {
        let r = self.client.send_message(self.at(), msg.as_bytes());
        self.drain();
        r
    }

    /// The oldest request not yet looked at.
    pub fn take(&mut self) -> Req {
        self.requests.pop_front().expect("a request")
    }

    pub fn no_request(&self) {
        assert!(self.requests.is_empty(), "unexpected requests: {:#?}", self.requests);
    }

    pub fn respond(&mut self, x: ExchangeId, status: u16, headers: &[(&str, &str)]) {
        let now = self.at();
        self.client.handle_response(now, x, status, headers.iter().map(|(n, v)| (*n, v.as_bytes())));
        self.drain();
    }

    /// Feeds all of `body`, draining whenever the client takes less.
    pub fn body(&mut self, x: ExchangeId, body: &str) {
        let mut rest = body.as_bytes();
        let mut stalls = 0;
        while !rest.is_empty() {
            let n = self.client.handle_body(self.at(), x, rest);
            rest = &rest[n..];
            self.drain();
            stalls = if n == 0 { stalls + 1 } else { 0 };
            assert!(stalls < 3, "the client takes nothing");
        }
    }

    pub fn end(&mut self, x: ExchangeId) {
        self.client.handle_end(self.at(), x);
        self.drain();
    }

    pub fn fail(&mut self, x: ExchangeId, f: Failure) {
        self.client.handle_failure(self.at(), x, f);
        self.drain();
    }

    /// A whole response: head, body, end.
    pub fn reply(&mut self, x: ExchangeId, status: u16, headers: &[(&str, &str)], body: &str) {
        self.respond(x, status, headers);
        if !body.is_empty() {
            self.body(x, body);
        }
        self.end(x);
    }

    pub fn json(&mut self, x: ExchangeId, body: &str) {
        self.reply(x, 200, &[("Content-Type", "application/json")], body);
    }

    pub fn accepted(&mut self, x: ExchangeId) {
        self.reply(x, 202, &[], "");
    }

    /// Moves the clock to `ms` and fires timers.
    pub fn advance_to(&mut self, ms: u64) {
        assert!(ms >= self.now);
        self.now = ms;
        self.client.handle_timeout(self.at());
        self.drain();
    }

    /// Runs the handshake over Streamable HTTP: initialize (JSON answer with a session
    /// id), initialized (202), and answers the standalone GET with `get_status`. Returns
    /// the GET's exchange when it was opened.
    pub fn handshake(&mut self, session: Option<&str>, version: &str) -> Req {
        let x = self.send(&init_msg(0));
        let init = self.take();
        assert_eq!(init.exchange, x);
        let mut headers = vec![("Content-Type", "application/json")];
        if let Some(s) = session {
            headers.push(("Mcp-Session-Id", s));
        }
        self.reply(x, 200, &headers, &init_result(0, version));
        let n = self.send(INITIALIZED);
        self.take();
        self.accepted(n);
        self.messages.clear();
        self.events.clear();
        self.take()
    }

    pub fn take_events(&mut self) -> Vec<Ev> {
        std::mem::take(&mut self.events)
    }

    pub fn take_messages(&mut self) -> Vec<String> {
        std::mem::take(&mut self.messages).into_iter().map(|(_, m)| m).collect()
    }
}

pub fn own(e: Event<'_>) -> Ev {
    match e {
        Event::Connected { transport, session_id } => {
            Ev::Connected { transport, session: session_id.map(str::to_string) }
        }
        Event::FellBack { status } => Ev::FellBack(status),
        Event::StandaloneUnavailable { status } => Ev::StandaloneUnavailable(status),
        Event::Reconnecting { exchange, attempt, at } => Ev::Reconnecting { exchange, attempt, at: at.as_millis() },
        Event::AuthRequired { exchange, status, bearer, www_authenticate, retries_left } => Ev::Auth {
            exchange,
            status,
            bearer: bearer.map(|b| Bearer {
                resource_metadata: unq(b.resource_metadata),
                scope: unq(b.scope),
                error: unq(b.error),
                error_description: unq(b.error_description),
            }),
            www: www_authenticate.map(|w| format!("{w:?}")),
            retries_left,
        },
        Event::SessionExpired { reason } => Ev::SessionExpired(reason),
        Event::Lost { exchange, request, reason } => {
            Ev::Lost { exchange, request: request.map(|r| r.to_string()), reason }
        }
        Event::Misbehavior { exchange, what } => Ev::Misbehavior { exchange, what },
        Event::Closed => Ev::Closed,
        _ => panic!("unknown event"),
    }
}
