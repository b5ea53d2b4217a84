//! Logging macros: defmt when the `defmt` feature is on, nothing otherwise.
//!
//! The firmware logs protocol events and the peer's misbehaviour; the frames travel
//! through semihosting to a host file (see `hw::logger`), never to the serial port.
//! Without the feature the arguments are still type-checked but never evaluated, so both
//! builds see the same code and the quiet one carries none of it.

#[cfg(feature = "defmt")]
macro_rules! debug { ($($t:tt)*) => { defmt::debug!($($t)*) } }
#[cfg(feature = "defmt")]
macro_rules! info { ($($t:tt)*) => { defmt::info!($($t)*) } }
#[cfg(feature = "defmt")]
macro_rules! warn { ($($t:tt)*) => { defmt::warn!($($t)*) } }
#[cfg(feature = "defmt")]
macro_rules! error { ($($t:tt)*) => { defmt::error!($($t)*) } }

#[cfg(not(feature = "defmt"))]
macro_rules! discard {
    ($fmt:literal $(, $arg:expr)* $(,)?) => {{
        if false {
            $( let _ = &$arg; )*
        }
    }};
}
#[cfg(not(feature = "defmt"))]
macro_rules! debug { ($($t:tt)*) => { discard!($($t)*) } }
#[cfg(not(feature = "defmt"))]
macro_rules! info { ($($t:tt)*) => { discard!($($t)*) } }
#[cfg(not(feature = "defmt"))]
macro_rules! warn { ($($t:tt)*) => { discard!($($t)*) } }
#[cfg(not(feature = "defmt"))]
macro_rules! error { ($($t:tt)*) => { discard!($($t)*) } }
