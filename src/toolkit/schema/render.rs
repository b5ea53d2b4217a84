//! Compile-time text: a [`Node`] rendered as JSON Schema, member names renamed the way
//! serde renames them, doc comments joined. Every function here is a `const fn` that
//! runs twice, once to measure (into an empty buffer) and once into an array of exactly
//! that size, so the text lands in flash (or `.rodata`) as one exact literal.

use super::node::{Node, Property};

/// Writes into a buffer, counting what does not fit (the measuring pass writes nothing).
struct Out<'b> {
    buf: &'b mut [u8],
    len: usize,
}

impl Out<'_> {
    const fn byte(&mut self, b: u8) {
        if self.len < self.buf.len() {
            self.buf[self.len] = b;
        }
        self.len += 1;
    }

    const fn bytes(&mut self, s: &[u8]) {
        let mut i = 0;
        while i < s.len() {
            self.byte(s[i]);
            i += 1;
        }
    }

    /// A JSON string: quoted, with `"`, `\` and control characters escaped.
    const fn string(&mut self, s: &str) {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let s = s.as_bytes();
        self.byte(b'"');
        let mut i = 0;
        while i < s.len() {
            let b = s[i];
            match b {
                b'"' => self.bytes(b"\\\""),
                b'\\' => self.bytes(b"\\\\"),
                b'\n' => self.bytes(b"\\n"),
                b'\r' => self.bytes(b"\\r"),
                b'\t' => self.bytes(b"\\t"),
                0..0x20 | 0x7f => {
                    self.bytes(b"\\u00");
                    self.byte(HEX[(b >> 4) as usize]);
                    self.byte(HEX[(b & 15) as usize]);
                }
                _ => self.byte(b),
            }
            i += 1;
        }
        self.byte(b'"');
    }

    const fn unsigned(&mut self, mut v: u64) {
        let mut digits = [0u8; 20];
        let mut n = 0;
        loop {
            digits[n] = b'0' + (v % 10) as u8;
            n += 1;
            v /= 10;
            if v == 0 {
                break;
            }
        }
        while n > 0 {
            n -= 1;
            self.byte(digits[n]);
        }
    }

    const fn signed(&mut self, v: i64) {
        if v < 0 {
            self.byte(b'-');
        }
        self.unsigned(v.unsigned_abs());
    }

    /// `{"type":"<ty>"` (`["<ty>","null"]` if `nullable`) and the description, if any;
    /// the caller adds the rest and `}`.
    const fn open(&mut self, ty: &str, nullable: bool, description: Option<&str>) {
        self.bytes(b"{\"type\":");
        if nullable {
            self.byte(b'[');
        }
        self.byte(b'"');
        self.bytes(ty.as_bytes());
        self.byte(b'"');
        if nullable {
            self.bytes(b",\"null\"]");
        }
        if let Some(d) = description {
            self.bytes(b",\"description\":");
            self.string(d);
        }
    }

    const fn keyword(&mut self, name: &str, value: Option<usize>) {
        if let Some(v) = value {
            self.bytes(b",\"");
            self.bytes(name.as_bytes());
            self.bytes(b"\":");
            self.unsigned(v as u64);
        }
    }

    /// `node`'s schema; `description` (a field's doc comment) takes the place of the
    /// type's own.
    const fn node(&mut self, node: &Node, description: Option<&str>) {
        match *node {
            Node::Nullable(inner) => self.typed(inner, true, description),
            _ => self.typed(node, false, description),
        }
    }

    /// `node`'s schema, `null` accepted too if `nullable`.
    const fn typed(&mut self, node: &Node, nullable: bool, description: Option<&str>) {
        match *node {
            Node::Nullable(inner) => self.typed(inner, true, description),
            Node::Any => match description {
                Some(d) => {
                    self.bytes(b"{\"description\":");
                    self.string(d);
                    self.byte(b'}');
                }
                None => self.bytes(b"{}"),
            },
            Node::Null => {
                self.open("null", nullable, description);
                self.byte(b'}');
            }
            Node::Boolean => {
                self.open("boolean", nullable, description);
                self.byte(b'}');
            }
            Node::Number => {
                self.open("number", nullable, description);
                self.byte(b'}');
            }
            Node::Integer { minimum, maximum } => {
                self.open("integer", nullable, description);
                if let Some(min) = minimum {
                    self.bytes(b",\"minimum\":");
                    self.signed(min);
                }
                if let Some(max) = maximum {
                    self.bytes(b",\"maximum\":");
                    self.signed(max);
                }
                self.byte(b'}');
            }
            Node::String { max_length } => {
                self.open("string", nullable, description);
                self.keyword("maxLength", max_length);
                self.byte(b'}');
            }
            Node::Enum { description: own, values } => {
                self.open("string", nullable, if description.is_some() { description } else { own });
                self.bytes(b",\"enum\":[");
                let mut i = 0;
                while i < values.len() {
                    if i > 0 {
                        self.byte(b',');
                    }
                    self.string(values[i]);
                    i += 1;
                }
                if nullable {
                    self.bytes(b",null");
                }
                self.bytes(b"]}");
            }
            Node::Array { items, min_items, max_items } => {
                self.open("array", nullable, description);
                self.bytes(b",\"items\":");
                self.node(items, None);
                self.keyword("minItems", min_items);
                self.keyword("maxItems", max_items);
                self.byte(b'}');
            }
            Node::Map { values } => {
                self.open("object", nullable, description);
                self.bytes(b",\"additionalProperties\":");
                self.node(values, None);
                self.byte(b'}');
            }
            Node::Object { description: own, properties } => {
                self.open("object", nullable, if description.is_some() { description } else { own });
                self.properties(properties);
                self.byte(b'}');
            }
        }
    }

    const fn properties(&mut self, properties: &[Property]) {
        self.bytes(b",\"properties\":{");
        let mut i = 0;
        let mut required = 0;
        while i < properties.len() {
            let p = &properties[i];
            if i > 0 {
                self.byte(b',');
            }
            self.string(p.name);
            self.byte(b':');
            self.node(p.node, p.description);
            if p.required {
                required += 1;
            }
            i += 1;
        }
        self.byte(b'}');
        if required > 0 {
            self.bytes(b",\"required\":[");
            let mut i = 0;
            let mut first = true;
            while i < properties.len() {
                if properties[i].required {
                    if !first {
                        self.byte(b',');
                    }
                    self.string(properties[i].name);
                    first = false;
                }
                i += 1;
            }
            self.byte(b']');
        }
    }
}

