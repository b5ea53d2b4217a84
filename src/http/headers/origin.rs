//! `Origin` (RFC 6454) and `Host` (RFC 9110 §7.2), for the checks that stop DNS
//! rebinding: a page on another site may reach a server on 127.0.0.1 through a name it
//! controls, but its requests then carry that name in `Host` and its own origin in
//! `Origin`. A server bound to loopback that accepts only loopback hosts, and only the
//! origins it allows, cannot be driven from such a page.

use core::fmt;
use core::net::{Ipv4Addr, Ipv6Addr};

use nom::Parser;
use nom::bytes::complete::{tag, take_while, take_while1};
use nom::character::complete::char;
use nom::combinator::opt;
use nom::sequence::{delimited, preceded};

use super::error::HeaderError;
use super::grammar::{Res, ascii, fail, trim_ows, whole};

/// A host: a registered name, or an IP address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Host<'a> {
    /// A registered name as written (compare ignoring ASCII case).
    Name(&'a str),
    /// A dotted-decimal IPv4 address.
    Ipv4(#[cfg_attr(feature = "defmt", defmt(Display2Format))] Ipv4Addr),
    /// A bracketed IPv6 literal (`[::1]`).
    Ipv6(#[cfg_attr(feature = "defmt", defmt(Display2Format))] Ipv6Addr),
}

impl Host<'_> {
    /// Whether the host is this machine: `localhost` or a name under it (RFC 6761 keeps
    /// them off DNS; browsers resolve them to loopback themselves), 127.0.0.0/8, `::1`, or
    /// an IPv4-mapped 127.0.0.0/8 address. `0.0.0.0` is not: it names no host.
    pub fn is_loopback(&self) -> bool {
        match self {
            Host::Name(name) => {
                let name = name.strip_suffix('.').unwrap_or(name);
                let tail = name.len().saturating_sub(".localhost".len());
                name.eq_ignore_ascii_case("localhost")
                    || name.get(tail..).is_some_and(|t| t.eq_ignore_ascii_case(".localhost"))
            }
            Host::Ipv4(ip) => ip.is_loopback(),
            Host::Ipv6(ip) => ip.is_loopback() || ip.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback()),
        }
    }

    /// Whether both name the same host: names ignoring ASCII case, addresses by value.
    pub fn same_as(&self, other: &Host<'_>) -> bool {
        match (self, other) {
            (Host::Name(a), Host::Name(b)) => a.eq_ignore_ascii_case(b),
            (Host::Ipv4(a), Host::Ipv4(b)) => a == b,
            (Host::Ipv6(a), Host::Ipv6(b)) => a == b,
            _ => false,
        }
    }
}

impl fmt::Display for Host<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Host::Name(name) => f.write_str(name),
            Host::Ipv4(ip) => write!(f, "{ip}"),
            Host::Ipv6(ip) => write!(f, "[{ip}]"),
        }
    }
}

/// `reg-name` characters: unreserved, sub-delims and `%` (of pct-encoded).
fn is_reg_name_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=%".contains(&b)
}

/// `host = IP-literal / IPv4address / reg-name` (not empty).
fn host(i: &[u8]) -> Res<'_, Host<'_>> {
    if i.first() == Some(&b'[') {
        let (rest, inside) =
            delimited(char('['), take_while1(|b: u8| b.is_ascii_hexdigit() || b":.".contains(&b)), char(']'))
                .parse(i)?;
        return match ascii(inside).parse::<Ipv6Addr>() {
            Ok(ip) => Ok((rest, Host::Ipv6(ip))),
            Err(_) => fail(i),
        };
    }
    let (rest, name) = take_while1(is_reg_name_char)(i)?;
    let name = ascii(name);
    if !pct_encoded_ok(name) {
        return fail(i);
    }
    Ok((rest, name.parse::<Ipv4Addr>().map_or(Host::Name(name), Host::Ipv4)))
}

/// Every `%` starts a `%HH`.
fn pct_encoded_ok(name: &str) -> bool {
    let b = name.as_bytes();
    b.iter().enumerate().filter(|(_, c)| **c == b'%').all(|(k, _)| {
        b.get(k + 1).is_some_and(u8::is_ascii_hexdigit) && b.get(k + 2).is_some_and(u8::is_ascii_hexdigit)
    })
}

