//! One object's members walked with the [`Scanner`], for the passes that look at what
//! they validate: the envelope table (`record_object`) and the `_meta` note
//! (`note_object`). Both accept exactly the grammar `Scanner::value` accepts for an
//! object; how they fail does not matter, because the plain parse runs again on any error
//! and reports it.

use super::scan::{ScanError, ScanErrorKind, Scanner, StrSpan};

/// Walks the object whose `{` is at `s.pos`: `member` gets each member's name with the
/// scanner at its value (after the colon and any whitespace), and must scan that value.
#[inline(always)]
pub(crate) fn members<'a, F>(s: &mut Scanner<'a>, mut member: F) -> Result<(), ScanError>
where
    F: FnMut(&mut Scanner<'a>, StrSpan) -> Result<(), ScanError>,
{
    s.pos += 1; // the '{'
    s.skip_ws();
    if s.peek() == Some(b'}') {
        s.pos += 1;
        return Ok(());
    }
    loop {
        s.skip_ws();
        if s.peek() != Some(b'"') {
            return Err(broken(s));
        }
        let name = s.string()?;
        s.expect(b':', ScanErrorKind::ExpectedColon)?;
        s.skip_ws();
        member(s, name)?;
        if after_member(s)? {
            return Ok(());
        }
    }
}

/// An error while walking: which one does not matter (see the module docs).
#[cold]
pub(crate) fn broken(s: &Scanner<'_>) -> ScanError {
    ScanError { kind: ScanErrorKind::UnexpectedByte, offset: s.pos }
}

/// After a member's value: past the comma (`false`) or the closing brace (`true`).
#[inline(always)]
pub(crate) fn after_member(s: &mut Scanner<'_>) -> Result<bool, ScanError> {
    s.skip_ws();
    match s.peek() {
        Some(b',') => {
            s.pos += 1;
            // (`,}` is refused at the top of the loop, as a missing name.)
            Ok(false)
        }
        Some(b'}') => {
            s.pos += 1;
            Ok(true)
        }
        _ => Err(broken(s)),
    }
}
