//! The little JSON the viewer embeds in its page: values built in Rust,
//! written as text that is safe inside an HTML `<script>` element.

/// A JSON value.
#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    Null,
    Int(i64),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(&'static str, Json)>),
}

impl Json {
    /// A string value.
    pub fn str(s: impl Into<String>) -> Json {
        Json::Str(s.into())
    }

    /// A string, or null.
    pub fn opt_str(s: Option<String>) -> Json {
        s.map_or(Json::Null, Json::Str)
    }

    /// The JSON text.  `<`, `>` and `&` are written as `\u` escapes, so
    /// the text can sit in an HTML `<script>` element as it is: no
    /// `</script>` or `<!--` can appear in it.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }

    fn write(&self, out: &mut String) {
        match self {
            Json::Null => out.push_str("null"),
            Json::Int(i) => out.push_str(&i.to_string()),
            Json::Str(s) => write_str(s, out),
            Json::Arr(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.write(out);
                }
                out.push(']');
            }
            Json::Obj(fields) => {
                out.push('{');
                for (i, (key, value)) in fields.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write_str(key, out);
                    out.push(':');
                    value.write(out);
                }
                out.push('}');
            }
        }
    }
}

fn write_str(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            // the HTML-significant characters, and the two line
            // separators JavaScript once refused in strings
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => {
                out.push_str(&format!("\\u{:04x}", c as u32))
            }
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_written_compactly() {
        let v = Json::Obj(vec![
            ("a", Json::Arr(vec![Json::Int(-1), Json::Null])),
            ("b", Json::str("x\"y\\z\n")),
        ]);
        assert_eq!(v.to_text(), r#"{"a":[-1,null],"b":"x\"y\\z\n"}"#);
    }

    #[test]
    fn strings_cannot_close_the_script_element() {
        let text = Json::str("</script><!-- a & b \u{1}").to_text();
        assert!(!text.contains('<') && !text.contains('>') && !text.contains('&'));
        assert_eq!(text, r#""\u003c/script\u003e\u003c!-- a \u0026 b \u0001""#);
    }
}
