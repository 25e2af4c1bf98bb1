//! The errors of the flow space, the annotator and the rtyper, rendered
//! in one place: the stages return data (a message, a file and line, the
//! columns when the flow space knows them, how the conflict arose), this
//! module turns it into a [`Diagnostic`] — adding the calls that led to
//! the function, from the annotator's call sites, and a hint — and renders
//! that with `codespan-reporting`: the plain line first (`rpy3: file:line:
//! message`, which scripts and the test harness read), then the source
//! with a caret under the expression (the whole line when the columns are
//! unknown), the calls, the notes and the help.  Colour only on a terminal
//! and never when `NO_COLOR` is set.

use std::collections::{HashMap, HashSet};
use std::io::IsTerminal;

use codespan_reporting::diagnostic::{Diagnostic as Report, Label};
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term::{self, termcolor};
use pyo3::prelude::*;
use rpy3_annotator::{Annotator, GraphId};
use rpy3_driver::{DriverError, Translation};

/// How many calls leading to the error are shown in the snippet.
const CALLS_SHOWN: usize = 3;
/// How far back the chain of calls is followed.
const CALLS_FOLLOWED: usize = 12;

/// A call on the way to the error: `caller` calls `callee` at
/// `filename:lineno`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallSite {
    pub caller: String,
    pub callee: String,
    pub filename: String,
    pub lineno: u32,
}

/// An error as the renderer sees it.
#[derive(Clone, Debug, Default)]
pub struct Diagnostic {
    /// The plain line, without `rpy3: ` (the first line of the error's
    /// `Display`).
    pub headline: String,
    /// Where: file, line and the columns in the line when known.
    pub filename: Option<String>,
    pub lineno: u32,
    pub columns: Option<(u32, u32)>,
    /// What the caret says: the conflicting types when the message names
    /// them, else the message.
    pub label: String,
    /// The function the error is in.
    pub function: Option<String>,
    /// The calls that led there, innermost first.
    pub calls: Vec<CallSite>,
    /// How the conflict arose ("while merging ..."), innermost first.
    pub chain: Vec<String>,
    /// What to do about it, when a hint helps.
    pub help: Option<String>,
}

impl Diagnostic {
    /// The diagnostic of `e`; `ann` (the annotator as it stopped, when it
    /// ran) gives the calls that led to the function.
    pub fn of_driver_error(e: &DriverError, ann: Option<&Annotator>) -> Diagnostic {
        let text = e.to_string();
        let headline = text.lines().next().unwrap_or_default().to_string();
        let mut d = Diagnostic {
            headline,
            ..Diagnostic::default()
        };
        let message = e.message();
        match e {
            DriverError::Argument(a) | DriverError::Annotate(a) => {
                d.chain = a.chain.clone();
                d.columns = a.columns;
            }
            _ => {}
        }
        if let Some(loc) = e.location() {
            if loc.lineno > 0 {
                d.filename = Some(loc.filename.clone());
                d.lineno = loc.lineno;
            }
            d.function = loc.function.clone();
        }
        if let (Some(ann), Some(function), Some(filename)) = (ann, &d.function, &d.filename) {
            d.calls = calls_leading_to(ann, function, filename);
        }
        d.label = label_of(&message);
        d.help = hint(&message).map(str::to_string);
        d
    }

