//! Classifying a frame as a JSON-RPC request, notification, result or error, as MCP
//! restricts JSON-RPC 2.0.
//!
//! One pass over the frame validates all of it and records where the envelope members are.
//! Nothing below the envelope is decoded: `params`, `result` and `error.data` come back as
//! [`RawJson`] spans, decoded later by whoever knows what they should contain.
//!
//! The rules, each named by a [`Rule`] when broken:
//! * the frame is one JSON object (or, only where the caller allows it, a non-empty batch
//!   array of them);
//! * `jsonrpc` is exactly the string `"2.0"`;
//! * no envelope member (`jsonrpc`, `id`, `method`, `params`, `result`, `error`) appears
//!   twice; other members are ignored;
//! * a request id is a string or an integer, never `null` or a fraction;
//! * `method` is a string, compared after unescaping; `params`, when present, is an object;
//! * a response has exactly one of `result` (an object) and `error`
//!   (`{code: integer, message: string, data?}`), and no `method`;
//! * an error response may have a `null` or no id: it is accepted and reported as
//!   uncorrelated.

use core::fmt;

use super::codes::ErrorCode;
use super::find;
use super::id::RequestIdRef;
use super::navigate::{Elements, Members};
use super::note::MetaNote;
use super::raw::RawJson;
use super::scan::{DEFAULT_MAX_DEPTH, MAX_DEPTH_LIMIT, ScanError, ScanErrorKind, Scanner, StrSpan};
use super::spans::{MemberSpans, Table};
use super::string::JsonStr;
use super::walk;

/// How frames are parsed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ParseOptions {
    /// Nesting cap for the whole frame, the envelope object included.
    pub max_depth: u16,
    /// Whether a JSON array frame is a batch. Protocol 2025-03-26 requires accepting
    /// batches; every other version forbids them, and then an array is an invalid request.
    pub allow_batch: bool,
}

impl Default for ParseOptions {
    fn default() -> Self {
        Self { max_depth: DEFAULT_MAX_DEPTH, allow_batch: false }
    }
}

/// The envelope members MCP's JSON-RPC defines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Member {
    /// `jsonrpc`
    Jsonrpc,
    /// `id`
    Id,
    /// `method`
    Method,
    /// `params`
    Params,
    /// `result`
    Result,
    /// `error`
    Error,
}

impl Member {
    const ALL: [(Member, &'static str); 6] = [
        (Member::Jsonrpc, "jsonrpc"),
        (Member::Id, "id"),
        (Member::Method, "method"),
        (Member::Params, "params"),
        (Member::Result, "result"),
        (Member::Error, "error"),
    ];

    /// The member named `name`. Generic over the recorder of the `parse_object` that
    /// calls it (and unused): one instance per `parse_object` instance, each with a
    /// single caller, so that each is inlined as when there was one `parse_object`.
    #[allow(clippy::extra_unused_type_parameters)] // it is there to make instances
    fn of<R>(name: JsonStr<'_>) -> Option<Member> {
        if !name.is_escaped() && find::COMPACT {
            // The table, compared with memcmp: smaller code.
            return Member::ALL.iter().find(|(_, n)| n.as_bytes() == name.raw()).map(|(m, _)| *m);
        }
        if !name.is_escaped() {
            // Byte by byte, so that no call to memcmp is made for these short names.
            return match name.raw() {
                [b'j', b's', b'o', b'n', b'r', b'p', b'c'] => Some(Member::Jsonrpc),
                [b'i', b'd'] => Some(Member::Id),
                [b'm', b'e', b't', b'h', b'o', b'd'] => Some(Member::Method),
                [b'p', b'a', b'r', b'a', b'm', b's'] => Some(Member::Params),
                [b'r', b'e', b's', b'u', b'l', b't'] => Some(Member::Result),
                [b'e', b'r', b'r', b'o', b'r'] => Some(Member::Error),
                _ => None,
            };
        }
        Member::ALL.iter().find(|(_, n)| name.eq_str(n)).map(|(m, _)| *m)
    }

    /// The member's name on the wire.
    pub fn name(self) -> &'static str {
        Member::ALL.iter().find(|(m, _)| *m == self).map_or("", |(_, n)| n)
    }
}

