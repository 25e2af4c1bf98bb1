//! Random low-level tests as a small typed AST: each test is an entry
//! function and a few helpers it calls, over a fixed frame of locals
//! (`NI` ints, `NF` floats, one struct and one array), every statement
//! assigning one local.  The AST is well typed by construction, loops
//! carry a constant trip count and array indexes are masked into bounds,
//! so every lowering passes `llverify` and every run terminates.  The
//! generator draws its choices from a [`Choices`]: a seeded [`Rng`] for
//! `rpy3 fuzz --lowlevel`, [`Rng::from_bytes`] for the cargo-fuzz target.

use std::fmt::Write;

use rpy3_model::lloperation::LlOp;

use crate::gen::Rng;

/// Int locals of every function (the first two are parameters).
pub const NI: usize = 4;
/// Float locals of every function (the first is a parameter).
pub const NF: usize = 3;
/// Items of every function's array.
pub const ARRAY_LEN: usize = 8;

/// Where the generator's choices come from.
pub trait Choices {
    /// A number in `0..n` (`n > 0`).
    fn below(&mut self, n: usize) -> usize;

    /// True with probability `percent`/100.
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

impl Choices for Rng {
    fn below(&mut self, n: usize) -> usize {
        Rng::below(self, n)
    }
}

/// The two kinds of local.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Ty {
    Int,
    Float,
}

/// An operand: a local or a constant.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Val {
    Local(Ty, usize),
    Int(i64),
    Float(f64),
}

impl Val {
    pub fn ty(self) -> Ty {
        match self {
            Val::Local(t, _) => t,
            Val::Int(_) => Ty::Int,
            Val::Float(_) => Ty::Float,
        }
    }
}

/// A local assigned by a statement.
pub type Dst = (Ty, usize);

/// What a raising operation or call does when it raises: the class
/// caught (an exception of another class propagates) and the value the
/// destination gets then.
#[derive(Clone, Debug, PartialEq)]
pub struct Catch {
    pub class: &'static str,
    pub fallback: Val,
}

/// A condition: a comparison (or test) giving a Bool.
#[derive(Clone, Debug, PartialEq)]
pub struct Cond {
    pub op: LlOp,
    pub args: Vec<Val>,
}

/// The struct's fields.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Field {
    I,
    F,
}

impl Field {
    pub fn name(self) -> &'static str {
        match self {
            Field::I => "fi",
            Field::F => "ff",
        }
    }
    pub fn ty(self) -> Ty {
        match self {
            Field::I => Ty::Int,
            Field::F => Ty::Float,
        }
    }
}

/// One statement.
#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    /// `dst = op(args)`; a raising operation may be guarded.  Shift
    /// counts are masked to `0..64` first.
    Op {
        dst: Dst,
        op: LlOp,
        args: Vec<Val>,
        catch: Option<Catch>,
    },
    /// `dst = helper(args)` (an int), maybe guarded.
    Call {
        dst: usize,
        func: usize,
        args: [Val; 3],
        catch: Option<Catch>,
    },
    If {
        cond: Cond,
        then: Vec<Stmt>,
        els: Vec<Stmt>,
    },
    /// The body `trips` times.
    Loop {
        trips: u8,
        body: Vec<Stmt>,
    },
    /// Raises a fresh instance of `class` when `cond` holds.
    RaiseIf {
        cond: Cond,
        class: &'static str,
    },
    SetField(Field, Val),
    GetField(Dst, Field),
    /// `array[index & 7] = value`.
    SetItem(Val, Val),
    /// `dst = array[index & 7]`.
    GetItem(usize, Val),
    /// Unsigned arithmetic on ints seen as machine words: `dst` (an int)
    /// is `op` of the operands cast to Unsigned (a shift count stays
    /// Signed, masked to `0..64`), its result cast back (a comparison's
    /// through `cast_bool_to_int`).  Never guarded: a division by zero
    /// propagates.
    Uint {
        dst: usize,
        op: LlOp,
        args: Vec<Val>,
    },
    /// A fresh struct (or array) with the old one's contents replaces it
    /// in the frame: the old one is garbage, the new one must survive
    /// the collections that follow.
    Realloc {
        array: bool,
    },
}

/// One function: its locals start as the parameters `(i0, i1, f0)` and
/// the constants `init`.
#[derive(Clone, Debug, PartialEq)]
pub struct Func {
    pub init_ints: [i64; NI - 2],
    pub init_floats: [f64; NF - 1],
    pub body: Vec<Stmt>,
}

