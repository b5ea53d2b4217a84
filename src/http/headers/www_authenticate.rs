//! `WWW-Authenticate`: `1#challenge` (RFC 9110 §11.6.1), read by clients on a 401 or 403
//! and written by servers, with the Bearer parameters MCP's authorization uses
//! (RFC 6750, RFC 9728 `resource_metadata`).

use nom::Parser;
use nom::branch::alt;
use nom::bytes::complete::{tag, take_while, take_while1};
use nom::character::complete::char;
use nom::combinator::{eof, map, opt, peek, recognize};
use nom::multi::{many0_count, many1_count};
use nom::sequence::{preceded, terminated};

use super::error::{HeaderError, HeaderWriteError};
use super::grammar::{Res, ascii, is_qdtext, is_tchar, list, next_element, ows, param_value, token};
use super::value::ParamValue;

/// `auth-param = token BWS "=" BWS ( token / quoted-string )`.
fn auth_param(i: &[u8]) -> Res<'_, (&[u8], ParamValue<'_>)> {
    let (i, (name, _, _, _, value)) = (token, ows, char('='), ows, param_value).parse(i)?;
    Ok((i, (name, value)))
}

/// `#auth-param` with at least one element, as the raw text it covers. A comma not
/// followed by an auth-param belongs to the list of challenges.
fn auth_params(i: &[u8]) -> Res<'_, &[u8]> {
    let separators = many1_count((ows, char(','), ows));
    recognize((auth_param, many0_count((separators, auth_param)))).parse(i)
}

fn is_token68_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-._~+/".contains(&b)
}

/// `token68 = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"="`, which must
/// end its challenge.
fn token68(i: &[u8]) -> Res<'_, &[u8]> {
    let body = recognize((take_while1(is_token68_char), take_while(|b| b == b'=')));
    terminated(body, peek((ows, alt((eof, tag(&b","[..])))))).parse(i)
}

enum Body<'a> {
    Params(&'a [u8]),
    Token68(&'a [u8]),
}

/// `challenge = auth-scheme [ 1*SP ( token68 / #auth-param ) ]`.
fn challenge(i: &[u8]) -> Res<'_, Challenge<'_>> {
    let spaces = take_while1(|b| b == b' ');
    let body = alt((map(auth_params, Body::Params), map(token68, Body::Token68)));
    let (i, (scheme, body)) = (token, opt(preceded(spaces, body))).parse(i)?;
    let (token68, params) = match body {
        Some(Body::Token68(t)) => (Some(ascii(t)), &[][..]),
        Some(Body::Params(p)) => (None, p),
        None => (None, &[][..]),
    };
    Ok((i, Challenge { scheme: ascii(scheme), token68, params }))
}

/// One challenge: an auth scheme with either a token68 or parameters (or neither).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Challenge<'a> {
    scheme: &'a str,
    token68: Option<&'a str>,
    params: &'a [u8],
}

impl<'a> Challenge<'a> {
    /// The auth scheme as written (`Bearer`); schemes are case-insensitive.
    pub fn scheme(&self) -> &'a str {
        self.scheme
    }

    /// Whether the scheme is `Bearer` (ignoring case), the one MCP uses.
    pub fn is_bearer(&self) -> bool {
        self.scheme.eq_ignore_ascii_case("Bearer")
    }

    /// The token68 form's value (`Basic` and `Negotiate` use it), if this challenge has one.
    pub fn token68(&self) -> Option<&'a str> {
        self.token68
    }

    /// The auth parameters, in order. Names are case-insensitive.
    pub fn params(&self) -> AuthParams<'a> {
        AuthParams { rest: self.params }
    }

    /// The first parameter called `name` (ignoring ASCII case); RFC 9110 allows each
    /// once per challenge.
    pub fn param(&self, name: &str) -> Option<ParamValue<'a>> {
        self.params().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v)
    }

    /// The parameters an MCP client acts on.
    pub fn bearer(&self) -> BearerParams<'a> {
        BearerParams {
            resource_metadata: self.param("resource_metadata"),
            scope: self.param("scope"),
            error: self.param("error"),
            error_description: self.param("error_description"),
        }
    }
}

/// What a Bearer challenge tells an MCP client (each `None` when absent): where the
/// protected resource metadata is (RFC 9728), the scopes to ask for, and why the token
/// was refused (`invalid_token`, `insufficient_scope`, ...; RFC 6750 §3.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct BearerParams<'a> {
    /// `resource_metadata`: the URL of the protected resource metadata document.
    pub resource_metadata: Option<ParamValue<'a>>,
    /// `scope`: space-separated scopes.
    pub scope: Option<ParamValue<'a>>,
    /// `error`: the error code.
    pub error: Option<ParamValue<'a>>,
    /// `error_description`: human-readable text.
    pub error_description: Option<ParamValue<'a>>,
}