/// The rule a frame broke.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum Rule {
    /// Not valid JSON (maps to -32700).
    Json(ScanError),
    /// Valid JSON, but not an object.
    NotAnObject,
    /// An array frame where batches are not allowed.
    BatchNotAllowed,
    /// An empty batch `[]`.
    EmptyBatch,
    /// No `jsonrpc` member.
    MissingJsonrpc,
    /// `jsonrpc` is not the string `"2.0"`.
    WrongJsonrpcVersion,
    /// An envelope member appears more than once.
    DuplicateMember(Member),
    /// A request's `id` is `null`, which MCP forbids.
    NullRequestId,
    /// `id` is neither a string nor an integer (a fraction, a boolean, an object…).
    InvalidId,
    /// `method` is not a string.
    MethodNotString,
    /// `params` is present but not an object.
    ParamsNotObject,
    /// `result` is not an object.
    ResultNotObject,
    /// Both `result` and `error`.
    ResultAndError,
    /// `method` together with `result` or `error`.
    MethodInResponse,
    /// A result response without a usable `id`.
    ResultWithoutId,
    /// None of `method`, `result` or `error`.
    NotAMessage,
    /// `error` is not an object.
    ErrorNotObject,
    /// `error.code` is missing.
    MissingErrorCode,
    /// `error.code` is not an integer in the 32-bit range.
    InvalidErrorCode,
    /// `error.message` is missing.
    MissingErrorMessage,
    /// `error.message` is not a string.
    ErrorMessageNotString,
    /// A member of the error object appears more than once.
    DuplicateErrorMember,
}

impl Rule {
    /// The JSON-RPC error code a reply to this frame should carry.
    pub fn code(self) -> ErrorCode {
        match self {
            Rule::Json(_) => ErrorCode::PARSE_ERROR,
            _ => ErrorCode::INVALID_REQUEST,
        }
    }

    /// A one-sentence description, suitable as the `message` of the error reply.
    pub fn describe(self) -> &'static str {
        match self {
            Rule::Json(e) => e.kind.describe(),
            Rule::NotAnObject => "message is not a JSON object",
            Rule::BatchNotAllowed => "JSON-RPC batches are not allowed in this protocol version",
            Rule::EmptyBatch => "empty batch",
            Rule::MissingJsonrpc => "missing \"jsonrpc\" member",
            Rule::WrongJsonrpcVersion => "\"jsonrpc\" must be \"2.0\"",
            Rule::DuplicateMember(_) => "duplicate envelope member",
            Rule::NullRequestId => "request id must not be null",
            Rule::InvalidId => "id must be a string or an integer",
            Rule::MethodNotString => "\"method\" must be a string",
            Rule::ParamsNotObject => "\"params\" must be an object",
            Rule::ResultNotObject => "\"result\" must be an object",
            Rule::ResultAndError => "response has both \"result\" and \"error\"",
            Rule::MethodInResponse => "\"method\" together with \"result\" or \"error\"",
            Rule::ResultWithoutId => "result response without a valid id",
            Rule::NotAMessage => "no \"method\", \"result\" or \"error\" member",
            Rule::ErrorNotObject => "\"error\" must be an object",
            Rule::MissingErrorCode => "error object without \"code\"",
            Rule::InvalidErrorCode => "error \"code\" must be a 32-bit integer",
            Rule::MissingErrorMessage => "error object without \"message\"",
            Rule::ErrorMessageNotString => "error \"message\" must be a string",
            Rule::DuplicateErrorMember => "duplicate member in error object",
        }
    }
}

/// What a rejected frame looked like, which decides whether it deserves a reply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Shape {
    /// Had `method` and `id`: a broken request.
    Request,
    /// Had `method` and no `id`: a broken notification.
    Notification,
    /// Had `result` or `error`: a broken response.
    Response,
    /// Not JSON, not an object, or none of the above.
    Unknown,
}

/// A frame that is not a valid MCP JSON-RPC message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct EnvelopeError<'a> {
    /// The rule that broke (the first one, in frame order, for structural rules).
    pub rule: Rule,
    /// The request id, when the frame had one that could be read.
    pub id: Option<RequestIdRef<'a>>,
    /// What the frame looked like.
    pub shape: Shape,
}