/// A test: helpers (each may call the ones before it), an entry calling
/// them, and the arguments of each case.
#[derive(Clone, Debug, PartialEq)]
pub struct Test {
    pub helpers: Vec<Func>,
    pub entry: Func,
    pub cases: Vec<(i64, i64, f64)>,
}

/// Ints at the edges of their range, and a few ordinary ones.
pub const INTS: &[i64] = &[
    0,
    1,
    -1,
    2,
    3,
    7,
    -8,
    63,
    64,
    100,
    255,
    1 << 31,
    -(1 << 31),
    (1 << 31) - 1,
    1 << 32,
    (1 << 53) + 1,
    1 << 62,
    i64::MAX,
    i64::MAX - 1,
    i64::MIN,
    i64::MIN + 1,
    -3037000499,
    3037000500,
];

/// Floats at the edges: zeros of both signs, the smallest subnormal,
/// the largest finite, infinities, NaN, and values around 2**53 and
/// 2**63.
pub const FLOATS: &[f64] = &[
    0.0,
    -0.0,
    0.5,
    -1.5,
    2.5,
    1.0,
    -1.0,
    3.0,
    1e-300,
    5e-324,
    1e308,
    -1e308,
    f64::MAX,
    f64::INFINITY,
    f64::NEG_INFINITY,
    f64::NAN,
    9007199254740993.0,
    // 2**63 (just out of Signed's range), the float below it, -2**63
    (1u64 << 63) as f64,
    ((1u64 << 63) - 1024) as f64,
    -((1u64 << 63) as f64),
    0.1,
    123456.789,
];

const INT_PURE: &[LlOp] = &[
    LlOp::IntAdd,
    LlOp::IntSub,
    LlOp::IntMul,
    LlOp::IntAnd,
    LlOp::IntOr,
    LlOp::IntXor,
    LlOp::IntLshift,
    LlOp::IntRshift,
];
const INT_UNARY: &[LlOp] = &[LlOp::IntNeg, LlOp::IntAbs, LlOp::IntInvert];
const INT_RAISING: &[LlOp] = &[
    LlOp::IntFloordiv,
    LlOp::IntMod,
    LlOp::IntAddOvf,
    LlOp::IntSubOvf,
    LlOp::IntMulOvf,
    LlOp::IntFloordivOvf,
    LlOp::IntModOvf,
    LlOp::IntLshiftOvf,
    LlOp::IntPow,
];
const INT_UNARY_RAISING: &[LlOp] = &[LlOp::IntNegOvf, LlOp::IntAbsOvf];
const FLOAT_BINARY: &[LlOp] = &[
    LlOp::FloatAdd,
    LlOp::FloatSub,
    LlOp::FloatMul,
    LlOp::FloatTruediv,
    LlOp::FloatFloordiv,
    LlOp::FloatMod,
    LlOp::FloatPow,
    LlOp::FloatFmod,
    LlOp::FloatAtan2,
    LlOp::FloatHypot,
    LlOp::FloatCopysign,
    LlOp::FloatMathPow,
];
const FLOAT_UNARY: &[LlOp] = &[
    LlOp::FloatNeg,
    LlOp::FloatAbs,
    LlOp::FloatFloor,
    LlOp::FloatCeil,
    LlOp::FloatTrunc,
    LlOp::FloatRound,
    LlOp::FloatSqrt,
    LlOp::FloatExp,
    LlOp::FloatLog,
    LlOp::FloatAtan,
    LlOp::FloatTanh,
    LlOp::FloatExpm1,
    LlOp::FloatLog1p,
    LlOp::FloatLog2,
    LlOp::FloatLog10,
    LlOp::FloatSin,
    LlOp::FloatCos,
    LlOp::FloatAsin,
    LlOp::FloatAcosh,
    LlOp::FloatAtanh,
    LlOp::FloatSinh,
];
/// Unsigned operations (`Stmt::Uint`).
pub const UINT_OPS: &[LlOp] = &[
    LlOp::UintAdd,
    LlOp::UintSub,
    LlOp::UintMul,
    LlOp::UintFloordiv,
    LlOp::UintMod,
    LlOp::UintAnd,
    LlOp::UintOr,
    LlOp::UintXor,
    LlOp::UintLshift,
    LlOp::UintRshift,
    LlOp::UintNeg,
    LlOp::UintInvert,
    LlOp::UintLt,
    LlOp::UintLe,
    LlOp::UintEq,
    LlOp::UintGe,
    LlOp::UintIsTrue,
];
const INT_COMPARE: &[LlOp] = &[
    LlOp::IntLt,
    LlOp::IntLe,
    LlOp::IntEq,
    LlOp::IntNe,
    LlOp::IntGt,
    LlOp::IntGe,
];
const FLOAT_COMPARE: &[LlOp] = &[
    LlOp::FloatLt,
    LlOp::FloatLe,
    LlOp::FloatEq,
    LlOp::FloatNe,
    LlOp::FloatGt,
    LlOp::FloatGe,
];

