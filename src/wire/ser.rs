//! A compact JSON serializer (a `serde::Serializer`) into a caller's byte slice.
//!
//! Why not serde-json-core's `to_slice`: when the buffer is too small it can only say
//! `BufferFull`, not how much room the message needs, and its only way to pass raw JSON
//! through is to hijack `serialize_bytes`, which breaks every genuine `&[u8]` field.
//! This serializer keeps counting after the buffer is full, so a failure reports the exact
//! size needed, and it writes [`RawJson`](super::RawJson) verbatim through serde_json's
//! raw-value token. Its output is byte-for-byte what `serde_json::to_vec` writes for the
//! same value (the tests compare them), and it never contains a raw newline: raw JSON
//! that holds line breaks (whitespace between tokens) is written compact.

use core::fmt;

use serde::ser::{self, Serialize};

use super::raw::RAW_TOKEN;
use super::string::ESCAPED_TEXT;

/// A write cursor over a byte slice that keeps counting past the end.
///
/// Bytes are written only while the whole write fits; once one write does not fit,
/// nothing more is written but [`len`](Self::len) keeps growing, so it ends up as the
/// exact size the output needed.
pub(crate) struct Out<'b> {
    buf: &'b mut [u8],
    len: usize,
    full: bool,
    /// An offset whose byte should be remembered even if it is never stored.
    watch: usize,
    watched: Option<u8>,
}

impl<'b> Out<'b> {
    pub(crate) fn new(buf: &'b mut [u8]) -> Self {
        Self { buf, len: 0, full: false, watch: usize::MAX, watched: None }
    }

    /// Starts writing at `offset` (bytes before it are left alone).
    pub(crate) fn at(buf: &'b mut [u8], offset: usize) -> Self {
        let full = offset > buf.len();
        Self { buf, len: offset, full, watch: usize::MAX, watched: None }
    }

    /// Remembers the next byte written (stored or not), readable with [`watched`](Self::watched).
    pub(crate) fn watch_next(&mut self) {
        self.watch = self.len;
        self.watched = None;
    }

    /// The byte written at the watched offset.
    pub(crate) fn watched(&self) -> Option<u8> {
        self.watched
    }

    /// Bytes written or, after an overflow, bytes that would have been written.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The written bytes, if everything fit.
    pub(crate) fn written(&self) -> Option<&[u8]> {
        if self.full { None } else { self.buf.get(..self.len) }
    }

    pub(crate) fn overflowed(&self) -> bool {
        self.full
    }

    shared_when_compact! {
    pub(crate) fn put(&mut self, bytes: &[u8]) {
        let end = self.len + bytes.len();
        if self.watch >= self.len && self.watch < end {
            self.watched = Some(bytes[self.watch - self.len]);
        }
        if !self.full {
            match self.buf.get_mut(self.len..end) {
                Some(dst) => dst.copy_from_slice(bytes),
                None => self.full = true,
            }
        }
        self.len = end;
    }
    }

    #[inline]
    pub(crate) fn byte(&mut self, b: u8) {
        self.put(&[b]);
    }

    /// Raw JSON, kept on one line: verbatim when it holds no line break (the common case,
    /// and byte for byte what was received), otherwise compact.
    ///
    /// Valid JSON can hold CR and LF only as whitespace between tokens, so a schema written
    /// over several lines is written with the whitespace between its tokens dropped
    /// (`{"city":{"type":"string"}}`), never with line breaks turned into runs of spaces.
    /// Text inside strings is copied as it is; should a string hold a raw line break (only
    /// text that bypassed validation can), it becomes a space, so no frame is ever split.
    pub(crate) fn raw_json(&mut self, json: &[u8]) {
        if !has_line_break(json) {
            return self.put(json);
        }
        // The same bytes either way; a byte at a time is the smaller code, for targets
        // that count flash, runs of bytes the faster one.
        if super::find::COMPACT { self.compacted_bytewise(json) } else { self.compacted_in_runs(json) }
    }

    /// [`raw_json`](Self::raw_json)'s compact form, one byte at a time.
    fn compacted_bytewise(&mut self, json: &[u8]) {
        let (mut in_string, mut escaped) = (false, false);
        for &b in json {
            if in_string {
                in_string = escaped || b != b'"';
                escaped = !escaped && b == b'\\';
                self.byte(if b == b'\n' || b == b'\r' { b' ' } else { b });
            } else if !matches!(b, b' ' | b'\t' | b'\n' | b'\r') {
                in_string = b == b'"';
                self.byte(b);
            }
        }
    }

