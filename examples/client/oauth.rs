//! `--http`: getting a token when the server answers 401 or 403 with a Bearer challenge
//! (the adapter asks [`App::credentials`](mcp_sansio::adapters::http::client::App::credentials)),
//! the authorization code flow with PKCE of the MCP authorization spec (2025-11-25):
//!
//! 1. the protected resource metadata (RFC 9728): the challenge's `resource_metadata`,
//!    else `/.well-known/oauth-protected-resource` + the MCP path, else at the root;
//! 2. the authorization server's metadata (RFC 8414 and OpenID discovery, with the
//!    issuer's path inserted after or appended to the well-known name, in the spec's
//!    order); without protected resource metadata, the MCP server's origin as issuer
//!    and the 2025-03-26 default endpoints;
//! 3. a client id: pre-registered (the conformance context's `client_id`/`client_secret`),
//!    a client metadata document URL where the server supports them, or dynamic
//!    registration (RFC 7591);
//! 4. scopes: the challenge's `scope`, else the resource's `scopes_supported`, added to
//!    those asked for before (a 403 `insufficient_scope` steps up);
//! 5. the authorization request (S256 PKCE, `state`, `resource` per RFC 8707); the
//!    redirect is read from the `Location` header, as the conformance suite's
//!    authorization server redirects at once (a real client would open a browser and
//!    listen on the redirect URI);
//! 6. the token request, authenticated as the registration or the metadata says
//!    (`client_secret_basic`, `client_secret_post` or `none`).
//!
//! Grants without a user, chosen by what the client was given (the conformance context):
//! a workload's JWT (`valid_jwt`): the JWT bearer grant (RFC 7523); an identity
//! provider's ID token (`idp_token_endpoint`, `idp_id_token`): enterprise-managed
//! authorization (SEP-990: token exchange, then the JWT bearer grant); a secret, with an
//! authorization server that offers `client_credentials` and not `authorization_code`:
//! the client credentials grant. Not done: JWT client assertions and DPoP proofs (they
//! need the client to sign with its own key), refreshing tokens.
//!
//! The requests are plain blocking HTTP/1.1 on `std::net` (`Connection: close`), made
//! from inside the adapter's `credentials` callback: the loop waits meanwhile, which is
//! what a client with nothing to send until it has a token wants anyway. `http` URLs
//! only, like the adapter.