    /// The text: the plain line, then (when the source can be read) the
    /// snippet, the calls, notes and help, coloured when asked.
    pub fn render(&self, read_source: &dyn Fn(&str) -> Option<String>, colour: bool) -> String {
        let mut out = if colour {
            format!("\u{1b}[1mrpy3: {}\u{1b}[0m\n", self.headline)
        } else {
            format!("rpy3: {}\n", self.headline)
        };
        let mut files = SimpleFiles::new();
        let mut ids: HashMap<String, Option<usize>> = HashMap::new();
        let mut file_id = |name: &str| -> Option<usize> {
            *ids.entry(name.to_string())
                .or_insert_with(|| read_source(name).map(|src| files.add(name.to_string(), src)))
        };
        let mut labels = Vec::new();
        let mut notes = Vec::new();
        if let Some(filename) = &self.filename {
            if let Some(id) = file_id(filename) {
                labels.push((id, self.lineno, self.columns, true, self.label.clone()));
            }
        }
        // the closest calls in the snippet, the whole chain in a note
        for call in self.calls.iter().take(CALLS_SHOWN) {
            if let Some(id) = file_id(&call.filename) {
                let text = format!("{} calls {} here", call.caller, call.callee);
                labels.push((id, call.lineno, None, false, text));
            }
        }
        if let Some(function) = &self.function {
            if self.calls.is_empty() {
                notes.push(format!("in function {function}"));
            } else {
                let mut names: Vec<&str> =
                    self.calls.iter().rev().map(|c| c.caller.as_str()).collect();
                names.push(function);
                notes.push(format!("called as {}", names.join(" -> ")));
            }
        }
        for step in &self.chain {
            notes.push(format!("while {step}"));
        }
        if let Some(help) = &self.help {
            notes.push(format!("help: {help}"));
        }
        let has_primary = labels.iter().any(|l| l.3);
        if !has_primary {
            // no source to show: the notes alone, in the same layout
            for n in &notes {
                out.push_str(&format!("  = {n}\n"));
            }
            return out;
        }
        // the spans, against the sources as codespan reads them
        let mut built = Vec::new();
        for (id, lineno, columns, primary, text) in labels {
            let Ok(file) = files.get(id) else { continue };
            let Some(range) = span(file.source(), lineno, columns) else {
                continue;
            };
            let label = if primary {
                Label::primary(id, range)
            } else {
                Label::secondary(id, range)
            };
            built.push(label.with_message(text));
        }
        let report = Report::error()
            .with_message(&self.headline)
            .with_labels(built)
            .with_notes(notes);
        let config = term::Config::default();
        let rendered = if colour {
            let mut buffer = termcolor::Ansi::new(Vec::new());
            let styles = term::Styles::default();
            let mut writer = term::StylesWriter::new(&mut buffer, &styles);
            match term::emit_to_write_style(&mut writer, &config, &files, &report) {
                Ok(()) => String::from_utf8_lossy(&buffer.into_inner()).into_owned(),
                Err(_) => return out,
            }
        } else {
            match term::emit_into_string(&config, &files, &report) {
                Ok(s) => s,
                Err(_) => return out,
            }
        };
        // codespan starts with its own `error: MESSAGE` line; rpy3's plain
        // line above stands for it
        let body = rendered.split_once('\n').map_or("", |(_, rest)| rest);
        out.push_str(body.trim_end());
        out.push('\n');
        out
    }
}

/// The byte range of line `lineno` (1-based) of `source`: `columns` in
/// it when given and inside the line, else the line without its
/// indentation and trailing blanks.
fn span(source: &str, lineno: u32, columns: Option<(u32, u32)>) -> Option<std::ops::Range<usize>> {
    let index = usize::try_from(lineno).ok()?.checked_sub(1)?;
    let mut start = 0;
    for (i, line) in source.split_inclusive('\n').enumerate() {
        if i == index {
            let text = line.trim_end_matches(['\n', '\r']);
            if let Some((a, b)) = columns {
                let (a, b) = (a as usize, b as usize);
                if a < b && b <= text.len() && text.is_char_boundary(a) && text.is_char_boundary(b)
                {
                    return Some(start + a..start + b);
                }
            }
            let body = text.trim_end();
            let indent = body.len() - body.trim_start().len();
            if body.is_empty() {
                return Some(start..start + text.len());
            }
            return Some(start + indent..start + body.len());
        }
        start += line.len();
    }
    None
}