    /// [`raw_json`](Self::raw_json)'s compact form, strings and runs between them each
    /// copied whole.
    fn compacted_in_runs(&mut self, json: &[u8]) {
        let mut i = 0;
        while let Some(&b) = json.get(i) {
            match b {
                b' ' | b'\t' | b'\n' | b'\r' => i += 1,
                b'"' => {
                    let end =
                        super::find::closing_quote::<false>(json, i + 1, i + 1).map_or(json.len(), |(e, _)| e + 1);
                    let text = json.get(i..end).unwrap_or_default();
                    match text.iter().position(|&b| b == b'\n' || b == b'\r') {
                        None => self.put(text),
                        Some(_) => {
                            text.iter().for_each(|&b| self.byte(if b == b'\n' || b == b'\r' { b' ' } else { b }))
                        }
                    }
                    i = end;
                }
                _ => {
                    // A run of structure, numbers and literals, up to the next string or
                    // whitespace.
                    let run = json[i..].iter().position(|&b| matches!(b, b'"' | b' ' | b'\t' | b'\n' | b'\r'));
                    let end = run.map_or(json.len(), |k| i + k);
                    self.put(&json[i..end]);
                    i = end;
                }
            }
        }
    }

    /// A JSON string literal for `s`, escaped exactly as serde_json escapes it.
    pub(crate) fn escaped_str(&mut self, s: &str) {
        self.byte(b'"');
        self.escaped_fragment(s);
        self.byte(b'"');
    }

    /// The inside of a string literal for `s`, without quotes.
    fn escaped_fragment(&mut self, s: &str) {
        let bytes = s.as_bytes();
        let mut run = 0;
        loop {
            // Plain text up to the next byte that needs escaping, eight bytes at a time.
            let i = super::find::next_escape(bytes, run);
            self.put(&bytes[run..i]);
            let Some(&b) = bytes.get(i) else { return };
            let escape: &[u8] = match b {
                b'"' => b"\\\"",
                b'\\' => b"\\\\",
                b'\n' => b"\\n",
                b'\r' => b"\\r",
                b'\t' => b"\\t",
                0x08 => b"\\b",
                0x0C => b"\\f",
                _ => {
                    const HEX: &[u8; 16] = b"0123456789abcdef";
                    self.put(&[b'\\', b'u', b'0', b'0', HEX[(b >> 4) as usize], HEX[(b & 0xF) as usize]]);
                    run = i + 1;
                    continue;
                }
            };
            self.put(escape);
            run = i + 1;
        }
    }

    pub(crate) fn u64(&mut self, v: u64) {
        let mut digits = [0u8; 20];
        let i = format_u64(v, &mut digits);
        self.put(&digits[i..]);
    }

    pub(crate) fn i64(&mut self, v: i64) {
        if v < 0 {
            self.byte(b'-');
        }
        self.u64(v.unsigned_abs());
    }

    fn u128(&mut self, v: u128) {
        match u64::try_from(v) {
            Ok(small) => self.u64(small),
            Err(_) => {
                let mut digits = [0u8; 39];
                let mut i = digits.len();
                let mut v = v;
                while v > 0 {
                    i -= 1;
                    digits[i] = b'0' + (v % 10) as u8;
                    v /= 10;
                }
                self.put(&digits[i..]);
            }
        }
    }

    fn i128(&mut self, v: i128) {
        if v < 0 {
            self.byte(b'-');
        }
        self.u128(v.unsigned_abs());
    }

    fn f64(&mut self, v: f64) {
        if v.is_finite() {
            self.put(zmij::Buffer::new().format_finite(v).as_bytes());
        } else {
            self.put(b"null");
        }
    }

    fn f32(&mut self, v: f32) {
        if v.is_finite() {
            self.put(zmij::Buffer::new().format_finite(v).as_bytes());
        } else {
            self.put(b"null");
        }
    }
}

/// Whether `json` holds a `\n` or a `\r`: asked of every raw value written, so eight bytes
/// at a time except on compact builds (small 32-bit targets), as the scanner does.
pub(crate) fn has_line_break(json: &[u8]) -> bool {
    use super::find::{COMPACT, HI, LO, eq_mask, word};
    let mut at = 0;
    if !COMPACT {
        // "None flagged" is exact (a borrow can flag more bytes only above a true one).
        // One "below CR" test per word first: JSON text rarely holds a control byte at all,
        // and only a word that does is asked for CR and LF.
        while let Some(w) = word(json, at) {
            if w.wrapping_sub(LO * 0x0E) & !w & HI != 0 && eq_mask(w, b'\n') | eq_mask(w, b'\r') != 0 {
                return true;
            }
            at += 8;
        }
    }
    json.get(at..).unwrap_or_default().iter().any(|&b| b == b'\n' || b == b'\r')
}