impl EnvelopeError<'_> {
    /// -32700 for invalid JSON, -32600 otherwise.
    pub fn code(&self) -> ErrorCode {
        self.rule.code()
    }

    /// Whether JSON-RPC calls for an error reply: yes for broken requests and for frames
    /// whose kind cannot be told; no for broken notifications (never answered) and broken
    /// responses (answering those can start an endless error exchange).
    pub fn should_reply(&self) -> bool {
        matches!(self.shape, Shape::Request | Shape::Unknown)
    }
}

impl fmt::Display for EnvelopeError<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.rule {
            Rule::Json(e) => write!(f, "{e}"),
            Rule::DuplicateMember(m) => write!(f, "invalid JSON-RPC message: duplicate \"{}\" member", m.name()),
            rule => write!(f, "invalid JSON-RPC message: {}", rule.describe()),
        }?;
        if let Some(id) = self.id {
            write!(f, " (id {id})")?;
        }
        Ok(())
    }
}

impl core::error::Error for EnvelopeError<'_> {}

/// A request: it expects exactly one response.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Request<'a> {
    /// The id the response must echo.
    pub id: RequestIdRef<'a>,
    /// The method name, as sent (compare with [`JsonStr::eq_str`]).
    pub method: JsonStr<'a>,
    /// The params object, if present.
    pub params: Option<RawJson<'a>>,
}

/// A notification: no response, ever.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Notification<'a> {
    /// The method name.
    pub method: JsonStr<'a>,
    /// The params object, if present.
    pub params: Option<RawJson<'a>>,
}

/// A successful response.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Response<'a> {
    /// The id of the request this answers.
    pub id: RequestIdRef<'a>,
    /// The result object, undecoded: decode it knowing which request it answers.
    pub result: RawJson<'a>,
}

/// The `error` member of an error response.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ErrorObject<'a> {
    /// The error code.
    pub code: ErrorCode,
    /// The message.
    pub message: JsonStr<'a>,
    /// Extra information, if present.
    pub data: Option<RawJson<'a>>,
}

/// An error response.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ErrorResponse<'a> {
    /// The id of the failed request; `None` when the peer sent `null` or no id (it could
    /// not read ours), which makes the error uncorrelated.
    pub id: Option<RequestIdRef<'a>>,
    /// The error.
    pub error: ErrorObject<'a>,
}

/// The four kinds of JSON-RPC message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum MessageKind {
    /// Has `method` and `id`.
    Request,
    /// Has `method`, no `id`.
    Notification,
    /// Has `result`.
    Response,
    /// Has `error`.
    Error,
}

