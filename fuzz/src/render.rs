//! Programs as Python source in the corpus case format.

use crate::ast::{Class, Expr, Func, FuncKind, Program, Stmt, Ty};

/// The literal every local of type `ty` is declared with.
pub fn default_lit(prefix: &str, ty: Ty) -> Expr {
    let text = match ty {
        Ty::Int => "0".to_string(),
        Ty::Float => "0.0".to_string(),
        Ty::Bool => "False".to_string(),
        Ty::Str => "''".to_string(),
        Ty::Bytes => "b''".to_string(),
        Ty::ListInt => "[0]".to_string(),
        Ty::DictStrInt => "{'': 0}".to_string(),
        Ty::SetInt => "{0}".to_string(),
        Ty::Tup => "(0, '')".to_string(),
        Ty::Obj => format!("{prefix}A(0)"),
    };
    Expr::Lit(ty, text)
}

/// `tmpl` with each `@k` replaced by `args[k]`, in one pass.
pub fn fill(tmpl: &str, args: &[String]) -> String {
    let mut out = String::with_capacity(tmpl.len() + 16);
    let mut chars = tmpl.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '@' {
            if let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
                chars.next();
                out.push_str(&args[d as usize]);
                continue;
            }
        }
        out.push(c);
    }
    out
}

/// An expression as source.
pub fn expr(e: &Expr) -> String {
    match e {
        Expr::Lit(_, t) | Expr::Var(_, t) => t.clone(),
        Expr::Op { tmpl, args, .. } => {
            let args: Vec<String> = args.iter().map(expr).collect();
            fill(tmpl, &args)
        }
    }
}

fn line(out: &mut String, indent: usize, text: &str) {
    for l in text.lines() {
        for _ in 0..indent {
            out.push_str("    ");
        }
        out.push_str(l);
        out.push('\n');
    }
}

fn block(out: &mut String, indent: usize, body: &[Stmt]) {
    if body.is_empty() {
        line(out, indent, "pass");
    }
    for s in body {
        stmt(out, indent, s);
    }
}

fn stmt(out: &mut String, indent: usize, s: &Stmt) {
    match s {
        Stmt::Simple { tmpl, args, .. } => {
            let args: Vec<String> = args.iter().map(expr).collect();
            line(out, indent, &fill(tmpl, &args));
        }
        Stmt::If { cond, then, els } => {
            line(out, indent, &format!("if {}:", expr(cond)));
            block(out, indent + 1, then);
            if !els.is_empty() {
                line(out, indent, "else:");
                block(out, indent + 1, els);
            }
        }
        Stmt::Loop {
            setup,
            head,
            args,
            first,
            body,
        } => {
            if !setup.is_empty() {
                line(out, indent, setup);
            }
            let args: Vec<String> = args.iter().map(expr).collect();
            line(out, indent, &fill(head, &args));
            if !first.is_empty() {
                line(out, indent + 1, first);
            }
            if !first.is_empty() && body.is_empty() {
                return;
            }
            block(out, indent + 1, body);
        }
        Stmt::Try { body, handlers } => {
            line(out, indent, "try:");
            block(out, indent + 1, body);
            for (head, hbody) in handlers {
                line(out, indent, head);
                block(out, indent + 1, hbody);
            }
        }
    }
}

/// True if `name` occurs in `text` as a whole identifier.
pub fn mentions(text: &str, name: &str) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut from = 0;
    while let Some(at) = text[from..].find(name) {
        let start = from + at;
        let end = start + name.len();
        let before = text[..start].chars().next_back();
        let after = text[end..].chars().next();
        if !before.is_some_and(ident) && !after.is_some_and(ident) {
            return true;
        }
        from = end;
    }
    false
}