/// The length of `node`'s JSON Schema text.
pub const fn schema_len(node: &Node) -> usize {
    let mut out = Out { buf: &mut [], len: 0 };
    out.node(node, None);
    out.len
}

/// `node`'s JSON Schema text, in an array of [`schema_len`] bytes.
pub const fn render_schema<const N: usize>(node: &Node) -> [u8; N] {
    let mut buf = [0u8; N];
    let mut out = Out { buf: &mut buf, len: 0 };
    out.node(node, None);
    buf
}

/// Bytes this module wrote, as text. (They are always UTF-8: only ASCII is added to the
/// caller's own strings.)
pub const fn text(bytes: &'static [u8]) -> &'static str {
    match core::str::from_utf8(bytes) {
        Ok(s) => s,
        Err(_) => panic!("schema text is not UTF-8"),
    }
}

/// serde's `rename_all` rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rename {
    /// No `rename_all`.
    None,
    /// `lowercase`
    Lower,
    /// `UPPERCASE`
    Upper,
    /// `PascalCase`
    Pascal,
    /// `camelCase`
    Camel,
    /// `snake_case`
    Snake,
    /// `SCREAMING_SNAKE_CASE`
    ScreamingSnake,
    /// `kebab-case`
    Kebab,
    /// `SCREAMING-KEBAB-CASE`
    ScreamingKebab,
}

const fn eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