/// The calls that lead from the entry to `function` (of `filename`),
/// innermost first, from the annotator's call sites: one way in, the
/// first recorded, followed back until the entry or a cycle.
fn calls_leading_to(ann: &Annotator, function: &str, filename: &str) -> Vec<CallSite> {
    // callee -> (caller, line of the call), in a stable order
    let mut sites: Vec<_> = ann.call_sites.iter().collect();
    sites.sort_by_key(|((g, b, i), _)| (*g, *b, *i));
    let mut callers: HashMap<GraphId, (GraphId, u32)> = HashMap::new();
    for ((caller, block, index), callees) in sites {
        let Some(op) = ann.graphs[*caller]
            .graph
            .blocks
            .get(*block)
            .and_then(|b| b.operations.get(*index))
        else {
            continue;
        };
        for &callee in callees.values() {
            if callee != *caller {
                callers.entry(callee).or_insert((*caller, op.lineno));
            }
        }
    }
    let found = ann.graphs.iter().find(|(g, ag)| {
        ag.graph.source.qualname == function
            && ag.graph.source.filename == filename
            && callers.contains_key(g)
    });
    let Some((mut g, _)) = found else {
        return Vec::new();
    };
    // rpy3's own wrappers (the entry point's caller in `rpy3.stdlib`) are
    // no call of the program's
    let package = rpy3_driver::load::python_package_dir();
    let mut seen = HashSet::from([g]);
    let mut out = Vec::new();
    while let Some(&(caller, lineno)) = callers.get(&g) {
        if !seen.insert(caller) || out.len() == CALLS_FOLLOWED {
            break;
        }
        let source = &ann.graphs[caller].graph.source;
        if std::path::Path::new(&source.filename).starts_with(&package) {
            break;
        }
        out.push(CallSite {
            caller: source.qualname.clone(),
            callee: ann.graphs[g].graph.source.qualname.clone(),
            filename: source.filename.clone(),
            lineno,
        });
        g = caller;
    }
    out
}

/// What the caret says: the types of a message naming two ("... for add:
/// str and int", "cannot unite str and int"), else the message.
fn label_of(message: &str) -> String {
    if let Some(types) = message.strip_prefix("cannot unite ") {
        return format!("{types} meet here");
    }
    if let Some((what, types)) = message.rsplit_once(": ") {
        if types.contains(" and ") && what.starts_with("unsupported operand types for ") {
            let op = what.trim_start_matches("unsupported operand types for ");
            return format!("{op} of {types}");
        }
    }
    message.to_string()
}

/// A hint for the usual mistakes.
fn hint(message: &str) -> Option<&'static str> {
    const HINTS: &[(&str, &str)] = &[
        (
            "cannot unite",
            "RPython gives a variable, an argument, a return value and a container's items one \
             type each: convert to a common type, or use another variable",
        ),
        (
            "unsupported operand types",
            "RPython converts nothing implicitly: convert an operand first (str(n), int(s), \
             float(n))",
        ),
        (
            "never set",
            "assign the attribute on every path that makes the instance, typically in __init__",
        ),
        (
            "has no attribute",
            "an attribute must be assigned somewhere in the class or a base class for the \
             annotator to know its type",
        ),
        (
            "is not defined",
            "a global a function reads must exist when the program is imported",
        ),
        (
            "nested functions that capture each other",
            "make one of them a module-level function",
        ),
    ];
    HINTS
        .iter()
        .find(|(key, _)| message.contains(key))
        .map(|(_, help)| *help)
}