/// The classes a handler may name (some never match what the guarded
/// operation raises: then the exception propagates).
pub const CATCHABLE: &[&str] = &[
    "Exception",
    "ArithmeticError",
    "OverflowError",
    "ZeroDivisionError",
    "ValueError",
    "IndexError",
];

/// The classes a test raises itself.
pub const RAISED: &[&str] = &["ValueError", "OverflowError", "KeyError", "IndexError"];

fn pick<T: Copy>(c: &mut impl Choices, items: &[T]) -> T {
    items[c.below(items.len())]
}

struct Gen<'a, C: Choices> {
    c: &'a mut C,
    /// Helpers this function may call.
    callable: usize,
    /// Statements left to generate.
    budget: usize,
}

impl<C: Choices> Gen<'_, C> {
    fn val(&mut self, ty: Ty) -> Val {
        if self.c.chance(65) {
            let n = if ty == Ty::Int { NI } else { NF };
            return Val::Local(ty, self.c.below(n));
        }
        match ty {
            Ty::Int => Val::Int(pick(self.c, INTS)),
            Ty::Float => Val::Float(pick(self.c, FLOATS)),
        }
    }

    fn dst(&mut self, ty: Ty) -> Dst {
        let n = if ty == Ty::Int { NI } else { NF };
        (ty, self.c.below(n))
    }

    fn catch(&mut self, ty: Ty) -> Option<Catch> {
        if self.c.chance(70) {
            Some(Catch {
                class: pick(self.c, CATCHABLE),
                fallback: self.val(ty),
            })
        } else {
            None
        }
    }

    fn cond(&mut self) -> Cond {
        match self.c.below(5) {
            0 | 1 => Cond {
                op: pick(self.c, INT_COMPARE),
                args: vec![self.val(Ty::Int), self.val(Ty::Int)],
            },
            2 => Cond {
                op: pick(self.c, FLOAT_COMPARE),
                args: vec![self.val(Ty::Float), self.val(Ty::Float)],
            },
            3 => Cond {
                op: LlOp::IntIsTrue,
                args: vec![self.val(Ty::Int)],
            },
            _ => Cond {
                op: pick(self.c, &[LlOp::FloatIsnan, LlOp::FloatIsinf]),
                args: vec![self.val(Ty::Float)],
            },
        }
    }

    fn block(&mut self, depth: usize, max: usize) -> Vec<Stmt> {
        let n = 1 + self.c.below(max);
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

    fn stmt(&mut self, depth: usize) -> Stmt {
        let nested = depth < 2;
        match self.c.below(21) {
            0..=3 => {
                let op = pick(self.c, INT_PURE);
                Stmt::Op {
                    dst: self.dst(Ty::Int),
                    op,
                    args: vec![self.val(Ty::Int), self.val(Ty::Int)],
                    catch: None,
                }
            }
            4 => Stmt::Op {
                dst: self.dst(Ty::Int),
                op: pick(self.c, INT_UNARY),
                args: vec![self.val(Ty::Int)],
                catch: None,
            },
            5..=6 => {
                let op = pick(self.c, INT_RAISING);
                Stmt::Op {
                    dst: self.dst(Ty::Int),
                    op,
                    args: vec![self.val(Ty::Int), self.val(Ty::Int)],
                    catch: self.catch(Ty::Int),
                }
            }
            7 => {
                let op = pick(self.c, INT_UNARY_RAISING);
                Stmt::Op {
                    dst: self.dst(Ty::Int),
                    op,
                    args: vec![self.val(Ty::Int)],
                    catch: self.catch(Ty::Int),
                }
            }
            8..=9 => {
                let op = pick(self.c, FLOAT_BINARY);
                let raises = !op.desc().canraise.is_empty();
                Stmt::Op {
                    dst: self.dst(Ty::Float),
                    op,
                    args: vec![self.val(Ty::Float), self.val(Ty::Float)],
                    catch: if raises { self.catch(Ty::Float) } else { None },
                }
            }
            10 => {
                let op = pick(self.c, FLOAT_UNARY);
                let raises = !op.desc().canraise.is_empty();
                Stmt::Op {
                    dst: self.dst(Ty::Float),
                    op,
                    args: vec![self.val(Ty::Float)],
                    catch: if raises { self.catch(Ty::Float) } else { None },
                }
            }
            11 => match self.c.below(4) {
                0 => Stmt::Op {
                    dst: self.dst(Ty::Float),
                    op: LlOp::CastIntToFloat,
                    args: vec![self.val(Ty::Int)],
                    catch: None,
                },
                1 => Stmt::Op {
                    dst: self.dst(Ty::Int),
                    op: LlOp::CastFloatToInt,
                    args: vec![self.val(Ty::Float)],
                    catch: self.catch(Ty::Int),
                },
                2 => Stmt::Op {
                    dst: self.dst(Ty::Float),
                    op: LlOp::IntTruediv,
                    args: vec![self.val(Ty::Int), self.val(Ty::Int)],
                    catch: self.catch(Ty::Float),
                },
                _ => Stmt::Op {
                    dst: self.dst(Ty::Int),
                    op: LlOp::FloatFrexpExp,
                    args: vec![self.val(Ty::Float)],
                    catch: None,
                },
            },
            12 if self.callable > 0 => Stmt::Call {
                dst: self.c.below(NI),
                func: self.c.below(self.callable),
                args: [self.val(Ty::Int), self.val(Ty::Int), self.val(Ty::Float)],
                catch: self.catch(Ty::Int),
            },
            13 => {
                let field = pick(self.c, &[Field::I, Field::F]);
                if self.c.chance(50) {
                    Stmt::SetField(field, self.val(field.ty()))
                } else {
                    Stmt::GetField(self.dst(field.ty()), field)
                }
            }
            14 => {
                if self.c.chance(50) {
                    Stmt::SetItem(self.val(Ty::Int), self.val(Ty::Int))
                } else {
                    Stmt::GetItem(self.c.below(NI), self.val(Ty::Int))
                }
            }
            15 | 16 if nested => Stmt::If {
                cond: self.cond(),
                then: self.block(depth + 1, 3),
                els: if self.c.chance(50) {
                    self.block(depth + 1, 3)
                } else {
                    Vec::new()
                },
            },
            17 if nested => Stmt::Loop {
                trips: self.c.below(5) as u8,
                body: self.block(depth + 1, 3),
            },
            18 => Stmt::RaiseIf {
                cond: self.cond(),
                class: pick(self.c, RAISED),
            },
            19 if self.c.chance(25) => Stmt::Realloc {
                array: self.c.chance(50),
            },
            19 if self.c.chance(50) => {
                let op = pick(self.c, UINT_OPS);
                let n = op.desc().args.len();
                Stmt::Uint {
                    dst: self.c.below(NI),
                    op,
                    args: (0..n).map(|_| self.val(Ty::Int)).collect(),
                }
            }
            19 if self.c.chance(50) => {
                // float and int: `round(x, n)`, `ldexp(x, n)`
                let op = pick(self.c, &[LlOp::FloatRoundDigits, LlOp::FloatLdexp]);
                Stmt::Op {
                    dst: self.dst(Ty::Float),
                    op,
                    args: vec![self.val(Ty::Float), self.val(Ty::Int)],
                    catch: self.catch(Ty::Float),
                }
            }
            _ => Stmt::Op {
                dst: self.dst(Ty::Int),
                op: LlOp::IntAdd,
                args: vec![self.val(Ty::Int), self.val(Ty::Int)],
                catch: None,
            },
        }
    }

    fn func(&mut self, size: usize) -> Func {
        self.budget = size;
        let mut init_ints = [0; NI - 2];
        for x in init_ints.iter_mut() {
            *x = pick(self.c, INTS);
        }
        let mut init_floats = [0.0; NF - 1];
        for x in init_floats.iter_mut() {
            *x = pick(self.c, FLOATS);
        }
        let mut body = Vec::new();
        while self.budget > 0 {
            body.extend(self.block(0, 4));
        }
        Func {
            init_ints,
            init_floats,
            body,
        }
    }
}

