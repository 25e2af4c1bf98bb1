//! The program generator: random typed programs, valid RPython by
//! construction (every value has one type, every loop a small bound,
//! every recursion a decreasing depth, no division by zero, no index out
//! of range, integer arithmetic wrapped by `intmask` or checked by
//! `ovfcheck`, no mutation of prebuilt objects).

use crate::ast::{Class, Expr, Func, FuncKind, Program, Stmt, Ty};
use crate::render::default_lit;

/// A small, fast, reproducible random source (SplitMix64); or, made
/// from a cargo-fuzz input, one whose choices are that input's bytes
/// first (one byte per choice), then SplitMix64 seeded by the bytes, so
/// every input gives a program and libFuzzer's mutations steer it.
#[derive(Clone, Debug)]
pub struct Rng {
    state: u64,
    bytes: Vec<u8>,
    pos: usize,
}

impl Rng {
    /// A generator for `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng {
            state: seed,
            bytes: Vec::new(),
            pos: 0,
        }
    }

    /// A generator whose choices are `data`'s bytes while they last.
    pub fn from_bytes(data: &[u8]) -> Rng {
        // FNV-1a: the seed taking over when the bytes run out
        let seed = data.iter().fold(0xCBF2_9CE4_8422_2325u64, |h, &b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3)
        });
        Rng {
            state: seed,
            bytes: data.to_vec(),
            pos: 0,
        }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// The next input byte, if any are left.
    fn next_byte(&mut self) -> Option<u64> {
        let b = self.bytes.get(self.pos).copied()?;
        self.pos += 1;
        Some(u64::from(b))
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        let n = n as u64;
        let x = match self.next_byte() {
            Some(b) if n <= 256 => b,
            Some(b) => b << 8 | self.next_byte().unwrap_or(0),
            None => self.next_u64(),
        };
        (x % n) as usize
    }

    /// True with probability `percent`/100.
    pub fn chance(&mut self, percent: u64) -> bool {
        (self.below(100) as u64) < percent
    }

    /// One of `items`.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// The seed of program `index` of a run started with `seed`.
pub fn program_seed(seed: u64, index: u64) -> u64 {
    let mut r = Rng::new(seed ^ index.wrapping_mul(0xD6E8_FEB8_6659_FD93));
    r.next_u64()
}

const INTS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "5",
    "7",
    "-1",
    "-2",
    "-7",
    "10",
    "100",
    "255",
    "1000003",
    "2147483647",
    "4294967296",
    "9223372036854775807",
    "-9223372036854775807 - 1",
];
const FLOATS: &[&str] = &[
    "0.0",
    "-0.0",
    "0.5",
    "1.5",
    "-2.25",
    "0.1",
    "3.0",
    "1e-05",
    "1e300",
    "-1e300",
    "123456.789",
];
const STRS: &[&str] = &[
    "''", "'a'", "'b'", "'ab'", "'xyz'", "'é'", "'12'", "' A'", "'hello'", "'a,b'", "'Zz'",
];
const BYTES: &[&str] = &["b''", "b'a'", "b'xy'", "b'AB'", "b'q,r'"];
/// Argument values of the entry's cases.
const CASE_INTS: &[&str] = &["0", "1", "-1", "3", "7", "-5", "42", "1000", "2147483648"];
const CASE_STRS: &[&str] = &["''", "'a'", "'abc'", "'héllo'", "'12'", "'x,y z'", "'Q'"];

/// A function that generated code may call.
#[derive(Clone, Debug)]
struct Callee {
    name: String,
    params: Vec<Ty>,
    ret: Ty,
    kind: CalleeKind,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum CalleeKind {
    Plain,
    Recursive,
    Generator,
}

/// What a function being generated may use.
#[derive(Clone, Debug)]
struct Limits {
    /// Functions, objects and methods may be used (not in methods).
    calls: bool,
    objects: bool,
    /// `return` statements may be generated (not in generators).
    returns: bool,
    /// Helper calls inside loops (only the entry: keeps runs short).
    calls_in_loops: bool,
}

struct FnGen<'a> {
    rng: &'a mut Rng,
    prefix: String,
    callees: &'a [Callee],
    prebuilt: &'a [String],
    limits: Limits,
    /// Names readable in the function, with their types.
    vars: Vec<(String, Ty)>,
    /// Locals (assignable).
    locals: Vec<(String, Ty)>,
    loop_depth: usize,
    fresh: usize,
    /// Statements generated so far (caps the function's size).
    budget: usize,
    ret: Ty,
}

