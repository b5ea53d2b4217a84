//! Authorization: the application's token check ([`Authorizer`]), what it is shown of
//! each request ([`AuthRequest`]), and the protected resource metadata document
//! (RFC 9728) the server can serve beside the MCP endpoint.
//!
//! # Why a closure in the options, not a method of the `Handler`
//!
//! * The [`Handler`](crate::adapters::app::Handler) is transport-neutral: the same one
//!   runs over stdio, where the specification says not to use OAuth at all. Who may
//!   reach the endpoint is the HTTP server's concern, as it is a middleware's in axum
//!   or express, and is set up next to the `Origin` and `Host` checks.
//! * The check runs before the request is tied to a session (before the session table
//!   is looked up, before a byte of the body is read), so the handler's per-session
//!   state is not there to consult anyway; what a check needs (a key to verify JWTs
//!   with, a cache of introspected tokens, a revocation list another thread updates)
//!   is captured by the closure, shared with the rest of the application through an
//!   `Arc` where it changes.
//! * A fixed token ([`Authorizer::bearer`]) or a verifier from another crate is then
//!   one line of configuration, whatever the handler is.
//!
//! The check runs on the loop thread for every request that reaches it (see
//! [`classify_with`](crate::http::server::classify_with) for which do), so it must be
//! quick: a signature check or a lookup. A check that needs the network (token
//! introspection) belongs on another thread that fills a cache the closure reads.

use std::fmt;
use std::sync::Arc;

use crate::http::server::{AuthVerdict, Headers, RequestKind};

/// What the token check is shown of one request: every request to the MCP endpoint
/// (POST, GET, DELETE) and to the legacy transport's GET and POST paths, whose `Host`,
/// `Origin`, path and method passed.
#[derive(Clone, Copy)]
#[non_exhaustive]
pub struct AuthRequest<'r> {
    /// What the request asks for.
    pub kind: RequestKind,
    /// The request method.
    pub method: &'r str,
    /// The request target (path and query).
    pub target: &'r str,
    /// The token of `Authorization: Bearer <token>`; `None` when the header is absent,
    /// appears twice, holds another scheme, or is not text.
    pub token: Option<&'r str>,
    /// The session the request names, as sent (`Mcp-Session-Id`, or the legacy POST's
    /// query parameter; not yet checked): to bind a session to the subject of the
    /// token that opened it, the application's job (a token is checked on every
    /// request, so a session id alone never lets anyone in).
    pub session_id: Option<&'r str>,
    pub(crate) headers: &'r dyn Headers,
}

impl<'r> AuthRequest<'r> {
    /// The first value of the header field `name` (any case), for checks that need
    /// more than the token (DPoP proofs, a client certificate's header set by a proxy).
    pub fn header(&self, name: &str) -> Option<&'r [u8]> {
        self.headers.value(name, 0)
    }
}

impl fmt::Debug for AuthRequest<'_> {
    /// The token is not shown: debug output ends up in logs.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AuthRequest")
            .field("kind", &self.kind)
            .field("method", &self.method)
            .field("target", &self.target)
            .field("token", &self.token.map(|_| "<redacted>"))
            .field("session_id", &self.session_id)
            .finish()
    }
}

type Check<'a> = dyn Fn(&AuthRequest<'_>) -> AuthVerdict<'static> + Send + Sync + 'a;

/// The application's token check: a closure in the options rather than a method of
/// the [`Handler`](crate::adapters::app::Handler), because who may reach the endpoint is
/// the HTTP server's concern (the handler also runs over stdio), the check runs before
/// the request is tied to a session, and a fixed token ([`Authorizer::bearer`]) or
/// another crate's verifier is then one line. Its verdict becomes the response: [`AuthVerdict::Allow`] lets the request
/// through to the other checks; [`AuthVerdict::Unauthorized`] is a 401 and
/// [`AuthVerdict::InsufficientScope`] a 403, each with a `WWW-Authenticate: Bearer`
/// challenge that names the protected resource metadata
/// ([`AuthChallenge::resource_metadata`](crate::http::server::AuthChallenge)), the scope
/// ([`AuthChallenge::scope`](crate::http::server::AuthChallenge), or the verdict's),
/// and the verdict's `error` and `error_description`.
///
/// ```
/// use mcp_sansio::adapters::http::server::{Authorizer, ServerOptions};
/// use mcp_sansio::http::server::{AuthVerdict, RequestKind};
///
/// let mut options = ServerOptions::default();
/// options.authorize = Some(Authorizer::new(|request| match request.token {
///     None => AuthVerdict::Unauthorized { error: None, description: None },
///     Some("reader-token") if request.kind == RequestKind::Delete => {
///         AuthVerdict::InsufficientScope { scope: Some("mcp:admin"), description: None }
///     }
///     Some("reader-token" | "admin-token") => AuthVerdict::Allow,
///     Some(_) => AuthVerdict::Unauthorized { error: Some("invalid_token"), description: None },
/// }));
/// ```
#[derive(Clone)]
pub struct Authorizer<'a>(Arc<Check<'a>>);