/// A test drawn from `c`.
pub fn test(c: &mut impl Choices) -> Test {
    let nhelpers = c.below(3);
    let mut g = Gen {
        c,
        callable: 0,
        budget: 0,
    };
    let mut helpers = Vec::new();
    for k in 0..nhelpers {
        g.callable = k;
        let size = 2 + g.c.below(6);
        helpers.push(g.func(size));
    }
    g.callable = nhelpers;
    let size = 3 + g.c.below(14);
    let entry = g.func(size);
    let cases = (0..2)
        .map(|_| (pick(g.c, INTS), pick(g.c, INTS), pick(g.c, FLOATS)))
        .collect();
    Test {
        helpers,
        entry,
        cases,
    }
}

/// Test `index` of a run with `seed`.
pub fn test_for(seed: u64, index: u64) -> Test {
    let mut rng = Rng::new(crate::gen::program_seed(seed ^ 0x4C4C_4C4C, index));
    test(&mut rng)
}

// --- shrinking ----------------------------------------------------------------

/// Every test one edit smaller than `t`, simplest edits first: fewer
/// cases, a helper no one calls removed, a statement removed, a compound
/// statement replaced by one of its bodies, a guard removed, an operand
/// replaced by zero.  Every edit keeps the test well typed.
pub fn edits(t: &Test) -> Vec<Test> {
    let mut out = Vec::new();
    for k in 0..t.cases.len() {
        if t.cases.len() > 1 {
            let mut c = t.clone();
            c.cases.remove(k);
            out.push(c);
        }
    }
    for h in (0..t.helpers.len()).rev() {
        if !calls(t, h) {
            let mut c = t.clone();
            c.helpers.remove(h);
            renumber_calls(&mut c, h);
            out.push(c);
        }
    }
    let funcs = t.helpers.len() + 1;
    for f in 0..funcs {
        let body = |t: &Test| -> Vec<Stmt> {
            if f < t.helpers.len() {
                t.helpers[f].body.clone()
            } else {
                t.entry.body.clone()
            }
        };
        for new_body in stmt_edits(&body(t)) {
            let mut c = t.clone();
            if f < c.helpers.len() {
                c.helpers[f].body = new_body;
            } else {
                c.entry.body = new_body;
            }
            out.push(c);
        }
    }
    for k in 0..t.cases.len() {
        let (a, b, x) = t.cases[k];
        for case in [(0, b, x), (a, 0, x), (a, b, 0.0)] {
            if case != t.cases[k] && !(case.2 == 0.0 && x == 0.0 && case.0 == a && case.1 == b) {
                let mut c = t.clone();
                c.cases[k] = case;
                out.push(c);
            }
        }
    }
    out
}