fn lit(rng: &mut Rng, prefix: &str, ty: Ty) -> Expr {
    let text = match ty {
        Ty::Int => rng.pick(INTS).to_string(),
        Ty::Float => rng.pick(FLOATS).to_string(),
        Ty::Bool => rng.pick(&["True", "False"]).to_string(),
        Ty::Str => rng.pick(STRS).to_string(),
        Ty::Bytes => rng.pick(BYTES).to_string(),
        _ => return default_lit(prefix, ty),
    };
    if text.contains(' ') && ty == Ty::Int {
        // `-2**63` is written as an expression; parenthesise it
        return Expr::Lit(ty, format!("({text})"));
    }
    Expr::Lit(ty, text)
}

/// Operation templates: result type, template, operand types.
fn templates(prefix: &str) -> Vec<(Ty, String, Vec<Ty>)> {
    use Ty::*;
    let t = |r: Ty, s: &str, a: &[Ty]| (r, s.replace("P_", prefix), a.to_vec());
    vec![
        t(Int, "intmask(@0 + @1)", &[Int, Int]),
        t(Int, "intmask(@0 - @1)", &[Int, Int]),
        t(Int, "intmask(@0 * @1)", &[Int, Int]),
        t(Int, "(@0 // ((@1 & 15) + 1))", &[Int, Int]),
        t(Int, "(@0 % ((@1 & 15) + 1))", &[Int, Int]),
        t(Int, "intmask(@0 << (@1 & 15))", &[Int, Int]),
        t(Int, "(@0 >> (@1 & 63))", &[Int, Int]),
        t(Int, "(@0 & @1)", &[Int, Int]),
        t(Int, "(@0 | @1)", &[Int, Int]),
        t(Int, "(@0 ^ @1)", &[Int, Int]),
        t(Int, "min(@0, @1)", &[Int, Int]),
        t(Int, "max(@0, @1)", &[Int, Int]),
        t(Int, "intmask(-@0)", &[Int]),
        t(Int, "len(@0)", &[Str]),
        t(Int, "len(@0)", &[Bytes]),
        t(Int, "len(@0)", &[ListInt]),
        t(Int, "len(@0)", &[DictStrInt]),
        t(Int, "len(@0)", &[SetInt]),
        t(Int, "int(@0)", &[Bool]),
        t(Int, "(@0 if @1 else @2)", &[Int, Bool, Int]),
        t(Int, "@0.a", &[Obj]),
        t(Int, "@0.m(@1)", &[Obj, Int]),
        t(Int, "@0[0]", &[Tup]),
        t(Int, "@0.find(@1)", &[Str, Str]),
        t(Int, "@0.count(@1)", &[Str, Str]),
        t(Int, "(ord(@0[0]) if @0 else -1)", &[Str]),
        t(Int, "(@0[@1 % len(@0)] if @0 else 0)", &[ListInt, Int]),
        t(Int, "(@0[@1 % len(@0)] if @0 else 0)", &[Bytes, Int]),
        t(Int, "@0.get(@1, @2)", &[DictStrInt, Str, Int]),
        t(Int, "intmask(sum(@0))", &[ListInt]),
        t(Int, "(int(@0) if abs(@0) < 1e15 else 7)", &[Float]),
        t(Int, "(int(@0) if @0.isdigit() else -5)", &[Str]),
        t(Bool, "(@0 < @1)", &[Int, Int]),
        t(Bool, "(@0 == @1)", &[Int, Int]),
        t(Bool, "(@0 != @1)", &[Int, Int]),
        t(Bool, "(@0 <= @1)", &[Float, Float]),
        t(Bool, "(@0 == @1)", &[Float, Float]),
        t(Bool, "(@0 == @1)", &[Str, Str]),
        t(Bool, "(@0 < @1)", &[Str, Str]),
        t(Bool, "(@0 == @1)", &[Bytes, Bytes]),
        t(Bool, "(@0 == @1)", &[ListInt, ListInt]),
        t(Bool, "(@0 == @1)", &[Tup, Tup]),
        t(Bool, "(@0 and @1)", &[Bool, Bool]),
        t(Bool, "(@0 or @1)", &[Bool, Bool]),
        t(Bool, "(not @0)", &[Bool]),
        t(Bool, "(@0 in @1)", &[Int, ListInt]),
        t(Bool, "(@0 in @1)", &[Str, DictStrInt]),
        t(Bool, "(@0 in @1)", &[Int, SetInt]),
        t(Bool, "(@0 in @1)", &[Str, Str]),
        t(Bool, "isinstance(@0, P_B)", &[Obj]),
        t(Bool, "(@0 is @1)", &[Obj, Obj]),
        t(Bool, "@0.startswith(@1)", &[Str, Str]),
        t(Bool, "@0.endswith(@1)", &[Str, Str]),
        t(Bool, "@0.isdigit()", &[Str]),
        t(Bool, "@0.isalpha()", &[Str]),
        t(Bool, "bool(@0)", &[ListInt]),
        t(Bool, "bool(@0)", &[Str]),
        t(Float, "(@0 + @1)", &[Float, Float]),
        t(Float, "(@0 - @1)", &[Float, Float]),
        t(Float, "(@0 * @1)", &[Float, Float]),
        t(Float, "(@0 / (abs(@1) + 1.0))", &[Float, Float]),
        t(Float, "float(@0)", &[Int]),
        t(Float, "(@0 if @1 else @2)", &[Float, Bool, Float]),
        t(Float, "min(@0, @1)", &[Float, Float]),
        t(Float, "max(@0, @1)", &[Float, Float]),
        t(Float, "abs(@0)", &[Float]),
        t(Float, "(-@0)", &[Float]),
        t(Float, "math.sqrt(abs(@0))", &[Float]),
        t(Float, "(@0 * 0.5 + @1)", &[Float, Int]),
        t(Float, "(@0 / ((@1 & 7) + 1))", &[Int, Int]),
        t(Str, "(@0 + @1)[:24]", &[Str, Str]),
        t(Str, "@0[(@1 & 7):(@2 & 15)]", &[Str, Int, Int]),
        t(Str, "@0[(@1 & 7):]", &[Str, Int]),
        t(Str, "@0[:(@1 & 7)]", &[Str, Int]),
        t(Str, "@0[-(@1 & 3):]", &[Str, Int]),
        t(Str, "str(@0)", &[Int]),
        t(Str, "str(@0)", &[Float]),
        t(Str, "str(@0)", &[Bool]),
        t(Str, "@0.upper()", &[Str]),
        t(Str, "@0.lower()", &[Str]),
        t(Str, "@0.strip()", &[Str]),
        t(Str, "@0.replace(@1, @2)[:24]", &[Str, Str, Str]),
        t(Str, "(@0[:8] * (@1 & 3))", &[Str, Int]),
        t(Str, "@0.name()", &[Obj]),
        t(Str, "@0.tag", &[Obj]),
        t(Str, "@0[1]", &[Tup]),
        t(Str, "chr(97 + (@0 & 15))", &[Int]),
        t(Str, "(@0 if @1 else @2)", &[Str, Bool, Str]),
        t(Str, "('%d/%s' % (@0, @1))", &[Int, Str]),
        t(Str, "repr(@0[:16])", &[Str]),
        t(Str, "str(@0[:8])", &[ListInt]),
        t(Str, "str(@0)", &[Tup]),
        t(Str, "','.join([str(c) for c in @0[:8]])", &[ListInt]),
        t(Str, "@0.decode('utf-8')", &[Bytes]),
        t(Str, "(@0[@1 % len(@0)] if @0 else '-')", &[Str, Int]),
        t(Str, "@0.split(',')[0]", &[Str]),
        t(Bytes, "(@0 + @1)[:24]", &[Bytes, Bytes]),
        t(Bytes, "@0[(@1 & 7):(@2 & 15)]", &[Bytes, Int, Int]),
        t(Bytes, "@0.upper()", &[Bytes]),
        t(Bytes, "@0.encode('utf-8')", &[Str]),
        t(Bytes, "(@0 if @1 else @2)", &[Bytes, Bool, Bytes]),
        t(ListInt, "[@0, @1]", &[Int, Int]),
        t(ListInt, "[@0]", &[Int]),
        t(ListInt, "(@0[:6] + @1[:6])", &[ListInt, ListInt]),
        t(ListInt, "@0[(@1 & 7):(@2 & 7)]", &[ListInt, Int, Int]),
        t(ListInt, "sorted(@0)", &[ListInt]),
        t(ListInt, "list(range(@0 & 7))", &[Int]),
        t(ListInt, "sorted(@0)", &[SetInt]),
        t(ListInt, "list(@0.values())", &[DictStrInt]),
        t(ListInt, "[c * 2 for c in range(@0 & 7)]", &[Int]),
        t(ListInt, "(@0[:4] * (@1 & 3))", &[ListInt, Int]),
        t(ListInt, "(@0 if @1 else @2)", &[ListInt, Bool, ListInt]),
        t(ListInt, "list(@0)", &[Bytes]),
        t(ListInt, "[len(c) for c in @0]", &[DictStrInt]),
        t(DictStrInt, "{@0: @1}", &[Str, Int]),
        t(DictStrInt, "{@0: @1, @2: @3}", &[Str, Int, Str, Int]),
        t(DictStrInt, "dict(@0)", &[DictStrInt]),
        t(DictStrInt, "{str(c): c for c in @0}", &[ListInt]),
        t(SetInt, "{@0, @1}", &[Int, Int]),
        t(SetInt, "set(@0)", &[ListInt]),
        t(SetInt, "(@0 | @1)", &[SetInt, SetInt]),
        t(SetInt, "(@0 & @1)", &[SetInt, SetInt]),
        t(SetInt, "(@0 - @1)", &[SetInt, SetInt]),
        t(SetInt, "{c % 5 for c in @0}", &[ListInt]),
        t(Tup, "(@0, @1)", &[Int, Str]),
        t(Tup, "(@0 if @1 else @2)", &[Tup, Bool, Tup]),
        t(Obj, "P_A(@0)", &[Int]),
        t(Obj, "P_B(@0)", &[Int]),
        t(Obj, "P_C(@0)", &[Int]),
        t(Obj, "(@0 if @1 else @2)", &[Obj, Bool, Obj]),
    ]
}