/// The parameters of a [`Challenge`].
#[derive(Clone, Debug)]
pub struct AuthParams<'a> {
    rest: &'a [u8],
}

impl<'a> Iterator for AuthParams<'a> {
    type Item = (&'a str, ParamValue<'a>);

    fn next(&mut self) -> Option<Self::Item> {
        next_element(&mut self.rest, auth_param).map(|(name, value)| (ascii(name), value))
    }
}

/// A `WWW-Authenticate` value, checked whole: one or more challenges.
///
/// ```
/// use mcp_sansio::http::headers::WwwAuthenticate;
/// let v = br#"Basic realm="x", Bearer error="insufficient_scope", scope="files:read files:write", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource""#;
/// let www = WwwAuthenticate::parse(v).unwrap();
/// assert_eq!(www.challenges().count(), 2);
/// let bearer = www.bearer().unwrap();
/// assert!(bearer.error.unwrap().eq_bytes(b"insufficient_scope"));
/// assert_eq!(bearer.scope.unwrap().as_str(), Some("files:read files:write"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct WwwAuthenticate<'a> {
    value: &'a [u8],
}

impl<'a> WwwAuthenticate<'a> {
    /// Checks a `WWW-Authenticate` value (one field line; a response may have several,
    /// each parsed on its own).
    pub fn parse(value: &'a [u8]) -> Result<Self, HeaderError> {
        list(value, challenge)?;
        let www = Self { value };
        if www.challenges().next().is_none() {
            return Err(HeaderError::Syntax { at: value.len() });
        }
        Ok(www)
    }

    /// The challenges, in order.
    pub fn challenges(&self) -> Challenges<'a> {
        Challenges { rest: self.value }
    }

    /// The parameters of the first Bearer challenge, if there is one.
    pub fn bearer(&self) -> Option<BearerParams<'a>> {
        self.challenges().find(Challenge::is_bearer).map(|c| c.bearer())
    }
}

/// The challenges of a [`WwwAuthenticate`] value.
#[derive(Clone, Debug)]
pub struct Challenges<'a> {
    rest: &'a [u8],
}

impl<'a> Iterator for Challenges<'a> {
    type Item = Challenge<'a>;

    fn next(&mut self) -> Option<Challenge<'a>> {
        next_element(&mut self.rest, challenge)
    }
}

