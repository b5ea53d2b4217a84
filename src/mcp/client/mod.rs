//! Client features: roots, sampling, elicitation (requests a server sends a client, or
//! in 2026-07-28 input requests inside an `input_required` result).

pub mod elicitation;
pub mod roots;
pub mod sampling;
