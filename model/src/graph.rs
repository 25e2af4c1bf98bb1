//! Flow graphs: `FunctionGraph`, `Block`, `Link`, `SpaceOperation`,
//! `Variable` and `Constant`, as PyPy's flow model defines them.
//!
//! Blocks, links and variables live in arenas owned by their graph and are
//! named by small typed ids.  Graphs are in SSI form: every variable is
//! defined exactly once (as an input argument of a block, as the result of
//! an operation, or as the `last_exception`/`last_exc_value` of an exception
//! link) and is used only inside the block that defines it; links carry
//! values from one block to the input arguments of the next.

use cranelift_entity::{entity_impl, PrimaryMap};

use crate::lltype::LlType;
use crate::operation::OpName;
use crate::pyobj::PyObj;

/// Names a variable of one graph.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId(u32);
entity_impl!(VarId, "v");

/// Names a block of one graph.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockId(u32);
entity_impl!(BlockId, "block");

/// Names a link of one graph.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LinkId(u32);
entity_impl!(LinkId, "link");

/// What the graph knows about a variable beyond its identity.
#[derive(Clone, Debug, Default)]
pub struct VariableData {
    /// A readable prefix for printing (the Python local it came from, or
    /// empty for temporaries).
    pub name_hint: String,
    /// The low-level type, once the graph is rtyped.
    pub concretetype: Option<LlType>,
}

/// A value known while building the graph: a live Python object.  After
/// rtyping it also has a low-level type, and low-level values are Python
/// objects too (ints, floats, bools, one-character strs, and the wrappers
/// of [`crate::llconst`] for types, pointers and functions), as in PyPy.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Constant {
    /// The object itself.
    pub value: PyObj,
    /// The low-level type, once rtyped.
    pub concretetype: Option<LlType>,
}

impl Constant {
    /// Wraps a live object.
    pub fn new(value: PyObj) -> Constant {
        Constant {
            value,
            concretetype: None,
        }
    }

    /// A low-level constant of type `ty`.
    pub fn typed(value: PyObj, ty: LlType) -> Constant {
        Constant {
            value,
            concretetype: Some(ty),
        }
    }
}

/// An operand: a variable of the graph or a constant.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Hlvalue {
    /// A variable defined in the same block (or on the same link).
    Variable(VarId),
    /// A constant.
    Constant(Constant),
}

impl Hlvalue {
    /// The variable, if this operand is one.
    pub fn as_var(&self) -> Option<VarId> {
        match self {
            Hlvalue::Variable(v) => Some(*v),
            Hlvalue::Constant(_) => None,
        }
    }

    /// The constant, if this operand is one.
    pub fn as_const(&self) -> Option<&Constant> {
        match self {
            Hlvalue::Variable(_) => None,
            Hlvalue::Constant(c) => Some(c),
        }
    }
}

impl From<VarId> for Hlvalue {
    fn from(v: VarId) -> Hlvalue {
        Hlvalue::Variable(v)
    }
}

impl From<Constant> for Hlvalue {
    fn from(c: Constant) -> Hlvalue {
        Hlvalue::Constant(c)
    }
}

/// One operation: `result = opname(args...)`.
#[derive(Clone, Debug)]
pub struct SpaceOperation {
    /// Which operation of the table.
    pub opname: OpName,
    /// The operands.
    pub args: Vec<Hlvalue>,
    /// The variable the operation defines.
    pub result: VarId,
    /// Source line the operation came from (0 if unknown).
    pub lineno: u32,
}

/// How a block chooses among its exits.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum ExitSwitch {
    /// Exactly one exit (or none, for the return and except blocks).
    #[default]
    None,
    /// Switch on a value: each exit's `exitcase` is a constant (`False` /
    /// `True` for a truth test).
    Value(Hlvalue),
    /// The block's last operation may raise: the first exit (exitcase
    /// `None`) is taken when it does not, the others carry an exception
    /// class as exitcase and are taken when the raised exception is an
    /// instance of it (first match wins).
    LastException,
}

/// A basic block: input arguments, straight-line operations, then exits.
#[derive(Clone, Debug, Default)]
pub struct Block {
    /// Variables receiving the values carried by incoming links.
    pub inputargs: Vec<VarId>,
    /// The operations, in order.
    pub operations: Vec<SpaceOperation>,
    /// How the exit is chosen.
    pub exitswitch: ExitSwitch,
    /// Outgoing links, in order.
    pub exits: Vec<LinkId>,
}

