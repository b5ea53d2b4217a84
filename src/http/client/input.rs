//! The inputs: a response head, body bytes, the end of a response, a failed connection,
//! and time. Each acts only on a live exchange whose id it names; parts of an exchange
//! the client has left (aborted, retried, dropped with its session) are ignored.

use super::decide::{self, Body, Head, HeadFacts};
use super::event::{Expiry, Failure, HttpMisbehavior, LostReason, Transport};
use super::exchange::{BodyMode, Ending, ExchangeId, ExchangeKind, Stage, id_hash};
use super::outgoing::OutKind;
use super::state::{HttpClient, Legacy, Phase, Queued, Standalone};
use crate::http::headers::{WwwAuthenticate, session_id};
use crate::time::Instant;

/// The response headers the client reads.
#[derive(Default)]
struct Seen<'h> {
    content_type: Option<&'h [u8]>,
    session_id: Option<&'h [u8]>,
    /// The `WWW-Authenticate` value to keep: the first with a Bearer challenge, else the
    /// first that parses.
    challenge: Option<&'h [u8]>,
    challenge_bearer: bool,
}

impl<'h> Seen<'h> {
    fn read(headers: impl IntoIterator<Item = (&'h str, &'h [u8])>) -> Self {
        let mut seen = Seen::default();
        for (name, value) in headers {
            if name.eq_ignore_ascii_case("content-type") {
                seen.content_type.get_or_insert(value);
            } else if name.eq_ignore_ascii_case("mcp-session-id") {
                seen.session_id.get_or_insert(value);
            } else if name.eq_ignore_ascii_case("www-authenticate")
                && !seen.challenge_bearer
                && let Ok(www) = WwwAuthenticate::parse(value)
            {
                let bearer = www.bearer().is_some();
                if bearer || seen.challenge.is_none() {
                    seen.challenge = Some(value);
                    seen.challenge_bearer = bearer;
                }
            }
        }
        seen
    }
}