/// Writes one challenge, `scheme name="value", …`, into `out`; returns its length.
/// Every value is written as a quoted string (`"` and `\` escaped), which is how
/// RFC 6750 writes Bearer parameters. Nothing is written on error.
///
/// ```
/// use mcp_sansio::http::headers::write_challenge;
/// let mut out = [0u8; 96];
/// let n = write_challenge(&mut out, "Bearer", &[("error", "invalid_token"), ("error_description", "it said \"no\"")]).unwrap();
/// assert_eq!(&out[..n], br#"Bearer error="invalid_token", error_description="it said \"no\"""#);
/// ```
pub fn write_challenge(out: &mut [u8], scheme: &str, params: &[(&str, &str)]) -> Result<usize, HeaderWriteError> {
    let is_token = |s: &str| !s.is_empty() && s.bytes().all(is_tchar);
    if !is_token(scheme) {
        return Err(HeaderWriteError::Invalid { what: "scheme" });
    }
    let mut needed = scheme.len();
    for (name, value) in params {
        if !is_token(name) {
            return Err(HeaderWriteError::Invalid { what: "parameter name" });
        }
        if !value.bytes().all(|b| is_qdtext(b) || b == b'"' || b == b'\\') {
            return Err(HeaderWriteError::Invalid { what: "parameter value" });
        }
        let escapes = value.bytes().filter(|&b| b == b'"' || b == b'\\').count();
        needed += 1 + name.len() + 2 + value.len() + escapes + 1;
    }
    needed += params.len().saturating_sub(1);
    let Some(out) = out.get_mut(..needed) else {
        return Err(HeaderWriteError::BufferTooSmall { needed, available: out.len() });
    };
    let mut at = 0;
    let mut put = |bytes: &[u8]| {
        out[at..at + bytes.len()].copy_from_slice(bytes);
        at += bytes.len();
    };
    put(scheme.as_bytes());
    for (k, (name, value)) in params.iter().enumerate() {
        put(if k == 0 { b" " } else { b", " });
        put(name.as_bytes());
        put(b"=\"");
        for b in value.bytes() {
            if b == b'"' || b == b'\\' {
                put(b"\\");
            }
            put(&[b]);
        }
        put(b"\"");
    }
    Ok(needed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

    /// Scheme, token68 and unescaped parameters of each challenge.
    type Shape<'a> = (&'a str, Option<&'a str>, Vec<(&'a str, Vec<u8>)>);

    fn shape(v: &[u8]) -> Vec<Shape<'_>> {
        let www = WwwAuthenticate::parse(v).unwrap();
        www.challenges()
            .map(|c| {
                let params = c.params().map(|(n, v)| (n, v.fragments().flatten().copied().collect())).collect();
                (c.scheme(), c.token68(), params)
            })
            .collect()
    }

    #[test]
    fn rfc_9110_example() {
        // RFC 9110 §11.6.1: two challenges in one value, a quoted string with escapes.
        let v = br#"Newauth realm="apps", type=1, title="Login to \"apps\"", Basic realm="simple""#;
        assert_eq!(
            shape(v),
            [
                (
                    "Newauth",
                    None,
                    std::vec![
                        ("realm", b"apps".to_vec()),
                        ("type", b"1".to_vec()),
                        ("title", br#"Login to "apps""#.to_vec())
                    ]
                ),
                ("Basic", None, std::vec![("realm", b"simple".to_vec())]),
            ]
        );
    }

    #[test]
    fn token68_and_bare_schemes() {
        assert_eq!(
            shape(b"Basic YWxhZGRpbjpvcGVuc2VzYW1l==, Negotiate, Bearer"),
            [
                ("Basic", Some("YWxhZGRpbjpvcGVuc2VzYW1l=="), Vec::new()),
                ("Negotiate", None, Vec::new()),
                ("Bearer", None, Vec::new())
            ]
        );
        // `abc=` ends in `=` with nothing after: a token68, not a parameter.
        assert_eq!(
            shape(b"X abc=, Y a = b ,, c=\"\""),
            [("X", Some("abc="), Vec::new()), ("Y", None, std::vec![("a", b"b".to_vec()), ("c", Vec::new())])]
        );
    }

    #[test]
    fn mcp_bearer_challenges() {
        let v = br#"Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource", scope="mcp:tools""#;
        let b = WwwAuthenticate::parse(v).unwrap().bearer().unwrap();
        assert_eq!(
            b.resource_metadata.unwrap().as_str(),
            Some("https://mcp.example.com/.well-known/oauth-protected-resource")
        );
        assert_eq!(b.scope.unwrap().as_str(), Some("mcp:tools"));
        assert_eq!((b.error, b.error_description), (None, None));
        // Scheme and names are case-insensitive; tokens work as values too.
        let b = WwwAuthenticate::parse(b"bearer ERROR=invalid_token").unwrap().bearer().unwrap();
        assert!(b.error.unwrap().eq_bytes(b"invalid_token"));
        assert_eq!(WwwAuthenticate::parse(b"Basic realm=x").unwrap().bearer(), None);
    }

    #[test]
    fn malformed() {
        for (bad, at) in [
            (&b""[..], 0),
            (b" , ", 3),
            (b"Bearer realm=\"x", 7),
            (b"Bearer realm=x y", 15),
            (b"Bearer =x", 7),
            (b"Bearer\trealm=x", 7),
            (b"Basic abc=def=", 13),
        ] {
            assert_eq!(WwwAuthenticate::parse(bad), Err(HeaderError::Syntax { at }), "{:?}", core::str::from_utf8(bad));
        }
    }

    #[test]
    fn writing() {
        let mut out = [0u8; 128];
        let n = write_challenge(&mut out, "Bearer", &[]).unwrap();
        assert_eq!(&out[..n], b"Bearer");
        let params = [("resource_metadata", "https://x/y"), ("scope", "a b"), ("error_description", r#"q"\"#)];
        let n = write_challenge(&mut out, "Bearer", &params).unwrap();
        assert_eq!(&out[..n], br#"Bearer resource_metadata="https://x/y", scope="a b", error_description="q\"\\""#);
        let parsed = WwwAuthenticate::parse(&out[..n]).unwrap().bearer().unwrap();
        assert!(parsed.error_description.unwrap().eq_bytes(br#"q"\"#));
        let mut small = [0u8; 10];
        assert_eq!(
            write_challenge(&mut small, "Bearer", &params),
            Err(HeaderWriteError::BufferTooSmall { needed: n, available: 10 })
        );
        assert_eq!(small, [0u8; 10]);
        assert_eq!(write_challenge(&mut out, "Bear er", &[]), Err(HeaderWriteError::Invalid { what: "scheme" }));
        assert_eq!(
            write_challenge(&mut out, "Bearer", &[("a=", "x")]),
            Err(HeaderWriteError::Invalid { what: "parameter name" })
        );
        assert_eq!(
            write_challenge(&mut out, "Bearer", &[("a", "x\r\n")]),
            Err(HeaderWriteError::Invalid { what: "parameter value" })
        );
    }
}