use std::io::{self, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::Duration;

use serde_json::Value;

/// The URL the conformance suite's authorization servers accept as a client metadata
/// document's (`auth/basic-cimd`): a real client serves its own document at an https URL.
const CONFORMANCE_CLIENT_METADATA_URL: &str = "https://conformance-test.local/client-metadata.json";
/// Where the authorization server sends the browser back; nothing listens there (see
/// the module docs).
const REDIRECT_URI: &str = "http://localhost:3000/callback";
/// RFC 7523's grant type.
const JWT_BEARER: &str = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/// A client registered with an authorization server.
#[derive(Clone, Debug)]
struct Registration {
    client_id: String,
    client_secret: Option<String>,
    /// `token_endpoint_auth_method` the registration settled on, if it said.
    auth_method: Option<String>,
}

/// The OAuth side of one MCP server URL.
pub struct OAuth {
    server_url: String,
    /// `MCP_CONFORMANCE_CONTEXT` (an object) or null.
    context: Value,
    /// The registration and the issuer it is with: never reused with another one
    /// (SEP-2352: the protected resource may move to a new authorization server).
    registration: Option<(String, Registration)>,
    /// Every scope asked for so far.
    scopes: Vec<String>,
}

impl OAuth {
    /// For `server_url`, with the conformance suite's context when it runs us.
    pub fn new(server_url: &str) -> OAuth {
        let context = std::env::var("MCP_CONFORMANCE_CONTEXT")
            .ok()
            .and_then(|c| serde_json::from_str(&c).ok())
            .unwrap_or(Value::Null);
        OAuth { server_url: server_url.to_string(), context, registration: None, scopes: Vec::new() }
    }

    /// A token for the challenge the server sent (`resource_metadata`, `scope`).
    pub fn token(&mut self, resource_metadata: Option<&str>, scope: Option<&str>) -> Result<String, String> {
        let prm = self.protected_resource(resource_metadata);
        let server = Url::parse(&self.server_url)?;
        let issuer = match prm.as_ref().and_then(|p| p["authorization_servers"][0].as_str()) {
            Some(issuer) => issuer.to_string(),
            None => server.origin(),
        };
        let metadata = match authorization_server(&issuer) {
            Some(m) => m,
            None if prm.is_none() => {
                // 2025-03-26: no metadata anywhere: the default endpoints at the origin.
                let o = server.origin();
                serde_json::json!({
                    "authorization_endpoint": format!("{o}/authorize"),
                    "token_endpoint": format!("{o}/token"),
                    "registration_endpoint": format!("{o}/register"),
                })
            }
            None => return Err(format!("no authorization server metadata for {issuer}")),
        };
        // RFC 8414 §3.3: the metadata names the issuer it was asked for, exactly.
        if let Some(named) = metadata["issuer"].as_str()
            && prm.is_some()
            && named != issuer
        {
            return Err(format!("the authorization server's metadata names issuer {named}, not {issuer}"));
        }
        let resource = prm
            .as_ref()
            .and_then(|p| p["resource"].as_str())
            .map(str::to_string)
            .unwrap_or_else(|| self.server_url.clone());
        // RFC 9728 §3.3: the metadata is for this server (its URL, or a prefix of it).
        if !resource_covers(&resource, &self.server_url) {
            return Err(format!("the protected resource metadata is for {resource}, not {}", self.server_url));
        }
        let wanted: Vec<String> = match scope {
            Some(s) => s.split_whitespace().map(str::to_string).collect(),
            None => prm
                .as_ref()
                .and_then(|p| p["scopes_supported"].as_array())
                .map(|a| a.iter().filter_map(|s| s.as_str().map(str::to_string)).collect())
                .unwrap_or_default(),
        };
        for s in wanted {
            if !self.scopes.contains(&s) {
                self.scopes.push(s);
            }
        }
        let token_endpoint = metadata["token_endpoint"].as_str().ok_or("no token_endpoint")?.to_string();
        // Grants without a user, chosen by what the client was given.
        if let Some(assertion) = self.context["valid_jwt"].as_str() {
            return self.jwt_bearer(&token_endpoint, assertion, &resource);
        }
        if self.context["idp_token_endpoint"].is_string() {
            return self.enterprise(&metadata, &issuer, &token_endpoint, &resource);
        }
        let grants = &metadata["grant_types_supported"];
        let offers = |g: &str| grants.as_array().is_some_and(|a| a.iter().any(|x| x == g));
        if self.context["client_secret"].is_string() && offers("client_credentials") && !offers("authorization_code") {
            return self.client_credentials(&metadata, &token_endpoint, &resource);
        }
        let registration = self.register(&issuer, &metadata)?;
        let code_verifier = base64url(&random_bytes(32));
        let challenge = base64url(&sha256(code_verifier.as_bytes()));
        let state = base64url(&random_bytes(16));
        let endpoint = metadata["authorization_endpoint"].as_str().ok_or("no authorization_endpoint")?;
        let mut query = vec![
            ("response_type", "code".to_string()),
            ("client_id", registration.client_id.clone()),
            ("redirect_uri", REDIRECT_URI.to_string()),
            ("code_challenge", challenge),
            ("code_challenge_method", "S256".to_string()),
            ("state", state.clone()),
            ("resource", resource.clone()),
        ];
        if !self.scopes.is_empty() {
            query.push(("scope", self.scopes.join(" ")));
        }
        let sep = if endpoint.contains('?') { '&' } else { '?' };
        let url = format!("{endpoint}{sep}{}", form(&query));
        let answer = request("GET", &url, &[], b"")?;
        let location =
            answer.header("location").ok_or_else(|| format!("authorization: {} without Location", answer.status))?;
        let params = query_params(location);
        let param = |name: &str| params.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str());
        if param("state") != Some(state.as_str()) {
            return Err("authorization: the redirect's state does not match".into());
        }
        // RFC 9207: the response names its issuer, compared as a string (no
        // normalization), and must when the server says it does.
        let expected_iss = metadata["issuer"].as_str();
        match (param("iss"), expected_iss) {
            (Some(iss), Some(expected)) if iss != expected => {
                return Err(format!("authorization: the response's issuer {iss} is not {expected}"));
            }
            (Some(iss), None) => return Err(format!("authorization: an issuer {iss} the metadata does not name")),
            (None, _) if metadata["authorization_response_iss_parameter_supported"] == Value::Bool(true) => {
                return Err("authorization: the response lacks the iss parameter its server promises".into());
            }
            _ => {}
        }
        let code = params.iter().find(|(k, _)| k == "code").map(|(_, v)| v.clone()).ok_or("authorization: no code")?;
        let mut body = vec![
            ("grant_type", "authorization_code".to_string()),
            ("code", code),
            ("redirect_uri", REDIRECT_URI.to_string()),
            ("code_verifier", code_verifier),
            ("resource", resource),
        ];
        let method = auth_method(&registration, &metadata);
        let headers = client_auth(&registration, &method, &mut body);
        token_request(&token_endpoint, &headers, &body)
    }

    /// RFC 9728 discovery: the challenge's URL, else the path-based well-known URL, else
    /// the root one.
    fn protected_resource(&self, from_challenge: Option<&str>) -> Option<Value> {
        let server = Url::parse(&self.server_url).ok()?;
        let mut candidates = Vec::new();
        if let Some(url) = from_challenge {
            candidates.push(url.to_string());
        }
        let path = server.path.trim_end_matches('/');
        if !path.is_empty() {
            candidates.push(format!("{}/.well-known/oauth-protected-resource{path}", server.origin()));
        }
        candidates.push(format!("{}/.well-known/oauth-protected-resource", server.origin()));
        candidates.iter().find_map(|url| get_json(url))
    }

    /// The client id to use with this authorization server (`issuer`): the one
    /// registered with it before, else a new one; credentials of another authorization
    /// server are never offered to this one.
    fn register(&mut self, issuer: &str, metadata: &Value) -> Result<Registration, String> {
        if let Some((with, r)) = &self.registration
            && with == issuer
        {
            return Ok(r.clone());
        }
        let registration = if let Some(id) = self.context["client_id"].as_str() {
            Registration {
                client_id: id.to_string(),
                client_secret: self.context["client_secret"].as_str().map(str::to_string),
                auth_method: None,
            }
        } else if metadata["client_id_metadata_document_supported"] == Value::Bool(true) {
            Registration {
                client_id: CONFORMANCE_CLIENT_METADATA_URL.into(),
                client_secret: None,
                auth_method: Some("none".into()),
            }
        } else if let Some(endpoint) = metadata["registration_endpoint"].as_str() {
            let body = serde_json::json!({
                "client_name": "mcp-sansio example client",
                "redirect_uris": [REDIRECT_URI],
                "grant_types": ["authorization_code", "refresh_token"],
                "response_types": ["code"],
                // A localhost redirect: a native application (OpenID Connect
                // Registration; the draft MCP spec asks for the field, SEP-837).
                "application_type": "native",
                "token_endpoint_auth_method": preferred_method(metadata, true),
            });
            let answer =
                request("POST", endpoint, &[("Content-Type", "application/json".into())], body.to_string().as_bytes())?;
            let v: Value = serde_json::from_slice(&answer.body).map_err(|e| format!("registration: {e}"))?;
            Registration {
                client_id: v["client_id"]
                    .as_str()
                    .ok_or_else(|| format!("registration: {} without client_id", answer.status))?
                    .into(),
                client_secret: v["client_secret"].as_str().map(str::to_string),
                auth_method: v["token_endpoint_auth_method"].as_str().map(str::to_string),
            }
        } else {
            return Err("no client id: not pre-registered, and the server offers neither client metadata documents nor registration".into());
        };
        self.registration = Some((issuer.to_string(), registration.clone()));
        Ok(registration)
    }

    /// The JWT bearer grant (RFC 7523) with a workload's identity token as the assertion
    /// (workload identity federation): a public client, no retry on refusal.
    fn jwt_bearer(&self, token_endpoint: &str, assertion: &str, resource: &str) -> Result<String, String> {
        let mut body = vec![
            ("grant_type", JWT_BEARER.to_string()),
            ("assertion", assertion.to_string()),
            ("resource", resource.to_string()),
        ];
        if let Some(id) = self.context["client_id"].as_str() {
            body.push(("client_id", id.to_string()));
        }
        if !self.scopes.is_empty() {
            body.push(("scope", self.scopes.join(" ")));
        }
        token_request(token_endpoint, &[], &body)
    }

    /// Enterprise-managed authorization (SEP-990): the identity provider exchanges the
    /// user's ID token for an identity assertion grant for this authorization server and
    /// resource (RFC 8693), which the client then presents in a JWT bearer grant,
    /// authenticated with its own secret.
    fn enterprise(
        &self,
        metadata: &Value,
        issuer: &str,
        token_endpoint: &str,
        resource: &str,
    ) -> Result<String, String> {
        let c = &self.context;
        let idp = c["idp_token_endpoint"].as_str().ok_or("no idp_token_endpoint")?;
        let subject = c["idp_id_token"].as_str().ok_or("the context has no idp_id_token")?;
        let audience = metadata["issuer"].as_str().unwrap_or(issuer);
        let mut exchange = vec![
            ("grant_type", "urn:ietf:params:oauth:grant-type:token-exchange".to_string()),
            ("requested_token_type", "urn:ietf:params:oauth:token-type:id-jag".to_string()),
            ("subject_token", subject.to_string()),
            ("subject_token_type", "urn:ietf:params:oauth:token-type:id_token".to_string()),
            ("audience", audience.to_string()),
            ("resource", resource.to_string()),
        ];
        if let Some(id) = c["idp_client_id"].as_str() {
            exchange.push(("client_id", id.to_string()));
        }
        if !self.scopes.is_empty() {
            exchange.push(("scope", self.scopes.join(" ")));
        }
        let grant = token_request(idp, &[], &exchange)?;
        let registration = Registration {
            client_id: c["client_id"].as_str().ok_or("the context has no client_id")?.into(),
            client_secret: c["client_secret"].as_str().map(str::to_string),
            auth_method: None,
        };
        let mut body = vec![("grant_type", JWT_BEARER.to_string()), ("assertion", grant)];
        if !self.scopes.is_empty() {
            body.push(("scope", self.scopes.join(" ")));
        }
        let method = auth_method(&registration, metadata);
        let headers = client_auth(&registration, &method, &mut body);
        token_request(token_endpoint, &headers, &body)
    }

    /// The client credentials grant with the context's id and secret (`client_secret_basic`).
    fn client_credentials(&self, metadata: &Value, token_endpoint: &str, resource: &str) -> Result<String, String> {
        let (Some(id), Some(secret)) = (self.context["client_id"].as_str(), self.context["client_secret"].as_str())
        else {
            return Err(
                "client credentials: the context has no client_secret (JWT assertions are not implemented)".into()
            );
        };
        let registration = Registration { client_id: id.into(), client_secret: Some(secret.into()), auth_method: None };
        let mut body = vec![("grant_type", "client_credentials".to_string()), ("resource", resource.to_string())];
        if !self.scopes.is_empty() {
            body.push(("scope", self.scopes.join(" ")));
        }
        let method = auth_method(&registration, metadata);
        let headers = client_auth(&registration, &method, &mut body);
        token_request(token_endpoint, &headers, &body)
    }
}

