//! A job's questions in the stateless era (2026-07-28): `input_required` rounds.
//!
//! A stateless call cannot be asked a question of the server's own, so the toolkit runs
//! the job's [`ask`](super::Job::ask)s as rounds: its `i`-th question goes under the key
//! `q{i}`; the first one the call does not answer ends the call with an
//! `input_required` result asking it, and the job is stopped, its output dropped. The
//! client answers and calls again; the job runs again from the start, and each question
//! it asks is answered in order: those of earlier rounds from the `requestState`, the
//! last one from the retry's `inputResponses`.
//!
//! Nothing is kept on the server between rounds: the answers so far travel in the
//! `requestState`, sealed with [`StateSealer`] and bound to the tool, the call's
//! arguments (their JSON text, as sent) and an expiry, so a state that was tampered
//! with, or is presented on another call, is refused (-32602). The round is the number
//! of answers the state carries, signed with them. A state replayed on the same call
//! before it expires opens (a stateless server cannot tell), which only lets the client
//! answer the same questions again.

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use core::time::Duration;

use super::input::Input;
use crate::mcp::{CapabilitySet, InputAnswers, InputKind, InputRequest, InputRequiredResult, Method};
use crate::session::{IncomingRequest, SendError, StateBinding, StateError, StateSealer};
use crate::time::Instant;
use crate::toolkit::client::{Answer, ClientError};
use crate::wire::{ErrorCode, JsonStr, RawJson};

/// How long a round's `requestState` stays good.
pub(crate) const STATE_TTL: Duration = Duration::from_secs(600);

/// What a job of a stateless call knows of its rounds.
pub(crate) struct Round {
    sealer: StateSealer,
    /// The tool called.
    tool: String,
    /// The call's `arguments`, as sent: the state is bound to them.
    arguments: Vec<u8>,
    /// When the state this round issues expires.
    expires: Instant,
    /// What the client declared for this call: nothing else is asked.
    declared: CapabilitySet,
    /// The answers to the job's questions, in order (JSON text each): those the state
    /// carried, then the one of this retry's `inputResponses`.
    answers: Vec<Vec<u8>>,
    /// The retry's `inputResponses` (JSON text of an object), if any.
    responses: Option<Vec<u8>>,
    /// The questions the job asked so far in this run.
    asked: usize,
}

/// What a question comes to.
pub(crate) enum Asked {
    /// Answered already (by an earlier round or this retry).
    Answer(Answer),
    /// Not answered: the call's answer is this `input_required` result (JSON text).
    EndRound(Vec<u8>),
    /// Not to be asked (a capability the client did not declare, params that are no
    /// such request).
    Refused(ClientError),
}