/// Writes `v` in decimal at the end of `digits`; returns where it starts.
///
/// On 64-bit targets in `u64` arithmetic (a division by ten is a multiplication there).
/// Elsewhere a `u64` division is a call to a routine of about a kilobyte of code: see
/// [`format_u64_in_u32`].
#[cfg_attr(target_pointer_width = "64", inline)]
#[cfg_attr(not(target_pointer_width = "64"), inline(never))]
pub(crate) fn format_u64(v: u64, digits: &mut [u8; 20]) -> usize {
    if usize::BITS < 64 {
        return format_u64_in_u32(v, digits);
    }
    let (mut v, mut i) = (v, digits.len());
    loop {
        i -= 1;
        digits[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            return i;
        }
    }
}

/// [`format_u64`] without a `u64` division: a digit at a time, each by
/// [`div_rem_small`](super::number::div_rem_small) (four 32-bit divisions). The least code
/// for numbers that are rare and short on such targets (ids, counts, sizes).
fn format_u64_in_u32(v: u64, digits: &mut [u8; 20]) -> usize {
    let (mut v, mut i) = (v, digits.len());
    loop {
        let (q, r) = super::number::div_rem_small(v, 10);
        i -= 1;
        digits[i] = b'0' + r as u8;
        v = q;
        if v == 0 {
            return i;
        }
    }
}

/// `fmt::Write` into an [`Out`], escaping as a string's inside.
struct EscapingWriter<'o, 'b>(&'o mut Out<'b>);

impl fmt::Write for EscapingWriter<'_, '_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.0.escaped_fragment(s);
        Ok(())
    }
}

/// Why a value could not be serialized (besides running out of room).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum SerializeError {
    /// A map key was not a string, integer, `char`, `bool` or unit variant.
    KeyMustBeString,
    /// A raw-JSON token carried something other than a string.
    InvalidRawValue,
    /// A `Serialize` implementation failed; its message is dropped (nothing is allocated).
    Custom,
}

impl fmt::Display for SerializeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::KeyMustBeString => "JSON object keys must be strings",
            Self::InvalidRawValue => "raw JSON token did not carry a string",
            Self::Custom => "a Serialize implementation reported an error",
        })
    }
}

impl core::error::Error for SerializeError {}

impl ser::Error for SerializeError {
    fn custom<T: fmt::Display>(_msg: T) -> Self {
        Self::Custom
    }
}

/// Serializes `value` as compact JSON into `out`.
pub(crate) fn to_out<T: Serialize + ?Sized>(out: &mut Out<'_>, value: &T) -> Result<(), SerializeError> {
    value.serialize(&mut Serializer { out })
}

pub(crate) struct Serializer<'o, 'b> {
    out: &'o mut Out<'b>,
}

type Res = Result<(), SerializeError>;

impl<'s, 'o, 'b> ser::Serializer for &'s mut Serializer<'o, 'b> {
    type Ok = ();
    type Error = SerializeError;
    type SerializeSeq = Compound<'s, 'o, 'b>;
    type SerializeTuple = Compound<'s, 'o, 'b>;
    type SerializeTupleStruct = Compound<'s, 'o, 'b>;
    type SerializeTupleVariant = Compound<'s, 'o, 'b>;
    type SerializeMap = Compound<'s, 'o, 'b>;
    type SerializeStruct = Compound<'s, 'o, 'b>;
    type SerializeStructVariant = Compound<'s, 'o, 'b>;