/// Whether protected resource metadata for `resource` applies to `server`: the same
/// origin, and `resource`'s path the server's or a prefix of it at a `/`.
fn resource_covers(resource: &str, server: &str) -> bool {
    let (Ok(r), Ok(s)) = (Url::parse(resource), Url::parse(server)) else { return false };
    let rp = r.path.trim_end_matches('/');
    let sp = s.path.split(['?', '#']).next().unwrap_or("");
    r.origin().eq_ignore_ascii_case(&s.origin())
        && (sp == rp || sp.trim_end_matches('/') == rp || sp.starts_with(&format!("{rp}/")))
}

/// RFC 8414 / OpenID discovery for `issuer`, in the order of the MCP spec.
fn authorization_server(issuer: &str) -> Option<Value> {
    let url = Url::parse(issuer).ok()?;
    let origin = url.origin();
    let path = url.path.trim_end_matches('/');
    let candidates = if path.is_empty() {
        vec![
            format!("{origin}/.well-known/oauth-authorization-server"),
            format!("{origin}/.well-known/openid-configuration"),
        ]
    } else {
        vec![
            format!("{origin}/.well-known/oauth-authorization-server{path}"),
            format!("{origin}/.well-known/openid-configuration{path}"),
            format!("{origin}{path}/.well-known/openid-configuration"),
        ]
    };
    candidates.iter().find_map(|u| get_json(u))
}