/// One valid JSON-RPC message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Message<'a> {
    /// A request.
    Request(Request<'a>),
    /// A notification.
    Notification(Notification<'a>),
    /// A successful response.
    Response(Response<'a>),
    /// An error response.
    Error(ErrorResponse<'a>),
}

impl<'a> Message<'a> {
    /// Parses a frame that must hold exactly one message (no batch).
    ///
    /// ```
    /// use mcp_sansio::wire::{Message, Rule};
    /// let msg = Message::parse(br#"{"jsonrpc":"2.0","id":7,"method":"tools\/call","params":{}}"#).unwrap();
    /// let Message::Request(req) = msg else { panic!() };
    /// assert!(req.method.eq_str("tools/call"));
    /// assert_eq!(req.id.as_i64(), Some(7));
    ///
    /// let err = Message::parse(br#"{"jsonrpc":"2.0","id":"x","method":"m","params":[1]}"#).unwrap_err();
    /// assert_eq!((err.rule, err.code().0), (Rule::ParamsNotObject, -32600));
    /// assert_eq!(err.id.unwrap().as_token(), br#""x""#);
    /// ```
    pub fn parse(frame: &'a [u8]) -> Result<Self, EnvelopeError<'a>> {
        Self::parse_with(frame, &ParseOptions::default())
    }

    /// [`parse`](Self::parse) with options; a batch is refused whatever `allow_batch` says.
    pub fn parse_with(frame: &'a [u8], options: &ParseOptions) -> Result<Self, EnvelopeError<'a>> {
        // An object, as nearly every frame is: classified as `Frame::parse` would, without
        // building a `Frame` to take the message back out of. (Not in the compact build,
        // where a second call site of `parse_object` costs more code than it saves time.)
        if !find::COMPACT && frame.get(super::navigate::skip_ws(frame, 0)) == Some(&b'{') {
            return parse_object(frame, options.max_depth.min(MAX_DEPTH_LIMIT), NoRecord);
        }
        match Frame::parse(frame, &ParseOptions { allow_batch: false, ..*options })? {
            Frame::Single(m) => Ok(m),
            // Unreachable with allow_batch off; answer as the refusal would.
            Frame::Batch(_) => Err(unknown(Rule::BatchNotAllowed)),
        }
    }

    /// [`parse`](Self::parse), recording in `spans` where the top-level members of the
    /// message's `params` (requests, notifications) or `result` (responses) are, so that
    /// decoding them by method does not walk them again: pass the table to
    /// [`mcp::decode_request_with_spans`](crate::mcp::decode_request_with_spans),
    /// [`decode_notification_with_spans`](crate::mcp::decode_notification_with_spans) or
    /// [`decode_result_with_spans`](crate::mcp::decode_result_with_spans).
    ///
    /// The answer is exactly [`parse`](Self::parse)'s, message or error. Use it when the
    /// params or result will be decoded as a whole; a caller that only routes or forwards
    /// messages, or reads a member or two (see [`RawJson::get`], `mcp::Lazy`), is better
    /// served by [`parse`](Self::parse), which records nothing. The table is started afresh;
    /// it holds nothing useful after an error, for a batch, or when the message has no
    /// object to record.
    ///
    /// ```
    /// use mcp_sansio::mcp::{AnyRequest, Method, decode_request_with_spans};
    /// use mcp_sansio::wire::{MemberSpans, Message};
    ///
    /// let frame = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":2}}}"#;
    /// let mut spans = MemberSpans::<16>::new();
    /// let Message::Request(req) = Message::parse_with_spans(frame, &mut spans).unwrap() else { panic!() };
    /// let params = decode_request_with_spans(Method::parse(req.method), req.params, &spans).unwrap();
    /// let AnyRequest::CallTool(call) = params else { panic!() };
    /// assert_eq!(call.name, "add");
    /// ```
    pub fn parse_with_spans<const N: usize>(
        frame: &'a [u8],
        spans: &mut MemberSpans<'a, N>,
    ) -> Result<Self, EnvelopeError<'a>> {
        parse_recording(frame, spans.table())
    }

    /// Which of the four kinds this is.
    pub fn kind(&self) -> MessageKind {
        match self {
            Message::Request(_) => MessageKind::Request,
            Message::Notification(_) => MessageKind::Notification,
            Message::Response(_) => MessageKind::Response,
            Message::Error(_) => MessageKind::Error,
        }
    }

    /// The id, for requests and correlated responses.
    pub fn id(&self) -> Option<RequestIdRef<'a>> {
        match self {
            Message::Request(r) => Some(r.id),
            Message::Response(r) => Some(r.id),
            Message::Error(e) => e.id,
            Message::Notification(_) => None,
        }
    }

    /// The method, for requests and notifications.
    pub fn method(&self) -> Option<JsonStr<'a>> {
        match self {
            Message::Request(r) => Some(r.method),
            Message::Notification(n) => Some(n.method),
            _ => None,
        }
    }
}

/// A whole frame: one message, or a batch of them where batches are allowed.
#[derive(Clone, Copy, Debug)]
pub enum Frame<'a> {
    /// One message.
    Single(Message<'a>),
    /// A non-empty JSON-RPC batch (protocol 2025-03-26 only).
    Batch(Batch<'a>),
}

impl<'a> Frame<'a> {
    /// Validates and classifies a frame.
    pub fn parse(frame: &'a [u8], options: &ParseOptions) -> Result<Self, EnvelopeError<'a>> {
        let depth = options.max_depth.min(MAX_DEPTH_LIMIT);
        let mut s = Scanner::new(frame);
        s.skip_ws();
        match s.peek() {
            Some(b'{') => parse_object(frame, depth, NoRecord).map(Frame::Single),
            Some(b'[') => {
                let (start, end) = s.document(depth).map_err(json_error)?;
                let array = &frame[start..end];
                if !options.allow_batch {
                    return Err(unknown(Rule::BatchNotAllowed));
                }
                if Elements::new(array).next().is_none() {
                    return Err(unknown(Rule::EmptyBatch));
                }
                Ok(Frame::Batch(Batch { array, element_depth: depth.saturating_sub(1) }))
            }
            _ => {
                s.document(depth).map_err(json_error)?;
                Err(unknown(Rule::NotAnObject))
            }
        }
    }
}

impl<'a> Frame<'a> {
    /// [`parse`](Self::parse), noting in `note` where a message's `params._meta` and its
    /// reserved members are (see [`MetaNote`]): the same answer, message or error. The
    /// note is started afresh; it holds nothing after an error or for a batch.
    pub(crate) fn parse_noting(
        frame: &'a [u8],
        options: &ParseOptions,
        note: &mut MetaNote,
    ) -> Result<Self, EnvelopeError<'a>> {
        *note = MetaNote::UNKNOWN;
        if frame.get(super::navigate::skip_ws(frame, 0)) == Some(&b'{') {
            match parse_object(frame, options.max_depth.min(MAX_DEPTH_LIMIT), &mut *note) {
                Ok(message) => return Ok(Frame::Single(message)),
                // Broken: the plain parse says why, exactly as it always does.
                Err(_) => *note = MetaNote::UNKNOWN,
            }
        }
        Self::parse(frame, options)
    }
}

/// A batch whose JSON is valid; each element is classified as it is iterated.
#[derive(Clone, Copy)]
pub struct Batch<'a> {
    array: &'a [u8],
    element_depth: u16,
}

impl<'a> Batch<'a> {
    /// The elements, each a message or the rule it broke.
    pub fn iter(&self) -> BatchIter<'a> {
        BatchIter { array: self.array, inner: Elements::new(self.array), depth: self.element_depth }
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        Elements::new(self.array).count()
    }

    /// Always false: empty batches are rejected by [`Frame::parse`].
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The batch's JSON text.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.array
    }
}