fn calls(t: &Test, h: usize) -> bool {
    fn any(body: &[Stmt], h: usize) -> bool {
        body.iter().any(|s| match s {
            Stmt::Call { func, .. } => *func == h,
            Stmt::If { then, els, .. } => any(then, h) || any(els, h),
            Stmt::Loop { body, .. } => any(body, h),
            _ => false,
        })
    }
    t.helpers.iter().any(|f| any(&f.body, h)) || any(&t.entry.body, h)
}

fn renumber_calls(t: &mut Test, removed: usize) {
    fn walk(body: &mut [Stmt], removed: usize) {
        for s in body {
            match s {
                Stmt::Call { func, .. } if *func > removed => *func -= 1,
                Stmt::If { then, els, .. } => {
                    walk(then, removed);
                    walk(els, removed);
                }
                Stmt::Loop { body, .. } => walk(body, removed),
                _ => {}
            }
        }
    }
    for f in &mut t.helpers {
        walk(&mut f.body, removed);
    }
    walk(&mut t.entry.body, removed);
}

/// The bodies one edit smaller than `body`.
fn stmt_edits(body: &[Stmt]) -> Vec<Vec<Stmt>> {
    let mut out = Vec::new();
    for i in 0..body.len() {
        let mut c = body.to_vec();
        c.remove(i);
        out.push(c);
    }
    for i in 0..body.len() {
        let mut replace = |with: Vec<Stmt>| {
            let mut c = body[..i].to_vec();
            c.extend(with);
            c.extend_from_slice(&body[i + 1..]);
            out.push(c);
        };
        match &body[i] {
            Stmt::If { then, els, .. } => {
                replace(then.clone());
                replace(els.clone());
            }
            Stmt::Loop { body: inner, .. } => replace(inner.clone()),
            _ => {}
        }
    }
    for i in 0..body.len() {
        let mut with = |s: Stmt| {
            let mut c = body.to_vec();
            c[i] = s;
            out.push(c);
        };
        match &body[i] {
            Stmt::Op {
                dst,
                op,
                args,
                catch,
            } => {
                if catch.is_some() {
                    with(Stmt::Op {
                        dst: *dst,
                        op: *op,
                        args: args.clone(),
                        catch: None,
                    });
                }
                for k in 0..args.len() {
                    let zero = match args[k].ty() {
                        Ty::Int => Val::Int(0),
                        Ty::Float => Val::Float(0.0),
                    };
                    if matches!(args[k], Val::Local(..)) {
                        let mut a = args.clone();
                        a[k] = zero;
                        with(Stmt::Op {
                            dst: *dst,
                            op: *op,
                            args: a,
                            catch: catch.clone(),
                        });
                    }
                }
            }
            Stmt::Call {
                dst,
                func,
                args,
                catch: Some(_),
            } => with(Stmt::Call {
                dst: *dst,
                func: *func,
                args: *args,
                catch: None,
            }),
            Stmt::If { cond, then, els } => {
                for (k, inner) in stmt_edits(then).into_iter().enumerate() {
                    let _ = k;
                    with(Stmt::If {
                        cond: cond.clone(),
                        then: inner,
                        els: els.clone(),
                    });
                }
                for inner in stmt_edits(els) {
                    with(Stmt::If {
                        cond: cond.clone(),
                        then: then.clone(),
                        els: inner,
                    });
                }
            }
            Stmt::Loop { trips, body: inner } => {
                if *trips > 1 {
                    with(Stmt::Loop {
                        trips: 1,
                        body: inner.clone(),
                    });
                }
                for b in stmt_edits(inner) {
                    with(Stmt::Loop {
                        trips: *trips,
                        body: b,
                    });
                }
            }
            _ => {}
        }
    }
    out
}