/// Whether stderr gets colours: a terminal, and `NO_COLOR` not set.
pub fn colour_on_stderr() -> bool {
    std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// The text of `e` for stderr, rendered against the program's sources.
pub fn render_driver_error(_py: Python<'_>, e: &DriverError, t: &Translation) -> String {
    Diagnostic::of_driver_error(e, t.annotator()).render(&read_source, colour_on_stderr())
}

/// The text of `e` without colours (for a page or a file).
pub fn render_driver_error_plain(e: &DriverError, t: &Translation) -> String {
    Diagnostic::of_driver_error(e, t.annotator()).render(&read_source, false)
}

/// A source file's text, when it can be read.
fn read_source(name: &str) -> Option<String> {
    std::fs::read_to_string(name).ok()
}

#[cfg(test)]
mod tests {
    //! Golden renderings, one per kind of diagnostic, as plain text (the
    //! temporary directory shown as `$DIR`).

    use super::*;
    use expect_test::{expect, Expect};
    use rpy3_model::SourceLocation;

    /// Writes `files` into a fresh directory and runs `f` with it.
    fn in_dir<R>(tag: &str, files: &[(&str, &str)], f: impl FnOnce(&std::path::Path) -> R) -> R {
        let dir = std::env::temp_dir().join(format!("rpy3-diag-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for (name, text) in files {
            std::fs::write(dir.join(name), text).unwrap();
        }
        let r = f(&dir);
        let _ = std::fs::remove_dir_all(&dir);
        r
    }

    /// The rendering of the error translating the program `src`.
    fn program_error(tag: &str, src: &str) -> String {
        in_dir(tag, &[("prog.py", src)], |dir| {
            let file = dir.join("prog.py");
            let text = rpy3_testsuite::with_big_stack(|| {
                Python::attach(|py| {
                    let mut t = Translation::for_program(py, &file).expect("a program");
                    let e = t.rtyped(py).map(|_| ()).expect_err("not RPython");
                    Diagnostic::of_driver_error(&e, t.annotator()).render(&read_source, false)
                })
            })
            .unwrap();
            text.replace(dir.to_str().unwrap(), "$DIR")
        })
    }

    fn check(actual: String, expected: Expect) {
        assert!(!actual.contains('\u{1b}'), "{actual}");
        expected.assert_eq(&actual);
    }

    #[test]
    fn flow_error_underlines_the_expression() {
        let src = "\
def f(x):
    y = x + 1
    return eval('y') + y

def entry_point(argv):
    return f(len(argv))
";
        check(
            program_error("flow", src),
            expect![[r#"
                rpy3: annotation error: $DIR/prog.py:3: calling the built-in eval() is not RPython (in function f)
                  ┌─ $DIR/prog.py:3:12
                  │
                3 │     return eval('y') + y
                  │            ^^^^^^^^^ calling the built-in eval() is not RPython
                  │
                  = in function f
            "#]],
        );
    }

    #[test]
    fn operand_types_with_the_calls_that_led_there() {
        let src = "\
def g(c):
    n = len(c)
    return c + n

def f(s):
    return g(s[0])

def entry_point(argv):
    print(f(argv[0]))
    return 0
";
        check(
            program_error("operands", src),
            expect![[r#"
                rpy3: annotation error: $DIR/prog.py:3: unsupported operand types for add: str (one character) and int (non-negative) (in function g)
                  ┌─ $DIR/prog.py:3:5
                  │
                3 │     return c + n
                  │     ^^^^^^^^^^^^ add of str (one character) and int (non-negative)
                  ·
                6 │     return g(s[0])
                  │     -------------- f calls g here
                  ·
                9 │     print(f(argv[0]))
                  │     ----------------- entry_point calls f here
                  │
                  = called as entry_point -> f -> g
                  = help: RPython converts nothing implicitly: convert an operand first (str(n), int(s), float(n))
            "#]],
        );
    }

    #[test]
    fn union_error_says_how_the_conflict_arose() {
        let src = "\
def f(x):
    if x:
        y = 1
    else:
        y = 'a'
    return y

def entry_point(argv):
    f(len(argv))
    return 0
";
        check(
            program_error("union", src),
            expect![[r#"
                rpy3: annotation error: $DIR/prog.py:6: cannot unite str (one character) and int (non-negative) (in function f)
                  ┌─ $DIR/prog.py:6:5
                  │
                6 │     return y
                  │     ^^^^^^^^ str (one character) and int (non-negative) meet here
                  ·
                9 │     f(len(argv))
                  │     ------------ entry_point calls f here
                  │
                  = called as entry_point -> f
                  = while merging the values returned by 'f'
                  = help: RPython gives a variable, an argument, a return value and a container's items one type each: convert to a common type, or use another variable
            "#]],
        );
    }

    #[test]
    fn rtyper_error_underlines_the_line() {
        let text = in_dir(
            "rtype",
            &[("prog.py", "def f(t):\n    return tuple(t)\n")],
            |dir| {
                let file = dir.join("prog.py");
                let mut error = rpy3_rtyper::RTypeError::new("tuple() of an unknown iterable");
                error.location = Some(SourceLocation {
                    filename: file.to_str().unwrap().to_string(),
                    lineno: 2,
                    function: Some("f".into()),
                });
                let d = Diagnostic::of_driver_error(&DriverError::Rtype(error), None);
                d.render(&read_source, false)
                    .replace(dir.to_str().unwrap(), "$DIR")
            },
        );
        check(
            text,
            expect![[r#"
                rpy3: rtyping error: $DIR/prog.py:2 (in function f): tuple() of an unknown iterable
                  ┌─ $DIR/prog.py:2:5
                  │
                2 │     return tuple(t)
                  │     ^^^^^^^^^^^^^^^ tuple() of an unknown iterable
                  │
                  = in function f
            "#]],
        );
    }

    #[test]
    fn without_the_source_the_notes_remain() {
        let d = Diagnostic {
            headline: "annotation error: /gone.py:4: cannot unite str and int (in function f)"
                .into(),
            filename: Some("/gone.py".into()),
            lineno: 4,
            label: "str and int meet here".into(),
            function: Some("f".into()),
            chain: vec!["merging the values returned by 'f'".into()],
            help: hint("cannot unite").map(str::to_string),
            ..Diagnostic::default()
        };
        check(
            d.render(&|_| None, false),
            expect![[r#"
                rpy3: annotation error: /gone.py:4: cannot unite str and int (in function f)
                  = in function f
                  = while merging the values returned by 'f'
                  = help: RPython gives a variable, an argument, a return value and a container's items one type each: convert to a common type, or use another variable
            "#]],
        );
    }

    #[test]
    fn errors_without_a_location_are_one_line() {
        let e = DriverError::Load("cannot import x.py: SyntaxError: invalid syntax".into());
        let text = Diagnostic::of_driver_error(&e, None).render(&read_source, false);
        assert_eq!(
            text,
            "rpy3: cannot import x.py: SyntaxError: invalid syntax\n"
        );
    }

    #[test]
    fn colour_only_when_asked() {
        let d = Diagnostic {
            headline: "prog.py:1: bad".into(),
            filename: Some("prog.py".into()),
            lineno: 1,
            columns: Some((4, 5)),
            label: "bad".into(),
            ..Diagnostic::default()
        };
        let source = |_: &str| Some("x = y\n".to_string());
        let plain = d.render(&source, false);
        let coloured = d.render(&source, true);
        assert!(!plain.contains('\u{1b}'));
        assert!(coloured.contains("\u{1b}["), "{coloured}");
        assert!(plain.contains("1 │ x = y\n  │     ^ bad"), "{plain}");
    }

    #[test]
    fn spans_stay_inside_their_line() {
        let src = "def f():\n    return  x \n";
        assert_eq!(span(src, 2, None), Some(13..22));
        assert_eq!(span(src, 2, Some((12, 13))), Some(21..22));
        // columns past the line: the line
        assert_eq!(span(src, 2, Some((4, 99))), Some(13..22));
        assert_eq!(span(src, 9, None), None);
        assert_eq!(span(src, 0, None), None);
    }
}