const PRINTABLE: &[Ty] = &[
    Ty::Int,
    Ty::Float,
    Ty::Bool,
    Ty::Str,
    Ty::Bytes,
    Ty::ListInt,
    Ty::DictStrInt,
    Ty::Tup,
];
const RESULTS: &[Ty] = &[
    Ty::Int,
    Ty::Float,
    Ty::Bool,
    Ty::Str,
    Ty::Bytes,
    Ty::ListInt,
    Ty::Tup,
];
/// Types a local is most often given.
const LOCAL_TYS: &[Ty] = &[
    Ty::Int,
    Ty::Int,
    Ty::Int,
    Ty::Str,
    Ty::Str,
    Ty::Float,
    Ty::Bool,
    Ty::Bytes,
    Ty::ListInt,
    Ty::ListInt,
    Ty::DictStrInt,
    Ty::SetInt,
    Ty::Tup,
    Ty::Obj,
];

impl FnGen<'_> {
    fn allowed(&self, ty: Ty) -> bool {
        ty != Ty::Obj || self.limits.objects
    }

    fn can_call(&self) -> bool {
        self.limits.calls && (self.loop_depth == 0 || self.limits.calls_in_loops)
    }

    fn leaf(&mut self, ty: Ty) -> Expr {
        let vars: Vec<&(String, Ty)> = self.vars.iter().filter(|(_, t)| *t == ty).collect();
        let prebuilt = ty == Ty::Obj && !self.prebuilt.is_empty();
        if prebuilt && self.rng.chance(30) {
            let name = self.rng.pick(self.prebuilt).clone();
            return Expr::Var(ty, name);
        }
        if !vars.is_empty() && self.rng.chance(70) {
            let (name, _) = self.rng.pick(&vars);
            return Expr::Var(ty, name.clone());
        }
        lit(self.rng, &self.prefix, ty)
    }

    fn expr(&mut self, ty: Ty, depth: usize) -> Expr {
        if depth == 0 || self.rng.chance(25) {
            return self.leaf(ty);
        }
        if self.can_call() && self.rng.chance(12) {
            let callees: Vec<Callee> = self
                .callees
                .iter()
                .filter(|c| c.ret == ty && c.kind != CalleeKind::Generator)
                .cloned()
                .collect();
            if !callees.is_empty() {
                let c = self.rng.pick(&callees).clone();
                let args: Vec<Expr> = c.params.iter().map(|&t| self.expr(t, depth - 1)).collect();
                let holes: Vec<String> = (0..args.len()).map(|k| format!("@{k}")).collect();
                let tmpl = if c.kind == CalleeKind::Recursive {
                    format!("{}((@0 & 7), {})", c.name, holes[1..].join(", "))
                } else {
                    format!("{}({})", c.name, holes.join(", "))
                };
                return Expr::Op { ty, tmpl, args };
            }
        }
        if ty == Ty::Str && self.rng.chance(5) {
            // an f-string over simple operands (no braces or quotes inside)
            let a = self.leaf(Ty::Int);
            let b = self.leaf(Ty::Str);
            return Expr::Op {
                ty,
                tmpl: "f\"{@0}<{@1}>\"".into(),
                args: vec![a, b],
            };
        }
        if ty == Ty::ListInt && self.rng.chance(10) {
            // a comprehension with its own variable in scope
            self.fresh += 1;
            let c = format!("c{}", self.fresh);
            let src = self.expr(Ty::ListInt, depth - 1);
            self.vars.push((c.clone(), Ty::Int));
            let item = self.expr(Ty::Int, depth - 1);
            let cond = self.expr(Ty::Bool, depth - 1);
            self.vars.pop();
            return Expr::Op {
                ty,
                // the filter is never constant-false: a list never given
                // an item has items of no type, and operations on those
                // are not RPython (PyPy's annotator blocks on them)
                tmpl: format!("[@0 for {c} in @1 if (@2 or {c} == 7)]"),
                args: vec![item, src, cond],
            };
        }
        let all = templates(&self.prefix);
        let fits: Vec<&(Ty, String, Vec<Ty>)> = all
            .iter()
            .filter(|(r, _, a)| *r == ty && a.iter().all(|&t| self.allowed(t)))
            .collect();
        if fits.is_empty() {
            return self.leaf(ty);
        }
        let (_, tmpl, arg_tys) = self.rng.pick(&fits);
        let (tmpl, arg_tys) = (tmpl.clone(), arg_tys.clone());
        let args = arg_tys.iter().map(|&t| self.expr(t, depth - 1)).collect();
        Expr::Op { ty, tmpl, args }
    }

    fn local(&mut self, ty: Ty) -> String {
        let existing: Vec<String> = self
            .locals
            .iter()
            .filter(|(_, t)| *t == ty)
            .map(|(n, _)| n.clone())
            .collect();
        if !existing.is_empty() && self.rng.chance(60) {
            return self.rng.pick(&existing).clone();
        }
        self.fresh += 1;
        let name = format!("v{}{}", ty.tag(), self.fresh);
        self.locals.push((name.clone(), ty));
        self.vars.push((name.clone(), ty));
        name
    }

    fn simple(tmpl: String, args: Vec<Expr>) -> Stmt {
        Stmt::Simple {
            tmpl,
            args,
            loop_ctl: false,
        }
    }

    fn block(&mut self, depth: usize) -> Vec<Stmt> {
        let n = 1 + self.rng.below(if depth == 0 { 6 } else { 3 });
        let mut out = Vec::new();
        for _ in 0..n {
            if self.budget == 0 {
                break;
            }
            self.budget -= 1;
            out.push(self.stmt(depth));
        }
        out
    }

    fn pick_ty(&mut self) -> Ty {
        loop {
            let t = *self.rng.pick(LOCAL_TYS);
            if self.allowed(t) {
                return t;
            }
        }
    }

    fn stmt(&mut self, depth: usize) -> Stmt {
        let d = 3;
        let nested = depth < 3;
        loop {
            match self.rng.below(100) {
                0..=29 => {
                    let ty = self.pick_ty();
                    let e = self.expr(ty, d);
                    let v = self.local(ty);
                    return Self::simple(format!("{v} = @0"), vec![e]);
                }
                30..=43 => return self.mutation(),
                44..=51 => {
                    let t = *self.rng.pick(PRINTABLE);
                    let a = self.expr(t, 2);
                    if self.rng.chance(30) {
                        let t2 = *self.rng.pick(PRINTABLE);
                        let b = self.expr(t2, 2);
                        let sep = if self.rng.chance(50) { ", sep='|'" } else { "" };
                        return Self::simple(format!("print(@0, @1{sep})"), vec![a, b]);
                    }
                    return Self::simple("print(@0)".into(), vec![a]);
                }
                52..=61 if nested => {
                    let cond = self.expr(Ty::Bool, 2);
                    let then = self.block(depth + 1);
                    let els = if self.rng.chance(40) {
                        self.block(depth + 1)
                    } else {
                        Vec::new()
                    };
                    return Stmt::If { cond, then, els };
                }
                62..=73 if nested && self.loop_depth < 2 => return self.loop_stmt(depth),
                74..=79 if nested => return self.try_stmt(depth),
                80..=83 if self.limits.objects => {
                    let cond = self.expr(Ty::Bool, 2);
                    let code = self.expr(Ty::Int, 1);
                    let cls = if self.rng.chance(50) { "E" } else { "F" };
                    let x = &self.prefix;
                    return Self::simple(
                        format!("if @0:\n    raise {x}{cls}(@1)"),
                        vec![cond, code],
                    );
                }
                84..=86 => {
                    let a = self.expr(Ty::Int, 2);
                    let b = self.expr(Ty::Int, 2);
                    let v = self.local(Ty::Int);
                    let op = *self.rng.pick(&["+", "-", "*"]);
                    return Self::simple(
                        format!("try:\n    {v} = ovfcheck(@0 {op} @1)\nexcept OverflowError:\n    {v} = -1"),
                        vec![a, b],
                    );
                }
                87..=90 if self.loop_depth > 0 => {
                    let cond = self.expr(Ty::Bool, 2);
                    let word = if self.rng.chance(50) {
                        "break"
                    } else {
                        "continue"
                    };
                    return Stmt::Simple {
                        tmpl: format!("if @0:\n    {word}"),
                        args: vec![cond],
                        loop_ctl: true,
                    };
                }
                91..=93 if self.limits.returns => {
                    let cond = self.expr(Ty::Bool, 2);
                    let r = self.expr(self.ret, 2);
                    return Self::simple("if @0:\n    return @1".into(), vec![cond, r]);
                }
                94..=95 => {
                    let t = self.expr(Ty::Tup, 2);
                    let a = self.local(Ty::Int);
                    let b = self.local(Ty::Str);
                    return Self::simple(format!("{a}, {b} = @0"), vec![t]);
                }
                96..=99 if self.can_call() => {
                    let e = self.expr(Ty::Int, 3);
                    let v = self.local(Ty::Int);
                    return Self::simple(format!("{v} = intmask({v} + @0)"), vec![e]);
                }
                _ => continue,
            }
        }
    }

    fn mutation(&mut self) -> Stmt {
        match self.rng.below(3) {
            0 => {
                let l = self.local(Ty::ListInt);
                let forms: &[(&str, &[Ty])] = &[
                    ("{l}.append(@0)", &[Ty::Int]),
                    ("{l}.append(@0)", &[Ty::Int]),
                    ("{l}.extend(@0[:4])", &[Ty::ListInt]),
                    ("{l}.reverse()", &[]),
                    ("{l}.sort()", &[]),
                    ("if {l}:\n    @0 = {l}.pop()", &[]),
                    ("if {l}:\n    {l}[@0 % len({l})] = @1", &[Ty::Int, Ty::Int]),
                    ("{l}.insert(@0 & 3, @1)", &[Ty::Int, Ty::Int]),
                    ("del {l}[(@0 & 3):]", &[Ty::Int]),
                ];
                let (tmpl, tys) = *self.rng.pick(forms);
                let mut tmpl = tmpl.replace("{l}", &l);
                if tmpl.contains("pop()") {
                    let v = self.local(Ty::Int);
                    tmpl = tmpl.replace("@0", &v);
                }
                let args = tys.iter().map(|&t| self.expr(t, 2)).collect();
                Self::simple(tmpl, args)
            }
            1 => {
                let dct = self.local(Ty::DictStrInt);
                let forms: &[(&str, &[Ty])] = &[
                    ("{d}[@0] = @1", &[Ty::Str, Ty::Int]),
                    ("{d}[@0] = @1", &[Ty::Str, Ty::Int]),
                    ("if @0 in {d}:\n    del {d}[@0]", &[Ty::Str]),
                    ("{d}.pop(@0, 0)", &[Ty::Str]),
                    ("{d}.clear()", &[]),
                ];
                let (tmpl, tys) = *self.rng.pick(forms);
                let args = tys.iter().map(|&t| self.expr(t, 2)).collect();
                Self::simple(tmpl.replace("{d}", &dct), args)
            }
            _ => {
                let s = self.local(Ty::SetInt);
                let forms: &[(&str, &[Ty])] = &[
                    ("{s}.add(@0)", &[Ty::Int]),
                    ("{s}.discard(@0)", &[Ty::Int]),
                    ("{s}.update(@0[:4])", &[Ty::ListInt]),
                ];
                let (tmpl, tys) = *self.rng.pick(forms);
                let args = tys.iter().map(|&t| self.expr(t, 2)).collect();
                Self::simple(tmpl.replace("{s}", &s), args)
            }
        }
    }

    fn loop_stmt(&mut self, depth: usize) -> Stmt {
        let gens: Vec<Callee> = self
            .callees
            .iter()
            .filter(|c| c.kind == CalleeKind::Generator)
            .cloned()
            .collect();
        let kind = self.rng.below(7);
        let (setup, head, args, first) = match kind {
            0 | 1 => {
                let n = self.expr(Ty::Int, 2);
                let k = self.local(Ty::Int);
                (
                    String::new(),
                    format!("for {k} in range(@0 & 3):"),
                    vec![n],
                    String::new(),
                )
            }
            2 => {
                // the counter is no local: nothing else may assign it
                self.fresh += 1;
                let k = format!("w{}", self.fresh);
                let bound = 1 + self.rng.below(4);
                (
                    format!("{k} = 0"),
                    format!("while {k} < {bound}:"),
                    vec![],
                    format!("{k} += 1"),
                )
            }
            3 => {
                let src = self.expr(Ty::ListInt, 2);
                let k = self.local(Ty::Int);
                (
                    String::new(),
                    format!("for {k} in @0[:5]:"),
                    vec![src],
                    String::new(),
                )
            }
            4 => {
                let src = self.expr(Ty::Str, 2);
                let k = self.local(Ty::Str);
                (
                    String::new(),
                    format!("for {k} in @0[:5]:"),
                    vec![src],
                    String::new(),
                )
            }
            5 => {
                let src = self.expr(Ty::DictStrInt, 2);
                let k = self.local(Ty::Str);
                let (tmpl, v) = if self.rng.chance(50) {
                    (format!("for {k} in list(@0)[:5]:"), None)
                } else {
                    let v = self.local(Ty::Int);
                    (format!("for {k}, {v} in list(@0.items())[:5]:"), Some(v))
                };
                let _ = v;
                (String::new(), tmpl, vec![src], String::new())
            }
            _ => {
                if gens.is_empty() || !self.can_call() {
                    let src = self.expr(Ty::SetInt, 2);
                    let k = self.local(Ty::Int);
                    (
                        String::new(),
                        format!("for {k} in sorted(@0)[:5]:"),
                        vec![src],
                        String::new(),
                    )
                } else {
                    let g = self.rng.pick(&gens).clone();
                    let args: Vec<Expr> = g.params.iter().map(|&t| self.expr(t, 2)).collect();
                    let holes: Vec<String> = (0..args.len()).map(|k| format!("@{k}")).collect();
                    let k = self.local(Ty::Int);
                    (
                        String::new(),
                        format!("for {k} in {}({}):", g.name, holes.join(", ")),
                        args,
                        String::new(),
                    )
                }
            }
        };
        self.loop_depth += 1;
        let body = self.block(depth + 1);
        self.loop_depth -= 1;
        Stmt::Loop {
            setup,
            head,
            args,
            first,
            body,
        }
    }

    fn try_stmt(&mut self, depth: usize) -> Stmt {
        let body = self.block(depth + 1);
        let x = self.prefix.clone();
        let mut handlers = Vec::new();
        let n = 1 + self.rng.below(2);
        for _ in 0..n {
            self.fresh += 1;
            let e = format!("e{}", self.fresh);
            let (head, code) = match self.rng.below(4) {
                0 => (format!("except {x}F as {e}:"), true),
                1 => (format!("except {x}E as {e}:"), true),
                2 => ("except OverflowError:".to_string(), false),
                _ => (format!("except ({x}F, ValueError):"), false),
            };
            let code_var = format!("{e}.code");
            if code {
                self.vars.push((code_var.clone(), Ty::Int));
            }
            let hbody = self.block(depth + 1);
            self.vars.retain(|(n, _)| *n != code_var);
            handlers.push((head, hbody));
        }
        Stmt::Try { body, handlers }
    }
}

