//! An endpoint put back at the start of a session in place, over the same configuration
//! and buffers.
//!
//! Why: the HTTP server gives every 2026-07-28 POST an endpoint of its own. Built anew,
//! each one (kilobytes of inline slot tables) was written out, then copied into its box
//! and out again on its way back to the pool: over half of a stateless POST's
//! instructions were those copies. Reset in place, the box is reused and only the
//! bookkeeping is rewritten.

use super::buffer::Buffer;
use super::core::{Core, Queued};
use super::endpoint::Endpoint;
use super::held::Held;
use super::lifecycle::Lifecycle;
use super::profile::Profile;
use super::timers::Timers;
use crate::framing::LineState;
use crate::time::Instant;

impl<'a, const OUT: usize, const IN: usize, B: Buffer, E: Profile> Endpoint<'a, OUT, IN, B, E> {
    /// Puts a server endpoint back in the state its construction left it in at `now`
    /// (with the same configuration, the same buffers, and the reserves it measured
    /// then): nothing of the session it served is left (requests either way, held
    /// requests, timers, queued output, the era and the peer's capabilities). The bytes
    /// in its buffers are not cleared; nothing reads them before they are written again.
    ///
    /// A client's construction sends its opening request: a client is not reset here.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn reset(&mut self, now: Instant) {
        // Destructured in full, as the core is: a field added to the endpoint without a
        // line here does not compile (the receive buffer's bytes are kept).
        let Endpoint { rx, core } = self;
        let stateless_only = Self::stateless_only(&core.config);
        core.reset(now, rx.as_ref().len(), stateless_only);
    }
}

impl<const OUT: usize, const IN: usize, B: Buffer, E: Profile> Core<'_, OUT, IN, B, E> {
    /// Every field, as `Endpoint::fresh` sets it (the configuration and what was
    /// measured of it stay). Destructured in full: a field added to the core without
    /// a line here does not compile.
    fn reset(&mut self, now: Instant, rx_len: usize, stateless_only: Option<crate::mcp::ProtocolVersion>) {
        let Core {
            config,
            rx,
            tx,
            life,
            out,
            inb,
            held,
            timers,
            queued,
            now: at,
            batch,
            stall,
            origin,
            framed,
            reserve,
            first_reserve: _,
            own_tasks: _,
            ready,
            identity_len: _,
            profile: _,
        } = self;
        *rx = LineState::new();
        tx.reset();
        *life = Lifecycle::new(config.role, config.own_flags(), stateless_only);
        out.reset();
        inb.reset();
        *held = Held::new(rx_len);
        *timers = Timers::new(now);
        *queued = Queued::default();
        *at = now;
        *batch = None;
        *stall = None;
        *origin = None;
        *framed = false;
        *reserve = config.reply_reserve;
        *ready = false;
    }
}

#[cfg(test)]
impl<const OUT: usize, const IN: usize, B: Buffer, E: Profile> Endpoint<'_, OUT, IN, B, E> {
    /// The whole state but the bytes in the buffers, for comparing endpoints.
    pub(crate) fn debug_state(&self) -> std::string::String {
        let Core {
            config,
            rx,
            tx,
            life,
            out,
            inb,
            held,
            timers,
            queued,
            now,
            batch,
            stall,
            origin,
            framed,
            reserve,
            first_reserve,
            own_tasks,
            ready,
            identity_len,
            profile: _,
        } = &self.core;
        std::format!(
            "rx {} {rx:?}\ntx {}\n{config:?}\n{life:?}\n{out:?}\n{}\n{held:?}\n{timers:?}\n{queued:?}\n{now:?} \
             {batch:?} {stall:?} {origin:?} {framed} {reserve} {first_reserve} {own_tasks} {ready} {identity_len}",
            self.rx.as_ref().len(),
            tx.debug_state(),
            inb.debug_state(),
        )
    }
}

#[cfg(test)]
mod tests {
    use std::string::String;
    use std::vec::Vec;
    use std::{format, vec};

    use crate::mcp::Role;
    use crate::session::{Config, Endpoint, Era, Event, Origin, Output, OutputMode};
    use crate::time::Instant;
    use crate::wire::RawJson;

    type Ep = Endpoint<'static, 2, 2, Vec<u8>>;