impl Rename {
    /// The rule serde's `rename_all = "…"` names; an unknown one does not compile.
    pub const fn parse(rule: &str) -> Rename {
        match () {
            _ if eq(rule, "lowercase") => Rename::Lower,
            _ if eq(rule, "UPPERCASE") => Rename::Upper,
            _ if eq(rule, "PascalCase") => Rename::Pascal,
            _ if eq(rule, "camelCase") => Rename::Camel,
            _ if eq(rule, "snake_case") => Rename::Snake,
            _ if eq(rule, "SCREAMING_SNAKE_CASE") => Rename::ScreamingSnake,
            _ if eq(rule, "kebab-case") => Rename::Kebab,
            _ if eq(rule, "SCREAMING-KEBAB-CASE") => Rename::ScreamingKebab,
            _ => panic!("schema!: unknown rename_all rule"),
        }
    }
}

/// Writes `name` (a field's snake_case identifier, or a variant's PascalCase one) the way
/// serde's rule renames it; a raw identifier loses its `r#`.
const fn rename(out: &mut Out<'_>, rule: Rename, name: &str, variant: bool) {
    let mut s = name.as_bytes();
    if s.len() > 2 && s[0] == b'r' && s[1] == b'#' {
        s = s.split_at(2).1;
    }
    let mut i = 0;
    if variant {
        // From PascalCase.
        while i < s.len() {
            let c = s[i];
            match rule {
                Rename::None | Rename::Pascal => out.byte(c),
                Rename::Lower => out.byte(c.to_ascii_lowercase()),
                Rename::Upper => out.byte(c.to_ascii_uppercase()),
                Rename::Camel => out.byte(if i == 0 { c.to_ascii_lowercase() } else { c }),
                Rename::Snake | Rename::Kebab | Rename::ScreamingSnake | Rename::ScreamingKebab => {
                    if i > 0 && c.is_ascii_uppercase() {
                        out.byte(if matches!(rule, Rename::Kebab | Rename::ScreamingKebab) { b'-' } else { b'_' });
                    }
                    let upper = matches!(rule, Rename::ScreamingSnake | Rename::ScreamingKebab);
                    out.byte(if upper { c.to_ascii_uppercase() } else { c.to_ascii_lowercase() });
                }
            }
            i += 1;
        }
        return;
    }
    // From snake_case.
    let mut capital = matches!(rule, Rename::Pascal);
    while i < s.len() {
        let c = s[i];
        match rule {
            Rename::None | Rename::Lower | Rename::Snake => out.byte(c),
            Rename::Upper | Rename::ScreamingSnake => out.byte(c.to_ascii_uppercase()),
            Rename::Kebab => out.byte(if c == b'_' { b'-' } else { c }),
            Rename::ScreamingKebab => out.byte(if c == b'_' { b'-' } else { c.to_ascii_uppercase() }),
            Rename::Pascal | Rename::Camel => {
                if c == b'_' {
                    capital = true;
                } else if capital {
                    out.byte(c.to_ascii_uppercase());
                    capital = false;
                } else {
                    out.byte(c);
                }
            }
        }
        i += 1;
    }
}

/// The length of `name` renamed by `rule` (see [`renamed`]).
pub const fn renamed_len(rule: Rename, name: &str, variant: bool) -> usize {
    let mut out = Out { buf: &mut [], len: 0 };
    rename(&mut out, rule, name, variant);
    out.len
}

/// `name` renamed by `rule`, as serde does: `variant` for an enum variant (written in
/// PascalCase), otherwise a field (written in snake_case).
pub const fn renamed<const N: usize>(rule: Rename, name: &str, variant: bool) -> [u8; N] {
    let mut buf = [0u8; N];
    let mut out = Out { buf: &mut buf, len: 0 };
    rename(&mut out, rule, name, variant);
    buf
}