/// `[ ":" port ]`, `port = *DIGIT` (empty means none).
fn port(i: &[u8]) -> Res<'_, Option<u16>> {
    let (rest, digits) = opt(preceded(char(':'), take_while(|b: u8| b.is_ascii_digit()))).parse(i)?;
    match digits {
        None | Some([]) => Ok((rest, None)),
        Some(d) => match ascii(d).parse::<u16>() {
            Ok(p) => Ok((rest, Some(p))),
            Err(_) => fail(i),
        },
    }
}

fn host_port(i: &[u8]) -> Res<'_, HostPort<'_>> {
    let (i, (host, port)) = (host, port).parse(i)?;
    Ok((i, HostPort { host, port }))
}

/// A `Host` value: a host and an optional port.
///
/// ```
/// use mcp_sansio::http::headers::HostPort;
/// assert!(HostPort::parse(b"localhost:3000").unwrap().host.is_loopback());
/// assert!(HostPort::parse(b"[::1]:8080").unwrap().host.is_loopback());
/// assert!(!HostPort::parse(b"rebind.attacker.example:3000").unwrap().host.is_loopback());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct HostPort<'a> {
    /// The host.
    pub host: Host<'a>,
    /// The port, when one was given.
    pub port: Option<u16>,
}

impl<'a> HostPort<'a> {
    /// Parses a `Host` value (`uri-host [ ":" port ]`, OWS around it allowed).
    pub fn parse(value: &'a [u8]) -> Result<Self, HeaderError> {
        whole(value, host_port)
    }
}

impl fmt::Display for HostPort<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.port {
            Some(port) => write!(f, "{}:{port}", self.host),
            None => write!(f, "{}", self.host),
        }
    }
}

/// An `Origin` value: `null` (a sandboxed or opaque origin) or scheme, host and port.
///
/// ```
/// use mcp_sansio::http::headers::Origin;
/// let o = Origin::parse(b"http://127.0.0.1:6274").unwrap();
/// assert!(o.is_loopback());
/// assert!(o.same_origin(&Origin::parse(b"HTTP://127.0.0.1:6274").unwrap()));
/// assert!(Origin::parse(b"https://app.example").unwrap().same_origin(&Origin::parse(b"https://app.example:443").unwrap()));
/// assert!(Origin::parse(b"http://evil.example/").is_err()); // an origin has no path
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Origin<'a> {
    /// `null`.
    Null,
    /// `scheme "://" host [ ":" port ]`.
    Tuple {
        /// The scheme as written (compare ignoring ASCII case).
        scheme: &'a str,
        /// The host.
        host: Host<'a>,
        /// The port, when one was given.
        port: Option<u16>,
    },
}

/// `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`.
fn scheme(i: &[u8]) -> Res<'_, &[u8]> {
    let (rest, s) = take_while1(|b: u8| b.is_ascii_alphanumeric() || b"+-.".contains(&b))(i)?;
    if s[0].is_ascii_alphabetic() { Ok((rest, s)) } else { fail(i) }
}

/// `scheme "://" host [ ":" port ]`.
fn origin_tuple(i: &[u8]) -> Res<'_, Origin<'_>> {
    let (i, (scheme, _, hp)) = (scheme, tag(&b"://"[..]), host_port).parse(i)?;
    Ok((i, Origin::Tuple { scheme: ascii(scheme), host: hp.host, port: hp.port }))
}

/// The default port of a scheme, by name ignoring case.
fn default_port(scheme: &str) -> Option<u16> {
    [("http", 80), ("ws", 80), ("https", 443), ("wss", 443)]
        .into_iter()
        .find(|(s, _)| s.eq_ignore_ascii_case(scheme))
        .map(|(_, p)| p)
}

impl<'a> Origin<'a> {
    /// Parses an `Origin` value (one origin; OWS around it allowed).
    pub fn parse(value: &'a [u8]) -> Result<Self, HeaderError> {
        if trim_ows(value) == b"null" {
            return Ok(Origin::Null);
        }
        whole(value, origin_tuple)
    }

    /// Whether the origin's host is this machine (see [`Host::is_loopback`]); `null` is not.
    pub fn is_loopback(&self) -> bool {
        matches!(self, Origin::Tuple { host, .. } if host.is_loopback())
    }