impl<'a> Authorizer<'a> {
    /// A check of the application's.
    pub fn new(check: impl Fn(&AuthRequest<'_>) -> AuthVerdict<'static> + Send + Sync + 'a) -> Self {
        Authorizer(Arc::new(check))
    }

    /// Lets in requests that carry exactly `token` (compared in constant time): a
    /// shared secret for a local or private server, or for tests. A request without a
    /// token gets a 401 with no `error` (RFC 6750 §3.1: it did not try), one with
    /// another token a 401 `invalid_token`.
    pub fn bearer(token: impl Into<String>) -> Self {
        let expected = token.into();
        Authorizer::new(move |request| match request.token {
            None => AuthVerdict::Unauthorized { error: None, description: None },
            Some(t) if same_secret(t.as_bytes(), expected.as_bytes()) => AuthVerdict::Allow,
            Some(_) => AuthVerdict::Unauthorized {
                error: Some("invalid_token"),
                description: Some("The access token is not valid"),
            },
        })
    }

    /// The verdict on `request`.
    pub fn check(&self, request: &AuthRequest<'_>) -> AuthVerdict<'static> {
        (self.0)(request)
    }
}

impl fmt::Debug for Authorizer<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Authorizer(..)")
    }
}

/// Equal, in a time that depends only on the lengths (a token must not be guessable a
/// byte at a time from response times).
fn same_secret(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The well-known path of protected resource metadata (RFC 9728 §3).
pub const WELL_KNOWN_RESOURCE_METADATA: &str = "/.well-known/oauth-protected-resource";

/// The path part of a URL (`https://host:port/path?query` or `/path`), for serving a
/// document at the URL the challenges name.
pub(crate) fn url_path(url: &str) -> Option<&str> {
    let rest = match url.find("://") {
        Some(i) => {
            let after = &url[i + 3..];
            &after[after.find('/')?..]
        }
        None if url.starts_with('/') => url,
        None => return None,
    };
    let end = rest.find(['?', '#']).unwrap_or(rest.len());
    Some(&rest[..end])
}

/// Whether `path` is one of the places the metadata document is served: the path of
/// the URL the challenges name, and the two well-known locations clients try without
/// one (2025-11-25: `/.well-known/oauth-protected-resource` followed by the MCP
/// endpoint's path, then the bare well-known path).
pub(crate) fn is_metadata_path(path: &str, metadata_url: Option<&str>, mcp_path: &str) -> bool {
    if metadata_url.and_then(url_path).is_some_and(|p| p == path) {
        return true;
    }
    match path.strip_prefix(WELL_KNOWN_RESOURCE_METADATA) {
        Some("") => true,
        Some(rest) => rest == mcp_path,
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request<'r>(headers: &'r dyn Headers, token: Option<&'r str>) -> AuthRequest<'r> {
        AuthRequest { kind: RequestKind::Post, method: "POST", target: "/mcp", token, session_id: None, headers }
    }

    #[test]
    fn a_fixed_token() {
        let h: [(&str, &str); 1] = [("X-Forwarded-For", "10.0.0.1")];
        let a = Authorizer::bearer("s3cret");
        assert_eq!(a.check(&request(&h, Some("s3cret"))), AuthVerdict::Allow);
        assert_eq!(a.check(&request(&h, None)), AuthVerdict::Unauthorized { error: None, description: None });
        for wrong in ["s3cre", "s3cret!", "S3cret", ""] {
            assert!(
                matches!(
                    a.check(&request(&h, Some(wrong))),
                    AuthVerdict::Unauthorized { error: Some("invalid_token"), .. }
                ),
                "{wrong:?}"
            );
        }
        assert_eq!(request(&h, None).header("x-forwarded-for"), Some(&b"10.0.0.1"[..]));
        assert!(!format!("{:?}", request(&h, Some("s3cret"))).contains("s3cret"));
    }

    #[test]
    fn metadata_paths() {
        assert_eq!(url_path("https://mcp.example:8443/.well-known/x/mcp?a=1"), Some("/.well-known/x/mcp"));
        assert_eq!(url_path("http://h"), None);
        assert_eq!(url_path("/meta"), Some("/meta"));
        assert_eq!(url_path("meta"), None);
        let url = Some("https://mcp.example/meta/prm.json");
        assert!(is_metadata_path("/meta/prm.json", url, "/mcp"));
        assert!(is_metadata_path("/.well-known/oauth-protected-resource", url, "/mcp"));
        assert!(is_metadata_path("/.well-known/oauth-protected-resource/mcp", None, "/mcp"));
        assert!(!is_metadata_path("/.well-known/oauth-protected-resource/other", None, "/mcp"));
        assert!(!is_metadata_path("/.well-known/oauth-protected-resourcex", None, "/mcp"));
        assert!(!is_metadata_path("/mcp", url, "/mcp"));
    }
}
