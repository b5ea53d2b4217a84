//! Where the endpoint's two buffers live.
//!
//! By default the caller lends them (`&mut [u8]`: a static array on a microcontroller,
//! a stack array in a test). An endpoint can also own them, so that a server holding
//! many sessions keeps each in one value with no borrow to tie it down: a `[u8; N]`
//! array, or with `alloc` a `Vec<u8>` or `Box<[u8]>` (their length is the capacity).

/// Byte storage for an endpoint's receive or transmit buffer: anything that lends out
/// a byte slice, its whole length used. Implemented for every such type; there is
/// nothing to implement.
pub trait Buffer: AsRef<[u8]> + AsMut<[u8]> {}

impl<T: AsRef<[u8]> + AsMut<[u8]> + ?Sized> Buffer for T {}
