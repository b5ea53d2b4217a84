//! A hasher for numbers the adapters hand out themselves, in sequence (session tags,
//! exchange numbers), to key their maps.
//!
//! Why not the standard keyed SipHash: it guards against keys a peer picks to collide,
//! and no peer picks these; at about a hundred instructions a key it was a visible part
//! of a stateless HTTP POST, whose session is keyed in several maps on its way in and
//! out. A multiplication by an odd constant spreads sequential numbers over a table's
//! buckets (its low bits) and tags (its high bits) alike.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// See the module docs.
#[derive(Clone, Copy, Default)]
pub(crate) struct Sequential(u64);

/// 2^64 divided by the golden ratio, odd.
const SPREAD: u64 = 0x9E37_79B9_7F4A_7C15;

impl Hasher for Sequential {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(SPREAD);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0 ^ n).wrapping_mul(SPREAD);
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }
}

/// A map keyed by such numbers.
pub(crate) type SeqMap<K, V> = HashMap<K, V, BuildHasherDefault<Sequential>>;
/// A set of them.
pub(crate) type SeqSet<K> = HashSet<K, BuildHasherDefault<Sequential>>;

#[cfg(test)]
mod tests {
    use std::hash::{BuildHasher, BuildHasherDefault};

    use super::{SeqMap, Sequential};
    use crate::adapters::app::SessionTag;

    /// Sequential tags land in distinct buckets of a table their size, and a map keyed
    /// by them finds each.
    #[test]
    fn sequential_numbers_spread_over_the_buckets() {
        let build = BuildHasherDefault::<Sequential>::default();
        let mut buckets: Vec<u64> = (0..1024u64).map(|n| build.hash_one(SessionTag(n)) & 1023).collect();
        buckets.sort_unstable();
        buckets.dedup();
        assert_eq!(buckets.len(), 1024);
        let mut tops: Vec<u64> = (0..128u64).map(|n| build.hash_one(n as u32) >> 57).collect();
        tops.sort_unstable();
        tops.dedup();
        assert!(tops.len() > 64, "the high bits vary too: {}", tops.len());
        let map: SeqMap<SessionTag, u64> = (0..5000).map(|n| (SessionTag(n), n)).collect();
        assert!((0..5000).all(|n| map[&SessionTag(n)] == n));
    }
}
