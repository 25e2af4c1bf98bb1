//! The `rpy3` command line: `check`, `run`, `show`, `view`, `translate`,
//! `fuzz` and `completions` (`args.rs` declares them; `commands.rs`,
//! `translate.rs` and `view/` carry them out; `diagnostic.rs` renders the
//! errors of the stages).
//!
//! Usage errors (unknown options or backends, missing files) print one
//! line on stderr and exit with status 2; `check` exits with 1 when a case
//! failed and `run` with the program's status.

mod args;
mod commands;
mod diagnostic;
mod translate;
mod view;

use std::process::ExitCode;

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{CommandFactory, Parser};
use rpy3_pyext::_native;

use args::{Cli, Command};

/// A usage error: one line on stderr, exit status 2.
pub struct Usage(pub String);

/// What a command returns: its exit status, or a usage error.
pub type CmdResult = Result<ExitCode, Usage>;

fn main() -> ExitCode {
    // programs run by the binary can `import rpy3` and call interpret()
    pyo3::append_to_inittab!(_native);
    // `check` runs programs on each backend as `rpy3 run` child processes
    if let Ok(exe) = std::env::current_exe() {
        rpy3_testsuite::program::set_rpy3_executable(exe);
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return clap_error(e),
    };
    let result = match cli.command {
        Command::Check(a) => commands::check(a),
        Command::Run(a) => commands::run(a),
        Command::Show(a) => commands::show(a),
        Command::View(a) => view::view(a),
        Command::Translate(a) => translate::translate(a),
        Command::Fuzz(a) => commands::fuzz(a),
        Command::Completions { shell } => {
            // into a buffer first: clap_complete panics when its writer
            // fails (a closed pipe), rpy3 never does
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "rpy3", &mut script);
            use std::io::Write;
            let _ = std::io::stdout().write_all(&script);
            Ok(ExitCode::SUCCESS)
        }
    };
    match result {
        Ok(code) => code,
        Err(Usage(msg)) => {
            eprintln!("rpy3: {msg}");
            ExitCode::from(2)
        }
    }
}

/// Help and the version as clap prints them; any other parse error as one
/// line, `rpy3: WHAT (try 'rpy3 ... --help')`, with status 2.
fn clap_error(e: clap::Error) -> ExitCode {
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        // `rpy3` alone, or a command missing its subcommand: the help, on
        // stderr, as a usage error
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = e.print();
            return ExitCode::from(2);
        }
        _ => {}
    }
    eprintln!("rpy3: {}", clap_error_line(&e));
    ExitCode::from(2)
}