    fn serialize_bool(self, v: bool) -> Res {
        self.out.put(if v { b"true" } else { b"false" });
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Res {
        self.out.i64(v.into());
        Ok(())
    }
    fn serialize_i16(self, v: i16) -> Res {
        self.out.i64(v.into());
        Ok(())
    }
    fn serialize_i32(self, v: i32) -> Res {
        self.out.i64(v.into());
        Ok(())
    }
    fn serialize_i64(self, v: i64) -> Res {
        self.out.i64(v);
        Ok(())
    }
    fn serialize_i128(self, v: i128) -> Res {
        self.out.i128(v);
        Ok(())
    }
    fn serialize_u8(self, v: u8) -> Res {
        self.out.u64(v.into());
        Ok(())
    }
    fn serialize_u16(self, v: u16) -> Res {
        self.out.u64(v.into());
        Ok(())
    }
    fn serialize_u32(self, v: u32) -> Res {
        self.out.u64(v.into());
        Ok(())
    }
    fn serialize_u64(self, v: u64) -> Res {
        self.out.u64(v);
        Ok(())
    }
    fn serialize_u128(self, v: u128) -> Res {
        self.out.u128(v);
        Ok(())
    }
    fn serialize_f32(self, v: f32) -> Res {
        self.out.f32(v);
        Ok(())
    }
    fn serialize_f64(self, v: f64) -> Res {
        self.out.f64(v);
        Ok(())
    }
    fn serialize_char(self, v: char) -> Res {
        self.out.escaped_str(v.encode_utf8(&mut [0; 4]));
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Res {
        self.out.escaped_str(v);
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Res {
        // As serde_json does: an array of numbers.
        self.out.byte(b'[');
        for (i, b) in v.iter().enumerate() {
            if i > 0 {
                self.out.byte(b',');
            }
            self.out.u64((*b).into());
        }
        self.out.byte(b']');
        Ok(())
    }
    fn serialize_none(self) -> Res {
        self.serialize_unit()
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Res {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Res {
        self.out.put(b"null");
        Ok(())
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Res {
        self.serialize_unit()
    }
    fn serialize_unit_variant(self, _name: &'static str, _index: u32, variant: &'static str) -> Res {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, name: &'static str, value: &T) -> Res {
        if name == ESCAPED_TEXT {
            return value.serialize(EscapedText { out: self.out });
        }
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Res {
        self.out.byte(b'{');
        self.out.escaped_str(variant);
        self.out.byte(b':');
        value.serialize(&mut *self)?;
        self.out.byte(b'}');
        Ok(())
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq, SerializeError> {
        self.out.byte(b'[');
        Ok(Compound { ser: self, first: true, close: b"]", raw: false })
    }
    fn serialize_tuple(self, len: usize) -> Result<Self::SerializeTuple, SerializeError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<Self::SerializeTupleStruct, SerializeError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant, SerializeError> {
        self.out.byte(b'{');
        self.out.escaped_str(variant);
        self.out.put(b":[");
        Ok(Compound { ser: self, first: true, close: b"]}", raw: false })
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap, SerializeError> {
        self.out.byte(b'{');
        Ok(Compound { ser: self, first: true, close: b"}", raw: false })
    }
    fn serialize_struct(self, name: &'static str, _len: usize) -> Result<Self::SerializeStruct, SerializeError> {
        if name == RAW_TOKEN {
            return Ok(Compound { ser: self, first: true, close: b"", raw: true });
        }
        self.serialize_map(None)
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant, SerializeError> {
        self.out.byte(b'{');
        self.out.escaped_str(variant);
        self.out.put(b":{");
        Ok(Compound { ser: self, first: true, close: b"}}", raw: false })
    }
    fn collect_str<T: fmt::Display + ?Sized>(self, value: &T) -> Res {
        self.out.byte(b'"');
        fmt::write(&mut EscapingWriter(self.out), format_args!("{value}")).map_err(|_| SerializeError::Custom)?;
        self.out.byte(b'"');
        Ok(())
    }
}

/// An array, object or raw-value token under construction.
pub(crate) struct Compound<'s, 'o, 'b> {
    ser: &'s mut Serializer<'o, 'b>,
    first: bool,
    close: &'static [u8],
    raw: bool,
}

impl Compound<'_, '_, '_> {
    fn comma(&mut self) {
        if !self.first {
            self.ser.out.byte(b',');
        }
        self.first = false;
    }

    /// A struct field's name and its colon, after a comma unless it is the first. Never
    /// inlined, on any target: inlined, it is copied into every field of every struct
    /// serialized (87 copies, ~30 KB in a server binary), and the call costs about what
    /// the copy saves, the name's escape scan being a call either way.
    #[inline(never)]
    fn member_name(&mut self, key: &str) {
        self.comma();
        self.ser.out.escaped_str(key);
        self.ser.out.byte(b':');
    }
}

impl ser::SerializeSeq for Compound<'_, '_, '_> {
    type Ok = ();
    type Error = SerializeError;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Res {
        self.comma();
        value.serialize(&mut *self.ser)
    }
    fn end(self) -> Res {
        self.ser.out.put(self.close);
        Ok(())
    }
}

impl ser::SerializeTuple for Compound<'_, '_, '_> {
    type Ok = ();
    type Error = SerializeError;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Res {
        ser::SerializeSeq::serialize_element(self, value)
    }
    fn end(self) -> Res {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeTupleStruct for Compound<'_, '_, '_> {
    type Ok = ();
    type Error = SerializeError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Res {
        ser::SerializeSeq::serialize_element(self, value)
    }
    fn end(self) -> Res {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeTupleVariant for Compound<'_, '_, '_> {
    type Ok = ();
    type Error = SerializeError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Res {
        ser::SerializeSeq::serialize_element(self, value)
    }
    fn end(self) -> Res {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeMap for Compound<'_, '_, '_> {
    type Ok = ();
    type Error = SerializeError;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Res {
        self.comma();
        key.serialize(MapKey { out: self.ser.out })?;
        self.ser.out.byte(b':');
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Res {
        value.serialize(&mut *self.ser)
    }
    fn end(self) -> Res {
        self.ser.out.put(self.close);
        Ok(())
    }
}

impl ser::SerializeStruct for Compound<'_, '_, '_> {
    type Ok = ();
    type Error = SerializeError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Res {
        if self.raw {
            return if key == RAW_TOKEN {
                value.serialize(RawText { out: self.ser.out })
            } else {
                Err(SerializeError::InvalidRawValue)
            };
        }
        self.member_name(key);
        value.serialize(&mut *self.ser)
    }
    fn end(self) -> Res {
        self.ser.out.put(self.close);
        Ok(())
    }
}

impl ser::SerializeStructVariant for Compound<'_, '_, '_> {
    type Ok = ();
    type Error = SerializeError;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Res {
        ser::SerializeStruct::serialize_field(self, key, value)
    }
    fn end(self) -> Res {
        ser::SerializeStruct::end(self)
    }
}

/// Accepts only a string, written verbatim: the payload of a raw-value token.
struct RawText<'o, 'b> {
    out: &'o mut Out<'b>,
}

/// Writes map keys, which JSON requires to be strings (serde_json's rules).
struct MapKey<'o, 'b> {
    out: &'o mut Out<'b>,
}

macro_rules! reject {
    ($err:expr; $($method:ident($($arg:ty),*)),* $(,)?) => {
        $(fn $method(self, $(_: $arg),*) -> Res { Err($err) })*
    };
}

macro_rules! reject_compound {
    ($err:expr) => {
        type SerializeSeq = ser::Impossible<(), SerializeError>;
        type SerializeTuple = ser::Impossible<(), SerializeError>;
        type SerializeTupleStruct = ser::Impossible<(), SerializeError>;
        type SerializeTupleVariant = ser::Impossible<(), SerializeError>;
        type SerializeMap = ser::Impossible<(), SerializeError>;
        type SerializeStruct = ser::Impossible<(), SerializeError>;
        type SerializeStructVariant = ser::Impossible<(), SerializeError>;
        fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Res {
            Err($err)
        }
        fn serialize_newtype_variant<T: Serialize + ?Sized>(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: &T,
        ) -> Res {
            Err($err)
        }
        fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, SerializeError> {
            Err($err)
        }
        fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, SerializeError> {
            Err($err)
        }
        fn serialize_tuple_struct(
            self,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeTupleStruct, SerializeError> {
            Err($err)
        }
        fn serialize_tuple_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeTupleVariant, SerializeError> {
            Err($err)
        }
        fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, SerializeError> {
            Err($err)
        }
        fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct, SerializeError> {
            Err($err)
        }
        fn serialize_struct_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeStructVariant, SerializeError> {
            Err($err)
        }
    };
}

impl ser::Serializer for RawText<'_, '_> {
    type Ok = ();
    type Error = SerializeError;
    reject_compound!(SerializeError::InvalidRawValue);
    reject!(SerializeError::InvalidRawValue;
        serialize_bool(bool), serialize_i8(i8), serialize_i16(i16), serialize_i32(i32), serialize_i64(i64),
        serialize_u8(u8), serialize_u16(u16), serialize_u32(u32), serialize_u64(u64), serialize_f32(f32),
        serialize_f64(f64), serialize_char(char), serialize_bytes(&[u8]), serialize_none(), serialize_unit(),
        serialize_unit_struct(&'static str), serialize_unit_variant(&'static str, u32, &'static str),
    );
    fn serialize_str(self, v: &str) -> Res {
        self.out.raw_json(v.as_bytes());
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, value: &T) -> Res {
        value.serialize(self)
    }
    fn collect_str<T: fmt::Display + ?Sized>(self, _: &T) -> Res {
        Err(SerializeError::InvalidRawValue)
    }
}

/// Writes an escaped [`JsonStr`](super::JsonStr)'s text as a string literal, unescaped and
/// escaped again fragment by fragment (so the bytes are those serde_json writes), with no
/// `core::fmt`. It accepts only the escaped text, as bytes, and says it is not
/// human-readable: that is how `JsonStr` knows to hand the text over (see its `Serialize`).
struct EscapedText<'o, 'b> {
    out: &'o mut Out<'b>,
}

impl ser::Serializer for EscapedText<'_, '_> {
    type Ok = ();
    type Error = SerializeError;
    reject_compound!(SerializeError::Custom);
    reject!(SerializeError::Custom;
        serialize_bool(bool), serialize_i8(i8), serialize_i16(i16), serialize_i32(i32), serialize_i64(i64),
        serialize_u8(u8), serialize_u16(u16), serialize_u32(u32), serialize_u64(u64), serialize_f32(f32),
        serialize_f64(f64), serialize_char(char), serialize_str(&str), serialize_none(), serialize_unit(),
        serialize_unit_struct(&'static str), serialize_unit_variant(&'static str, u32, &'static str),
    );
    fn is_human_readable(&self) -> bool {
        false
    }
    fn serialize_bytes(self, escaped: &[u8]) -> Res {
        self.out.byte(b'"');
        for fragment in super::JsonStr::from_body(escaped, true).fragments() {
            match fragment {
                super::Fragment::Text(t) => self.out.escaped_fragment(t),
                super::Fragment::Char(c) => self.out.escaped_fragment(c.encode_utf8(&mut [0; 4])),
            }
        }
        self.out.byte(b'"');
        Ok(())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, _: &'static str, _: &T) -> Res {
        Err(SerializeError::Custom)
    }
    fn collect_str<T: fmt::Display + ?Sized>(self, _: &T) -> Res {
        Err(SerializeError::Custom)
    }
}

impl MapKey<'_, '_> {
    fn quoted(self, f: impl FnOnce(&mut Out<'_>)) -> Res {
        self.out.byte(b'"');
        f(self.out);
        self.out.byte(b'"');
        Ok(())
    }
}

impl ser::Serializer for MapKey<'_, '_> {
    type Ok = ();
    type Error = SerializeError;
    reject_compound!(SerializeError::KeyMustBeString);
    reject!(SerializeError::KeyMustBeString;
        serialize_f32(f32), serialize_f64(f64), serialize_bytes(&[u8]), serialize_none(), serialize_unit(),
        serialize_unit_struct(&'static str),
    );
    fn serialize_str(self, v: &str) -> Res {
        self.out.escaped_str(v);
        Ok(())
    }
    fn serialize_char(self, v: char) -> Res {
        self.out.escaped_str(v.encode_utf8(&mut [0; 4]));
        Ok(())
    }
    fn serialize_bool(self, v: bool) -> Res {
        self.quoted(|o| o.put(if v { b"true" } else { b"false" }))
    }
    fn serialize_i8(self, v: i8) -> Res {
        self.quoted(|o| o.i64(v.into()))
    }
    fn serialize_i16(self, v: i16) -> Res {
        self.quoted(|o| o.i64(v.into()))
    }
    fn serialize_i32(self, v: i32) -> Res {
        self.quoted(|o| o.i64(v.into()))
    }
    fn serialize_i64(self, v: i64) -> Res {
        self.quoted(|o| o.i64(v))
    }
    fn serialize_u8(self, v: u8) -> Res {
        self.quoted(|o| o.u64(v.into()))
    }
    fn serialize_u16(self, v: u16) -> Res {
        self.quoted(|o| o.u64(v.into()))
    }
    fn serialize_u32(self, v: u32) -> Res {
        self.quoted(|o| o.u64(v.into()))
    }
    fn serialize_u64(self, v: u64) -> Res {
        self.quoted(|o| o.u64(v))
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Res {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, name: &'static str, value: &T) -> Res {
        if name == ESCAPED_TEXT {
            return value.serialize(EscapedText { out: self.out });
        }
        value.serialize(self)
    }
    fn collect_str<T: fmt::Display + ?Sized>(self, value: &T) -> Res {
        self.out.byte(b'"');
        fmt::write(&mut EscapingWriter(self.out), format_args!("{value}")).map_err(|_| SerializeError::Custom)?;
        self.out.byte(b'"');
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::RawJson;

    fn ours<T: Serialize + ?Sized>(v: &T) -> std::vec::Vec<u8> {
        let mut buf = [0u8; 4096];
        let mut out = Out::new(&mut buf);
        to_out(&mut out, v).unwrap();
        out.written().unwrap().to_vec()
    }

    #[derive(serde::Serialize)]
    enum E {
        Unit,
        New(u8),
        Tup(u8, i8),
        St { a: Option<u8> },
    }

    #[derive(serde::Serialize)]
    struct Everything<'a> {
        s: &'a str,
        ctrl: &'a str,
        c: char,
        n: (i8, i64, u64, i128, u128),
        f: (f32, f64, f64, f64),
        b: [bool; 2],
        bytes: &'a serde_bytes_like::Bytes,
        none: Option<u8>,
        unit: (),
        e: [E; 4],
        map: std::collections::BTreeMap<i32, &'a str>,
        bmap: std::collections::BTreeMap<bool, u8>,
    }

    mod serde_bytes_like {
        pub struct Bytes(pub [u8; 3]);
        impl serde::Serialize for Bytes {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_bytes(&self.0)
            }
        }
    }

    #[test]
    fn output_matches_serde_json_byte_for_byte() {
        let v = Everything {
            s: "q\"uote\\ é 😀 \u{7f}",
            ctrl: "\u{0}\u{1}\u{8}\u{9}\u{a}\u{b}\u{c}\u{d}\u{1f}",
            c: '\n',
            n: (i8::MIN, i64::MIN, u64::MAX, i128::MIN, u128::MAX),
            f: (1.5, 0.1, 1e300, f64::NAN),
            b: [true, false],
            bytes: &serde_bytes_like::Bytes([0, 1, 255]),
            none: None,
            unit: (),
            e: [E::Unit, E::New(1), E::Tup(2, -3), E::St { a: Some(4) }],
            map: [(-1, "x"), (2, "y")].into_iter().collect(),
            bmap: [(true, 1)].into_iter().collect(),
        };
        assert_eq!(std::str::from_utf8(&ours(&v)).unwrap(), serde_json::to_string(&v).unwrap());
    }

    /// Both ways of formatting a `u64` give its decimal text, at every magnitude and
    /// around every power of ten and of two.
    #[test]
    fn u64_formatting_both_ways() {
        let mut values = vec![0, 1, 9, 10, u64::from(u32::MAX), u64::from(u32::MAX) + 1, u64::MAX, u64::MAX - 1];
        let mut p = 1u64;
        while let Some(next) = p.checked_mul(10) {
            values.extend([p - 1, p, p + 1, next - 1]);
            p = next;
        }
        values.extend((0..64).flat_map(|b| [1u64 << b, (1u64 << b) - 1, (1u64 << b) + 10_000]));
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        for _ in 0..10_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            values.push(seed >> (seed % 64));
        }
        for v in values {
            let mut a = [0u8; 20];
            let mut b = [0u8; 20];
            let (i, j) = (format_u64(v, &mut a), format_u64_in_u32(v, &mut b));
            assert_eq!(core::str::from_utf8(&a[i..]).unwrap(), v.to_string());
            assert_eq!(core::str::from_utf8(&b[j..]).unwrap(), v.to_string());
        }
    }

    /// Decoded text with escapes is written unescaped and escaped again, byte for byte as
    /// serde_json writes it, as a value and as a map key, without going through
    /// `core::fmt` (the `EscapedText` path).
    #[test]
    fn escaped_json_str_is_written_as_serde_json_writes_it() {
        let frame = br#"{"caf\u00e9 \"q\"":"caf\u00e9 \"q\" \ud83d\ude00\n\/\u0001\t\\ end"}"#;
        let v = RawJson::parse(frame).unwrap();
        let (key, value) = v.members().next().unwrap();
        let value = value.as_str().unwrap();
        assert!(key.is_escaped() && value.is_escaped());
        let want = serde_json::to_vec(&value).unwrap();
        assert_eq!(ours(&value), want);
        assert_eq!(want, "\"café \\\"q\\\" 😀\\n/\\u0001\\t\\\\ end\"".as_bytes());
        let map = [(key, 1u8)];
        struct M<'a>(&'a [(super::super::JsonStr<'a>, u8)]);
        impl serde::Serialize for M<'_> {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_map(self.0.iter().map(|(k, v)| (k, v)))
            }
        }
        assert_eq!(ours(&M(&map)), serde_json::to_vec(&M(&map)).unwrap());
        assert_eq!(ours(&M(&map)), "{\"café \\\"q\\\"\":1}".as_bytes());
    }

    #[test]
    fn collect_str_escapes() {
        struct D;
        impl core::fmt::Display for D {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str("a\"\n")
            }
        }
        struct W;
        impl serde::Serialize for W {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.collect_str(&D)
            }
        }
        assert_eq!(ours(&W), br#""a\"\n""#);
    }

    /// The word-at-a-time test sees a line break at every offset of a word and of the
    /// tail, and none among bytes a borrow could confuse with one (`\x0b`, `\x0e`).
    #[test]
    fn has_line_break_at_every_offset() {
        for len in 0..30 {
            for filler in [b' ', 0x00, 0x0b, 0x0c, 0x0e, 0x8a, b'\t'] {
                let mut bytes = std::vec![filler; len];
                assert!(!has_line_break(&bytes));
                for at in 0..len {
                    for brk in [b'\n', b'\r'] {
                        bytes[at] = brk;
                        assert!(has_line_break(&bytes), "len {len}, at {at}, filler {filler:#x}");
                        bytes[at] = filler;
                    }
                }
            }
        }
    }

    #[test]
    fn raw_json_is_verbatim_on_one_line() {
        // Issue 8: a schema written over several lines comes out compact, not padded.
        let raw = RawJson::parse(b"{\n  \"a\" :\r\n [1,\n\t2],\n  \"s\": \" x  \\\" y \\n\"\n}").unwrap();
        assert_eq!(ours(&raw), br#"{"a":[1,2],"s":" x  \" y \n"}"#);
        // Without a line break it is written exactly as received, spaces and all.
        let raw = RawJson::parse(br#"{"a" : [1, 2], "s": "x"}"#).unwrap();
        assert_eq!(ours(&raw), br#"{"a" : [1, 2], "s": "x"}"#);
        // Counting past a full buffer gives the compact size.
        let raw = RawJson::parse(b"[1,\n 2]").unwrap();
        let mut buf = [0u8; 2];
        let mut out = Out::new(&mut buf);
        to_out(&mut out, &raw).unwrap();
        assert_eq!((out.overflowed(), out.len()), (true, 5));
        // serde_json with raw_value writes the same token verbatim too.
        let raw = RawJson::parse(br#"{"x":[1,"\u00e9"]}"#).unwrap();
        assert_eq!(serde_json::to_string(&raw).unwrap(), r#"{"x":[1,"\u00e9"]}"#);
    }

    /// The two compact forms of `raw_json` write the same bytes, for valid JSON and for
    /// text that bypassed validation (unterminated strings, escapes before line breaks,
    /// runs of backslashes).
    #[test]
    fn raw_json_compact_forms_agree() {
        let pieces: [&[u8]; 12] = [b"{", b"}", b"\"", b"\\", b"\\\"", b"\n", b"\r", b" ", b"\t", b"a", b"1,", b":"];
        let compacted = |json: &[u8], bytewise: bool| {
            let mut buf = [0u8; 64];
            let mut out = Out::new(&mut buf);
            if bytewise {
                out.compacted_bytewise(json)
            } else {
                out.compacted_in_runs(json)
            }
            let len = out.len();
            buf[..len].to_vec()
        };
        // Every sequence of up to five pieces.
        let mut json = std::vec::Vec::new();
        for n in 0..pieces.len().pow(5) {
            json.clear();
            let mut k = n;
            for _ in 0..5 {
                json.extend_from_slice(pieces[k % pieces.len()]);
                k /= pieces.len();
            }
            assert_eq!(
                compacted(&json, true),
                compacted(&json, false),
                "{:?}",
                std::string::String::from_utf8_lossy(&json)
            );
        }
        // Into buffers too small: the same size counted, the same overflow, for every cut.
        let sample = b"{ \"a\\\"\n\" :\r\n [1,\n\t\"\\\\\"], \"x\" }";
        for cap in 0..sample.len() + 2 {
            let sized = |bytewise: bool| {
                let mut buf = std::vec![0u8; cap];
                let mut out = Out::new(&mut buf);
                if bytewise {
                    out.compacted_bytewise(sample)
                } else {
                    out.compacted_in_runs(sample)
                }
                (out.len(), out.overflowed(), out.written().map(<[u8]>::to_vec))
            };
            assert_eq!(sized(true), sized(false), "capacity {cap}");
        }
        let schema = b"{\n  \"a\" :\r\n [1,\n\t2],\n  \"s\": \" x  \\\" y \\n\"\n}";
        assert_eq!(compacted(schema, true), br#"{"a":[1,2],"s":" x  \" y \n"}"#);
    }

    #[test]
    fn overflow_counts_the_exact_size() {
        let v = ("hello", [1, 2, 3], "wörld\n");
        let full = ours(&v);
        for cap in 0..full.len() {
            let mut buf = std::vec![0xAAu8; cap];
            let mut out = Out::new(&mut buf);
            to_out(&mut out, &v).unwrap();
            assert!(out.overflowed());
            assert_eq!(out.len(), full.len());
        }
    }

    #[test]
    fn non_string_keys_are_refused() {
        let m: std::collections::BTreeMap<(u8, u8), u8> = [((1, 2), 3)].into_iter().collect();
        let mut buf = [0u8; 64];
        assert_eq!(to_out(&mut Out::new(&mut buf), &m), Err(SerializeError::KeyMustBeString));
    }
}