/// Doc comment lines (`#[doc = "…"]` values) as one text: each line without the space
/// after `///`, empty lines at either end dropped.
const fn doc(out: &mut Out<'_>, lines: &[&str]) {
    let mut started = false;
    let mut breaks = 0;
    let mut l = 0;
    while l < lines.len() {
        // A literal may hold several lines (a `/** … */` comment).
        let s = lines[l].as_bytes();
        let mut start = 0;
        while start <= s.len() {
            let mut end = start;
            while end < s.len() && s[end] != b'\n' {
                end += 1;
            }
            let mut from = start;
            if from < end && s[from] == b' ' {
                from += 1;
            }
            let mut to = end;
            while to > from && s[to - 1].is_ascii_whitespace() {
                to -= 1;
            }
            if to == from {
                if started {
                    breaks += 1;
                }
            } else {
                if started {
                    let mut b = 0;
                    while b <= breaks {
                        out.byte(b'\n');
                        b += 1;
                    }
                }
                let mut i = from;
                while i < to {
                    out.byte(s[i]);
                    i += 1;
                }
                started = true;
                breaks = 0;
            }
            start = end + 1;
        }
        l += 1;
    }
}

/// The length of the text [`doc_text`] makes.
pub const fn doc_len(lines: &[&str]) -> usize {
    let mut out = Out { buf: &mut [], len: 0 };
    doc(&mut out, lines);
    out.len
}

/// Doc comment lines joined into one description.
pub const fn doc_text<const N: usize>(lines: &[&str]) -> [u8; N] {
    let mut buf = [0u8; N];
    let mut out = Out { buf: &mut buf, len: 0 };
    doc(&mut out, lines);
    buf
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rendered(node: &Node) -> std::string::String {
        let mut buf = std::vec![0u8; schema_len(node)];
        let mut out = Out { buf: &mut buf, len: 0 };
        out.node(node, None);
        std::string::String::from_utf8(buf).unwrap()
    }

    fn renamed_text(rule: Rename, name: &str, variant: bool) -> std::string::String {
        let mut buf = std::vec![0u8; renamed_len(rule, name, variant)];
        rename(&mut Out { buf: &mut buf, len: 0 }, rule, name, variant);
        std::string::String::from_utf8(buf).unwrap()
    }

    #[test]
    fn descriptions_and_bounds_are_escaped_and_written() {
        let n = Node::Integer { minimum: Some(i64::MIN), maximum: Some(i64::MAX) };
        assert_eq!(rendered(&n), r#"{"type":"integer","minimum":-9223372036854775808,"maximum":9223372036854775807}"#);
        static P: [Property; 1] =
            [Property { name: "a\"b", description: Some("line\none \\ \u{1}"), node: &Node::Any, required: false }];
        let n = Node::Object { description: None, properties: &P };
        assert_eq!(rendered(&n), r#"{"type":"object","properties":{"a\"b":{"description":"line\none \\ \u0001"}}}"#);
    }

    #[test]
    fn renames_follow_serde() {
        // The same cases as serde_derive's own tests (internals/case.rs).
        for (rule, field, variant) in [
            (Rename::Lower, "very_tasty", "verytasty"),
            (Rename::Upper, "VERY_TASTY", "VERYTASTY"),
            (Rename::Pascal, "VeryTasty", "VeryTasty"),
            (Rename::Camel, "veryTasty", "veryTasty"),
            (Rename::Snake, "very_tasty", "very_tasty"),
            (Rename::ScreamingSnake, "VERY_TASTY", "VERY_TASTY"),
            (Rename::Kebab, "very-tasty", "very-tasty"),
            (Rename::ScreamingKebab, "VERY-TASTY", "VERY-TASTY"),
        ] {
            assert_eq!(renamed_text(rule, "very_tasty", false), field, "{rule:?}");
            assert_eq!(renamed_text(rule, "VeryTasty", true), variant, "{rule:?}");
        }
        assert_eq!(renamed_text(Rename::None, "r#type", false), "type");
    }

    #[test]
    fn doc_lines_lose_the_leading_space_and_the_blank_ends() {
        let lines = ["", " First line.", "   indented", "", "", " Last.  ", ""];
        let mut buf = std::vec![0u8; doc_len(&lines)];
        doc(&mut Out { buf: &mut buf, len: 0 }, &lines);
        assert_eq!(std::str::from_utf8(&buf).unwrap(), "First line.\n  indented\n\n\nLast.");
        assert_eq!(doc_len(&[]), 0);
        assert_eq!(doc_len(&[" ", ""]), 0);
    }
}