impl fmt::Debug for Batch<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for Batch<'a> {
    type Item = Result<Message<'a>, EnvelopeError<'a>>;
    type IntoIter = BatchIter<'a>;
    fn into_iter(self) -> BatchIter<'a> {
        self.iter()
    }
}

/// Iterator over the elements of a [`Batch`].
#[derive(Clone)]
pub struct BatchIter<'a> {
    array: &'a [u8],
    inner: Elements<'a>,
    depth: u16,
}

impl<'a> Iterator for BatchIter<'a> {
    type Item = Result<Message<'a>, EnvelopeError<'a>>;

    fn next(&mut self) -> Option<Self::Item> {
        let (start, end) = self.inner.next()?;
        let element = self.array.get(start..end)?;
        Some(if element.first() == Some(&b'{') {
            parse_object(element, self.depth, NoRecord)
        } else {
            Err(unknown(Rule::NotAnObject))
        })
    }
}

fn unknown<'a>(rule: Rule) -> EnvelopeError<'a> {
    EnvelopeError { rule, id: None, shape: Shape::Unknown }
}

fn json_error<'a>(e: ScanError) -> EnvelopeError<'a> {
    unknown(Rule::Json(e))
}

/// Where each envelope member's value is, and the first structural violation seen.
#[derive(Default)]
struct Seen {
    jsonrpc: Option<(usize, usize)>,
    /// The string `jsonrpc` holds, as the scanner found it (`None` if it is not a string).
    jsonrpc_str: Option<StrSpan>,
    id: Option<(usize, usize, Option<bool>)>,
    method: Option<(usize, usize)>,
    /// The string `method` holds, as the scanner found it (`None` if it is not a string).
    method_str: Option<StrSpan>,
    params: Option<(usize, usize)>,
    result: Option<(usize, usize)>,
    error: Option<(usize, usize)>,
    duplicate: Option<Member>,
}