/// The number of statements of `t` (what shrinking reduces).
pub fn size(t: &Test) -> usize {
    fn count(body: &[Stmt]) -> usize {
        body.iter()
            .map(|s| match s {
                Stmt::If { then, els, .. } => 1 + count(then) + count(els),
                Stmt::Loop { body, .. } => 1 + count(body),
                _ => 1,
            })
            .sum()
    }
    t.helpers.iter().map(|f| count(&f.body)).sum::<usize>() + count(&t.entry.body)
}

// --- text ---------------------------------------------------------------------

fn val_text(v: &Val) -> String {
    match v {
        Val::Local(Ty::Int, k) => format!("i{k}"),
        Val::Local(Ty::Float, k) => format!("f{k}"),
        Val::Int(i) => i.to_string(),
        Val::Float(x) => float_text(*x),
    }
}

/// A float as Python reads it back (`float('nan')`, `-0.0`, ...).
pub fn float_text(x: f64) -> String {
    if x.is_nan() {
        "float('nan')".into()
    } else if x.is_infinite() {
        if x > 0.0 {
            "float('inf')".into()
        } else {
            "float('-inf')".into()
        }
    } else {
        format!("{x:?}")
    }
}

fn dst_text(d: &Dst) -> String {
    val_text(&Val::Local(d.0, d.1))
}

fn args_text(args: &[Val]) -> String {
    args.iter().map(val_text).collect::<Vec<_>>().join(", ")
}

fn cond_text(c: &Cond) -> String {
    format!("{}({})", c.op.name(), args_text(&c.args))
}