impl Block {
    /// Every variable this block defines: input arguments, then operation
    /// results, in order.
    pub fn getvariables(&self) -> Vec<VarId> {
        let mut vars = self.inputargs.clone();
        vars.extend(self.operations.iter().map(|op| op.result));
        vars
    }

    /// True when the block is closed with an exception switch.
    pub fn canraise(&self) -> bool {
        self.exitswitch == ExitSwitch::LastException
    }
}

/// An edge between blocks carrying values to the target's input arguments.
#[derive(Clone, Debug)]
pub struct Link {
    /// The values passed, one per input argument of `target`.
    pub args: Vec<Hlvalue>,
    /// The block this link leads to.
    pub target: BlockId,
    /// The block this link leaves (set when the link is attached).
    pub prevblock: Option<BlockId>,
    /// The case selecting this link (see [`ExitSwitch`]).
    pub exitcase: Option<Constant>,
    /// On an exception link: the variable holding the exception's class.
    pub last_exception: Option<VarId>,
    /// On an exception link: the variable holding the exception instance.
    pub last_exc_value: Option<VarId>,
    /// Source line of the code that leaves the block this way (a `return`,
    /// a branch, the end of a loop body); 0 if unknown.
    pub lineno: u32,
}

impl Link {
    /// A plain link with no exit case.
    pub fn new(args: Vec<Hlvalue>, target: BlockId) -> Link {
        Link {
            args,
            target,
            prevblock: None,
            exitcase: None,
            last_exception: None,
            last_exc_value: None,
            lineno: 0,
        }
    }

    /// The same link with a source line.
    pub fn at_line(mut self, lineno: u32) -> Link {
        self.lineno = lineno;
        self
    }

    /// The same link with an exit case.
    pub fn with_exitcase(mut self, case: Constant) -> Link {
        self.exitcase = Some(case);
        self
    }
}

/// The parameter layout of the Python function a graph implements; the
/// start block's input arguments follow it in order (positional, `*args`,
/// keyword-only, `**kwargs`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Signature {
    /// Positional (or positional-or-keyword) parameter names.
    pub argnames: Vec<String>,
    /// The `*args` parameter, if any.
    pub varargname: Option<String>,
    /// Keyword-only parameter names.
    pub kwonlyargnames: Vec<String>,
    /// The `**kwargs` parameter, if any.
    pub kwargname: Option<String>,
}

impl Signature {
    /// Total number of input arguments of the start block.
    pub fn num_inputargs(&self) -> usize {
        self.argnames.len()
            + self.varargname.is_some() as usize
            + self.kwonlyargnames.len()
            + self.kwargname.is_some() as usize
    }
}

/// Where a graph's code came from, for error messages and printing.
#[derive(Clone, Debug, Default)]
pub struct SourceInfo {
    /// The function's `__qualname__`.
    pub qualname: String,
    /// `co_filename`.
    pub filename: String,
    /// `co_firstlineno`.
    pub firstlineno: u32,
}

/// A place in the program's source, for error messages: the file, the
/// line (0 when unknown) and the function.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SourceLocation {
    /// The source file.
    pub filename: String,
    /// The line, 0 when unknown.
    pub lineno: u32,
    /// The function's qualified name, when known.
    pub function: Option<String>,
}

impl std::fmt::Display for SourceLocation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.filename)?;
        if self.lineno != 0 {
            write!(f, ":{}", self.lineno)?;
        }
        if let Some(func) = &self.function {
            write!(f, " (in function {func})")?;
        }
        Ok(())
    }
}

/// A function as a graph of blocks.
#[derive(Clone, Debug)]
pub struct FunctionGraph {
    /// The graph's name (the function's qualified name).
    pub name: String,
    /// Block arena; only blocks reachable from `startblock` are part of the
    /// graph (see [`FunctionGraph::iterblocks`]).
    pub blocks: PrimaryMap<BlockId, Block>,
    /// Link arena.
    pub links: PrimaryMap<LinkId, Link>,
    /// Variable arena.
    pub vars: PrimaryMap<VarId, VariableData>,
    /// Entry block; its input arguments are the parameters.
    pub startblock: BlockId,
    /// The unique return block: one input argument, no operations, no exits.
    pub returnblock: BlockId,
    /// The unique raising block: input arguments (class, instance).
    pub exceptblock: BlockId,
    /// The Python function the graph was built from, if any.
    pub func: Option<PyObj>,
    /// Parameter layout.
    pub signature: Signature,
    /// Default values of the trailing positional parameters.
    pub defaults: Vec<Constant>,
    /// Defaults of keyword-only parameters, by name.
    pub kwdefaults: Vec<(String, Constant)>,
    /// True when the graph is the body of a generator function (it contains
    /// `yield_` operations).
    pub is_generator: bool,
    /// Source location.
    pub source: SourceInfo,
}