/// Generates program `index` of a run: all its module-level names start
/// with `p{index}_`.
pub fn program(seed: u64, index: u64) -> Program {
    program_with(Rng::new(program_seed(seed, index)), index)
}

/// Program `index` with the choices of `rng` (a seeded one, or the bytes
/// of a cargo-fuzz input).
pub fn program_with(mut rng: Rng, index: u64) -> Program {
    let prefix = format!("p{index}_");
    let x = prefix.clone();
    let no_calls = Limits {
        calls: false,
        objects: false,
        returns: true,
        calls_in_loops: false,
    };
    let mut callees: Vec<Callee> = Vec::new();
    let mut prebuilt_names: Vec<String> = Vec::new();

    // the class hierarchy: A, B(A), C(A or B); methods call nothing
    let mut classes = Vec::new();
    for (name, base) in [
        ("A", None),
        ("B", Some("A")),
        ("C", Some(if rng.chance(50) { "A" } else { "B" })),
    ] {
        let mut methods = Vec::new();
        let defines_m = base.is_none() || rng.chance(70);
        let defines_name = base.is_none() || rng.chance(40);
        if defines_m {
            methods.push(function(
                &mut rng,
                &x,
                "m",
                vec![("x".into(), Ty::Int)],
                vec![("self.a".into(), Ty::Int), ("self.tag".into(), Ty::Str)],
                Ty::Int,
                FuncKind::Method,
                no_calls.clone(),
                &[],
                &[],
                3,
            ));
        }
        if defines_name {
            methods.push(function(
                &mut rng,
                &x,
                "name",
                vec![],
                vec![("self.a".into(), Ty::Int), ("self.tag".into(), Ty::Str)],
                Ty::Str,
                FuncKind::Method,
                no_calls.clone(),
                &[],
                &[],
                2,
            ));
        }
        classes.push(Class {
            name: format!("{x}{name}"),
            base: base.map(|b| format!("{x}{b}")),
            methods,
        });
    }
    let mut prebuilt = Vec::new();
    for k in 0..rng.below(3) {
        let cls = *rng.pick(&["A", "B", "C"]);
        let arg: i64 = rng.below(20) as i64 - 5;
        let name = format!("{x}PRE{k}");
        prebuilt.push((name.clone(), format!("{x}{cls}"), arg));
        prebuilt_names.push(name);
    }

    let mut funcs = Vec::new();
    if rng.chance(50) {
        let f = function(
            &mut rng,
            &x,
            &format!("{x}gen"),
            vec![("n".into(), Ty::Int), ("a".into(), Ty::Int)],
            vec![("gk".into(), Ty::Int)],
            Ty::Int,
            FuncKind::Generator,
            Limits {
                calls: false,
                objects: true,
                returns: false,
                calls_in_loops: false,
            },
            &[],
            &prebuilt_names,
            3,
        );
        callees.push(Callee {
            name: f.name.clone(),
            params: vec![Ty::Int, Ty::Int],
            ret: Ty::Int,
            kind: CalleeKind::Generator,
        });
        funcs.push(f);
    }
    if rng.chance(50) {
        let name = format!("{x}rec");
        let limits = Limits {
            calls: false,
            objects: true,
            returns: true,
            calls_in_loops: false,
        };
        let mut f = function(
            &mut rng,
            &x,
            &name,
            vec![("n".into(), Ty::Int), ("a".into(), Ty::Int)],
            vec![],
            Ty::Int,
            FuncKind::Plain,
            limits.clone(),
            &[],
            &prebuilt_names,
            4,
        );
        let mut g = FnGen {
            rng: &mut rng,
            prefix: x.clone(),
            callees: &[],
            prebuilt: &prebuilt_names,
            limits,
            vars: f.params.iter().chain(&f.locals).cloned().collect(),
            locals: f.locals.clone(),
            loop_depth: 0,
            fresh: 900,
            budget: 0,
            ret: Ty::Int,
        };
        let base = g.expr(Ty::Int, 2);
        let a = g.expr(Ty::Int, 2);
        let b = g.expr(Ty::Int, 2);
        f.kind = FuncKind::Recursive { base };
        f.ret = Expr::Op {
            ty: Ty::Int,
            tmpl: format!("intmask({name}(n - 1, @0) + @1)"),
            args: vec![a, b],
        };
        callees.push(Callee {
            name,
            params: vec![Ty::Int, Ty::Int],
            ret: Ty::Int,
            kind: CalleeKind::Recursive,
        });
        funcs.push(f);
    }
    for k in 0..rng.below(4) {
        let nparams = 1 + rng.below(3);
        let params: Vec<(String, Ty)> = (0..nparams)
            .map(|i| {
                let t = *rng.pick(&[
                    Ty::Int,
                    Ty::Int,
                    Ty::Str,
                    Ty::Float,
                    Ty::ListInt,
                    Ty::Obj,
                    Ty::Bool,
                ]);
                (format!("a{i}"), t)
            })
            .collect();
        let ret = *rng.pick(RESULTS);
        let name = format!("{x}h{k}");
        let f = function(
            &mut rng,
            &x,
            &name,
            params.clone(),
            vec![],
            ret,
            FuncKind::Plain,
            Limits {
                calls: true,
                objects: true,
                returns: true,
                calls_in_loops: false,
            },
            &callees,
            &prebuilt_names,
            6,
        );
        callees.push(Callee {
            name,
            params: params.iter().map(|(_, t)| *t).collect(),
            ret,
            kind: CalleeKind::Plain,
        });
        funcs.push(f);
    }
    let ret = *rng.pick(RESULTS);
    let main = function(
        &mut rng,
        &x,
        &format!("{x}main"),
        vec![("x".into(), Ty::Int), ("s".into(), Ty::Str)],
        vec![],
        ret,
        FuncKind::Plain,
        Limits {
            calls: true,
            objects: true,
            returns: true,
            calls_in_loops: true,
        },
        &callees,
        &prebuilt_names,
        12,
    );
    let cases = (0..3)
        .map(|_| format!("[{}, {}]", rng.pick(CASE_INTS), rng.pick(CASE_STRS)))
        .collect();
    Program {
        prefix,
        classes,
        prebuilt,
        funcs,
        main,
        cases,
    }
}

#[allow(clippy::too_many_arguments)]
fn function(
    rng: &mut Rng,
    prefix: &str,
    name: &str,
    params: Vec<(String, Ty)>,
    extra_vars: Vec<(String, Ty)>,
    ret: Ty,
    kind: FuncKind,
    limits: Limits,
    callees: &[Callee],
    prebuilt: &[String],
    budget: usize,
) -> Func {
    let mut g = FnGen {
        rng,
        prefix: prefix.to_string(),
        callees,
        prebuilt,
        limits,
        vars: params.iter().chain(&extra_vars).cloned().collect(),
        locals: Vec::new(),
        loop_depth: usize::from(kind == FuncKind::Generator),
        fresh: 0,
        budget,
        ret,
    };
    let body = g.block(0);
    let ret_expr = g.expr(ret, 3);
    Func {
        name: name.to_string(),
        params,
        kind,
        locals: g.locals,
        body,
        ret: ret_expr,
    }
}
