//! [`StdioClientBuilder`] (feature `stdio`): a [`BlockingClient`] for a server it spawns.
//!
//! The endpoint runs in the crate's [`StdioLoop`] on the client's thread; the session ends
//! with [`BlockingClient::close`] (or when the client is dropped): the server's stdin is
//! closed, and the server is given two seconds to exit before SIGTERM, then SIGKILL.

use std::io;
use std::process::Command;
use std::sync::mpsc::sync_channel;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::blocking::{BlockingClient, Ep, IN, Msg, OUT, Outbox, RX, Session, Started, TX};
use super::builder::{ClientBuilder, Parts};
use super::hooks::Hooks;
use super::wire::{SharedStdin, Tap, TapReader, TapWriter, Wire};
use crate::adapters::stdio::{App, ChildProcess, Mailbox, Sink, StderrMode, StdioLoop};
use crate::session::{Endpoint, Event};
use crate::time::Instant;

/// How long the server has to exit once its stdin is closed, and again after SIGTERM,
/// unless set.
const GRACE: Duration = Duration::from_secs(2);

/// The client's former name, from when it spoke stdio only.
pub type StdioClient = BlockingClient;

impl<H: Hooks> App<OUT, IN> for Session<H> {
    type Message = Msg;

    fn on_event(&mut self, event: Event<'_>, _: &Mailbox<Msg>) {
        Session::on_event(self, event);
    }

    fn on_message(&mut self, ep: &mut Ep<'_>, now: Instant, msg: Msg) {
        Session::on_message(self, ep, now, msg);
    }

    fn on_idle(&mut self, ep: &mut Ep<'_>, now: Instant) -> Option<Instant> {
        Session::on_idle(self, ep, now)
    }
}

impl BlockingClient {
    /// Starts the server `command` runs and completes the handshake.
    pub fn spawn(command: Command) -> io::Result<Self> {
        StdioClientBuilder::new(command).spawn()
    }

    /// How to start one with hooks, another version set, another timeout.
    pub fn builder(command: Command) -> StdioClientBuilder {
        StdioClientBuilder::new(command)
    }
}

/// What a [`BlockingClient`] over stdio starts: the server's command, and what becomes
/// of its stderr.
pub struct StdioTarget {
    command: Command,
    stderr: StderrMode,
    /// How long the server has to exit once its stdin is closed, and after SIGTERM.
    grace: [Duration; 2],
    /// The wire mode's tap.
    tap: Option<Tap>,
}

/// The server's stdin as the loop writes it.
enum Stdin {
    Pipe(std::process::ChildStdin),
    Tapped(TapWriter),
}

/// How a [`BlockingClient`] starts a server over stdio: the shared settings of
/// [`ClientBuilder`] (hooks, info, versions, era, timeout) and the methods below.
pub type StdioClientBuilder<H = ()> = ClientBuilder<StdioTarget, H>;

impl ClientBuilder<StdioTarget> {
    /// A client for the server `command` starts.
    pub fn new(command: Command) -> Self {
        ClientBuilder::with_target(StdioTarget { command, stderr: StderrMode::Inherit, grace: [GRACE; 2], tap: None })
    }
}

impl<H: Hooks + Send + 'static> ClientBuilder<StdioTarget, H> {
    /// What becomes of the server's stderr (passed through by default).
    pub fn stderr(mut self, stderr: StderrMode) -> Self {
        self.target.stderr = stderr;
        self
    }

    /// How long the server has to exit at [`close`](BlockingClient::close): `grace`
    /// once its stdin is closed (the specification's first step), then `term_grace`
    /// after SIGTERM, before SIGKILL (two seconds each by default).
    pub fn shutdown_grace(mut self, grace: Duration, term_grace: Duration) -> Self {
        self.target.grace = [grace, term_grace];
        self
    }

    /// The wire mode (see [`Wire`]): `tap` is shown every chunk written to the server
    /// and read from it, and [`BlockingClient::write_raw`] may write bytes of the
    /// application's own. For tools that show or test the protocol; it costs the
    /// polled pipes (the `wire.rs` module docs say what that means).
    pub fn tap_wire(mut self, tap: impl Fn(Wire, &[u8]) + Send + Sync + 'static) -> Self {
        self.target.tap = Some(Arc::new(tap));
        self
    }

    /// Starts the server and completes the handshake.
    pub fn spawn(self) -> io::Result<BlockingClient> {
        let Parts { target: StdioTarget { mut command, stderr, grace, tap }, client, config, listeners } =
            self.into_parts();
        let (child, stdin, stdout) = ChildProcess::spawn(&mut command, stderr)?;
        // The wire mode reads and writes through the tap; otherwise the pipes are polled.
        let (event_loop, stdin, raw) = match tap {
            Some(tap) => {
                let shared: SharedStdin = Arc::new(Mutex::new(Some(stdin)));
                let reader = TapReader { inner: stdout, tap: Arc::clone(&tap) };
                let writer = TapWriter { stdin: Arc::clone(&shared), tap: Arc::clone(&tap) };
                (StdioLoop::new(reader)?, Stdin::Tapped(writer), Some((shared, tap)))
            }
            #[cfg(unix)]
            None => (StdioLoop::from_fd(stdout)?, Stdin::Pipe(stdin), None),
            #[cfg(not(unix))]
            None => (StdioLoop::new(stdout)?, Stdin::Pipe(stdin), None),
        };
        let mailbox = event_loop.mailbox();
        let (ready, is_ready) = sync_channel(1);
        let thread = std::thread::Builder::new().name("mcp-client".into()).spawn(move || {
            let mut event_loop = event_loop;
            let sink = match stdin {
                #[cfg(unix)]
                Stdin::Pipe(stdin) => Sink::from_fd(stdin),
                #[cfg(not(unix))]
                Stdin::Pipe(stdin) => Sink::writer(stdin),
                Stdin::Tapped(writer) => Sink::writer(writer),
            };
            let (mut rx, mut tx) = (vec![0u8; RX], vec![0u8; TX]);
            let mut ep: Endpoint<'_, OUT, IN> =
                Endpoint::new(config, &mut rx, &mut tx, event_loop.clock().now()).map_err(io::Error::other)?;
            let mut session = Session::new(client, ready, listeners);
            let ended = event_loop.run(&mut ep, sink, &mut session);
            session.end(None);
            ended.map(|_| ())
        })?;
        BlockingClient::start(Started {
            outbox: Outbox::Stdio(mailbox),
            thread,
            child: Some((child, grace)),
            raw,
            ready: is_ready,
        })
    }
}
