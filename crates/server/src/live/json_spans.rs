//! A JSON text's shape as spans of that text: where each value starts and ends and, in an
//! object, each member's key, without building a `serde_json::Value`.
//!
//! Why: a game's next state reaches its subscribers as a patch of the state they hold
//! (`live::patch`). Diffing `Value`s meant parsing the view into a value, unpacking and
//! parsing the state last shown, and dropping both on every move: about a fifth of the
//! server's CPU under load (issue 52). Comparing the two texts' spans byte by byte gives the
//! same patch with one serialisation and no allocation per value.
//!
//! The texts are the server's own serialisations, so the scanner is lenient (it checks the
//! structure, not every literal), but it never panics: anything it cannot read is `None`.

/// What a value is, as far as a diff cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Object,
    Array,
    /// A string, number, `true`, `false` or `null`: compared as bytes, set whole.
    Scalar,
}

/// One value of the text: its bytes are `text[start..end]`.
#[derive(Clone, Copy, Debug)]
struct Node {
    kind: Kind,
    start: u32,
    end: u32,
    /// The member's key as written (between its quotes, escapes kept); empty elsewhere.
    key: (u32, u32),
    /// The first child (member or element) and the next sibling; 0 for none (the root is
    /// nobody's child or sibling).
    first: u32,
    next: u32,
}

/// A parsed JSON text: the root is node 0.
pub struct Spans<'a> {
    text: &'a [u8],
    nodes: Vec<Node>,
}

/// A value inside [`Spans`].
#[derive(Clone, Copy)]
pub struct At<'s, 'a> {
    spans: &'s Spans<'a>,
    index: u32,
}

/// Deeper than this is refused rather than recursed into (the server's documents are a few
/// levels deep; serde_json stops at 128 too).
const MAX_DEPTH: usize = 128;

impl<'a> Spans<'a> {
    /// The shape of `text`, or `None` when it is not one JSON value.
    pub fn parse(text: &'a [u8]) -> Option<Spans<'a>> {
        if u32::try_from(text.len()).is_err() {
            return None;
        }
        let mut spans = Spans {
            text,
            nodes: Vec::with_capacity(text.len() / 16 + 4),
        };
        let mut pos = skip_ws(text, 0);
        pos = spans.value(pos, (0, 0), 0)?;
        (skip_ws(text, pos) == text.len()).then_some(spans)
    }

    pub fn root(&self) -> At<'_, 'a> {
        At {
            spans: self,
            index: 0,
        }
    }

    /// Reads the value at `pos` into a new node; the position after it.
    fn value(&mut self, pos: usize, key: (u32, u32), depth: usize) -> Option<usize> {
        if depth > MAX_DEPTH {
            return None;
        }
        let index = self.nodes.len();
        let open = *self.text.get(pos)?;
        let kind = match open {
            b'{' => Kind::Object,
            b'[' => Kind::Array,
            _ => Kind::Scalar,
        };
        self.nodes.push(Node {
            kind,
            start: pos as u32,
            end: pos as u32,
            key,
            first: 0,
            next: 0,
        });
        let end = match kind {
            Kind::Scalar if open == b'"' => string_end(self.text, pos)?,
            Kind::Scalar => scalar_end(self.text, pos)?,
            Kind::Object | Kind::Array => self.children(index, pos + 1, kind, depth)?,
        };
        self.nodes[index].end = end as u32;
        Some(end)
    }

    /// Reads the members or elements of the container at `index`, from `pos` (after its
    /// opening bracket); the position after its closing bracket.
    fn children(&mut self, index: usize, pos: usize, kind: Kind, depth: usize) -> Option<usize> {
        let close = if kind == Kind::Object { b'}' } else { b']' };
        let mut pos = skip_ws(self.text, pos);
        if *self.text.get(pos)? == close {
            return Some(pos + 1);
        }
        let mut last: Option<usize> = None;
        loop {
            let mut key = (0, 0);
            if kind == Kind::Object {
                if *self.text.get(pos)? != b'"' {
                    return None;
                }
                let key_end = string_end(self.text, pos)?;
                key = (pos as u32 + 1, key_end as u32 - 1);
                pos = skip_ws(self.text, key_end);
                if *self.text.get(pos)? != b':' {
                    return None;
                }
                pos = skip_ws(self.text, pos + 1);
            }
            let child = self.nodes.len() as u32;
            match last {
                Some(l) => self.nodes[l].next = child,
                None => self.nodes[index].first = child,
            }
            last = Some(child as usize);
            pos = skip_ws(self.text, self.value(pos, key, depth + 1)?);
            match *self.text.get(pos)? {
                b',' => pos = skip_ws(self.text, pos + 1),
                c if c == close => return Some(pos + 1),
                _ => return None,
            }
        }
    }
}

impl<'s, 'a> At<'s, 'a> {
    fn node(&self) -> &'s Node {
        &self.spans.nodes[self.index as usize]
    }