/// The method a client with (or without) a secret prefers among the server's.
fn preferred_method(metadata: &Value, has_secret: bool) -> &'static str {
    let supported: Vec<&str> = metadata["token_endpoint_auth_methods_supported"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_else(|| vec!["client_secret_basic"]);
    if !has_secret && supported.contains(&"none") {
        return "none";
    }
    ["client_secret_basic", "client_secret_post", "none"].into_iter().find(|m| supported.contains(m)).unwrap_or("none")
}

fn auth_method(r: &Registration, metadata: &Value) -> String {
    match (&r.auth_method, &r.client_secret) {
        (Some(m), _) => m.clone(),
        (None, None) => "none".into(),
        (None, Some(_)) => preferred_method(metadata, true).into(),
    }
}

/// Adds the client's authentication to a token request: a header, or form fields.
fn client_auth(r: &Registration, method: &str, body: &mut Vec<(&'static str, String)>) -> Vec<(&'static str, String)> {
    match (method, &r.client_secret) {
        ("client_secret_basic", Some(secret)) => {
            let pair = format!("{}:{}", form_escape(&r.client_id), form_escape(secret));
            vec![("Authorization", format!("Basic {}", base64(pair.as_bytes(), false)))]
        }
        ("client_secret_post", Some(secret)) => {
            body.push(("client_id", r.client_id.clone()));
            body.push(("client_secret", secret.clone()));
            vec![]
        }
        _ => {
            body.push(("client_id", r.client_id.clone()));
            vec![]
        }
    }
}

fn token_request(
    endpoint: &str,
    headers: &[(&'static str, String)],
    body: &[(&str, String)],
) -> Result<String, String> {
    let mut headers = headers.to_vec();
    headers.push(("Content-Type", "application/x-www-form-urlencoded".into()));
    let answer = request("POST", endpoint, &headers, form(body).as_bytes())?;
    let v: Value = serde_json::from_slice(&answer.body).map_err(|e| format!("token: {} {e}", answer.status))?;
    v["access_token"].as_str().map(str::to_string).ok_or_else(|| format!("token: {} {v}", answer.status))
}

// ---- plain HTTP/1.1 -------------------------------------------------------------------

/// An `http://host[:port]/path?query` URL.
struct Url {
    host: String,
    port: u16,
    /// The path, with the query.
    path: String,
}

impl Url {
    fn parse(url: &str) -> Result<Url, String> {
        let rest = url.strip_prefix("http://").ok_or_else(|| format!("{url}: only http URLs are supported"))?;
        let (authority, path) = rest.find('/').map_or((rest, "/"), |i| (&rest[..i], &rest[i..]));
        let (host, port) = match authority.rsplit_once(':') {
            Some((h, p)) if !h.ends_with(']') || authority.starts_with('[') => {
                (h.to_string(), p.parse().map_err(|_| format!("{url}: bad port"))?)
            }
            _ => (authority.to_string(), 80),
        };
        Ok(Url { host, port, path: path.to_string() })
    }

    fn origin(&self) -> String {
        format!("http://{}:{}", self.host, self.port)
    }
}

struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

fn get_json(url: &str) -> Option<Value> {
    let answer = request("GET", url, &[("Accept", "application/json".into())], b"").ok()?;
    if answer.status != 200 {
        return None;
    }
    serde_json::from_slice(&answer.body).ok().filter(Value::is_object)
}

/// One request on its own connection; the answer read to the end of the connection.
fn request(method: &str, url: &str, headers: &[(&str, String)], body: &[u8]) -> Result<Answer, String> {
    let u = Url::parse(url)?;
    let fail = |e: io::Error| format!("{method} {url}: {e}");
    let host = u.host.trim_start_matches('[').trim_end_matches(']');
    let addrs: Vec<_> = (host, u.port).to_socket_addrs().map_err(fail)?.collect();
    let mut stream = addrs
        .iter()
        .find_map(|a| TcpStream::connect_timeout(a, Duration::from_secs(5)).ok())
        .ok_or_else(|| format!("{method} {url}: cannot connect"))?;
    stream.set_read_timeout(Some(Duration::from_secs(10))).map_err(fail)?;
    let mut head = format!(
        "{method} {} HTTP/1.1\r\nHost: {}:{}\r\nConnection: close\r\nContent-Length: {}\r\n",
        u.path,
        u.host,
        u.port,
        body.len()
    );
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).and_then(|()| stream.write_all(body)).map_err(fail)?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).map_err(fail)?;
    let end =
        raw.windows(4).position(|w| w == b"\r\n\r\n").ok_or_else(|| format!("{method} {url}: no response head"))?;
    let text = String::from_utf8_lossy(&raw[..end]).into_owned();
    let mut lines = text.split("\r\n");
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("{method} {url}: bad status line"))?;
    let headers: Vec<(String, String)> =
        lines.filter_map(|l| l.split_once(':')).map(|(n, v)| (n.trim().to_string(), v.trim().to_string())).collect();
    let mut answer = Answer { status, headers, body: raw[end + 4..].to_vec() };
    if answer.header("transfer-encoding").is_some_and(|t| t.eq_ignore_ascii_case("chunked")) {
        answer.body = dechunk(&answer.body);
    }
    Ok(answer)
}

