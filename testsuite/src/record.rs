//! One record per case and backend, and its JSON form
//! `{"file", "function", "args", "backend", "status", "detail"}`.

use std::fmt::Write;

/// How a case ended on one backend.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// Same result as the reference.
    Pass,
    /// A different result (value or exception class).
    Fail,
    /// The backend could not run the case (flowing error, internal error,
    /// unreadable case file).
    Error,
}

impl Status {
    /// `"pass"`, `"fail"` or `"error"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Fail => "fail",
            Status::Error => "error",
        }
    }
}

/// The result of one case on one backend.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaseRecord {
    /// The case file, as given (or found in a given directory).
    pub file: String,
    /// The entry function's qualified name (empty when the file itself
    /// could not be read).
    pub function: String,
    /// `repr` of the argument list.
    pub args: String,
    /// The backend's name.
    pub backend: String,
    /// Pass, fail or error.
    pub status: Status,
    /// Why it failed or erred; empty on pass.
    pub detail: String,
}

impl CaseRecord {
    /// True unless the case passed.
    pub fn failed(&self) -> bool {
        self.status != Status::Pass
    }

    /// The record as one JSON object.
    pub fn to_json(&self) -> String {
        let mut out = String::from("{");
        let fields = [
            ("file", self.file.as_str()),
            ("function", self.function.as_str()),
            ("args", self.args.as_str()),
            ("backend", self.backend.as_str()),
            ("status", self.status.as_str()),
            ("detail", self.detail.as_str()),
        ];
        for (i, (k, v)) in fields.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            json_string(&mut out, k);
            out.push_str(": ");
            json_string(&mut out, v);
        }
        out.push('}');
        out
    }

    /// One line for people: `file:function(args) [backend]: detail`.
    pub fn summary_line(&self) -> String {
        let args = self
            .args
            .strip_prefix('[')
            .and_then(|a| a.strip_suffix(']'))
            .unwrap_or(&self.args);
        let call = if self.function.is_empty() {
            String::new()
        } else {
            format!(":{}({args})", self.function)
        };
        format!("{}{call} [{}]: {}", self.file, self.backend, self.detail)
    }
}

/// Every record as a JSON array, one record per line.
pub fn records_to_json(records: &[CaseRecord]) -> String {
    let mut out = String::from("[\n");
    for (i, r) in records.iter().enumerate() {
        out.push_str(&r.to_json());
        if i + 1 < records.len() {
            out.push(',');
        }
        out.push('\n');
    }
    out.push_str("]\n");
    out
}

fn json_string(out: &mut String, s: &str) {
    out.push('"');
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_escapes() {
        let r = CaseRecord {
            file: "a\"b.py".into(),
            function: "f".into(),
            args: "['x\\n', 1]".into(),
            backend: "flow".into(),
            status: Status::Fail,
            detail: "line1\nline2\u{1}é".into(),
        };
        assert_eq!(
            r.to_json(),
            r#"{"file": "a\"b.py", "function": "f", "args": "['x\\n', 1]", "backend": "flow", "status": "fail", "detail": "line1\nline2\u0001é"}"#
        );
        assert_eq!(
            r.summary_line(),
            "a\"b.py:f('x\\n', 1) [flow]: line1\nline2\u{1}é"
        );
        assert_eq!(records_to_json(&[]), "[\n]\n");
    }
}