fn body_text(out: &mut String, body: &[Stmt], indent: usize) {
    let pad = "    ".repeat(indent);
    if body.is_empty() {
        let _ = writeln!(out, "{pad}pass");
    }
    for s in body {
        let guarded =
            |out: &mut String, line: String, catch: &Option<Catch>, dst: String| match catch {
                None => {
                    let _ = writeln!(out, "{pad}{line}");
                }
                Some(c) => {
                    let _ = writeln!(
                        out,
                        "{pad}try: {line}\n{pad}except {}: {dst} = {}",
                        c.class,
                        val_text(&c.fallback)
                    );
                }
            };
        match s {
            Stmt::Op {
                dst,
                op,
                args,
                catch,
            } => {
                let d = dst_text(dst);
                guarded(
                    out,
                    format!("{d} = {}({})", op.name(), args_text(args)),
                    catch,
                    d.clone(),
                );
            }
            Stmt::Call {
                dst,
                func,
                args,
                catch,
            } => {
                let d = format!("i{dst}");
                guarded(
                    out,
                    format!("{d} = h{func}({})", args_text(args)),
                    catch,
                    d.clone(),
                );
            }
            Stmt::If { cond, then, els } => {
                let _ = writeln!(out, "{pad}if {}:", cond_text(cond));
                body_text(out, then, indent + 1);
                if !els.is_empty() {
                    let _ = writeln!(out, "{pad}else:");
                    body_text(out, els, indent + 1);
                }
            }
            Stmt::Loop { trips, body } => {
                let _ = writeln!(out, "{pad}for _ in range({trips}):");
                body_text(out, body, indent + 1);
            }
            Stmt::RaiseIf { cond, class } => {
                let _ = writeln!(out, "{pad}if {}: raise {class}", cond_text(cond));
            }
            Stmt::SetField(f, v) => {
                let _ = writeln!(out, "{pad}s.{} = {}", f.name(), val_text(v));
            }
            Stmt::GetField(d, f) => {
                let _ = writeln!(out, "{pad}{} = s.{}", dst_text(d), f.name());
            }
            Stmt::SetItem(i, v) => {
                let _ = writeln!(out, "{pad}a[{} & 7] = {}", val_text(i), val_text(v));
            }
            Stmt::GetItem(d, i) => {
                let _ = writeln!(out, "{pad}i{d} = a[{} & 7]", val_text(i));
            }
            Stmt::Realloc { array: false } => {
                let _ = writeln!(out, "{pad}s = S(fi=s.fi, ff=s.ff)");
            }
            Stmt::Realloc { array: true } => {
                let _ = writeln!(out, "{pad}a = list(a)");
            }
            Stmt::Uint { dst, op, args } => {
                let _ = writeln!(
                    out,
                    "{pad}i{dst} = {}({})  # unsigned",
                    op.name(),
                    args_text(args)
                );
            }
        }
    }
}

fn func_text(out: &mut String, name: &str, f: &Func, ret: &str) {
    let _ = writeln!(out, "def {name}(i0, i1, f0):");
    let ints: Vec<String> = f.init_ints.iter().map(|i| i.to_string()).collect();
    let floats: Vec<String> = f.init_floats.iter().map(|x| float_text(*x)).collect();
    let _ = writeln!(out, "    i2, i3 = {}", ints.join(", "));
    let _ = writeln!(out, "    f1, f2 = {}", floats.join(", "));
    let _ = writeln!(out, "    s = S(fi=0, ff=0.0); a = [0, 1, 2, 3, 4, 5, 6, 7]");
    body_text(out, &f.body, 1);
    let _ = writeln!(out, "    return {ret}");
}

/// The test as Python-like pseudo-code (what the graphs compute).
pub fn text(t: &Test) -> String {
    let mut out = String::new();
    for (k, h) in t.helpers.iter().enumerate() {
        func_text(&mut out, &format!("h{k}"), h, "i0");
    }
    func_text(
        &mut out,
        "entry",
        &t.entry,
        "(i0, i1, i2, i3, f0, f1, f2, s.fi, s.ff, *a)",
    );
    for (a, b, x) in &t.cases {
        let _ = writeln!(out, "entry({a}, {b}, {})", float_text(*x));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tests_are_reproducible_and_edits_shrink() {
        // (compared as text: a NaN is not equal to itself)
        let a = test_for(1, 5);
        assert_eq!(text(&a), text(&test_for(1, 5)));
        assert_ne!(text(&a), text(&test_for(1, 6)));
        for e in edits(&a) {
            assert!(size(&e) <= size(&a));
        }
    }

    #[test]
    fn bytes_give_a_test_even_when_short() {
        let t = test(&mut Rng::from_bytes(&[]));
        assert_eq!(t.cases.len(), 2);
        let t = test(&mut Rng::from_bytes(&[7; 300]));
        assert!(size(&t) > 0);
        assert_eq!(text(&t), text(&test(&mut Rng::from_bytes(&[7; 300]))));
    }
}
