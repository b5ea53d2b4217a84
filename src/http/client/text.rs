//! The client's text: the session id, the HTTP+SSE endpoint URL and the `Authorization`
//! value, each in a fixed region of the front of the storage buffer.
//!
//! ```text
//! [ session id: 256 | endpoint URL: endpoint_url_capacity | "Bearer " + token: token_capacity + 7 ]
//! ```

use super::config::{BEARER_PREFIX, ClientConfig};
use super::event::TokenError;
use super::url::{Url, UrlError};
use crate::http::headers::SESSION_ID_MAX_LEN;

pub(crate) struct Text<'a> {
    buf: &'a mut [u8],
    url_cap: usize,
    session_len: usize,
    url_len: usize,
    /// Length of the whole `Bearer …` value, 0 when there is no token.
    auth_len: usize,
}

fn ascii(bytes: &[u8]) -> &str {
    // Every region holds checked visible ASCII only.
    core::str::from_utf8(bytes).unwrap_or("")
}

impl<'a> Text<'a> {
    /// Takes the regions `config` asks for from `buf`, which is at least
    /// [`ClientConfig::text_len`] long.
    pub fn new(config: &ClientConfig<'_>, buf: &'a mut [u8]) -> Self {
        Text { buf, url_cap: config.endpoint_url_capacity, session_len: 0, url_len: 0, auth_len: 0 }
    }

    pub fn session_id(&self) -> Option<&str> {
        (self.session_len > 0).then(|| ascii(&self.buf[..self.session_len]))
    }

    /// Stores a session id already checked by [`crate::http::headers::session_id`].
    pub fn set_session_id(&mut self, id: &str) {
        let n = id.len().min(SESSION_ID_MAX_LEN);
        self.buf[..n].copy_from_slice(&id.as_bytes()[..n]);
        self.session_len = n;
    }

    pub fn clear_session_id(&mut self) {
        self.session_len = 0;
    }

    fn url_region(&mut self) -> &mut [u8] {
        &mut self.buf[SESSION_ID_MAX_LEN..SESSION_ID_MAX_LEN + self.url_cap]
    }

    pub fn endpoint_url(&self) -> Option<&str> {
        (self.url_len > 0).then(|| ascii(&self.buf[SESSION_ID_MAX_LEN..SESSION_ID_MAX_LEN + self.url_len]))
    }

    /// Resolves `reference` against `base` into the endpoint region.
    pub fn set_endpoint_url(&mut self, base: &Url<'_>, reference: &str) -> Result<(), UrlError> {
        self.url_len = 0;
        let n = base.resolve(reference, self.url_region())?;
        self.url_len = n;
        Ok(())
    }

    pub fn clear_endpoint_url(&mut self) {
        self.url_len = 0;
    }

    fn auth_start(&self) -> usize {
        SESSION_ID_MAX_LEN + self.url_cap
    }

    pub fn token_capacity(&self) -> usize {
        (self.buf.len() - self.auth_start()).saturating_sub(BEARER_PREFIX.len())
    }

    /// The `Authorization` value, `Bearer <token>`.
    pub fn authorization(&self) -> Option<&str> {
        let start = self.auth_start();
        (self.auth_len > 0).then(|| ascii(&self.buf[start..start + self.auth_len]))
    }

    pub fn set_token(&mut self, token: Option<&str>) -> Result<(), TokenError> {
        let Some(token) = token else {
            self.auth_len = 0;
            return Ok(());
        };
        if token.is_empty() || !token.bytes().all(|b| (0x21..=0x7E).contains(&b)) {
            return Err(TokenError::Invalid);
        }
        let capacity = self.token_capacity();
        if token.len() > capacity {
            return Err(TokenError::TooLong { capacity });
        }
        let start = self.auth_start();
        let p = BEARER_PREFIX.len();
        self.buf[start..start + p].copy_from_slice(BEARER_PREFIX.as_bytes());
        self.buf[start + p..start + p + token.len()].copy_from_slice(token.as_bytes());
        self.auth_len = p + token.len();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regions_are_independent() {
        let config = ClientConfig::new("http://h:1/sse").unwrap().endpoint_url_capacity(64).token_capacity(16);
        let mut buf = std::vec![0u8; config.text_len()];
        let mut t = Text::new(&config, &mut buf);
        assert_eq!((t.session_id(), t.endpoint_url(), t.authorization()), (None, None, None));
        t.set_session_id("abc");
        t.set_endpoint_url(&config.url(), "/m?x=1").unwrap();
        t.set_token(Some("tok.en-1")).unwrap();
        assert_eq!(t.session_id(), Some("abc"));
        assert_eq!(t.endpoint_url(), Some("http://h:1/m?x=1"));
        assert_eq!(t.authorization(), Some("Bearer tok.en-1"));
        assert_eq!(t.token_capacity(), 16);
        assert_eq!(t.set_token(Some(&"x".repeat(17))), Err(TokenError::TooLong { capacity: 16 }));
        assert_eq!(t.set_token(Some("a b")), Err(TokenError::Invalid));
        assert_eq!(t.set_token(Some("a\r\nX: y")), Err(TokenError::Invalid));
        assert_eq!(t.set_token(Some("")), Err(TokenError::Invalid));
        assert_eq!(t.authorization(), Some("Bearer tok.en-1"), "a refused token changes nothing");
        assert_eq!(t.set_endpoint_url(&config.url(), &"/m".repeat(40)), Err(UrlError::TooLong { capacity: 64 }));
        assert_eq!(t.endpoint_url(), None);
        t.set_session_id(&"s".repeat(256));
        assert_eq!(t.session_id().map(str::len), Some(256));
        assert_eq!(t.authorization(), Some("Bearer tok.en-1"));
        t.set_token(None).unwrap();
        t.clear_session_id();
        assert_eq!((t.session_id(), t.authorization()), (None, None));
    }
}