    pub fn kind(&self) -> Kind {
        self.node().kind
    }

    /// The value's text.
    pub fn bytes(&self) -> &'a [u8] {
        let n = self.node();
        &self.spans.text[n.start as usize..n.end as usize]
    }

    /// The member's key as written in the text (escapes kept).
    pub fn raw_key(&self) -> &'a [u8] {
        let (start, end) = self.node().key;
        &self.spans.text[start as usize..end as usize]
    }

    /// The members or elements, in order.
    pub fn children(&self) -> Children<'s, 'a> {
        Children {
            spans: self.spans,
            next: self.node().first,
        }
    }

    /// The member whose key is written `raw` (an object's keys are unique in the server's
    /// texts; the first one wins otherwise).
    pub fn member(&self, raw: &[u8]) -> Option<At<'s, 'a>> {
        self.children().find(|c| c.raw_key() == raw)
    }
}

/// See [`At::children`].
pub struct Children<'s, 'a> {
    spans: &'s Spans<'a>,
    next: u32,
}

impl<'s, 'a> Iterator for Children<'s, 'a> {
    type Item = At<'s, 'a>;

    fn next(&mut self) -> Option<At<'s, 'a>> {
        if self.next == 0 {
            return None;
        }
        let at = At {
            spans: self.spans,
            index: self.next,
        };
        self.next = at.node().next;
        Some(at)
    }
}

fn skip_ws(text: &[u8], mut pos: usize) -> usize {
    while matches!(text.get(pos), Some(b' ' | b'\n' | b'\r' | b'\t')) {
        pos += 1;
    }
    pos
}

/// The position after the string opening at `pos` (its closing quote included).
fn string_end(text: &[u8], pos: usize) -> Option<usize> {
    let mut i = pos + 1;
    loop {
        match *text.get(i)? {
            b'"' => return Some(i + 1),
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
}

/// The position after a number or literal starting at `pos`.
fn scalar_end(text: &[u8], pos: usize) -> Option<usize> {
    let len = text[pos..]
        .iter()
        .position(|c| matches!(c, b',' | b'}' | b']' | b' ' | b'\n' | b'\r' | b'\t'))
        .unwrap_or(text.len() - pos);
    (len > 0).then_some(pos + len)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_cover_each_value_and_key() {
        let text = br#" {"a": [1, "x\"]", {"b" : null}], "c\"d": {}, "e": -1.5e3} "#;
        let spans = Spans::parse(text).expect("JSON");
        let root = spans.root();
        assert_eq!(root.kind(), Kind::Object);
        let keys: Vec<&[u8]> = root.children().map(|c| c.raw_key()).collect();
        assert_eq!(keys, [&b"a"[..], br#"c\"d"#, b"e"]);
        let a = root.member(b"a").unwrap();
        let elements: Vec<&[u8]> = a.children().map(|c| c.bytes()).collect();
        assert_eq!(elements, [&b"1"[..], br#""x\"]""#, br#"{"b" : null}"#]);
        assert_eq!(root.member(br#"c\"d"#).unwrap().kind(), Kind::Object);
        assert_eq!(root.member(b"e").unwrap().bytes(), b"-1.5e3");
        assert!(root.member(b"zz").is_none());
    }

    #[test]
    fn what_is_not_one_json_value_is_refused_without_a_panic() {
        for bad in [
            &b""[..],
            b"{",
            b"[1,",
            br#"{"a" 1}"#,
            br#"{"a":1]"#,
            b"[1 2]",
            br#""open"#,
            b"{} {}",
            br#"{1:2}"#,
        ] {
            assert!(
                Spans::parse(bad).is_none(),
                "{}",
                String::from_utf8_lossy(bad)
            );
        }
        let deep = "[".repeat(200) + &"]".repeat(200);
        assert!(Spans::parse(deep.as_bytes()).is_none());
    }
}