/// A chunked body, whole (what a `Connection: close` answer read to its end holds).
fn dechunk(mut raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(eol) = raw.windows(2).position(|w| w == b"\r\n") {
        let size_text = String::from_utf8_lossy(&raw[..eol]);
        let Ok(size) = usize::from_str_radix(size_text.split(';').next().unwrap_or("").trim(), 16) else { break };
        raw = &raw[eol + 2..];
        if size == 0 || raw.len() < size {
            break;
        }
        out.extend_from_slice(&raw[..size]);
        raw = raw.get(size + 2..).unwrap_or(&[]);
    }
    out
}

// ---- encodings ------------------------------------------------------------------------

/// `application/x-www-form-urlencoded` (also the query of the authorization request).
fn form(pairs: &[(&str, String)]) -> String {
    pairs.iter().map(|(k, v)| format!("{}={}", form_escape(k), form_escape(v))).collect::<Vec<_>>().join("&")
}

fn form_escape(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => out.push(b as char),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// The query parameters of a URL, decoded.
fn query_params(url: &str) -> Vec<(String, String)> {
    let query = url.split_once('?').map_or("", |(_, q)| q);
    let query = query.split('#').next().unwrap_or("");
    query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (form_unescape(k), form_unescape(v))
        })
        .collect()
}

