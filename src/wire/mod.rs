//! The wire layer: JSON-RPC 2.0, as MCP restricts it, from bytes to spans and back.
//!
//! Stateless and allocation-free. A frame (one stdio line, one HTTP body, one SSE event)
//! goes in; a classified [`Message`] comes out whose parts are borrowed spans of the
//! frame, validated strictly in one pass and decoded only when asked. Going the other
//! way, [`FrameWriter`] writes messages into a caller's buffer.
//!
//! | piece | job |
//! |---|---|
//! | [`validate`] / `scan` | RFC 8259 validation with byte offsets, depth-capped, no recursion |
//! | [`Message`], [`Frame`] | classify request / notification / result / error, or name the broken [`Rule`] |
//! | [`MemberSpans`] | where `params`'/`result`'s members are, recorded by [`Message::parse_with_spans`] for typed decoding |
//! | [`RawJson`] | a validated value: member lookup, typed serde decoding straight from the span |
//! | [`JsonStr`] | a string as sent, unescaped on demand (surrogate pairs included) |
//! | [`RequestIdRef`], [`RequestId`] | ids kept as their wire token, compared by meaning |
//! | [`FrameWriter`] | encoding with exact "buffer too small: need N" errors and no partial writes |
//! | [`ErrorCode`] | JSON-RPC and MCP error codes |

/// Marks a helper that every monomorphized encoder or decoder calls: `#[inline]` with the
/// wide string searches (speed), one shared out-of-line copy with the compact ones (code
/// size on microcontrollers; see [`find`]).
macro_rules! shared_when_compact {
    ($(#[$attr:meta])* $vis:vis fn $($rest:tt)*) => {
        #[cfg_attr(
            mcp_sansio_wide,
            inline
        )]
        #[cfg_attr(
            not(mcp_sansio_wide),
            inline(never)
        )]
        $(#[$attr])* $vis fn $($rest)*
    };
}

pub(crate) mod ahead;
mod codes;
mod de;
mod decode_error;
mod encode;
mod envelope;
pub(crate) mod fields;
mod find;
mod id;
mod lend;
mod literal;
mod navigate;
mod note;
mod number;
mod raw;
mod scan;
mod ser;
pub(crate) mod shift;
mod spans;
mod string;
mod walk;

pub use codes::ErrorCode;
pub use decode_error::{DecodeError, DecodeErrorKind, Expected, FIELD_NAME_LEN, FieldName, Found};
pub use encode::{BatchWriter, EncodeError, ErrorId, FrameWriter, NO_PARAMS};
pub use envelope::{
    Batch, BatchIter, EnvelopeError, ErrorObject, ErrorResponse, Frame, Member, Message, MessageKind, Notification,
    ParseOptions, Request, Response, Rule, Shape,
};
pub use id::{IdKind, IdTooLong, MAX_ID_LEN, RequestId, RequestIdRef};
#[cfg(any(feature = "stdio", feature = "http"))]
pub(crate) use number::ProgressF64;
pub use number::{NUMBER_CAPACITY, Number, ProgressValue};
pub(crate) use number::{NumberBuf, div_rem_small};
pub use raw::{ArrayElements, DecodeElements, JsonKind, ObjectMembers, RawJson};
pub use scan::{DEFAULT_MAX_DEPTH, MAX_DEPTH_LIMIT, ScanConfig, ScanError, ScanErrorKind, validate};
pub use ser::SerializeError;
pub(crate) use ser::has_line_break;
pub use spans::MemberSpans;
pub(crate) use spans::Recorded;
pub use string::{Chars, Fragment, Fragments, JsonStr, UnescapeError};

pub(crate) use encode::{
    Amend, FrameView, Framing, JsonOut, ObjectWriter, Plan, TAG_HEADER, may_have_member, measure, measure_with,
    object_writer, read_tag, write_ahead,
};
pub(crate) use find::{COMPACT, VECTOR, eq_mask, first, word};
pub(crate) use navigate::batch_element;
pub(crate) use note::{MetaNote, Noted};
pub(crate) use raw::walk_object;

/// Compact JSON of `value` in a new vector: how the std adapters keep a message that
/// must wait (the same bytes the endpoint's encoder writes).
#[cfg(feature = "std")]
pub(crate) fn to_vec<T: serde::Serialize + ?Sized>(value: &T) -> Result<alloc::vec::Vec<u8>, SerializeError> {
    let mut buf = alloc::vec![0u8; 256];
    loop {
        let mut out = ser::Out::new(&mut buf);
        ser::to_out(&mut out, value)?;
        if let Some(n) = out.written().map(<[u8]>::len) {
            buf.truncate(n);
            return Ok(buf);
        }
        let needed = out.len();
        buf.resize(needed, 0);
    }
}