/// What the envelope pass does with the members of `params` and `result`: nothing
/// ([`NoRecord`], plain [`Message::parse`]), or record them in a [`MemberSpans`]
/// ([`Message::parse_with_spans`]). A compile-time choice: `parse_object` is
/// monomorphised for each, so the plain parse is the code it was before recording existed.
///
/// (No method here is `#[inline]`: an inlinable method that calls the scanner would make
/// the scanner an exported symbol, called through the GOT from the plain parse too.)
pub(crate) trait Record<'a> {
    /// Whether anything is recorded; `false` removes the recording from `parse_object`.
    const ON: bool;

    /// Scans the object at `s.pos`, the value of `params` or `result`, with at most
    /// `limit` containers open in it (itself included), and records its members; returns
    /// its span.
    fn object(&mut self, s: &mut Scanner<'a>, limit: u16) -> Result<(usize, usize), ScanError>;
}

/// The plain parse: values are scanned, nothing is recorded. (Passed by value: no
/// argument at all.)
pub(crate) struct NoRecord;

impl<'a> Record<'a> for NoRecord {
    const ON: bool = false;

    /// Never called (`ON` is false); scans the object as any other value.
    fn object(&mut self, s: &mut Scanner<'a>, limit: u16) -> Result<(usize, usize), ScanError> {
        s.value(limit)
    }
}

impl<'a> Record<'a> for &mut MetaNote {
    const ON: bool = true;

    fn object(&mut self, s: &mut Scanner<'a>, limit: u16) -> Result<(usize, usize), ScanError> {
        super::note::note_object(s, self, limit)
    }
}

impl<'a> Record<'a> for &mut Table<'_, 'a> {
    const ON: bool = true;

    fn object(&mut self, s: &mut Scanner<'a>, limit: u16) -> Result<(usize, usize), ScanError> {
        record_object(s, self, limit)
    }
}

/// Scans the object at `s.pos` (with at most `limit` containers open in it, itself
/// included, `limit >= 2`) and records its top-level members in `spans`.
///
/// The grammar is `Scanner::value`'s for an object, member by member; any error is
/// reported again by the plain parse (see [`Message::parse_with_spans`]), so only what
/// this accepts must agree with it, not how it fails.
#[inline(never)]
fn record_object<'a>(s: &mut Scanner<'a>, spans: &mut Table<'_, 'a>, limit: u16) -> Result<(usize, usize), ScanError> {
    let start = s.pos;
    let frame = s.buf();
    spans.begin();
    walk::members(s, |s, name| {
        let value_start = s.pos;
        let text = match s.peek() {
            Some(b'"') => Some(s.string()?),
            _ => {
                s.value(limit - 1)?;
                None
            }
        };
        spans.member(start, name, (value_start, s.pos), text);
        Ok(())
    })?;
    spans.finish(frame.get(start..s.pos).unwrap_or_default());
    Ok((start, s.pos))
}

/// [`Message::parse_with_spans`] for a table of any capacity (see [`Table`]).
fn parse_recording<'a>(frame: &'a [u8], mut table: Table<'_, 'a>) -> Result<Message<'a>, EnvelopeError<'a>> {
    table.clear();
    if frame.get(super::navigate::skip_ws(frame, 0)) == Some(&b'{')
        && let Ok(message) = parse_object(frame, DEFAULT_MAX_DEPTH, &mut table)
    {
        return Ok(message);
    }
    // Not an object, or broken: the plain parse says why, exactly as it always does.
    table.clear();
    Message::parse(frame)
}

