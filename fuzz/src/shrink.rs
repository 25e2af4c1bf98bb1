//! Delta debugging over the typed program: each edit removes a
//! statement, a function, a case or an override, replaces a compound
//! statement by its body, or an expression by a literal or one of its
//! operands of the same type.  Every edit keeps the program valid (see
//! `ast.rs`), so the only question asked of a candidate is whether it
//! still disagrees.

use std::time::Instant;

use crate::ast::{Expr, Func, Program, Stmt};
use crate::render::{self, default_lit};

/// Edit number `target` of the program's edits in a fixed order, or
/// `None` when there are fewer; `Some(None)` when that edit does not
/// apply (it would leave a name undefined).
pub fn edit(p: &Program, target: usize) -> Option<Option<Program>> {
    let mut out = p.clone();
    let mut e = Editor {
        target,
        seen: 0,
        done: false,
        prefix: p.prefix.clone(),
    };
    // whole pieces first: cases, functions, prebuilt objects, overrides
    if out.cases.len() > 1 {
        if let Some(k) = e.offer(out.cases.len()) {
            out.cases.remove(k);
            return Some(Some(out));
        }
    }
    if let Some(k) = e.offer(out.funcs.len()) {
        let name = out.funcs.remove(k).name;
        return Some(unused(out, &name));
    }
    if let Some(k) = e.offer(out.prebuilt.len()) {
        let name = out.prebuilt.remove(k).0;
        return Some(unused(out, &name));
    }
    for c in out.classes.iter_mut().skip(1) {
        if let Some(k) = e.offer(c.methods.len()) {
            c.methods.remove(k);
            return Some(Some(out));
        }
    }
    e.func(&mut out.main);
    for f in out.funcs.iter_mut().rev() {
        e.func(f);
    }
    for c in out.classes.iter_mut() {
        for m in c.methods.iter_mut() {
            e.func(m);
        }
    }
    if e.done {
        Some(Some(out))
    } else {
        None
    }
}

fn unused(p: Program, name: &str) -> Option<Program> {
    if render::mentions(&render::program(&p), name) {
        None
    } else {
        Some(p)
    }
}

struct Editor {
    target: usize,
    seen: usize,
    done: bool,
    prefix: String,
}

/// True if a `break`/`continue` of `body` belongs to the loop around it.
fn has_loop_ctl(body: &[Stmt]) -> bool {
    body.iter().any(|s| match s {
        Stmt::Simple { loop_ctl, .. } => *loop_ctl,
        Stmt::If { then, els, .. } => has_loop_ctl(then) || has_loop_ctl(els),
        Stmt::Try { body, handlers } => {
            has_loop_ctl(body) || handlers.iter().any(|(_, b)| has_loop_ctl(b))
        }
        Stmt::Loop { .. } => false,
    })
}

impl Editor {
    /// Offers `n` edits; the index of the chosen one if it is among them.
    fn offer(&mut self, n: usize) -> Option<usize> {
        if self.done {
            return None;
        }
        if self.target < self.seen + n {
            self.done = true;
            return Some(self.target - self.seen);
        }
        self.seen += n;
        None
    }

    fn func(&mut self, f: &mut Func) {
        self.block(&mut f.body);
        self.expr(&mut f.ret);
        if let crate::ast::FuncKind::Recursive { base } = &mut f.kind {
            self.expr(base);
        }
    }

    fn block(&mut self, body: &mut Vec<Stmt>) {
        let mut i = 0;
        while i < body.len() {
            if self.done {
                return;
            }
            if self.offer(1).is_some() {
                body.remove(i);
                return;
            }
            let replacement = match &body[i] {
                Stmt::If { then, els, .. } => match self.offer(2) {
                    Some(0) => Some(then.clone()),
                    Some(_) => Some(els.clone()),
                    None => None,
                },
                Stmt::Loop { body: b, .. } if !has_loop_ctl(b) => self.offer(1).map(|_| b.clone()),
                Stmt::Try { body: b, .. } => self.offer(1).map(|_| b.clone()),
                _ => None,
            };
            if let Some(r) = replacement {
                body.splice(i..i + 1, r);
                return;
            }
            match &mut body[i] {
                Stmt::Simple { args, .. } => {
                    for a in args {
                        self.expr(a);
                    }
                }
                Stmt::If { cond, then, els } => {
                    self.expr(cond);
                    self.block(then);
                    self.block(els);
                }
                Stmt::Loop { args, body: b, .. } => {
                    for a in args {
                        self.expr(a);
                    }
                    self.block(b);
                }
                Stmt::Try { body: b, handlers } => {
                    self.block(b);
                    for (_, h) in handlers.iter_mut() {
                        self.block(h);
                    }
                    if handlers.len() > 1 {
                        if let Some(k) = self.offer(handlers.len()) {
                            handlers.remove(k);
                        }
                    }
                }
            }
            i += 1;
        }
    }

    fn expr(&mut self, e: &mut Expr) {
        if self.done {
            return;
        }
        let ty = e.ty();
        if !matches!(e, Expr::Lit(..)) && self.offer(1).is_some() {
            *e = default_lit(&self.prefix, ty);
            return;
        }
        if let Expr::Op { args, .. } = e {
            let same: Vec<usize> = (0..args.len()).filter(|&k| args[k].ty() == ty).collect();
            if let Some(k) = self.offer(same.len()) {
                let arg = args[same[k]].clone();
                *e = arg;
                return;
            }
            for a in args {
                self.expr(a);
            }
        }
    }
}

/// Shrinks `p` while `still_fails` holds, trying at most `max_tries`
/// candidates and none after `deadline`; the smallest program found.
pub fn shrink(
    p: Program,
    mut still_fails: impl FnMut(&Program) -> bool,
    max_tries: usize,
    deadline: Option<Instant>,
) -> Program {
    let mut current = p;
    let mut tries = 0;
    loop {
        let mut progress = false;
        let mut k = 0;
        while let Some(candidate) = edit(&current, k) {
            if let Some(c) = candidate {
                if c != current {
                    if tries >= max_tries || deadline.is_some_and(|d| Instant::now() >= d) {
                        return current;
                    }
                    tries += 1;
                    if still_fails(&c) {
                        current = c;
                        progress = true;
                        continue;
                    }
                }
            }
            k += 1;
        }
        if !progress {
            return current;
        }
    }
}
