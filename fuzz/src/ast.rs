//! The typed program the generator builds and the shrinker edits.
//!
//! Expressions are templates (`@0`, `@1`... name their operands) over
//! typed operands, so a generic shrinker can replace any expression by a
//! literal or by an operand of the same type and the program stays well
//! typed.  Every local is declared with a literal at the top of its
//! function, so dropping any statement leaves a valid program; loops
//! carry their bound in their header, so no edit can make one endless.

/// The types of generated values (RPython sees each as one annotation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    Int,
    Float,
    Bool,
    Str,
    Bytes,
    /// `list` of `int`.
    ListInt,
    /// `dict` of `str` to `int`.
    DictStrInt,
    /// `set` of `int`.
    SetInt,
    /// `(int, str)`.
    Tup,
    /// An instance of the program's class hierarchy (its base class).
    Obj,
}

impl Ty {
    /// Every type.
    pub const ALL: [Ty; 10] = [
        Ty::Int,
        Ty::Float,
        Ty::Bool,
        Ty::Str,
        Ty::Bytes,
        Ty::ListInt,
        Ty::DictStrInt,
        Ty::SetInt,
        Ty::Tup,
        Ty::Obj,
    ];

    /// Short tag used in local names.
    pub fn tag(self) -> &'static str {
        match self {
            Ty::Int => "i",
            Ty::Float => "f",
            Ty::Bool => "b",
            Ty::Str => "s",
            Ty::Bytes => "y",
            Ty::ListInt => "l",
            Ty::DictStrInt => "d",
            Ty::SetInt => "t",
            Ty::Tup => "p",
            Ty::Obj => "o",
        }
    }
}

/// A typed expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// Literal source text of a value of the type.
    Lit(Ty, String),
    /// A name in scope (a local, a parameter, `self.a`, a prebuilt object).
    Var(Ty, String),
    /// `tmpl` with `@k` replaced by operand `k`.
    Op {
        ty: Ty,
        tmpl: String,
        args: Vec<Expr>,
    },
}

impl Expr {
    /// The expression's type.
    pub fn ty(&self) -> Ty {
        match self {
            Expr::Lit(t, _) | Expr::Var(t, _) | Expr::Op { ty: t, .. } => *t,
        }
    }
}

/// A statement.
#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    /// One or more lines: `tmpl` (lines separated by `\n`) with `@k`
    /// replaced by operand `k`.  A `break`/`continue` is a `Simple`
    /// marked `loop_ctl`, only ever inside a loop.
    Simple {
        tmpl: String,
        args: Vec<Expr>,
        loop_ctl: bool,
    },
    If {
        cond: Expr,
        then: Vec<Stmt>,
        els: Vec<Stmt>,
    },
    /// A bounded loop: `setup` lines, the `head` line (with operands),
    /// then `first` (the counter's step of a `while`) and the body.
    Loop {
        setup: String,
        head: String,
        args: Vec<Expr>,
        first: String,
        body: Vec<Stmt>,
    },
    /// `try:` body, then handlers (`except ...:` line, the body).
    Try {
        body: Vec<Stmt>,
        handlers: Vec<(String, Vec<Stmt>)>,
    },
}

/// What kind of function a [`Func`] is.
#[derive(Clone, Debug, PartialEq)]
pub enum FuncKind {
    /// `def name(params): body; return ret`.
    Plain,
    /// First parameter `n` is a depth: `if n <= 0: return base`; the body
    /// calls the function itself only with `n - 1`.
    Recursive { base: Expr },
    /// A generator: `for k in range(n & 3): body; yield ret`.
    Generator,
    /// A method of a class (`self` first, `self.a` in scope).
    Method,
}

/// A function of the program.
#[derive(Clone, Debug, PartialEq)]
pub struct Func {
    pub name: String,
    pub params: Vec<(String, Ty)>,
    pub kind: FuncKind,
    /// Locals, each declared with the default literal of its type.
    pub locals: Vec<(String, Ty)>,
    pub body: Vec<Stmt>,
    pub ret: Expr,
}

/// A class of the hierarchy: `base` names its base class (`None` for
/// the root), `methods` override or define.
#[derive(Clone, Debug, PartialEq)]
pub struct Class {
    pub name: String,
    pub base: Option<String>,
    /// The text stored in `self.tag` by `__init__` (root only).
    pub methods: Vec<Func>,
}

/// One generated program: a class hierarchy, exception classes, prebuilt
/// instances, helpers and an entry `main(x, s)` with its cases.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    /// Prefix of every module-level name (programs share a batch file).
    pub prefix: String,
    pub classes: Vec<Class>,
    /// Prebuilt instances: name, class, constructor argument.
    pub prebuilt: Vec<(String, String, i64)>,
    /// Helpers, in definition order (each calls only earlier ones).
    pub funcs: Vec<Func>,
    pub main: Func,
    /// Argument lists of the cases, as source text.
    pub cases: Vec<String>,
}