/// Parses one envelope object (the frame starts, after whitespace, with `{`), the
/// values of its members scanned (and, for `params` and `result`, recorded) by `record`.
fn parse_object<'a, R: Record<'a>>(
    frame: &'a [u8],
    max_depth: u16,
    mut record: R,
) -> Result<Message<'a>, EnvelopeError<'a>> {
    let mut s = Scanner::new(frame);
    s.skip_ws();
    if max_depth == 0 {
        return Err(json_error(ScanError { kind: ScanErrorKind::TooDeep, offset: s.pos }));
    }
    s.pos += 1; // the '{'
    let mut seen = Seen::default();
    s.skip_ws();
    if s.peek() == Some(b'}') {
        s.pos += 1;
    } else {
        loop {
            s.skip_ws();
            if s.peek() != Some(b'"') {
                return Err(json_error(scan_err(&s, frame, ScanErrorKind::ExpectedKey)));
            }
            let name = s.string().map_err(json_error)?;
            s.expect(b':', ScanErrorKind::ExpectedColon).map_err(json_error)?;
            s.skip_ws();
            let member = Member::of::<R>(JsonStr::from_span(frame, name));
            let integer = if member == Some(Member::Id) && matches!(s.peek(), Some(b'-' | b'0'..=b'9')) {
                let start = s.pos;
                let integer = s.number().map_err(json_error)?;
                Some((start, s.pos, Some(integer)))
            } else {
                None
            };
            let (start, end) = match (integer, member) {
                (Some((start, end, _)), _) => (start, end),
                // Keep the string's span (and whether it has escapes), so that it need not
                // be looked for again.
                // (With the compact searches, looked for again: less code, the strings are short.)
                (None, Some(m @ (Member::Jsonrpc | Member::Method))) if !find::COMPACT => {
                    let start = s.pos;
                    let text = match s.peek() {
                        Some(b'"') => Some(s.string().map_err(json_error)?),
                        _ => {
                            s.value(max_depth - 1).map_err(json_error)?;
                            None
                        }
                    };
                    *if m == Member::Method { &mut seen.method_str } else { &mut seen.jsonrpc_str } = text;
                    (start, s.pos)
                }
                (None, Some(Member::Params | Member::Result)) if R::ON && max_depth >= 3 && s.peek() == Some(b'{') => {
                    record.object(&mut s, max_depth - 1).map_err(json_error)?
                }
                (None, _) => s.value(max_depth - 1).map_err(json_error)?,
            };
            let span = Some((start, end));
            let slot = match member {
                Some(Member::Jsonrpc) => &mut seen.jsonrpc,
                Some(Member::Method) => &mut seen.method,
                Some(Member::Params) => &mut seen.params,
                Some(Member::Result) => &mut seen.result,
                Some(Member::Error) => &mut seen.error,
                Some(Member::Id) => {
                    if seen.id.is_some() {
                        seen.duplicate.get_or_insert(Member::Id);
                    }
                    seen.id = Some((start, end, integer.and_then(|(_, _, i)| i)));
                    &mut None
                }
                None => &mut None,
            };
            if let Some(m) = member.filter(|m| *m != Member::Id) {
                if slot.is_some() {
                    seen.duplicate.get_or_insert(m);
                }
                *slot = span;
            }
            s.skip_ws();
            match s.peek() {
                Some(b',') => {
                    s.pos += 1;
                    s.skip_ws();
                    if s.peek() == Some(b'}') {
                        return Err(json_error(scan_err(&s, frame, ScanErrorKind::TrailingComma)));
                    }
                }
                Some(b'}') => {
                    s.pos += 1;
                    break;
                }
                _ => return Err(json_error(scan_err(&s, frame, ScanErrorKind::ExpectedCommaOrEnd))),
            }
        }
    }
    s.finish().map_err(json_error)?;
    classify::<R>(frame, &seen)
}

fn scan_err(s: &Scanner<'_>, frame: &[u8], kind: ScanErrorKind) -> ScanError {
    let kind = if s.pos >= frame.len() { ScanErrorKind::UnexpectedEnd } else { kind };
    ScanError { kind, offset: s.pos }
}

/// What an `id` member holds.
enum IdValue<'a> {
    Valid(RequestIdRef<'a>),
    Null,
    Invalid,
}