/// clap's message in one line: its first line without the `error: `
/// prefix, the valid values when clap knows them, and where help is.
fn clap_error_line(e: &clap::Error) -> String {
    let rendered = e.render().to_string();
    let first = rendered.lines().next().unwrap_or("bad arguments");
    let mut line = first.strip_prefix("error: ").unwrap_or(first).to_string();
    if let Some(ContextValue::Strings(valid)) = e.get(ContextKind::ValidValue) {
        if !valid.is_empty() && !line.contains("possible values") {
            line.push_str(&format!(" (expected {})", valid.join(", ")));
        }
    }
    if let Some(ContextValue::StyledStr(usage)) = e.get(ContextKind::Usage) {
        // "Usage: rpy3 check [OPTIONS] <PATH>..." names the command
        let usage = usage.to_string();
        let path: Vec<&str> = usage
            .split_whitespace()
            .skip(1)
            .take_while(|w| !w.starts_with(['[', '<', '-']))
            .collect();
        if !path.is_empty() {
            line.push_str(&format!(" (try '{} --help')", path.join(" ")));
        }
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_is_well_formed() {
        // clap's own consistency checks of every argument and subcommand
        Cli::command().debug_assert();
    }

    fn parse(words: &[&str]) -> Result<Cli, clap::Error> {
        Cli::try_parse_from(std::iter::once("rpy3").chain(words.iter().copied()))
    }

    #[test]
    fn negative_numbers_are_arguments() {
        let cli = parse(&["run", "f.py", "g", "-3", "-1.5e3", "--backend=llinterp"]).unwrap();
        let Command::Run(a) = cli.command else {
            panic!("not run")
        };
        assert_eq!(a.func_args, ["g", "-3", "-1.5e3"]);
        assert_eq!(a.backend, "llinterp");
        let cli = parse(&["show", "f.py", "g", "-7", "--stage", "rtype"]).unwrap();
        let Command::Show(a) = cli.command else {
            panic!("not show")
        };
        assert_eq!(a.args, ["-7"]);
    }

    #[test]
    fn program_arguments_follow_the_double_dash() {
        let cli = parse(&["run", "t.py", "--backend", "c", "--", "-v", "--x", "3"]).unwrap();
        let Command::Run(a) = cli.command else {
            panic!("not run")
        };
        assert!(a.func_args.is_empty());
        assert_eq!(a.argv, ["-v", "--x", "3"]);
    }

    #[test]
    fn a_repeated_option_takes_the_last_value() {
        let cli = parse(&["check", "x.py", "--backend", "c", "--backend", "llinterp"]).unwrap();
        let Command::Check(a) = cli.command else {
            panic!("not check")
        };
        assert_eq!(a.backend.0, [rpy3_driver::Backend::Llinterp]);
    }

    #[test]
    fn emit_takes_a_kind_and_a_directory() {
        let cli = parse(&[
            "translate",
            "t.py",
            "--emit",
            "flow",
            "a",
            "--emit",
            "clif",
            "b",
            "--keep-c",
            "c",
        ])
        .unwrap();
        let Command::Translate(a) = cli.command else {
            panic!("not translate")
        };
        let emits = a.emits().unwrap();
        assert_eq!(emits.len(), 3);
        assert_eq!(emits[0].0, args::EmitKind::Flow);
        assert_eq!(emits[2], (args::EmitKind::C, "c".into()));
        let cli = parse(&["translate", "t.py", "--emit", "llvm", "d"]).unwrap();
        let Command::Translate(a) = cli.command else {
            panic!("not translate")
        };
        assert!(a.emits().unwrap_err().contains("not 'llvm'"));
    }

    #[test]
    fn translate_run_takes_every_word_after_it() {
        let cli = parse(&["translate", "t.py", "-o", "x", "--run", "-3", "--opt", "0"]).unwrap();
        let Command::Translate(a) = cli.command else {
            panic!("not translate")
        };
        assert_eq!(
            a.run.as_deref(),
            Some(&["-3".into(), "--opt".into(), "0".into()][..])
        );
        assert_eq!(a.opt, "2");
    }

    #[test]
    fn view_writes_a_page_or_serves_it() {
        let cli = parse(&["view", "p.py", "f", "-2", "-o", "out.html"]).unwrap();
        let Command::View(a) = cli.command else {
            panic!("not view")
        };
        assert_eq!(a.func_args, ["f", "-2"]);
        assert_eq!(a.output.as_deref(), Some(std::path::Path::new("out.html")));
        assert!(!a.serve);
        let cli = parse(&["view", "p.py", "--serve", "--port", "0"]).unwrap();
        let Command::View(a) = cli.command else {
            panic!("not view")
        };
        assert!(a.serve && a.func_args.is_empty() && a.port == 0);
        // one of the two is needed; a port without --serve means nothing
        assert!(parse(&["view", "p.py"]).is_err());
        assert!(parse(&["view", "p.py", "-o", "x.html", "--port", "9"]).is_err());
    }

    #[test]
    fn usage_errors_are_one_line_naming_the_command() {
        let e = parse(&["check", "x.py", "--frobnicate"]).unwrap_err();
        let line = clap_error_line(&e);
        assert_eq!(
            line,
            "unexpected argument '--frobnicate' found (try 'rpy3 check --help')"
        );
        let e = parse(&["show", "x.py", "f", "--stage", "bogus"]).unwrap_err();
        let line = clap_error_line(&e);
        assert!(line.contains("'bogus'"), "{line}");
        assert!(line.contains("flow, annotate, rtype"), "{line}");
        assert!(!line.contains('\n'));
    }
}
