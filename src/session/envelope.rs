//! A stateless client's requests (2026-07-28): the `_meta` every one of them carries.
//!
//! The endpoint adds `io.modelcontextprotocol/protocolVersion` (the version it settled
//! on), `clientCapabilities` and `clientInfo` (this side's configuration), and when asked
//! `progressToken` (the request's id) and `logLevel`, into the application's own `_meta`
//! (created if the params have none). A key the application set itself is kept as it is
//! and not written twice: that is how one request declares capabilities of its own (the
//! tasks extension for one call, say). A retry after `input_required` also gets
//! `inputResponses` and `requestState`.

use serde::Serialize;

use super::caller_errors::SendError;
use super::config::{Capabilities, Info};
use super::retry::target_of;
use crate::mcp::{LoggingLevel, Method, ProtocolVersion, meta_keys};
use crate::wire::{Amend, EncodeError, JsonOut, Plan, RawJson, RequestIdRef, may_have_member};

/// A retry's additions: the answers, and the state as received.
pub(crate) struct RetryParts<'d, R: ?Sized> {
    pub responses: &'d R,
    pub state: Option<&'d str>,
}

/// How one stateless request is completed.
pub(crate) struct Envelope<'d, R: ?Sized> {
    pub version: ProtocolVersion,
    pub capabilities: &'d Capabilities<'d>,
    pub info: &'d Info<'d>,
    /// The most bytes `capabilities` and `info` write together.
    pub identity_len: usize,
    pub method: Option<Method<'static>>,
    pub progress: Option<RequestIdRef<'d>>,
    pub log: Option<LoggingLevel>,
    pub retry: Option<RetryParts<'d, R>>,
    /// What `plan` found: the digest of the request's target, and the keys already set.
    pub target: u64,
    has: [bool; 5],
}

const VERSION: usize = 0;
const CAPS: usize = 1;
const INFO: usize = 2;
const PROGRESS: usize = 3;
const LOG: usize = 4;
const KEYS: [&str; 5] = [
    meta_keys::PROTOCOL_VERSION,
    meta_keys::CLIENT_CAPABILITIES,
    meta_keys::CLIENT_INFO,
    meta_keys::PROGRESS_TOKEN,
    meta_keys::LOG_LEVEL,
];

/// The keys as written: quoted, with their colon, after the comma that separates them
/// from an entry before them.
const QUOTED: [&[u8]; 5] = [
    b",\"io.modelcontextprotocol/protocolVersion\":",
    b",\"io.modelcontextprotocol/clientCapabilities\":",
    b",\"io.modelcontextprotocol/clientInfo\":",
    b",\"progressToken\":",
    b",\"io.modelcontextprotocol/logLevel\":",
];

impl<'d, R: Serialize + ?Sized> Envelope<'d, R> {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        version: ProtocolVersion,
        capabilities: &'d Capabilities<'d>,
        info: &'d Info<'d>,
        identity_len: usize,
        method: Option<Method<'static>>,
        progress: Option<RequestIdRef<'d>>,
        log: Option<LoggingLevel>,
        retry: Option<RetryParts<'d, R>>,
    ) -> Self {
        Self { version, capabilities, info, identity_len, method, progress, log, retry, target: 0, has: [false; 5] }
    }

    fn wants(&self, key: usize) -> bool {
        !self.has[key]
            && match key {
                PROGRESS => self.progress.is_some(),
                LOG => self.log.is_some(),
                _ => true,
            }
    }
}

impl<R: Serialize + ?Sized> Amend for Envelope<'_, R> {
    type Error = SendError;

    fn plan(&mut self, params: RawJson<'_>) -> Result<Plan, SendError> {
        let mut meta = None;
        // A quick pass over the bytes first: most params have none of these.
        let named = match self.retry {
            Some(_) => may_have_member(params.as_bytes(), &[b"_meta", b"inputResponses", b"requestState"]),
            None => may_have_member(params.as_bytes(), &[b"_meta"]),
        };
        let members = named.then(|| params.members()).into_iter().flatten();
        for (key, value) in members {
            match key.raw() {
                b"_meta" => meta = Some(value),
                b"inputResponses" | b"requestState" if self.retry.is_some() => return Err(SendError::RetryMismatch),
                _ => {}
            }
        }
        self.target = target_of(self.method, params);
        let meta_at = match meta {
            None => None,
            Some(m) if m.is_object() => {
                for (key, _) in m.members() {
                    if let Some(i) = KEYS.iter().position(|k| key.eq_str(k)) {
                        self.has[i] = true;
                    }
                }
                m.offset_in(params.as_bytes())
            }
            Some(_) => return Err(SendError::Encode(EncodeError::NotAnObject)),
        };
        if self.has[PROGRESS] && self.progress.is_some() {
            return Err(SendError::Encode(EncodeError::ProgressTokenPresent));
        }
        let meta = (0..KEYS.len()).any(|k| self.wants(k));
        Ok(Plan { top: self.retry.is_some(), meta, meta_at })
    }

    fn top(&self, _plan: &Plan, out: &mut JsonOut<'_, '_>) -> Result<(), EncodeError> {
        if let Some(retry) = &self.retry {
            out.put(b"\"inputResponses\":");
            out.value(retry.responses)?;
            if let Some(state) = retry.state {
                out.put(b",\"requestState\":");
                out.string(state);
            }
        }
        Ok(())
    }

    fn meta(&self, _plan: &Plan, out: &mut JsonOut<'_, '_>) -> Result<(), EncodeError> {
        let mut first = true;
        let mut from = 0;
        // Every request of the era's version whose application set none of the first two
        // keys: the version and the capabilities' key go out as one piece (each `put` is a
        // copy of its own), then the loop below goes on from the capabilities.
        if self.version == ProtocolVersion::V2026_07_28 && self.wants(VERSION) && self.wants(CAPS) {
            out.put(
                b"\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\",\"io.modelcontextprotocol/clientCapabilities\":",
            );
            self.capabilities.write(out)?;
            first = false;
            from = CAPS + 1;
        }
        for (key, quoted) in QUOTED.iter().enumerate().skip(from) {
            if !self.wants(key) {
                continue;
            }
            // The keys need no escaping: written as they are, quoted (after a comma, as
            // one piece, but for the first).
            match core::mem::take(&mut first) {
                true => out.put(&quoted[1..]),
                false => out.put(quoted),
            }
            match key {
                VERSION => {
                    out.put(b"\"");
                    out.put(self.version.as_str().as_bytes());
                    out.put(b"\"");
                }
                CAPS => self.capabilities.write(out)?,
                INFO => self.info.write(out)?,
                PROGRESS => out.raw(self.progress.map_or(&b"0"[..], |t| t.as_token())),
                _ => out.string(self.log.map_or("", LoggingLevel::as_str)),
            }
        }
        Ok(())
    }

    fn bound(&self) -> usize {
        let retry = self
            .retry
            .as_ref()
            .map_or(0, |r| 20 + crate::wire::measure(r.responses) + r.state.map_or(0, |s| 18 + 6 * s.len()));
        let token = self.progress.map_or(0, |t| t.as_token().len());
        // Keys, quotes, colons and commas of the five entries, `"_meta":{…},`, the version.
        220 + self.identity_len + token + retry
    }
}