/// Why a retry is refused before the job runs: answer it with this error.
pub(crate) type Refusal = (ErrorCode, &'static str);

impl Round {
    /// The round of `request` (a `tools/call` with these `arguments`), `None` for a call
    /// of a handshake session; a retry's `requestState` is opened and checked here.
    pub(crate) fn of(
        request: &IncomingRequest<'_>,
        arguments: RawJson<'_>,
        sealer: StateSealer,
        now: Instant,
    ) -> Result<Option<Round>, Refusal> {
        let Some(modern) = request.modern() else { return Ok(None) };
        let params = request.params.unwrap_or(RawJson::EMPTY_OBJECT);
        let tool: String = params.get("name").and_then(|n| n.as_str()).map(|n| n.chars().collect()).unwrap_or_default();
        let mut round = Round {
            sealer,
            tool,
            arguments: arguments.as_bytes().to_vec(),
            expires: now + STATE_TTL,
            declared: modern.client_capabilities,
            answers: Vec::new(),
            responses: None,
            asked: 0,
        };
        if let Some(responses) = params.get("inputResponses") {
            if !responses.is_object() {
                return Err((ErrorCode::INVALID_PARAMS, "Invalid params: inputResponses must be an object"));
            }
            round.responses = Some(responses.as_bytes().to_vec());
        }
        if let Some(state) = params.get("requestState") {
            let refused = |e: StateError| (e.code(), e.message());
            let state = state.as_str().ok_or(refused(StateError::Invalid))?;
            let mut out = vec![0u8; state.raw().len()];
            let payload = round.sealer.open(&round.binding(), state, now, &mut out).map_err(refused)?;
            // Written by `end_round`: `{"q0":…,"q1":…}`, signed.
            let answers = RawJson::parse(payload).map_err(|_| refused(StateError::Invalid))?;
            while let Some(answer) = answers.get(&key(round.answers.len())) {
                round.answers.push(answer.as_bytes().to_vec());
            }
        }
        Ok(Some(round))
    }

    fn binding(&self) -> StateBinding<'_> {
        // No input request keys: which round it is travels signed in the payload (the
        // number of answers), so it is known only once the state is open.
        StateBinding::new(Method::ToolsCall, &self.tool, &[]).with_params(&self.arguments)
    }

    /// The job's next question: `input` with `params` (JSON text).
    pub(crate) fn ask(&mut self, input: Input, params: &[u8]) -> Asked {
        let i = self.asked;
        self.asked += 1;
        if let Some(answer) = self.answers.get(i) {
            return Asked::Answer(Answer::new(RawJson::from_validated(answer)));
        }
        let request = format!("{{\"method\":\"{}\",\"params\":{}}}", input.method(), String::from_utf8_lossy(params));
        // `params` is JSON text (the job serialized it), so this parses; whether it is
        // the request `input` names is for the decoder to say.
        let Ok(request) = RawJson::parse(request.as_bytes()) else {
            return Asked::Refused(ClientError::Cancelled);
        };
        let asked = match request.decode::<InputRequest<'_>>() {
            Ok(asked) => asked,
            Err(e) => return Asked::Refused(ClientError::Decode(e)),
        };
        if let Some(needs) = asked.needs()
            && !self.declared.contains(needs)
        {
            return Asked::Refused(ClientError::Send(SendError::CapabilityNotDeclared(needs)));
        }
        let key = key(i);
        let kind = match input {
            Input::Sampling => InputKind::Sampling,
            Input::Elicitation => InputKind::Elicitation,
            Input::Roots => InputKind::Roots,
        };
        let responses = self.responses.as_deref().map(RawJson::from_validated);
        // Only the question of the round the state ended with is answered by this retry.
        if i == self.answers.len()
            && InputAnswers::check(responses, &[(key.as_str(), kind)]).is_ok()
            && let Some(answer) = responses.and_then(|r| r.get(&key))
        {
            self.answers.push(answer.as_bytes().to_vec());
            return Asked::Answer(Answer::new(answer));
        }
        self.end_round(&key, asked)
    }

    /// The `input_required` result asking `asked` under `key`, with the answers so far
    /// sealed in its state.
    fn end_round(&self, key: &str, asked: InputRequest<'_>) -> Asked {
        let mut payload = Vec::from(&b"{"[..]);
        for (i, answer) in self.answers.iter().enumerate() {
            if i > 0 {
                payload.push(b',');
            }
            payload.extend_from_slice(format!("\"{}\":", self::key(i)).as_bytes());
            payload.extend_from_slice(answer);
        }
        payload.push(b'}');
        let mut sealed = vec![0u8; StateSealer::sealed_len(payload.len())];
        let Ok(state) = self.sealer.seal(&self.binding(), &payload, self.expires, &mut sealed) else {
            return Asked::Refused(ClientError::Cancelled);
        };
        let requests = [(JsonStr::from_text(key), asked)];
        let result = InputRequiredResult::new(&requests, Some(JsonStr::from_text(state)));
        match super::owned::to_json(&result) {
            Some(json) => Asked::EndRound(json),
            None => Asked::Refused(ClientError::Cancelled),
        }
    }
}

/// The `inputRequests` key of the `i`-th question.
fn key(i: usize) -> String {
    format!("q{i}")
}