    fn config() -> Config<'static> {
        let info = RawJson::parse(br#"{"name":"s","version":"1"}"#).unwrap();
        let caps = RawJson::parse(br#"{"tools":{},"resources":{"subscribe":true},"prompts":{}}"#).unwrap();
        Config::new(Role::Server, info).capabilities(caps).era(Era::Modern).output(OutputMode::Messages)
    }

    fn request(id: u32, method: &str, params: &str, caps: &str) -> String {
        let meta = format!(
            r#""_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{caps}}}"#
        );
        let sep = if params.is_empty() { "" } else { "," };
        format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{{{params}{sep}{meta}}}}}"#)
    }

    /// Feeds `frames` (each on its own origin) at `now`, answering every `answer`-th
    /// request delivered, draining `drain` outputs at most after each; returns what
    /// came out, events and bytes, as text.
    fn drive(ep: &mut Ep, now: Instant, frames: &[String], answer: usize, drain: usize) -> String {
        let mut seen = String::new();
        let mut delivered = 0;
        for (i, frame) in frames.iter().enumerate() {
            let taken = ep.handle_frame_from(now, Some(Origin(i as u32 + 1)), frame.as_bytes());
            seen += &format!("taken {taken}\n");
            for _ in 0..drain {
                let pending = match ep.poll_output() {
                    Output::Transmit(t) => {
                        seen += &format!("tx {:?} {}\n", t.origin, String::from_utf8_lossy(t.bytes()));
                        None
                    }
                    Output::Event(Event::Request(r)) => {
                        seen += &format!("request {:?} {}\n", r.id, r.method);
                        delivered += 1;
                        (delivered % answer == 0).then(|| r.pending())
                    }
                    Output::Event(e) => {
                        seen += &format!("{e:?}\n");
                        None
                    }
                    Output::Idle { next_timeout } => {
                        seen += &format!("idle {next_timeout:?}\n");
                        break;
                    }
                };
                if let Some(p) = pending {
                    let r = ep.respond(&p, &RawJson::parse(br#"{"content":[]}"#).unwrap());
                    seen += &format!("respond {r:?}\n");
                }
            }
        }
        seen
    }

    fn frames() -> Vec<String> {
        vec![
            request(1, "tools/call", r#""name":"a","arguments":{}"#, "{}"),
            request(2, "tools/call", r#""name":"b","arguments":{}"#, r#"{"sampling":{}}"#),
            request(3, "resources/read", r#""uri":"x:/1""#, "{}"),
            request(4, "prompts/get", r#""name":"p""#, "{}"),
            request(5, "subscriptions/listen", r#""notifications":{"toolsListChanged":true}"#, "{}"),
            request(6, "tools/call", r#""name":"c""#, r#"{"elicitation":{}}"#),
            // Missing `_meta` fields, another era's method, garbage.
            r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"a"}}"#.into(),
            r#"{"jsonrpc":"2.0","id":8,"method":"initialize","params":{}}"#.into(),
            "{".into(),
        ]
    }

    /// An endpoint reset after any use is, field by field, the endpoint its construction
    /// makes at that time, and then does exactly what a new one does.
    #[test]
    fn a_reset_endpoint_is_a_fresh_one() {
        let t = |ms| Instant::from_millis(ms);
        for (answer, drain) in [(1, 100), (2, 100), (3, 2), (100, 1), (100, 0), (2, 5)] {
            let mut used = Ep::with_buffers(config(), vec![0; 4096], vec![0; 4096], t(0)).unwrap();
            drive(&mut used, t(10), &frames(), answer, drain);
            used.handle_timeout(t(400_000));
            drive(&mut used, t(400_001), &frames()[..3], answer, drain);
            let before = used.debug_state();
            used.reset(t(500_000));
            let mut fresh = Ep::with_buffers(config(), vec![0; 4096], vec![0; 4096], t(500_000)).unwrap();
            assert_ne!(before, fresh.debug_state(), "used");
            assert_eq!(used.debug_state(), fresh.debug_state(), "answer {answer}, drain {drain}");
            let [a, b] = [&mut used, &mut fresh].map(|ep| drive(ep, t(500_001), &frames(), 2, 100));
            assert_eq!(a, b);
            // (Their states now differ in the addresses of the requests' `_meta` in
            // their receive buffers: what they do is compared.)
            for ep in [&mut used, &mut fresh] {
                ep.handle_timeout(t(900_000));
            }
            let [a, b] = [&mut used, &mut fresh].map(|ep| drive(ep, t(900_001), &frames(), 2, 100));
            assert_eq!(a, b);
        }
    }
}
