//! SipHash-2-4 (Aumasson and Bernstein), fed piece by piece: the keyed tag behind
//! pagination cursors and sealed `requestState`.
//!
//! A MAC over several fields needs them framed (each with its length) and hashed as one
//! message; a streaming hasher does that without a buffer to concatenate them in.

/// SipHash-2-4 with a 64-bit output, fed with [`write`](Self::write).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sip {
    v: [u64; 4],
    /// Bytes not yet compressed (fewer than 8).
    tail: [u8; 8],
    ntail: usize,
    /// Total bytes fed (mod 256 is what the final block carries).
    len: usize,
}

fn round(v: &mut [u64; 4]) {
    v[0] = v[0].wrapping_add(v[1]);
    v[1] = v[1].rotate_left(13) ^ v[0];
    v[0] = v[0].rotate_left(32);
    v[2] = v[2].wrapping_add(v[3]);
    v[3] = v[3].rotate_left(16) ^ v[2];
    v[0] = v[0].wrapping_add(v[3]);
    v[3] = v[3].rotate_left(21) ^ v[0];
    v[2] = v[2].wrapping_add(v[1]);
    v[1] = v[1].rotate_left(17) ^ v[2];
    v[2] = v[2].rotate_left(32);
}

impl Sip {
    pub const fn new(key: [u64; 2]) -> Self {
        Self {
            v: [
                key[0] ^ 0x736f_6d65_7073_6575,
                key[1] ^ 0x646f_7261_6e64_6f6d,
                key[0] ^ 0x6c79_6765_6e65_7261,
                key[1] ^ 0x7465_6462_7974_6573,
            ],
            tail: [0; 8],
            ntail: 0,
            len: 0,
        }
    }

    fn compress(&mut self, m: u64) {
        self.v[3] ^= m;
        round(&mut self.v);
        round(&mut self.v);
        self.v[0] ^= m;
    }

    /// Feeds `data`.
    pub fn write(&mut self, mut data: &[u8]) -> &mut Self {
        self.len = self.len.wrapping_add(data.len());
        if self.ntail > 0 {
            let take = (8 - self.ntail).min(data.len());
            self.tail[self.ntail..self.ntail + take].copy_from_slice(&data[..take]);
            self.ntail += take;
            data = &data[take..];
            if self.ntail < 8 {
                return self;
            }
            self.compress(u64::from_le_bytes(self.tail));
            self.ntail = 0;
        }
        let mut chunks = data.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.compress(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        self.tail[..rest.len()].copy_from_slice(rest);
        self.ntail = rest.len();
        self
    }

    /// Feeds `data` framed by its length, so that fields cannot run into each other.
    pub fn field(&mut self, data: &[u8]) -> &mut Self {
        self.write(&(data.len() as u64).to_le_bytes()).write(data)
    }

    /// The tag of everything fed.
    pub fn finish(&self) -> u64 {
        let mut s = *self;
        let mut last = [0u8; 8];
        last[..s.ntail].copy_from_slice(&s.tail[..s.ntail]);
        last[7] = s.len as u8;
        s.compress(u64::from_le_bytes(last));
        s.v[2] ^= 0xff;
        for _ in 0..4 {
            round(&mut s.v);
        }
        s.v[0] ^ s.v[1] ^ s.v[2] ^ s.v[3]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_reference_vector_however_it_is_fed() {
        // Key 00..0f, message 00..0e: the paper's test vector.
        let key: [u8; 16] = core::array::from_fn(|i| i as u8);
        let k = [u64::from_le_bytes(key[..8].try_into().unwrap()), u64::from_le_bytes(key[8..].try_into().unwrap())];
        let msg: [u8; 15] = core::array::from_fn(|i| i as u8);
        assert_eq!(Sip::new(k).write(&msg).finish(), 0xa129_ca61_49be_45e5);
        for split in 0..msg.len() {
            assert_eq!(Sip::new(k).write(&msg[..split]).write(&msg[split..]).finish(), 0xa129_ca61_49be_45e5);
        }
        let one_by_one = msg.iter().fold(Sip::new(k), |mut s, b| *s.write(&[*b]));
        assert_eq!(one_by_one.finish(), 0xa129_ca61_49be_45e5);
    }
}