impl FunctionGraph {
    /// A graph with an empty start block taking `nargs` arguments, and the
    /// return and except blocks.
    pub fn new(name: &str, startargs: Vec<String>) -> FunctionGraph {
        let mut g = FunctionGraph {
            name: name.to_string(),
            blocks: PrimaryMap::new(),
            links: PrimaryMap::new(),
            vars: PrimaryMap::new(),
            startblock: BlockId::from_u32(0),
            returnblock: BlockId::from_u32(0),
            exceptblock: BlockId::from_u32(0),
            func: None,
            signature: Signature::default(),
            defaults: Vec::new(),
            kwdefaults: Vec::new(),
            is_generator: false,
            source: SourceInfo::default(),
        };
        let inputargs = startargs.iter().map(|n| g.new_var(n)).collect();
        g.startblock = g.blocks.push(Block {
            inputargs,
            ..Block::default()
        });
        let rv = g.new_var("result");
        g.returnblock = g.blocks.push(Block {
            inputargs: vec![rv],
            ..Block::default()
        });
        let et = g.new_var("etype");
        let ev = g.new_var("evalue");
        g.exceptblock = g.blocks.push(Block {
            inputargs: vec![et, ev],
            ..Block::default()
        });
        g
    }

    /// A fresh variable.
    pub fn new_var(&mut self, name_hint: &str) -> VarId {
        self.vars.push(VariableData {
            name_hint: name_hint.to_string(),
            concretetype: None,
        })
    }

    /// A fresh variable with the same name hint as `v`.
    pub fn copy_var(&mut self, v: VarId) -> VarId {
        let hint = self.vars[v].name_hint.clone();
        self.new_var(&hint)
    }

    /// A fresh, empty block.
    pub fn new_block(&mut self, inputargs: Vec<VarId>) -> BlockId {
        self.blocks.push(Block {
            inputargs,
            ..Block::default()
        })
    }

    /// Adds `link` as the next exit of `block`.
    pub fn add_exit(&mut self, block: BlockId, mut link: Link) -> LinkId {
        link.prevblock = Some(block);
        let id = self.links.push(link);
        self.blocks[block].exits.push(id);
        id
    }

    /// Closes `block` with the given switch and exits, replacing any exits
    /// it had.
    pub fn closeblock(&mut self, block: BlockId, exitswitch: ExitSwitch, links: Vec<Link>) {
        self.blocks[block].exits.clear();
        self.blocks[block].exitswitch = exitswitch;
        for link in links {
            self.add_exit(block, link);
        }
    }

    /// The blocks reachable from the start block, in depth-first preorder
    /// following exits in order.  This order is stable and is the order
    /// used for printing.
    pub fn iterblocks(&self) -> Vec<BlockId> {
        let mut seen = cranelift_entity::EntitySet::<BlockId>::new();
        let mut order = Vec::new();
        let mut stack = vec![self.startblock];
        while let Some(b) = stack.pop() {
            if !seen.insert(b) {
                continue;
            }
            order.push(b);
            for &l in self.blocks[b].exits.iter().rev() {
                let t = self.links[l].target;
                if !seen.contains(t) {
                    stack.push(t);
                }
            }
        }
        order
    }

    /// The links between reachable blocks, in block order.
    pub fn iterlinks(&self) -> Vec<LinkId> {
        self.iterblocks()
            .into_iter()
            .flat_map(|b| self.blocks[b].exits.clone())
            .collect()
    }

    /// For each reachable block, the links entering it.
    pub fn entrymap(&self) -> cranelift_entity::SecondaryMap<BlockId, Vec<LinkId>> {
        let mut map: cranelift_entity::SecondaryMap<BlockId, Vec<LinkId>> =
            cranelift_entity::SecondaryMap::new();
        for l in self.iterlinks() {
            map[self.links[l].target].push(l);
        }
        map
    }

    /// Source line of the first operation carrying one in `block`.
    pub fn block_lineno(&self, block: BlockId) -> u32 {
        self.blocks[block]
            .operations
            .iter()
            .map(|op| op.lineno)
            .find(|&l| l != 0)
            .unwrap_or(self.source.firstlineno)
    }

