//! MCP protocol versions, as an explicit ordered list.
//!
//! Version strings look like dates but are opaque identifiers: they are never compared
//! as strings. Order comes from this list alone.

use core::fmt;

use crate::wire::JsonStr;

/// A published MCP protocol version.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum ProtocolVersion {
    /// `2024-11-05`: the first published version (stdio, HTTP+SSE).
    V2024_11_05,
    /// `2025-03-26`: Streamable HTTP, tool annotations, audio, `completions`; JSON-RPC
    /// batches must be accepted.
    V2025_03_26,
    /// `2025-06-18`: batches removed; elicitation, structured tool output, `title`.
    V2025_06_18,
    /// `2025-11-25`: tasks, icons, URL elicitation, sampling with tools.
    V2025_11_25,
    /// `2026-07-28`: stateless; no `initialize`, no `ping`; per-request `_meta`.
    V2026_07_28,
}

impl ProtocolVersion {
    /// Every published version, oldest first.
    pub const ALL: [ProtocolVersion; 5] = [
        ProtocolVersion::V2024_11_05,
        ProtocolVersion::V2025_03_26,
        ProtocolVersion::V2025_06_18,
        ProtocolVersion::V2025_11_25,
        ProtocolVersion::V2026_07_28,
    ];

    /// The versions negotiated with an `initialize` handshake, oldest first.
    pub const HANDSHAKE: [ProtocolVersion; 4] = [
        ProtocolVersion::V2024_11_05,
        ProtocolVersion::V2025_03_26,
        ProtocolVersion::V2025_06_18,
        ProtocolVersion::V2025_11_25,
    ];

    /// The newest version.
    pub const LATEST: ProtocolVersion = ProtocolVersion::V2026_07_28;

    /// The newest version that uses the `initialize` handshake.
    pub const LATEST_HANDSHAKE: ProtocolVersion = ProtocolVersion::V2025_11_25;

    /// The version string.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::V2024_11_05 => "2024-11-05",
            Self::V2025_03_26 => "2025-03-26",
            Self::V2025_06_18 => "2025-06-18",
            Self::V2025_11_25 => "2025-11-25",
            Self::V2026_07_28 => "2026-07-28",
        }
    }

    /// The version named by `s`, if it is a published one.
    pub fn from_name(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|v| v.as_str() == s)
    }

    /// The version named by a JSON string (compared after unescaping).
    pub fn from_json(s: JsonStr<'_>) -> Option<Self> {
        Self::ALL.into_iter().find(|v| s.eq_str(v.as_str()))
    }

    /// Position in [`ALL`](Self::ALL).
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Whether the version uses the `initialize` / `notifications/initialized` handshake
    /// (every version before 2026-07-28).
    pub const fn has_handshake(self) -> bool {
        !matches!(self, Self::V2026_07_28)
    }

    /// Whether JSON-RPC batches are part of the version (2025-03-26 only).
    pub const fn allows_batches(self) -> bool {
        matches!(self, Self::V2025_03_26)
    }

    /// Whether error responses may omit `id` when it could not be read (2025-11-25 on);
    /// before that the schema requires an id and JSON-RPC's `null` is used.
    pub const fn error_id_optional(self) -> bool {
        matches!(self, Self::V2025_11_25 | Self::V2026_07_28)
    }
}

impl fmt::Display for ProtocolVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl serde::Serialize for ProtocolVersion {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// A set of protocol versions.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct VersionSet(u8);

impl VersionSet {
    /// No version.
    pub const EMPTY: VersionSet = VersionSet(0);
    /// Every published version.
    pub const ALL: VersionSet = VersionSet(0b1_1111);
    /// The handshake versions, 2024-11-05 to 2025-11-25.
    pub const HANDSHAKE: VersionSet = VersionSet(0b0_1111);

    /// The set holding `v` only.
    pub const fn only(v: ProtocolVersion) -> Self {
        VersionSet(1 << v as u8)
    }

    /// The versions from `v` on.
    pub const fn since(v: ProtocolVersion) -> Self {
        VersionSet(Self::ALL.0 & !((1 << v as u8) - 1))
    }

    /// The versions up to and including `v`.
    pub const fn until(v: ProtocolVersion) -> Self {
        VersionSet(Self::ALL.0 & ((1 << (v as u8 + 1)) - 1))
    }

    /// The union.
    pub const fn with(self, other: VersionSet) -> Self {
        VersionSet(self.0 | other.0)
    }

    /// The intersection.
    pub const fn intersect(self, other: VersionSet) -> Self {
        VersionSet(self.0 & other.0)
    }

    /// Whether `v` is in the set.
    pub const fn contains(self, v: ProtocolVersion) -> bool {
        self.0 & (1 << v as u8) != 0
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The newest version in the set.
    pub fn newest(self) -> Option<ProtocolVersion> {
        self.iter().last()
    }

    /// The versions in the set, oldest first.
    pub fn iter(self) -> impl DoubleEndedIterator<Item = ProtocolVersion> + Clone {
        ProtocolVersion::ALL.into_iter().filter(move |v| self.contains(*v))
    }
}

impl fmt::Debug for VersionSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter().map(ProtocolVersion::as_str)).finish()
    }
}

impl FromIterator<ProtocolVersion> for VersionSet {
    fn from_iter<I: IntoIterator<Item = ProtocolVersion>>(iter: I) -> Self {
        iter.into_iter().fold(VersionSet::EMPTY, |s, v| s.with(VersionSet::only(v)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_is_the_list_not_the_string() {
        assert!(ProtocolVersion::V2024_11_05 < ProtocolVersion::V2026_07_28);
        for (i, v) in ProtocolVersion::ALL.iter().enumerate() {
            assert_eq!(v.index(), i);
            assert_eq!(ProtocolVersion::from_name(v.as_str()), Some(*v));
        }
        assert_eq!(ProtocolVersion::from_name("2025-13-01"), None);
        assert_eq!(ProtocolVersion::from_name("2024-10-07"), None);
    }

    #[test]
    fn sets() {
        let since = VersionSet::since(ProtocolVersion::V2025_06_18);
        assert_eq!(
            since.iter().map(ProtocolVersion::as_str).collect::<std::vec::Vec<_>>(),
            ["2025-06-18", "2025-11-25", "2026-07-28"]
        );
        assert_eq!(VersionSet::until(ProtocolVersion::V2025_11_25), VersionSet::HANDSHAKE);
        assert_eq!(VersionSet::HANDSHAKE.newest(), Some(ProtocolVersion::V2025_11_25));
        assert!(VersionSet::EMPTY.newest().is_none());
    }
}
