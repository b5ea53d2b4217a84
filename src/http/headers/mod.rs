//! Header values: parsed without allocation, borrowed from the value, checked whole.
//!
//! Every parser takes one field value (the bytes after `Name:`, as an HTTP parser such as
//! `httparse` hands them over) and either accepts all of it or returns a
//! [`HeaderError`] with the offset where it broke: a value is never half understood.
//! Leading and trailing spaces and tabs are ignored. Nothing is copied: strings borrow
//! the value, quoted strings are unescaped on demand ([`ParamValue`]).
//!
//! | header | read with | what MCP needs of it |
//! |---|---|---|
//! | `Accept` | [`Accept`] | POST must allow `application/json` and `text/event-stream`, GET the latter ([`Accept::allows_json_and_event_stream`], [`Accept::allows`]) |
//! | `Content-Type` | [`MediaType`] | `application/json` on POST bodies; `text/event-stream` or JSON on responses |
//! | `WWW-Authenticate` | [`WwwAuthenticate`], [`write_challenge`] | the Bearer challenge of a 401 or 403: `resource_metadata`, `scope`, `error`, `error_description` |
//! | `Mcp-Session-Id` | [`session_id`] | visible ASCII, at most [`SESSION_ID_MAX_LEN`] bytes |
//! | `MCP-Protocol-Version` | [`protocol_version`] | one of the published versions |
//! | `Last-Event-ID` | [`last_event_id`] | the event a resumed stream continues after |
//! | `Origin`, `Host` | [`Origin`], [`HostPort`] | DNS rebinding protection: allowed origins, loopback hosts |
//! | `Mcp-Param-*`, `Mcp-Name` | [`decode_param_value`], [`encode_param_value`] | 2026-07-28's `=?base64?…?=` sentinel |
//! | `Mcp-Param-*` names | [`check_param_annotations`], [`param_annotations`] | a tool's `x-mcp-header` annotations: valid, or the tool is left out |
//!
//! ## Where nom is used
//!
//! The RFC 9110 grammars (tokens, quoted strings, `;` parameters, `,` lists with empty
//! elements, media ranges, q-values, auth-params, token68, challenges) and the
//! `Origin`/`Host` grammars are nom parsers (`grammar.rs` has the shared pieces), written
//! as the ABNF reads. Three small things are plain code because a grammar adds nothing:
//! the visible-ASCII checks of the MCP headers, base64 (a table), and the comparisons
//! and unescaping of already-validated text. IP addresses are parsed by `core::net`.

mod accept;
mod annotation;
mod base64;
mod error;
mod grammar;
mod mcp;
mod media_type;
mod origin;
mod param;
mod value;
mod www_authenticate;

pub use accept::{Accept, MediaRange, MediaRanges, QValue};
pub use annotation::{AnnotationError, check_param_annotations, param_annotations};
pub use error::{HeaderError, HeaderWriteError};
pub use mcp::{LAST_EVENT_ID_MAX_LEN, SESSION_ID_MAX_LEN, last_event_id, protocol_version, session_id};
pub use media_type::MediaType;
pub use origin::{Host, HostPort, Origin};
pub use param::{decode_param_value, encode_param_value, encoded_param_len};
pub use value::{Fragments, ParamValue, Params};
pub use www_authenticate::{AuthParams, BearerParams, Challenge, Challenges, WwwAuthenticate, write_challenge};