fn form_unescape(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes.get(i + 1..i + 3).and_then(|h| std::str::from_utf8(h).ok());
        match (bytes[i], hex.and_then(|h| u8::from_str_radix(h, 16).ok())) {
            (b'+', _) => out.push(b' '),
            (b'%', Some(b)) => {
                out.push(b);
                i += 2;
            }
            (b, _) => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Base64 (RFC 4648), standard alphabet with padding, or URL-safe without (`url`).
fn base64(data: &[u8], url: bool) -> String {
    let mut out = String::new();
    for chunk in data.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            let c = B64[(n >> (18 - 6 * i) & 63) as usize];
            out.push(match (url, c) {
                (true, b'+') => '-',
                (true, b'/') => '_',
                (_, c) => c as char,
            });
        }
        if !url {
            out.push_str(&"=".repeat(3 - chunk.len()));
        }
    }
    out
}

fn base64url(data: &[u8]) -> String {
    base64(data, true)
}

/// Bytes from the system's random source (PKCE verifiers and `state` must be
/// unguessable). Where there is no `/dev/urandom`, the standard library's randomly
/// seeded hasher, which is not a cryptographic source: good enough for this example
/// only.
fn random_bytes(n: usize) -> Vec<u8> {
    let mut out = vec![0; n];
    if std::fs::File::open("/dev/urandom").and_then(|mut f| f.read_exact(&mut out)).is_ok() {
        return out;
    }
    use std::hash::{BuildHasher, Hasher};
    for (i, chunk) in out.chunks_mut(8).enumerate() {
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_usize(i);
        chunk.copy_from_slice(&h.finish().to_le_bytes()[..chunk.len()]);
    }
    out
}

