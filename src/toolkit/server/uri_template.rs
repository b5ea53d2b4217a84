//! Matching a URI against a resource template (RFC 6570, simple string expansion).
//!
//! A template is literal text and `{name}` expressions. Simple expansion percent-encodes
//! every reserved character of a value, so a value never contains `/`, `?`, `#` or any
//! other delimiter: each expression matches a non-empty run of characters up to the next
//! literal character of the template (or the end). Operators (`{+path}`, `{?query}`…)
//! and value lists are not matched: a template that uses them never matches, and its
//! handler is not called.

/// The most expressions a template may have.
pub const MAX_VARIABLES: usize = 8;

/// The variables of a template, as the matched URI gave them (still percent-encoded).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Vars<'a> {
    vars: [(&'a str, &'a str); MAX_VARIABLES],
    len: usize,
}

impl<'a> Vars<'a> {
    /// The value of `name`.
    pub fn get(&self, name: &str) -> Option<&'a str> {
        self.iter().find(|(n, _)| *n == name).map(|(_, v)| v)
    }

    /// Every variable, in the template's order.
    pub fn iter(&self) -> impl Iterator<Item = (&'a str, &'a str)> + '_ {
        self.vars[..self.len].iter().copied()
    }

    /// How many variables there are.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// The variables if `uri` matches `template`.
pub fn match_template<'a>(template: &'a str, uri: &'a str) -> Option<Vars<'a>> {
    let mut vars = Vars::default();
    let (mut t, mut u) = (template, uri);
    loop {
        let Some(open) = t.find('{') else {
            return (t == u).then_some(vars);
        };
        let (literal, rest) = t.split_at(open);
        u = u.strip_prefix(literal)?;
        let close = rest.find('}')?;
        let name = &rest[1..close];
        if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.') {
            return None;
        }
        t = &rest[close + 1..];
        // The value runs to the next literal character (the end if there is none), and
        // never over a delimiter.
        let stop = t.chars().next().filter(|&c| c != '{');
        let end = u.char_indices().find(|&(_, c)| Some(c) == stop || is_delimiter(c)).map_or(u.len(), |(i, _)| i);
        if end == 0 || vars.len == MAX_VARIABLES {
            return None;
        }
        vars.vars[vars.len] = (name, &u[..end]);
        vars.len += 1;
        u = &u[end..];
    }
}

/// RFC 3986's reserved characters, which simple expansion always encodes.
fn is_delimiter(c: char) -> bool {
    matches!(
        c,
        ':' | '/' | '?' | '#' | '[' | ']' | '@' | '!' | '$' | '&' | '\'' | '(' | ')' | '*' | '+' | ',' | ';' | '='
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variables_match_up_to_the_next_literal() {
        let v = match_template("weather://{city}/day/{n}", "weather://oslo/day/3").unwrap();
        assert_eq!((v.get("city"), v.get("n"), v.len()), (Some("oslo"), Some("3"), 2));
        let v = match_template("file:///{name}.txt", "file:///notes.txt").unwrap();
        assert_eq!(v.get("name"), Some("notes"));
        assert_eq!(match_template("test://static", "test://static").unwrap().len(), 0);
    }

    #[test]
    fn what_does_not_match() {
        assert!(match_template("weather://{city}/today", "weather://oslo/tomorrow").is_none());
        assert!(match_template("weather://{city}", "weather://").is_none(), "empty value");
        assert!(match_template("weather://{city}", "weather://a/b").is_none(), "a delimiter in a value");
        assert!(match_template("x://{+path}", "x://a").is_none(), "operators are not matched");
        assert!(match_template("x://{a", "x://a").is_none(), "unclosed expression");
        assert!(match_template("x://{a}{b}", "x://ab").is_none(), "two expressions in a row cannot be told apart");
    }
}
