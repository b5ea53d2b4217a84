//! HTTP/1.1 on the wire: request heads (through `httparse`), request bodies
//! (`Content-Length` or chunked, capped while read), and response framing.

mod body;
mod head;
mod write;

pub(crate) use body::{BodyError, BodyReader};
pub(crate) use head::{Framing, HeadError, find_head_end, parse_head};
pub(crate) use write::{BodyFraming, LAST_CHUNK, MAX_CHUNK, error_response, response_head};