    /// Rebuilds the arenas keeping only reachable blocks, their links and
    /// the variables they mention; ids are renumbered in `iterblocks` order.
    pub fn compact(&mut self) {
        let order = self.iterblocks();
        let mut bmap = cranelift_entity::SecondaryMap::<BlockId, Option<BlockId>>::new();
        let mut blocks = PrimaryMap::<BlockId, Block>::new();
        // returnblock and exceptblock keep existing even when unreachable.
        let mut all = order.clone();
        for special in [self.returnblock, self.exceptblock] {
            if !all.contains(&special) {
                all.push(special);
            }
        }
        for &b in &all {
            bmap[b] = Some(blocks.push(Block::default()));
        }
        let mut vmap = cranelift_entity::SecondaryMap::<VarId, Option<VarId>>::new();
        let mut vars = PrimaryMap::<VarId, VariableData>::new();
        let mut links = PrimaryMap::<LinkId, Link>::new();
        let mut mapv = |v: VarId, vars: &mut PrimaryMap<VarId, VariableData>| -> VarId {
            if let Some(n) = vmap[v] {
                return n;
            }
            let n = vars.push(self.vars[v].clone());
            vmap[v] = Some(n);
            n
        };
        for &b in &all {
            let old = &self.blocks[b];
            let nb = bmap[b].expect("mapped above");
            let inputargs = old.inputargs.iter().map(|&v| mapv(v, &mut vars)).collect();
            let mut operations = Vec::with_capacity(old.operations.len());
            for op in &old.operations {
                let args = op
                    .args
                    .iter()
                    .map(|a| map_hl(a, &mut |v| mapv(v, &mut vars)))
                    .collect();
                let result = mapv(op.result, &mut vars);
                operations.push(SpaceOperation {
                    opname: op.opname,
                    args,
                    result,
                    lineno: op.lineno,
                });
            }
            let exitswitch = match &old.exitswitch {
                ExitSwitch::Value(h) => ExitSwitch::Value(map_hl(h, &mut |v| mapv(v, &mut vars))),
                other => other.clone(),
            };
            let mut exits = Vec::new();
            for &l in &old.exits {
                let ol = &self.links[l];
                let last_exception = ol.last_exception.map(|v| mapv(v, &mut vars));
                let last_exc_value = ol.last_exc_value.map(|v| mapv(v, &mut vars));
                let args = ol
                    .args
                    .iter()
                    .map(|a| map_hl(a, &mut |v| mapv(v, &mut vars)))
                    .collect();
                exits.push(links.push(Link {
                    args,
                    target: bmap[ol.target].expect("targets of reachable blocks are reachable"),
                    prevblock: Some(nb),
                    exitcase: ol.exitcase.clone(),
                    last_exception,
                    last_exc_value,
                    lineno: ol.lineno,
                }));
            }
            blocks[nb] = Block {
                inputargs,
                operations,
                exitswitch,
                exits,
            };
        }
        self.startblock = bmap[self.startblock].expect("start is reachable");
        self.returnblock = bmap[self.returnblock].expect("mapped");
        self.exceptblock = bmap[self.exceptblock].expect("mapped");
        self.blocks = blocks;
        self.links = links;
        self.vars = vars;
    }

    /// Replaces variables according to `f` in every operand, result, input
    /// argument and link of `block` (not in links entering it).
    pub fn rename_in_block(&mut self, block: BlockId, f: &mut dyn FnMut(VarId) -> VarId) {
        let b = &mut self.blocks[block];
        for v in b.inputargs.iter_mut() {
            *v = f(*v);
        }
        for op in b.operations.iter_mut() {
            for a in op.args.iter_mut() {
                *a = map_hl(a, f);
            }
            op.result = f(op.result);
        }
        if let ExitSwitch::Value(h) = &b.exitswitch {
            b.exitswitch = ExitSwitch::Value(map_hl(h, f));
        }
        let exits = b.exits.clone();
        for l in exits {
            let link = &mut self.links[l];
            for a in link.args.iter_mut() {
                // Link-defined variables are not renamed by the block.
                if let Hlvalue::Variable(v) = a {
                    if Some(*v) == link.last_exception || Some(*v) == link.last_exc_value {
                        continue;
                    }
                }
                *a = map_hl(a, f);
            }
        }
    }
}

/// Applies a variable mapping to an operand.
pub fn map_hl(h: &Hlvalue, f: &mut dyn FnMut(VarId) -> VarId) -> Hlvalue {
    match h {
        Hlvalue::Variable(v) => Hlvalue::Variable(f(*v)),
        Hlvalue::Constant(c) => Hlvalue::Constant(c.clone()),
    }
}