    /// The port, or the scheme's default (80 for `http` and `ws`, 443 for `https` and `wss`).
    pub fn effective_port(&self) -> Option<u16> {
        match self {
            Origin::Null => None,
            Origin::Tuple { port: Some(p), .. } => Some(*p),
            Origin::Tuple { scheme, .. } => default_port(scheme),
        }
    }

    /// Whether both are the same origin: scheme and host ignoring case, ports after
    /// defaults. `null` is the same as nothing, itself included (opaque origins are
    /// unique), so it never matches an allowed list.
    pub fn same_origin(&self, other: &Origin<'_>) -> bool {
        match (self, other) {
            (Origin::Tuple { scheme: a, host: ha, .. }, Origin::Tuple { scheme: b, host: hb, .. }) => {
                a.eq_ignore_ascii_case(b) && ha.same_as(hb) && self.effective_port() == other.effective_port()
            }
            _ => false,
        }
    }
}

impl fmt::Display for Origin<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Null => f.write_str("null"),
            Origin::Tuple { scheme, host, port: Some(port) } => write!(f, "{scheme}://{host}:{port}"),
            Origin::Tuple { scheme, host, port: None } => write!(f, "{scheme}://{host}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;

    #[test]
    fn hosts() {
        let hp = HostPort::parse;
        assert_eq!(hp(b"example.com"), Ok(HostPort { host: Host::Name("example.com"), port: None }));
        assert_eq!(hp(b"127.0.0.1:3000"), Ok(HostPort { host: Host::Ipv4(Ipv4Addr::LOCALHOST), port: Some(3000) }));
        assert_eq!(hp(b"[::1]"), Ok(HostPort { host: Host::Ipv6(Ipv6Addr::LOCALHOST), port: None }));
        assert_eq!(hp(b"x:"), Ok(HostPort { host: Host::Name("x"), port: None }));
        assert_eq!(hp(b"a%20b:1").map(|h| h.port), Ok(Some(1)));
        for (bad, at) in [
            (&b""[..], 0),
            (b"x:65536", 1),
            (b"[::1", 4),
            (b"[fe80::1%25eth0]", 8),
            (b"[1.2.3.4]", 0),
            (b"a b", 2),
            (b"a%2", 0),
            (b"x:1:2", 3),
            (b"user@host", 4),
        ] {
            assert_eq!(hp(bad), Err(HeaderError::Syntax { at }), "{:?}", core::str::from_utf8(bad));
        }
        assert_eq!(hp(b"[::FFFF:127.0.0.1]:80").unwrap().to_string(), "[::ffff:127.0.0.1]:80");
    }

    #[test]
    fn loopback() {
        for yes in [
            &b"localhost"[..],
            b"LOCALHOST:1",
            b"localhost.",
            b"mcp.localhost",
            b"127.0.0.1",
            b"127.8.9.10",
            b"[::1]",
            b"[::ffff:127.0.0.1]",
        ] {
            assert!(HostPort::parse(yes).unwrap().host.is_loopback(), "{:?}", core::str::from_utf8(yes));
        }
        for no in [
            &b"localhost.example"[..],
            b"notlocalhost",
            b"0.0.0.0",
            b"[::]",
            b"10.0.0.1",
            b"127.0.0.1.nip.io",
            b"xlocalhost",
        ] {
            assert!(!HostPort::parse(no).unwrap().host.is_loopback(), "{:?}", core::str::from_utf8(no));
        }
    }

    #[test]
    fn origins() {
        assert_eq!(Origin::parse(b"null"), Ok(Origin::Null));
        assert!(!Origin::Null.same_origin(&Origin::Null));
        let o = Origin::parse(b"https://[::1]:8443").unwrap();
        assert!(o.is_loopback());
        assert_eq!(o.to_string(), "https://[::1]:8443");
        let a = Origin::parse(b"http://Example.COM").unwrap();
        assert!(a.same_origin(&Origin::parse(b"http://example.com:80").unwrap()));
        assert!(!a.same_origin(&Origin::parse(b"https://example.com").unwrap()));
        assert!(!a.same_origin(&Origin::parse(b"http://example.com:8080").unwrap()));
        assert_eq!(Origin::parse(b"chrome-extension://abc").unwrap().effective_port(), None);
        for bad in
            [&b"NULL"[..], b"http://", b"http:/x", b"1http://x", b"http://x/", b"http://x http://y", b"http://a:b"]
        {
            assert!(Origin::parse(bad).is_err(), "{:?}", core::str::from_utf8(bad));
        }
    }
}