/// (Generic over the recorder for one instance per `parse_object` instance: see
/// `Member::of`.)
fn classify<'a, R>(frame: &'a [u8], seen: &Seen) -> Result<Message<'a>, EnvelopeError<'a>> {
    let span = |(start, end): (usize, usize)| RawJson::from_validated(&frame[start..end]);
    let id = seen.id.map(|(start, end, integer)| match (frame[start], integer) {
        (b'"', _) | (_, Some(true)) => IdValue::Valid(RequestIdRef::from_validated(&frame[start..end])),
        (b'n', _) => IdValue::Null,
        _ => IdValue::Invalid,
    });
    let readable_id = match (&id, seen.duplicate) {
        (Some(IdValue::Valid(id)), d) if d != Some(Member::Id) => Some(*id),
        _ => None,
    };
    let shape = if seen.result.is_some() || seen.error.is_some() {
        Shape::Response
    } else if seen.method.is_some() {
        if seen.id.is_some() { Shape::Request } else { Shape::Notification }
    } else {
        Shape::Unknown
    };
    let fail = |rule| Err(EnvelopeError { rule, id: readable_id, shape });

    if let Some(m) = seen.duplicate {
        return fail(Rule::DuplicateMember(m));
    }
    let text = |span: StrSpan| JsonStr::from_span(frame, span);
    let (jsonrpc_str, method_str) = if find::COMPACT {
        let string = |at: Option<(usize, usize)>| at.map(span).and_then(|v| v.as_str());
        (string(seen.jsonrpc), string(seen.method))
    } else {
        (seen.jsonrpc_str.map(text), seen.method_str.map(text))
    };
    match (seen.jsonrpc, jsonrpc_str) {
        (None, _) => return fail(Rule::MissingJsonrpc),
        // Byte by byte for the usual unescaped form (no call); the compact build's one
        // comparison, which takes escapes too, is the smaller code.
        (Some(_), Some(v)) if !find::COMPACT && v.raw() == [b'2', b'.', b'0'] || v.eq_str("2.0") => {}
        (Some(_), _) => return fail(Rule::WrongJsonrpcVersion),
    }
    if seen.result.is_some() && seen.error.is_some() {
        return fail(Rule::ResultAndError);
    }
    if seen.method.is_some() {
        if seen.result.is_some() || seen.error.is_some() {
            return fail(Rule::MethodInResponse);
        }
        let Some(method) = method_str else { return fail(Rule::MethodNotString) };
        let params = seen.params.map(span);
        if params.is_some_and(|p| !p.is_object()) {
            return fail(Rule::ParamsNotObject);
        }
        return match id {
            None => Ok(Message::Notification(Notification { method, params })),
            Some(IdValue::Valid(id)) => Ok(Message::Request(Request { id, method, params })),
            Some(IdValue::Null) => fail(Rule::NullRequestId),
            Some(IdValue::Invalid) => fail(Rule::InvalidId),
        };
    }
    if let Some(result) = seen.result.map(span) {
        let id = match id {
            Some(IdValue::Valid(id)) => id,
            Some(IdValue::Invalid) => return fail(Rule::InvalidId),
            None | Some(IdValue::Null) => return fail(Rule::ResultWithoutId),
        };
        if !result.is_object() {
            return fail(Rule::ResultNotObject);
        }
        return Ok(Message::Response(Response { id, result }));
    }
    if let Some(error) = seen.error.map(span) {
        let id = match id {
            Some(IdValue::Valid(id)) => Some(id),
            Some(IdValue::Invalid) => return fail(Rule::InvalidId),
            None | Some(IdValue::Null) => None,
        };
        return match error_object::<R>(error) {
            Ok(error) => Ok(Message::Error(ErrorResponse { id, error })),
            Err(rule) => fail(rule),
        };
    }
    fail(Rule::NotAMessage)
}

/// (Generic over the recorder: see `Member::of`.)
#[allow(clippy::extra_unused_type_parameters)] // it is there to make instances
fn error_object<R>(error: RawJson<'_>) -> Result<ErrorObject<'_>, Rule> {
    if !error.is_object() {
        return Err(Rule::ErrorNotObject);
    }
    let bytes = error.as_bytes();
    let (mut code, mut message, mut data) = (None, None, None);
    for (name, start, end) in Members::new(bytes) {
        let name = JsonStr::from_span(bytes, name);
        let value = RawJson::from_validated(&bytes[start..end]);
        let slot = if name.eq_str("code") {
            &mut code
        } else if name.eq_str("message") {
            &mut message
        } else if name.eq_str("data") {
            &mut data
        } else {
            continue;
        };
        if slot.replace(value).is_some() {
            return Err(Rule::DuplicateErrorMember);
        }
    }
    let code = code.ok_or(Rule::MissingErrorCode)?;
    let code = code.as_i64().and_then(|c| i32::try_from(c).ok()).ok_or(Rule::InvalidErrorCode)?;
    let message = message.ok_or(Rule::MissingErrorMessage)?;
    let message = message.as_str().ok_or(Rule::ErrorMessageNotString)?;
    Ok(ErrorObject { code: ErrorCode(code), message, data })
}
