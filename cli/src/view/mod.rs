//! `rpy3 view`: the graph viewer.  Translates a function (for arguments
//! like the literals given) or a program's entry point as far as it goes,
//! and writes one self-contained HTML page holding the flow, annotated
//! and low-level graphs of every function reached (`graphs.rs` turns them
//! into the page's JSON; `page.js` draws them; `serve.rs` serves the page
//! on localhost).

mod graphs;
mod json;
mod serve;

use std::path::Path;
use std::process::ExitCode;

use pyo3::prelude::*;
use rpy3_driver::{DriverError, Options, Translation};
use rpy3_testsuite::with_big_stack;

use crate::args::ViewArgs;
use crate::commands::{
    eprint_text, literal_entry_args, load_function, plain, require_file, LoadError,
};
use crate::diagnostic::render_driver_error_plain;
use crate::{CmdResult, Usage};

use graphs::{annotator_stage, lowlevel_stage, Stage};
use json::Json;

const TEMPLATE: &str = include_str!("page.html");
const CSS: &str = include_str!("page.css");
const JS: &str = include_str!("page.js");

/// The page: the template with the style, the script and the data put in.
pub fn page_html(data: &Json) -> String {
    TEMPLATE
        .replacen("/*CSS*/", CSS, 1)
        .replacen("/*DATA*/", &data.to_text(), 1)
        .replacen("/*JS*/", JS, 1)
}

/// What the translation produced: each stage's graphs, and the first
/// error (rendered) when a stage failed.
struct Collected {
    stages: Vec<Stage>,
    error: Option<String>,
}

impl Collected {
    fn to_json(&self, title: &str) -> Json {
        Json::Obj(vec![
            ("title", Json::str(title)),
            (
                "stages",
                Json::Arr(self.stages.iter().map(Stage::to_json).collect()),
            ),
        ])
    }
}

/// Runs the translation's phases one after the other and keeps the graphs
/// of each (a stage that fails keeps what was made before the error, and
/// the stages after it are empty).
fn collect(py: Python<'_>, t: &mut Translation) -> Collected {
    // the verifier runs after the graphs are taken, so ill-typed low-level
    // graphs are still shown
    t.options_mut().verify = false;
    let annotated = t.annotate(py);
    let error_of = |e: &DriverError, t: &Translation| render_driver_error_plain(e, t);
    let mut stages = Vec::new();
    let mut error = None;
    match t.annotator() {
        Some(ann) => {
            let entry = t.entry_graph();
            stages.push(annotator_stage(py, "flow", ann, entry, false));
            stages.push(annotator_stage(py, "annotate", ann, entry, true));
        }
        None => {
            stages.push(empty_stage("flow"));
            stages.push(empty_stage("annotate"));
        }
    }
    if let Err(e) = annotated {
        let text = error_of(&e, t);
        stages[1].error = Some(text.clone());
        let mut rtype = empty_stage("rtype");
        rtype.error = Some("not rtyped: the annotation failed".into());
        stages.push(rtype);
        return Collected {
            stages,
            error: Some(text),
        };
    }
    match t.rtyped(py).cloned() {
        Ok(program) => {
            let mut stage = lowlevel_stage(py, &program);
            if let Err(e) = rpy3_model::llverify::verify_program(py, &program) {
                let text = plain(DriverError::IllTyped {
                    after: "rtype",
                    error: e,
                });
                stage.error = Some(text.clone());
                error = Some(text);
            }
            stages.push(stage);
        }
        Err(e) => {
            let text = error_of(&e, t);
            let mut stage = empty_stage("rtype");
            stage.error = Some(text.clone());
            error = Some(text);
            stages.push(stage);
        }
    }
    Collected { stages, error }
}

fn empty_stage(name: &'static str) -> Stage {
    Stage {
        name,
        entry: None,
        functions: Vec::new(),
        error: None,
    }
}

/// Loads the function (or the program) and collects its graphs.
fn translate(
    py: Python<'_>,
    file: &Path,
    func_args: &[String],
) -> Result<(Collected, String), LoadError> {
    let (mut t, title) = match func_args.split_first() {
        Some((func, args)) => {
            let f = load_function(py, file, func)?;
            let entry_args = literal_entry_args(py, args)?;
            let title = format!("{} \u{2014} {func}({})", file.display(), args.join(", "));
            (
                Translation::new(f.unbind(), entry_args, Options { verify: false }),
                title,
            )
        }
        None => {
            let t = Translation::for_program(py, file).map_err(|e| {
                if e.is_usage() {
                    LoadError::Usage(Usage(e.to_string()))
                } else {
                    LoadError::Program(plain(e))
                }
            })?;
            (t, format!("{} \u{2014} entry point", file.display()))
        }
    };
    Ok((collect(py, &mut t), title))
}

pub fn view(a: ViewArgs) -> CmdResult {
    require_file(&a.file)?;
    let (file, func_args) = (a.file.clone(), a.func_args.clone());
    let outcome = with_big_stack(move || {
        Python::attach(|py| -> Result<(String, Option<String>, usize), LoadError> {
            let (collected, title) = translate(py, &file, &func_args)?;
            let count = collected.stages.iter().map(|s| s.functions.len()).max();
            let page = page_html(&collected.to_json(&title));
            Ok((page, collected.error, count.unwrap_or(0)))
        })
    });
    let (page, error, count) = match outcome {
        Ok(Ok(done)) => done,
        Ok(Err(LoadError::Usage(u))) => return Err(u),
        Ok(Err(LoadError::Program(text))) => {
            eprint_text(&text);
            return Ok(ExitCode::FAILURE);
        }
        Err(panic) => {
            eprintln!("rpy3: internal error: panic: {panic}");
            return Ok(ExitCode::FAILURE);
        }
    };
    if let Some(text) = &error {
        eprint_text(text);
        eprintln!("rpy3: the page shows the graphs made before the error");
    }
    if let Some(out) = &a.output {
        if let Err(e) = std::fs::write(out, &page) {
            eprintln!("rpy3: cannot write {}: {e}", out.display());
            return Ok(ExitCode::from(2));
        }
        println!("wrote {} ({count} functions)", out.display());
    }
    if a.serve {
        if let Err(e) = serve::serve(&page, a.port) {
            eprintln!("rpy3: cannot serve on port {}: {e}", a.port);
            return Ok(ExitCode::FAILURE);
        }
    }
    Ok(if error.is_some() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_is_the_template_with_everything_inline() {
        let page = page_html(&Json::Obj(vec![("title", Json::str("</script>"))]));
        assert!(page.starts_with("<!DOCTYPE html>"));
        assert!(
            !page.contains("/*CSS*/") && !page.contains("/*JS*/") && !page.contains("/*DATA*/")
        );
        assert!(page.contains(r#"{"title":"\u003c/script\u003e"}"#));
        // self-contained: nothing is loaded from elsewhere
        for external in [
            "<script src",
            "<link",
            "@import",
            "url(http",
            "url(//",
            "fetch(",
        ] {
            assert!(!page.contains(external), "{external}");
        }
    }
}