impl<const X: usize> HttpClient<'_, X> {
    /// The slot of a live exchange, if `exchange` names one.
    fn live(&self, exchange: ExchangeId) -> Option<usize> {
        let i = exchange.slot();
        self.slots.get(i).filter(|s| s.id == exchange && s.live).map(|_| i)
    }

    /// The response head of `exchange`: its status and its headers (name, value), in any
    /// order, names in any case. Call it once, before the body.
    pub fn handle_response<'h>(
        &mut self,
        now: Instant,
        exchange: ExchangeId,
        status: u16,
        headers: impl IntoIterator<Item = (&'h str, &'h [u8])>,
    ) {
        self.advance(now);
        let Some(i) = self.live(exchange) else { return };
        if !matches!(self.slots[i].stage, Stage::Sent) {
            return;
        }
        let seen = Seen::read(headers);
        let slot = &self.slots[i];
        let facts = HeadFacts {
            kind: slot.kind,
            out: slot.out,
            body: Body::of(seen.content_type),
            carried_session: slot.carried_session,
            challenged: seen.challenge_bearer,
            may_fall_back: slot.kind == ExchangeKind::Post
                && slot.out == OutKind::Initialize
                && self.config.mode == super::config::TransportMode::Auto
                && !self.streamable_seen
                && !self.legacy_known,
            modern: slot.kind == ExchangeKind::Post
                && super::request::is_modern(slot.store.raw_ref().get(..slot.body_len).unwrap_or(&[])),
        };
        let decision = decide::head(status, facts);
        if (200..300).contains(&status) && slot.kind == ExchangeKind::Post {
            self.streamable_seen = true;
            self.on_post_accepted(i, &seen);
        }
        match decision {
            Head::ReadJson => {
                if !(200..300).contains(&status) {
                    self.slots[i].refused = Some(status);
                }
                self.slots[i].stage = Stage::Reading { mode: BodyMode::Json { len: 0 }, ended: None }
            }
            Head::ReadSse => self.open_stream(i),
            Head::Accepted => self.slots[i].stage = Stage::Reading { mode: BodyMode::Discard, ended: None },
            Head::AcceptedRequest => {
                self.queue(Queued::Misbehavior { exchange, what: HttpMisbehavior::AcceptedRequest });
                self.slots[i].stage = Stage::Reading { mode: BodyMode::Discard, ended: None };
            }
            Head::BadContentType => {
                self.queue(Queued::Misbehavior { exchange, what: HttpMisbehavior::UnexpectedContentType });
                let reason = if facts.kind == ExchangeKind::LegacyStream {
                    LostReason::NoEndpoint
                } else {
                    LostReason::NoResponse
                };
                self.fail(i, reason, Some(status));
            }
            Head::Auth => self.on_auth(i, status, seen.challenge),
            Head::SessionExpired => self.expire(Expiry::NotFound),
            Head::FallBack => {
                let slot = &mut self.slots[i];
                slot.stop_http();
                slot.kind = ExchangeKind::LegacyPost;
                slot.stage = Stage::Held;
                self.legacy_known = true;
                self.legacy = Legacy::Wanted;
                self.queue(Queued::FellBack(status));
            }
            Head::NoStream | Head::Refused => self.fail(i, LostReason::Status(status), Some(status)),
            Head::Retry => {
                self.slots[i].stop_http();
                self.reconnect(i);
            }
        }
    }

    /// A 2xx to a Streamable HTTP POST: the session id of an `initialize` response, and
    /// after `notifications/initialized`, the standalone stream.
    fn on_post_accepted(&mut self, i: usize, seen: &Seen<'_>) {
        match self.slots[i].out {
            OutKind::Initialize => {
                let exchange = self.slots[i].id;
                if let Some(value) = seen.session_id {
                    match session_id(value) {
                        Ok(id) => {
                            self.text.set_session_id(id);
                            self.session_tentative = true;
                        }
                        Err(_) => self.queue(Queued::Misbehavior { exchange, what: HttpMisbehavior::InvalidSessionId }),
                    }
                }
            }
            OutKind::Initialized if self.standalone == Standalone::Idle => self.standalone = Standalone::Wanted,
            _ => {}
        }
    }

    /// A 2xx event stream: a fresh decoder, or the same one again for a reconnection
    /// (it keeps the last event id and the server's `retry`).
    fn open_stream(&mut self, i: usize) {
        let slot = &mut self.slots[i];
        match (slot.kind, slot.store.sse()) {
            (ExchangeKind::Stream | ExchangeKind::Resume, Some(d)) => d.restart(),
            _ => slot.store.start_sse(),
        }
        slot.fruitful = false;
        slot.id_mark = slot.store.sse_ref().map_or(0, |d| id_hash(d.last_event_id()));
        slot.stage = Stage::Reading { mode: BodyMode::Sse, ended: None };
    }

    /// 401/403: keep the challenge beside the request body and ask the application,
    /// unless the retries are used up.
    fn on_auth(&mut self, i: usize, status: u16, challenge: Option<&[u8]>) {
        let max = self.config.max_auth_retries;
        if self.slots[i].auth_tries >= max {
            self.fail(i, LostReason::Unauthorized { status }, Some(status));
            return;
        }
        let slot = &mut self.slots[i];
        slot.stop_http();
        // A stream's buffer holds the decoder that knows where to resume: the challenge
        // is not kept there.
        let kept = match (challenge, slot.store.sse_ref()) {
            (Some(value), None) => {
                let body = slot.body_len;
                let raw = slot.store.raw();
                match raw.get_mut(body..body + value.len()) {
                    Some(dst) => {
                        dst.copy_from_slice(value);
                        value.len()
                    }
                    None => 0,
                }
            }
            _ => 0,
        };
        slot.stage = Stage::AuthPending { status, challenge: kept };
    }

    /// Bytes of the response body of `exchange`. Returns how many were taken: fewer
    /// than `data.len()` when the client holds messages not yet handed out (drain
    /// [`poll_output`](Self::poll_output), then feed the rest). Bytes of a body the
    /// client does not read are all taken.
    pub fn handle_body(&mut self, now: Instant, exchange: ExchangeId, data: &[u8]) -> usize {
        self.advance(now);
        let Some(i) = self.live(exchange) else { return data.len() };
        if self.message.is_some_and(|p| p.slot == i) {
            // The decoder holds the event handed out; it must not move.
            return 0;
        }
        let capacity = self.slots[i].store.capacity();
        let slot = &mut self.slots[i];
        match slot.stage {
            Stage::Reading { mode: BodyMode::Json { len }, ended: None } => {
                let end = len + data.len();
                if end > capacity {
                    slot.stop_http();
                    slot.stage = Stage::Lost(LostReason::TooLarge { capacity });
                    return data.len();
                }
                slot.store.raw()[len..end].copy_from_slice(data);
                slot.stage = Stage::Reading { mode: BodyMode::Json { len: end }, ended: None };
                data.len()
            }
            Stage::Reading { mode: BodyMode::Sse, ended: None } => {
                slot.store.sse().map_or(data.len(), |d| d.feed(data))
            }
            _ => data.len(),
        }
    }

    /// The response of `exchange` ended normally.
    pub fn handle_end(&mut self, now: Instant, exchange: ExchangeId) {
        self.ended(now, exchange, Ending::Complete);
    }

    /// The connection of `exchange` failed (before or during the response).
    pub fn handle_failure(&mut self, now: Instant, exchange: ExchangeId, failure: Failure) {
        self.ended(now, exchange, Ending::Failed(failure));
    }

    fn ended(&mut self, now: Instant, exchange: ExchangeId, ending: Ending) {
        self.advance(now);
        let Some(i) = self.live(exchange) else { return };
        let slot = &mut self.slots[i];
        slot.live = false;
        match slot.stage {
            Stage::Reading { mode, ended: None } => slot.stage = Stage::Reading { mode, ended: Some(ending) },
            Stage::Sent => {
                let failure = match ending {
                    Ending::Failed(f) => f,
                    // A response that ended before its head is a broken connection.
                    Ending::Complete => Failure::Broken,
                };
                match slot.kind {
                    ExchangeKind::Stream | ExchangeKind::Resume => self.reconnect(i),
                    ExchangeKind::LegacyStream => self.legacy_failed(LostReason::Transport(failure)),
                    ExchangeKind::Delete => self.closed(i),
                    ExchangeKind::Post | ExchangeKind::LegacyPost => {
                        slot.stage = Stage::Lost(LostReason::Transport(failure));
                    }
                }
            }
            _ => {}
        }
    }

    /// Time has passed: reconnections that are due go out at the next poll. Safe to
    /// call at any time, any number of times.
    pub fn handle_timeout(&mut self, now: Instant) {
        self.advance(now);
        let now = self.now;
        for slot in &mut self.slots {
            if let Stage::Waiting { at } = slot.stage
                && at <= now
            {
                slot.stage = Stage::Queued;
            }
        }
    }

    // ---- shared steps -------------------------------------------------------------

    /// A stream (the standalone one, or a request's response) broke: reconnect after
    /// the delay, as a resumption for a request's stream, or give up once the attempts
    /// in a row that brought nothing are used up (or there is nothing to resume from).
    pub(crate) fn reconnect(&mut self, i: usize) {
        let policy = self.config.reconnect;
        let slot = &mut self.slots[i];
        slot.stop_http();
        if slot.fruitful {
            slot.attempts = 0;
        }
        let decoder = slot.store.sse_ref();
        let retry = decoder.and_then(|d| d.retry());
        let resumable = decoder
            .is_some_and(|d| crate::http::headers::last_event_id(d.last_event_id()).is_ok_and(|id| !id.is_empty()));
        let request_stream = matches!(slot.kind, ExchangeKind::Post | ExchangeKind::Resume);
        if request_stream && !resumable {
            slot.stage = Stage::Lost(LostReason::StreamEnded);
            return;
        }
        if slot.attempts >= policy.max_attempts {
            match slot.kind {
                ExchangeKind::Stream => self.standalone_off(i, None),
                _ => slot.stage = Stage::Lost(LostReason::ReconnectsExhausted),
            }
            return;
        }
        slot.attempts += 1;
        let attempt = slot.attempts;
        let at = self.now + decide::reconnect_delay(&policy, retry, attempt);
        if request_stream {
            // Resumed with a GET: the POST body (already overwritten by the stream) is done.
            slot.kind = ExchangeKind::Resume;
            slot.body_len = 0;
        }
        slot.stage = Stage::Waiting { at };
        let exchange = slot.next_id();
        self.queue(Queued::Reconnecting { exchange, attempt, at });
    }

    /// Slot `i`'s exchange failed for good: a message is reported lost, the standalone
    /// stream unavailable (with `status`, if one was the reason), the HTTP+SSE stream
    /// takes the held `initialize` with it.
    pub(crate) fn fail(&mut self, i: usize, reason: LostReason, status: Option<u16>) {
        match self.slots[i].kind {
            ExchangeKind::Stream => self.standalone_off(i, status),
            ExchangeKind::LegacyStream => self.legacy_failed(reason),
            _ => {
                let slot = &mut self.slots[i];
                slot.stop_http();
                slot.stage = Stage::Lost(reason);
            }
        }
    }

    /// The standalone stream is not to be had.
    pub(crate) fn standalone_off(&mut self, i: usize, status: Option<u16>) {
        self.slots[i].clear();
        self.standalone = Standalone::Off;
        self.queue(Queued::StandaloneUnavailable(status));
    }

    /// The HTTP+SSE stream could not be opened or gave no usable endpoint: the held
    /// `initialize` is lost.
    pub(crate) fn legacy_failed(&mut self, reason: LostReason) {
        if let Legacy::Connecting(s) | Legacy::Ready(s) = self.legacy {
            self.slots[s].clear();
        }
        self.legacy = Legacy::None;
        self.text.clear_endpoint_url();
        for slot in &mut self.slots {
            if matches!(slot.stage, Stage::Held) {
                slot.stage = Stage::Lost(reason);
            }
        }
    }

    /// The `DELETE` is done, whatever its answer.
    pub(crate) fn closed(&mut self, i: usize) {
        self.slots[i].clear();
        if self.phase == Phase::Closing {
            self.phase = Phase::Closed;
            self.queue(Queued::Closed);
        }
    }

    /// The HTTP+SSE stream ended.
    pub(crate) fn legacy_stream_ended(&mut self, i: usize) {
        match self.legacy {
            Legacy::Ready(s) if s == i => self.expire(Expiry::StreamClosed),
            _ => {
                let exchange = self.slots[i].id;
                self.queue(Queued::Misbehavior { exchange, what: HttpMisbehavior::NoEndpointEvent });
                self.legacy_failed(LostReason::NoEndpoint);
            }
        }
    }

    /// A message answering `initialize` was seen.
    pub(crate) fn on_initialize_answer(
        &mut self,
        kind: ExchangeKind,
        success: bool,
        version: Option<crate::ProtocolVersion>,
    ) {
        self.init = None;
        if success {
            self.version = version;
            self.session_tentative = false;
            self.transport =
                Some(if kind == ExchangeKind::LegacyStream { Transport::Legacy } else { Transport::Streamable });
            self.queue(Queued::Connected);
        } else if self.session_tentative {
            self.session_tentative = false;
            self.text.clear_session_id();
        }
    }
}