fn func(out: &mut String, indent: usize, prefix: &str, f: &Func, prologue: &str) {
    let mut params: Vec<String> = f.params.iter().map(|(n, _)| n.clone()).collect();
    if f.kind == FuncKind::Method {
        params.insert(0, "self".into());
    }
    line(
        out,
        indent,
        &format!("def {}({}):", f.name, params.join(", ")),
    );
    let mut body = String::new();
    let inner = match &f.kind {
        FuncKind::Recursive { base } => {
            line(&mut body, indent + 1, "if n <= 0:");
            line(&mut body, indent + 2, &format!("return {}", expr(base)));
            indent + 1
        }
        FuncKind::Generator => {
            line(&mut body, indent + 1, "for gk in range(n & 3):");
            indent + 2
        }
        _ => indent + 1,
    };
    if !prologue.is_empty() {
        line(&mut body, inner, prologue);
    }
    for s in &f.body {
        stmt(&mut body, inner, s);
    }
    let last = if f.kind == FuncKind::Generator {
        "yield"
    } else {
        "return"
    };
    line(&mut body, inner, &format!("{last} {}", expr(&f.ret)));
    // declare only the locals the body uses
    for (name, ty) in &f.locals {
        if mentions(&body, name) {
            line(
                out,
                indent + 1,
                &format!("{name} = {}", expr(&default_lit(prefix, *ty))),
            );
        }
    }
    out.push_str(&body);
}

fn class(out: &mut String, prefix: &str, c: &Class) {
    match &c.base {
        None => {
            line(out, 0, &format!("class {}:", c.name));
            line(out, 1, "def __init__(self, a):");
            line(out, 2, "self.a = a");
            line(out, 2, &format!("self.tag = '{}'", c.name));
        }
        Some(base) => {
            line(out, 0, &format!("class {}({base}):", c.name));
            if c.name.ends_with('C') {
                line(out, 1, "def __init__(self, a):");
                line(out, 2, &format!("{prefix}A.__init__(self, intmask(a + 1))"));
                line(out, 2, &format!("self.tag = '{}'", c.name));
            }
        }
    }
    for m in &c.methods {
        func(out, 1, prefix, m, "");
    }
    if c.base.is_some() && c.methods.is_empty() && !c.name.ends_with('C') {
        line(out, 1, "pass");
    }
}

/// The program's definitions (no imports, no `CASES`).
pub fn program(p: &Program) -> String {
    let mut out = String::new();
    let x = &p.prefix;
    line(&mut out, 0, &format!("class {x}E(Exception):"));
    line(&mut out, 1, "def __init__(self, code):");
    line(&mut out, 2, "self.code = code");
    line(&mut out, 0, &format!("class {x}F({x}E):"));
    line(&mut out, 1, "pass");
    for c in &p.classes {
        class(&mut out, x, c);
    }
    for (name, cls, arg) in &p.prebuilt {
        line(&mut out, 0, &format!("{name} = {cls}({arg})"));
    }
    for f in &p.funcs {
        func(&mut out, 0, x, f, "");
    }
    let mut main = String::new();
    func(&mut main, 0, x, &p.main, "");
    let reads_code = |text: &str| {
        text.match_indices(".code")
            .any(|(at, _)| !text[..at].ends_with("self"))
    };
    if reads_code(&out) || reads_code(&main) {
        // a handler reads `e.code`: both exception classes are instantiated
        // somewhere, or the annotator rejects the read (no case passes
        // these values)
        let prologue =
            format!("if x == -99991:\n    raise {x}E(x)\nif x == -99992:\n    raise {x}F(x)");
        main.clear();
        func(&mut main, 0, x, &p.main, &prologue);
    }
    out.push_str(&main);
    out
}

/// The `CASES` entries of a program.
pub fn cases(p: &Program) -> Vec<String> {
    p.cases
        .iter()
        .map(|args| format!("    ({}, {args}),", p.main.name))
        .collect()
}

/// A case file holding `programs`, with `doc` as its docstring.
pub fn case_file(doc: &str, programs: &[&Program]) -> String {
    let mut out = format!("\"\"\"{doc}\"\"\"\n");
    out.push_str("import math\n");
    out.push_str("from rpy3.rlib.rarithmetic import intmask, ovfcheck\n\n");
    for p in programs {
        out.push_str(&program(p));
        out.push('\n');
    }
    out.push_str("CASES = [\n");
    for p in programs {
        for c in cases(p) {
            out.push_str(&c);
            out.push('\n');
        }
    }
    out.push_str("]\n");
    out
}