/// SHA-256 (FIPS 180-4), for the PKCE S256 challenge.
fn sha256(data: &[u8]) -> [u8; 32] {
    const K: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
        0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
        0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
        0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
        0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
        0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
        0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
    ];
    let mut h: [u32; 8] =
        [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];
    let mut msg = data.to_vec();
    msg.push(0x80);
    while msg.len() % 64 != 56 {
        msg.push(0);
    }
    msg.extend_from_slice(&((data.len() as u64) * 8).to_be_bytes());
    for block in msg.chunks(64) {
        let mut w = [0u32; 64];
        for i in 0..16 {
            w[i] = u32::from_be_bytes([block[4 * i], block[4 * i + 1], block[4 * i + 2], block[4 * i + 3]]);
        }
        for i in 16..64 {
            let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
            let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16].wrapping_add(s0).wrapping_add(w[i - 7]).wrapping_add(s1);
        }
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut hh] = h;
        for i in 0..64 {
            let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
            let ch = (e & f) ^ (!e & g);
            let t1 = hh.wrapping_add(s1).wrapping_add(ch).wrapping_add(K[i]).wrapping_add(w[i]);
            let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
            let maj = (a & b) ^ (a & c) ^ (b & c);
            let t2 = s0.wrapping_add(maj);
            (hh, g, f, e, d, c, b, a) = (g, f, e, d.wrapping_add(t1), c, b, a, t1.wrapping_add(t2));
        }
        for (x, y) in h.iter_mut().zip([a, b, c, d, e, f, g, hh]) {
            *x = x.wrapping_add(y);
        }
    }
    let mut out = [0u8; 32];
    for (i, word) in h.iter().enumerate() {
        out[4 * i..4 * i + 4].copy_from_slice(&word.to_be_bytes());
    }
    out
}
