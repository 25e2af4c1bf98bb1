//! `str` operations, as calls of the low-level string helpers of
//! `rpy3.lltypesystem.rstr` (written in the ll dialect).

use rpy3_annotator::model::IntKind;
use rpy3_annotator::SomeValue;
use rpy3_model::lloperation::LlOp;
use rpy3_model::lltype::{LlValue, BOOL, SIGNED, UNICHAR};
use rpy3_model::{Hlvalue, SpaceOperation};

use pyo3::prelude::PyAnyMethods;

use super::Cx;
use crate::helpers::value_const;
use crate::repr::{Repr, SeqKind};
use crate::RTypeError;

impl Cx<'_, '_, '_, '_> {
    /// A call of a method of `str` (`s.upper()`): the receiver is the
    /// bound method's value.
    pub(super) fn str_method(
        &mut self,
        method: &str,
        receiver: &Hlvalue,
        args: &[Hlvalue],
        want: &Repr,
    ) -> Result<Hlvalue, RTypeError> {
        if self.repr_of(receiver)? == Repr::Bytes {
            return self
                .in_bytes_mode(|cx| cx.str_method_of(method, receiver, args, want, Repr::Bytes));
        }
        self.str_method_of(method, receiver, args, want, Repr::Str)
    }

    fn str_method_of(
        &mut self,
        method: &str,
        receiver: &Hlvalue,
        args: &[Hlvalue],
        want: &Repr,
        sp: Repr,
    ) -> Result<Hlvalue, RTypeError> {
        let st = sp.lowleveltype(self.rt);
        let me = self.input(receiver, &sp)?;
        let int = Repr::Int(IntKind::Signed);
        if matches!(method, "split" | "rsplit" | "join" | "splitlines") {
            return self.str_list_method(method, me, args, want, &sp);
        }
        match (method, &sp) {
            ("decode", Repr::Bytes) | ("encode", Repr::Str) => {
                let limit = self.codec_limit(method, args)?;
                let (helper, result) = match (method, limit) {
                    ("decode", None) => ("ll_decode_utf8", Repr::Str),
                    ("decode", Some(_)) => ("ll_decode_8bit", Repr::Str),
                    (_, None) => ("ll_encode_utf8", Repr::Bytes),
                    (_, Some(_)) => ("ll_encode_8bit", Repr::Bytes),
                };
                let mut hargs = vec![(me, SomeValue::Ptr(st))];
                if let Some(l) = limit {
                    let lc = value_const(self.py, LlValue::Int(l), rpy3_model::lltype::SIGNED)?;
                    hargs.push((lc, SomeValue::int()));
                }
                let (v, _) = self.call_helper_in(crate::RSTR, helper, hargs)?;
                return self.convert(v, &result, want);
            }
            ("hex", Repr::Bytes) if args.is_empty() => {
                let args = vec![(me, SomeValue::Ptr(st))];
                let (v, _) = self.call_helper_in(crate::RSTR, "ll_bytes_hex", args)?;
                return self.convert(v, &Repr::Str, want);
            }
            ("hex", Repr::Bytes) if args.len() == 1 => {
                // b.hex(sep): the separator between the bytes' digits
                let sep = self.input(&args[0], &Repr::Str)?;
                let strt = Repr::Str.lowleveltype(self.rt);
                let args = vec![(me, SomeValue::Ptr(st)), (sep, SomeValue::Ptr(strt))];
                let (v, _) = self.call_helper_in(crate::RSTR, "ll_bytes_hex_sep", args)?;
                return self.convert(v, &Repr::Str, want);
            }
            ("upper" | "lower" | "capitalize" | "swapcase" | "title", Repr::Bytes)
                if args.is_empty() =>
            {
                // ASCII letters only
                let k = ["upper", "lower", "capitalize", "swapcase", "title"]
                    .iter()
                    .position(|m| *m == method)
                    .unwrap_or(0);
                let k = value_const(self.py, LlValue::Int(k as i64), SIGNED)?;
                let args = vec![(me, SomeValue::Ptr(st)), (k, SomeValue::int())];
                let (v, _) = self.call_helper_in(crate::RSTR, "ll_bytes_case", args)?;
                return self.convert(v, &sp, want);
            }
            ("casefold", Repr::Bytes) => {
                return Err(RTypeError::new("bytes has no method casefold()"));
            }
            ("strip" | "lstrip" | "rstrip", Repr::Bytes) if args.len() <= 1 => {
                let chars = match args.first() {
                    Some(a) if !matches!(self.s(a), SomeValue::None_) => self.input(a, &sp)?,
                    _ => value_const(self.py, LlValue::Ptr(None), st)?,
                };
                let left = value_const(self.py, LlValue::Bool(method != "rstrip"), BOOL)?;
                let right = value_const(self.py, LlValue::Bool(method != "lstrip"), BOOL)?;
                let args = vec![
                    (me, SomeValue::Ptr(st)),
                    (chars, SomeValue::Ptr(st)),
                    (left, SomeValue::bool()),
                    (right, SomeValue::bool()),
                ];
                let (v, _) = self.call_helper_in(crate::RSTR, "ll_bytes_strip", args)?;
                return self.convert(v, &sp, want);
            }
            _ => {}
        }
        // the helper, its result type and its arguments after the receiver:
        // strings, then start/end (or count) integers with their defaults
        let (helper, ty, n_str, defaults): (&str, _, usize, &[i64]) = match method {
            "upper" => ("ll_upper", st, 0, &[]),
            "lower" => ("ll_lower", st, 0, &[]),
            "title" => ("ll_title", st, 0, &[]),
            "capitalize" => ("ll_capitalize", st, 0, &[]),
            "swapcase" => ("ll_swapcase", st, 0, &[]),
            "casefold" => ("ll_casefold", st, 0, &[]),
            "istitle" => ("ll_istitle", BOOL, 0, &[]),
            "isascii" => ("ll_isascii", BOOL, 0, &[]),
            "expandtabs" => ("ll_expandtabs", st, 0, &[8]),
            "ljust" | "rjust" | "center" if (1..=2).contains(&args.len()) => {
                let width = self.input(&args[0], &int)?;
                let fill = match args.get(1) {
                    // (a one-byte bytes fill: its byte, as a character)
                    Some(f) if sp == Repr::Bytes => {
                        let b = self.input(f, &Repr::Bytes)?;
                        let zero = value_const(self.py, LlValue::Int(0), SIGNED)?;
                        let args = vec![(b, SomeValue::Ptr(st)), (zero, SomeValue::int())];
                        let (c, _) = self.call_helper_in(crate::RSTR, "ll_bytes_fill_char", args)?;
                        c
                    }
                    Some(f) => self.input(f, &Repr::UniChar)?,
                    None => value_const(self.py, LlValue::UniChar(32), UNICHAR)?,
                };
                let k = match method {
                    "ljust" => 0,
                    "rjust" => 1,
                    _ => 2,
                };
                let k = value_const(self.py, LlValue::Int(k), SIGNED)?;
                let v = self.call_str_helper("ll_pad", vec![me, width, fill, k], st)?;
                return self.convert(v, &sp, want);
            }
            "zfill" if args.len() == 1 => {
                let width = self.input(&args[0], &int)?;
                let v = self.call_str_helper("ll_zfill", vec![me, width], st)?;
                return self.convert(v, &sp, want);
            }
            "startswith" | "endswith"
                if !args.is_empty() && matches!(self.repr_of(&args[0])?, Repr::Tuple(_)) =>
            {
                // a tuple of prefixes: true when one of them matches
                let Repr::Tuple(items) = self.repr_of(&args[0])? else {
                    unreachable!("matched")
                };
                let t = self.input(&args[0], &Repr::Tuple(items.clone()))?;
                let mut bounds = Vec::new();
                for (k, d) in [0i64, i64::MAX].into_iter().enumerate() {
                    bounds.push(match args.get(k + 1) {
                        Some(a) => self.input(a, &int)?,
                        None => value_const(self.py, LlValue::Int(d), SIGNED)?,
                    });
                }
                let helper = if method == "startswith" {
                    "ll_startswith"
                } else {
                    "ll_endswith"
                };
                let mut acc = value_const(self.py, LlValue::Bool(false), BOOL)?;
                for (i, ir) in items.iter().enumerate() {
                    let x = self.emit(
                        LlOp::Getfield,
                        vec![t.clone(), super::name(self.py, &format!("item{i}"))],
                        ir.lowleveltype(self.rt),
                    );
                    let x = self.convert(x, ir, &sp)?;
                    let b = self.call_str_helper(
                        helper,
                        vec![me.clone(), x, bounds[0].clone(), bounds[1].clone()],
                        BOOL,
                    )?;
                    let x = self.emit(LlOp::CastBoolToInt, vec![acc], SIGNED);
                    let y = self.emit(LlOp::CastBoolToInt, vec![b], SIGNED);
                    let o = self.emit(LlOp::IntOr, vec![x, y], SIGNED);
                    acc = self.emit(LlOp::IntIsTrue, vec![o], BOOL);
                }
                return self.convert(acc, &Repr::Bool, want);
            }
            "partition" | "rpartition" if args.len() == 1 => {
                let sep = self.input(&args[0], &sp)?;
                let right = value_const(self.py, LlValue::Bool(method == "rpartition"), BOOL)?;
                let mut parts = Vec::new();
                for k in 0..3 {
                    let k = value_const(self.py, LlValue::Int(k), SIGNED)?;
                    parts.push(self.call_str_helper(
                        "ll_partition_part",
                        vec![me.clone(), sep.clone(), k, right.clone()],
                        st,
                    )?);
                }
                let reprs = vec![sp.clone(), sp.clone(), sp.clone()];
                self.rt.ensure_types(&Repr::Tuple(reprs.clone()));
                let t = self.new_tuple(&reprs, parts)?;
                return self.convert(t, &Repr::Tuple(reprs), want);
            }
            "removeprefix" => ("ll_removeprefix", st, 1, &[]),
            "removesuffix" => ("ll_removesuffix", st, 1, &[]),
            "isdigit" => ("ll_isdigit", BOOL, 0, &[]),
            "isdecimal" => ("ll_isdecimal", BOOL, 0, &[]),
            "isnumeric" => ("ll_isnumeric", BOOL, 0, &[]),
            "isalpha" => ("ll_isalpha", BOOL, 0, &[]),
            "isalnum" => ("ll_isalnum", BOOL, 0, &[]),
            "isspace" => ("ll_isspace", BOOL, 0, &[]),
            "isprintable" => ("ll_isprintable", BOOL, 0, &[]),
            "isidentifier" => ("ll_isidentifier", BOOL, 0, &[]),
            "isupper" => ("ll_isupper", BOOL, 0, &[]),
            "islower" => ("ll_islower", BOOL, 0, &[]),
            "find" => ("ll_find", SIGNED, 1, &[0, i64::MAX]),
            "rfind" => ("ll_rfind", SIGNED, 1, &[0, i64::MAX]),
            "index" => ("ll_index", SIGNED, 1, &[0, i64::MAX]),
            "rindex" => ("ll_rindex", SIGNED, 1, &[0, i64::MAX]),
            "count" => ("ll_count", SIGNED, 1, &[0, i64::MAX]),
            "startswith" => ("ll_startswith", BOOL, 1, &[0, i64::MAX]),
            "endswith" => ("ll_endswith", BOOL, 1, &[0, i64::MAX]),
            "replace" => ("ll_replace", st, 2, &[-1]),
            "strip" | "lstrip" | "rstrip" if args.len() <= 1 => {
                let chars = match args.first() {
                    Some(a) => self.input(a, &sp)?,
                    None => value_const(self.py, LlValue::Ptr(None), st)?,
                };
                let left = value_const(self.py, LlValue::Bool(method != "rstrip"), BOOL)?;
                let right = value_const(self.py, LlValue::Bool(method != "lstrip"), BOOL)?;
                let v = self.call_str_helper("ll_strip", vec![me, chars, left, right], st)?;
                return self.convert(v, &sp, want);
            }
            other => {
                return Err(RTypeError::unsupported(&format!(
                    "the str method {other}() in the rtyper"
                )))
            }
        };
        if args.len() < n_str || args.len() > n_str + defaults.len() {
            return Err(RTypeError::new(format!(
                "str.{method}() takes {n_str} to {} arguments, not {}",
                n_str + defaults.len(),
                args.len()
            )));
        }
        let mut all = vec![me];
        for a in &args[..n_str] {
            if matches!(self.s(a), rpy3_annotator::model::SomeValue::Tuple(_)) {
                return Err(RTypeError::unsupported(&format!(
                    "a tuple argument of str.{method}()"
                )));
            }
            if sp == Repr::Bytes
                && n_str == 1
                && matches!(self.repr_of(a)?, Repr::Int(IntKind::Signed) | Repr::Bool)
            {
                // bytes.find(98): the byte of that value
                let x = self.input(a, &int)?;
                let (b, _) = self.call_list_helper("ll_byte_needle", vec![(x, SomeValue::int())])?;
                all.push(b);
                continue;
            }
            all.push(self.input(a, &sp)?);
        }
        for (k, d) in defaults.iter().enumerate() {
            all.push(match args.get(n_str + k) {
                Some(a) => self.input(a, &int)?,
                None => value_const(self.py, LlValue::Int(*d), SIGNED)?,
            });
        }
        let v = self.call_str_helper(helper, all, ty)?;
        let have = if ty == st {
            sp
        } else if ty == BOOL {
            Repr::Bool
        } else {
            Repr::Int(IntKind::Signed)
        };
        self.convert(v, &have, want)
    }

    /// Runs `f` with the string helpers called in their copies for bytes.
    pub(super) fn in_bytes_mode<T>(
        &mut self,
        f: impl FnOnce(&mut Self) -> Result<T, RTypeError>,
    ) -> Result<T, RTypeError> {
        self.bytes_mode = true;
        let r = f(self);
        self.bytes_mode = false;
        r
    }

    /// The codec of `encode()`/`decode()`: UTF-8 (None), or the limit of
    /// the code points of ASCII (128) or Latin-1 (256).
    fn codec_limit(&self, method: &str, args: &[Hlvalue]) -> Result<Option<i64>, RTypeError> {
        match args {
            [] => Ok(None),
            [codec] => {
                let name = self
                    .s(codec)
                    .konst()
                    .and_then(|k| k.bind(self.py).extract::<String>().ok())
                    .unwrap_or_default()
                    .to_lowercase()
                    .replace(['-', '_', ' '], "");
                match name.as_str() {
                    "utf8" | "u8" | "utf" => Ok(None),
                    "ascii" | "usascii" => Ok(Some(128)),
                    "latin1" | "latin" | "iso88591" | "l1" | "8859" | "cp819" => Ok(Some(256)),
                    _ => Err(RTypeError::unsupported(&format!(
                        "{method}() with a codec other than a constant 'utf-8', 'ascii' or 'latin-1'"
                    ))),
                }
            }
            _ => Err(RTypeError::unsupported(&format!(
                "{method}() with an errors argument"
            ))),
        }
    }

    /// `str(v)` (or `repr(v)`) of a value of repr `r`.
    pub(super) fn text_of(
        &mut self,
        v: &Hlvalue,
        r: &Repr,
        repr: bool,
    ) -> Result<Hlvalue, RTypeError> {
        let s = self.s(v);
        if matches!(s, SomeValue::None_) {
            let st = Repr::Str.lowleveltype(self.rt);
            let p = self.rt.prebuilt_string("None")?;
            return value_const(self.py, LlValue::Ptr(Some(p)), st);
        }
        if matches!(
            s,
            SomeValue::TupleOrNone(_) | SomeValue::Instance { can_be_none: true, .. }
        ) {
            // a tuple or an instance that may be None: a helper giving
            // 'None' for None, else the text of the value it narrows to
            let helper = if repr { "repr_or_none" } else { "str_or_none" };
            let f = self
                .py
                .import("rpy3._defaults")
                .and_then(|m| m.getattr(helper))
                .map_err(|e| RTypeError::new(e.to_string()))?;
            let idx = self.rt.helper_for(self.py, &f, vec![s.clone()])?;
            let fc = self.func_const(idx)?;
            let x = self.input(v, r)?;
            let st = Repr::Str.lowleveltype(self.rt);
            return Ok(self.emit(LlOp::DirectCall, vec![fc, x], st));
        }
        let (x, r) = match r {
            Repr::Str | Repr::UniChar => (self.input(v, &Repr::Str)?, Repr::Str),
            other => (self.input(v, other)?, other.clone()),
        };
        if self.is_bytearray(v) {
            // bytearray(b'...')
            let lt = r.lowleveltype(self.rt);
            let (b, _) =
                self.call_list_helper("ll_bytes_from_list", vec![(x, SomeValue::Ptr(lt))])?;
            let bt = Repr::Bytes.lowleveltype(self.rt);
            let args = vec![(b, SomeValue::Ptr(bt))];
            let (text, _) = self.call_helper_in(crate::RSTR, "ll_bytearray_repr", args)?;
            let mut pieces = Vec::new();
            self.flush_literal(&mut String::from("bytearray("), &mut pieces)?;
            pieces.push(text);
            return self.concat_pieces(String::from(")"), pieces);
        }
        if let (SomeValue::Tuple(s_items), Repr::Tuple(items)) = (&s, &r) {
            let nullable = |a: &SomeValue| {
                matches!(a, SomeValue::TupleOrNone(_) | SomeValue::Instance { can_be_none: true, .. })
            };
            if (items.contains(&Repr::Void) || s_items.iter().any(nullable))
                && s_items.len() == items.len()
            {
                // items known from their annotation (None), or shown
                // through it (a tuple or instance that may be None):
                // '(' items ')'
                let mut pieces = Vec::new();
                let mut literal = String::from("(");
                for (i, ir) in items.iter().enumerate() {
                    if i > 0 {
                        literal.push_str(", ");
                    }
                    if *ir == Repr::Void {
                        if !matches!(s_items[i], SomeValue::None_) {
                            return Err(RTypeError::unsupported(&format!(
                                "the text of a tuple holding {}",
                                rpy3_annotator::describe(&s_items[i])
                            )));
                        }
                        literal.push_str("None");
                        continue;
                    }
                    self.flush_literal(&mut literal, &mut pieces)?;
                    let item = self.emit(
                        LlOp::Getfield,
                        vec![x.clone(), super::name(self.py, &format!("item{i}"))],
                        ir.lowleveltype(self.rt),
                    );
                    if let (true, Hlvalue::Variable(var)) = (nullable(&s_items[i]), &item) {
                        self.synthetic.insert(*var, s_items[i].clone());
                        self.lowered.insert(*var, ir.clone());
                        pieces.push(self.text_of(&item, ir, true)?);
                        continue;
                    }
                    pieces.push(self.text_of_ll(item, ir, true, true)?);
                }
                if items.len() == 1 {
                    literal.push(',');
                }
                literal.push(')');
                return self.concat_pieces(literal, pieces);
            }
        }
        if let (SomeValue::Dict(id), Repr::Dict(k, val)) = (&s, &r) {
            if self.rt.ann.itemdefs.get(*id).counter && **val == Repr::Void {
                // a Counter that never counts anything
                let st = Repr::Str.lowleveltype(self.rt);
                let p = self.rt.prebuilt_string("Counter()")?;
                return value_const(self.py, LlValue::Ptr(Some(p)), st);
            }
            if self.rt.ann.itemdefs.get(*id).ordered && **val == Repr::Void {
                let st = Repr::Str.lowleveltype(self.rt);
                let p = self.rt.prebuilt_string("OrderedDict()")?;
                return value_const(self.py, LlValue::Ptr(Some(p)), st);
            }
            if self.rt.ann.itemdefs.get(*id).ordered {
                // OrderedDict([(k, v), ...])
                let fk = self.item_function("hl_repr", k)?;
                let fv = self.item_function("hl_repr", val)?;
                let d = (x, SomeValue::Ptr(r.lowleveltype(self.rt)));
                return Ok(self
                    .call_helper_in(super::dicts::RDICT, "ll_ordered_repr", vec![d, fk, fv])?
                    .0);
            }
            if self.rt.ann.itemdefs.get(*id).counter {
                // Counter({...}), the most common first
                let fk = self.item_function("hl_repr", k)?;
                let fv = self.item_function("hl_repr", val)?;
                let d = (x, SomeValue::Ptr(r.lowleveltype(self.rt)));
                return Ok(self
                    .call_helper_in(super::dicts::RDICT, "ll_counter_repr", vec![d, fk, fv])?
                    .0);
            }
        }
        if let (SomeValue::Set(id), Repr::Set(k)) = (&s, &r) {
            if self.rt.ann.itemdefs.get(*id).frozen {
                // frozenset({...}), frozenset()
                let fk = self.item_function("hl_repr", k)?;
                let d = (x, SomeValue::Ptr(r.lowleveltype(self.rt)));
                return Ok(self
                    .call_helper_in(super::dicts::RDICT, "ll_frozenset_repr", vec![d, fk])?
                    .0);
            }
        }
        if let Some(mut prefix) = self.collection_prefix(v, &s) {
            // deque([...]), defaultdict(<class 'int'>, {...}),
            // deque([...], maxlen=3)
            let text = self.text_of_ll(x, &r, repr, s.can_be_none())?;
            let mut pieces = Vec::new();
            self.flush_literal(&mut prefix, &mut pieces)?;
            pieces.push(text);
            let suffix = match &s {
                SomeValue::List(id) => match self.rt.ann.itemdefs.get(*id).maxlen {
                    Some(n) => format!(", maxlen={n})"),
                    None => String::from(")"),
                },
                _ => String::from(")"),
            };
            return self.concat_pieces(suffix, pieces);
        }
        self.text_of_ll(x, &r, repr, s.can_be_none())
    }

    /// The text an instance's `__str__` or `__repr__` (`s_method`, as the
    /// annotator found it) gives: a call of the method.
    fn call_text_method(
        &mut self,
        x: Hlvalue,
        c: rpy3_annotator::ClassDefId,
        s_method: SomeValue,
    ) -> Result<Hlvalue, RTypeError> {
        self.call_text_method_with(x, c, s_method, Vec::new())
    }

    /// `call_text_method` with more arguments after the instance (the spec
    /// `__format__` takes).
    fn call_text_method_with(
        &mut self,
        x: Hlvalue,
        c: rpy3_annotator::ClassDefId,
        s_method: SomeValue,
        more: Vec<Hlvalue>,
    ) -> Result<Hlvalue, RTypeError> {
        if let Hlvalue::Variable(v) = &x {
            self.synthetic.insert(
                *v,
                SomeValue::Instance {
                    classdef: c,
                    can_be_none: false,
                },
            );
        }
        let result = self.graph.new_var("");
        self.graph.vars[result].concretetype = Some(Repr::Str.lowleveltype(self.rt));
        self.lowered.insert(result, Repr::Str);
        self.synthetic.insert(result, SomeValue::str());
        let mut args = vec![x];
        args.extend(more);
        let call = SpaceOperation {
            opname: rpy3_model::OpName::SimpleCall,
            args,
            result,
            lineno: self.lineno,
        };
        self.callee_override = Some(s_method);
        let lowered = self.call(&call);
        self.callee_override = None;
        lowered?;
        Ok(Hlvalue::Variable(result))
    }

    /// What a deque's or a defaultdict's text starts with (the rest is the
    /// list's or dict's text and ')').
    fn collection_prefix(&self, v: &Hlvalue, s: &SomeValue) -> Option<String> {
        if let SomeValue::List(id) = s {
            return self
                .rt
                .ann
                .itemdefs
                .get(*id)
                .deque
                .then(|| "deque(".to_string());
        }
        let SomeValue::Pbc { descs, .. } = self.default_missing_of(v)? else {
            return None;
        };
        let f = self.rt.ann.desc_object(*descs.iter().next()?)?;
        let factory: String = f
            .bind(self.py)
            .getattr("factory_repr")
            .and_then(|r| r.extract())
            .ok()?;
        Some(format!("defaultdict({factory}, "))
    }

    /// `str(x)` (or `repr(x)`) of a low-level value `x` of repr `r`; a
    /// string that `maybe_none` gives 'None' for None.  The items of
    /// containers are shown by their `repr()`.
    pub(super) fn text_of_ll(
        &mut self,
        x: Hlvalue,
        r: &Repr,
        repr: bool,
        maybe_none: bool,
    ) -> Result<Hlvalue, RTypeError> {
        let st = Repr::Str.lowleveltype(self.rt);
        let helper = match r {
            Repr::Str if repr && maybe_none => "ll_str_repr_or_none",
            Repr::Str if repr => "ll_str_repr",
            Repr::Str if maybe_none => "ll_str_or_none",
            Repr::Str => return Ok(x),
            Repr::UniChar => {
                let s = self.convert(x, r, &Repr::Str)?;
                return self.text_of_ll(s, &Repr::Str, repr, false);
            }
            Repr::Int(k) if !k.unsigned() => "ll_int2str",
            Repr::Int(_) => {
                let a = self.ll_annotation_of(r)?;
                return Ok(self
                    .call_helper_in(crate::RSTR, "ll_uint2str", vec![(x, a)])?
                    .0);
            }
            Repr::Bool => "ll_bool2str",
            Repr::Float => "ll_float_repr",
            Repr::Number | Repr::IntBool => return self.number_text(x),
            Repr::Range => {
                // range(start, stop[, step])
                let mut args = Vec::new();
                for f in ["start", "stop", "step"] {
                    let v = self.emit(LlOp::Getfield, vec![x.clone(), super::name(self.py, f)], SIGNED);
                    args.push((v, SomeValue::int()));
                }
                return Ok(self
                    .call_helper_in(super::builtins::RBUILTIN, "ll_range_repr", args)?
                    .0);
            }
            Repr::Bytes => {
                let bt = Repr::Bytes.lowleveltype(self.rt);
                let args = vec![(x, SomeValue::Ptr(bt))];
                return Ok(self.call_helper_in(crate::RSTR, "ll_bytes_repr", args)?.0);
            }
            Repr::Tuple(items) => {
                // '(' items ')', a single item followed by a comma
                let mut pieces = Vec::new();
                let mut literal = String::from("(");
                for (i, ir) in items.iter().enumerate() {
                    if i > 0 {
                        literal.push_str(", ");
                    }
                    self.flush_literal(&mut literal, &mut pieces)?;
                    let item = self.emit(
                        LlOp::Getfield,
                        vec![x.clone(), super::name(self.py, &format!("item{i}"))],
                        ir.lowleveltype(self.rt),
                    );
                    pieces.push(self.text_of_ll(item, ir, true, true)?);
                }
                if items.len() == 1 {
                    literal.push(',');
                }
                literal.push(')');
                return self.concat_pieces(literal, pieces);
            }
            Repr::List(item, kind) => {
                let f = self.item_function("hl_repr", item)?;
                let l = (x, SomeValue::Ptr(r.lowleveltype(self.rt)));
                let helper = match kind {
                    SeqKind::List => "ll_list_repr",
                    SeqKind::Tuple => "ll_tuple_repr",
                };
                return Ok(self.call_list_helper(helper, vec![l, f])?.0);
            }
            Repr::Optional(inner) => {
                let s_inner = self.ll_annotation_of(inner)?;
                self.rt
                    .list_items
                    .borrow_mut()
                    .entry((**inner).clone())
                    .or_insert(s_inner);
                let f = self.item_function("hl_repr", inner)?;
                let p = (x, SomeValue::Ptr(r.lowleveltype(self.rt)));
                return Ok(self
                    .call_helper_in(super::builtins::RBUILTIN, "ll_optional_repr", vec![p, f])?
                    .0);
            }
            Repr::Dict(k, v) => {
                let fk = self.item_function("hl_repr", k)?;
                let fv = self.item_function("hl_repr", v)?;
                let d = (x, SomeValue::Ptr(r.lowleveltype(self.rt)));
                let args = vec![d, fk, fv];
                return Ok(self
                    .call_helper_in(super::dicts::RDICT, "ll_dict_repr", args)?
                    .0);
            }
            Repr::Set(k) => {
                let fk = self.item_function("hl_repr", k)?;
                let d = (x, SomeValue::Ptr(r.lowleveltype(self.rt)));
                let args = vec![d, fk];
                return Ok(self
                    .call_helper_in(super::dicts::RDICT, "ll_set_repr", args)?
                    .0);
            }
            Repr::Instance(c) if !repr && self.is_exception_class(*c) => {
                return self.exception_text(x, *c);
            }
            Repr::Instance(c) if repr && self.is_exception_class(*c) => {
                return self.exception_repr(x, *c);
            }
            // an instance whose class shows it by neither __str__ nor
            // __repr__ (an item of an exception's arguments): object's
            // text, without the address CPython adds
            Repr::Instance(c)
                if !self.is_exception_class(*c) && !self.rt.ann.shows_specially(self.py, *c, repr) =>
            {
                let name = self.class_name(*c);
                let p = self.rt.prebuilt_string(&format!("<{name} object>"))?;
                return value_const(self.py, LlValue::Ptr(Some(p)), st);
            }
            other => {
                let what = if repr { "repr" } else { "str" };
                return Err(RTypeError::unsupported(&format!("{what}() of {other:?}")));
            }
        };
        self.call_str_helper(helper, vec![x], st)
    }

    /// `fmt % values` with a constant format string: each directive is
    /// formatted by the helper of `format()` with the equivalent
    /// specification, and the pieces are concatenated.
    fn percent_format(
        &mut self,
        op: &SpaceOperation,
        reprs: &[Repr],
    ) -> Result<Hlvalue, RTypeError> {
        let fmt: String = match &op.args[0] {
            Hlvalue::Constant(c) => c
                .value
                .bind(self.py)
                .extract::<String>()
                .map_err(|_| RTypeError::new("a % format that is not a str"))?,
            Hlvalue::Variable(_) => {
                return Err(RTypeError::unsupported(
                    "% formatting with a format string that is not a constant",
                ))
            }
        };
        let mut values: Vec<(Hlvalue, Repr)> = Vec::new();
        if let Repr::Tuple(items) = &reprs[1] {
            let t = self.input(&op.args[1], &reprs[1])?;
            let s_items = match self.s(&op.args[1]) {
                SomeValue::Tuple(s) if s.len() == items.len() => Some(s),
                _ => None,
            };
            for (i, r) in items.iter().enumerate() {
                let v = self.emit(
                    LlOp::Getfield,
                    vec![t.clone(), super::name(self.py, &format!("item{i}"))],
                    r.lowleveltype(self.rt),
                );
                if let Hlvalue::Variable(var) = &v {
                    self.lowered.insert(*var, r.clone());
                    // (an item known from its annotation, as None)
                    if let Some(s) = &s_items {
                        self.synthetic.insert(*var, s[i].clone());
                    }
                }
                values.push((v, r.clone()));
            }
        } else if let (Repr::Dict(kr, vr), true) = (&reprs[1], fmt.contains("%(")) {
            // `fmt % mapping`: each directive's value is the mapping's item
            // of the key in its parentheses (KeyError when missing)
            let (kr, vr) = ((**kr).clone(), (**vr).clone());
            let dr = reprs[1].clone();
            let chars: Vec<char> = fmt.chars().collect();
            let mut i = 0;
            while i < chars.len() {
                if chars[i] != '%' {
                    i += 1;
                    continue;
                }
                if chars.get(i + 1) == Some(&'%') {
                    i += 2;
                    continue;
                }
                if chars.get(i + 1) != Some(&'(') {
                    return Err(RTypeError::new(format!(
                        "the format {fmt:?} mixes keys and positions"
                    )));
                }
                let close = chars[i..]
                    .iter()
                    .position(|&c| c == ')')
                    .map(|p| i + p)
                    .ok_or_else(|| RTypeError::new(format!("incomplete format key in {fmt:?}")))?;
                let key: String = chars[i + 2..close].iter().collect();
                i = close + 1;
                let d = self.dict_arg(&op.args[1], &dr)?;
                let kc = Hlvalue::Constant(rpy3_model::Constant::new(rpy3_model::PyObj::new(
                    &pyo3::types::PyString::new(self.py, &key).into_any(),
                )));
                let k = self.item_arg(&kc, &kr)?;
                let (hash, eq) = self.key_functions(&kr)?;
                let v = self.dict_helper("ll_getitem", vec![d, k, hash, eq])?;
                if let Hlvalue::Variable(var) = &v {
                    self.lowered.insert(*var, vr.clone());
                }
                values.push((v, vr.clone()));
            }
        } else if let Repr::List(item, SeqKind::Tuple) = &reprs[1] {
            // a tuple of a length known at run time only: as many items as
            // the format takes, else TypeError
            let want = percent_arg_count(&fmt);
            let t = self.input(&op.args[1], &reprs[1])?;
            let n = self.emit(
                LlOp::Getfield,
                vec![t.clone(), super::name(self.py, "length")],
                rpy3_model::lltype::SIGNED,
            );
            let wc = value_const(
                self.py,
                LlValue::Int(want as i64),
                rpy3_model::lltype::SIGNED,
            )?;
            self.call_str_helper(
                "ll_percent_arg_count",
                vec![n, wc],
                rpy3_model::lltype::VOID,
            )?;
            let items_t = self.rt.seq_struct(item, SeqKind::Tuple);
            let arr_t = match items_t.def() {
                rpy3_model::lltype::TypeDef::Struct { fields, .. } => fields
                    .iter()
                    .find(|(n, _)| n == "items")
                    .map(|(_, t)| *t)
                    .ok_or_else(|| RTypeError::new("vartuple without items"))?,
                _ => return Err(RTypeError::new("vartuple is not a struct")),
            };
            let arr = self.emit(
                LlOp::Getfield,
                vec![t, super::name(self.py, "items")],
                arr_t,
            );
            for j in 0..want {
                let jc = value_const(self.py, LlValue::Int(j as i64), rpy3_model::lltype::SIGNED)?;
                let v = self.emit(
                    LlOp::Getarrayitem,
                    vec![arr.clone(), jc],
                    item.lowleveltype(self.rt),
                );
                if let Hlvalue::Variable(var) = &v {
                    self.lowered.insert(*var, (**item).clone());
                }
                values.push((v, (**item).clone()));
            }
        } else {
            values.push((op.args[1].clone(), reprs[1].clone()));
        }
        let want = percent_arg_count(&fmt);
        if !fmt.contains("%(") && values.len() != want {
            // a count CPython refuses at run time: the TypeError it raises
            let [n, w] = [values.len(), want].map(|k| {
                value_const(self.py, LlValue::Int(k as i64), rpy3_model::lltype::SIGNED)
            });
            self.call_str_helper("ll_percent_arg_count", vec![n?, w?], rpy3_model::lltype::VOID)?;
            let st = Repr::Str.lowleveltype(self.rt);
            let p = self.rt.prebuilt_string("")?;
            return value_const(self.py, LlValue::Ptr(Some(p)), st);
        }
        let mut next = values.into_iter().enumerate();
        let mut pieces: Vec<Hlvalue> = Vec::new();
        let mut literal = String::new();
        let chars: Vec<char> = fmt.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            if chars[i] != '%' {
                literal.push(chars[i]);
                i += 1;
                continue;
            }
            i += 1;
            if chars.get(i) == Some(&'(') {
                // a mapping key (its value is already among the values)
                while i < chars.len() && chars[i] != ')' {
                    i += 1;
                }
                i += 1;
            }
            let (mut minus, mut plus, mut space, mut alt, mut zero) =
                (false, false, false, false, false);
            while let Some(&c) = chars.get(i) {
                match c {
                    '-' => minus = true,
                    '+' => plus = true,
                    ' ' => space = true,
                    '#' => alt = true,
                    '0' => zero = true,
                    _ => break,
                }
                i += 1;
            }
            let mut width = String::new();
            if chars.get(i) == Some(&'*') {
                // the width is the next value (negative: left-justified)
                i += 1;
                let Some((_, (w, wr))) = next.next() else {
                    return Err(RTypeError::new(format!(
                        "not enough arguments for the format {fmt:?}"
                    )));
                };
                let w = self.convert(w, &wr, &Repr::Int(IntKind::Signed))?;
                self.star_width = Some(w);
                width.push(STAR_WIDTH);
            }
            while let Some(c) = chars.get(i).filter(|c| c.is_ascii_digit()) {
                width.push(*c);
                i += 1;
            }
            let mut precision = None;
            if chars.get(i) == Some(&'.') {
                i += 1;
                let mut p = String::new();
                while let Some(c) = chars.get(i).filter(|c| c.is_ascii_digit()) {
                    p.push(*c);
                    i += 1;
                }
                precision = Some(if p.is_empty() { "0".to_string() } else { p });
            }
            while matches!(chars.get(i), Some('l' | 'h' | 'L')) {
                i += 1;
            }
            let Some(&conv) = chars.get(i) else {
                return Err(RTypeError::new(format!("incomplete format in {fmt:?}")));
            };
            i += 1;
            if conv == '%' {
                literal.push('%');
                continue;
            }
            if conv == '*' {
                return Err(RTypeError::unsupported("'*' precisions in % formatting"));
            }
            let Some((j, (v, r))) = next.next() else {
                return Err(RTypeError::new(format!(
                    "not enough arguments for the format {fmt:?}"
                )));
            };
            self.flush_literal(&mut literal, &mut pieces)?;
            let numeric = matches!(
                conv,
                'd' | 'i' | 'u' | 'x' | 'X' | 'o' | 'e' | 'E' | 'f' | 'F' | 'g' | 'G' | 'c'
            );
            let mut spec = String::new();
            if minus {
                spec.push('<');
            } else if zero && numeric && conv != 'c' {
                spec.push_str("0=");
            } else {
                spec.push('>');
            }
            if numeric && conv != 'c' {
                if plus {
                    spec.push('+');
                } else if space {
                    spec.push(' ');
                }
                if alt {
                    spec.push('#');
                }
            }
            spec.push_str(&width);
            let piece = match conv {
                's' | 'r' | 'a' => {
                    if let Some(p) = &precision {
                        spec.push('.');
                        spec.push_str(p);
                    }
                    let shown = self
                        .rt
                        .ann
                        .format_methods
                        .get(&(self.g, self.block, self.index, j))
                        .cloned();
                    let text = match (&r, shown) {
                        // an instance shown by its class's __str__/__repr__
                        (Repr::Instance(c), Some(s_method)) => {
                            self.call_text_method(v.clone(), *c, s_method)?
                        }
                        _ => self.text_of(&v, &r, conv != 's')?,
                    };
                    // (%a: the repr with its non-ASCII characters escaped)
                    let text = if conv == 'a' {
                        let st = Repr::Str.lowleveltype(self.rt);
                        self.call_str_helper("ll_ascii_escape", vec![text], st)?
                    } else {
                        text
                    };
                    self.format_with("ll_format_str", text, &spec)?
                }
                'd' | 'i' | 'u' | 'x' | 'X' | 'o' if precision.is_some() => {
                    // a precision is the least number of digits (zeros
                    // before them); the width then pads the whole (with
                    // zeros after the sign under the '0' flag)
                    let mut digits_spec = String::from(">");
                    if plus {
                        digits_spec.push('+');
                    } else if space {
                        digits_spec.push(' ');
                    }
                    if alt {
                        digits_spec.push('#');
                    }
                    digits_spec.push(if matches!(conv, 'i' | 'u') { 'd' } else { conv });
                    if matches!(&r, Repr::Int(k) if k.unsigned()) {
                        return Err(RTypeError::unsupported(
                            "a precision in a % directive of an unsigned int",
                        ));
                    }
                    let x = self.percent_int(&v, &r)?;
                    let text = self.format_with("ll_format_int", x, &digits_spec)?;
                    let p: i64 = precision
                        .as_deref()
                        .unwrap_or("0")
                        .parse()
                        .map_err(|_| RTypeError::new(format!("a precision in {fmt:?}")))?;
                    let pc = value_const(self.py, LlValue::Int(p), SIGNED)?;
                    let zero_width: i64 = if zero && !minus {
                        width.parse().unwrap_or(0)
                    } else {
                        0
                    };
                    let zc = value_const(self.py, LlValue::Int(zero_width), SIGNED)?;
                    let st = Repr::Str.lowleveltype(self.rt);
                    let text = self.call_str_helper("ll_int_precision", vec![text, pc, zc], st)?;
                    if width.is_empty() {
                        text
                    } else {
                        let pad = format!("{}{width}", if minus { '<' } else { '>' });
                        self.format_with("ll_format_str", text, &pad)?
                    }
                }
                'd' | 'i' | 'u' | 'x' | 'X' | 'o' | 'c' => {
                    if precision.is_some() {
                        return Err(RTypeError::unsupported(
                            "a precision in a %c directive",
                        ));
                    }
                    if conv == 'c' && matches!(r, Repr::Str | Repr::UniChar) {
                        let text = self.input(&v, &Repr::Str)?;
                        self.format_with("ll_format_str", text, &spec)?
                    } else {
                        spec.push(if matches!(conv, 'i' | 'u') { 'd' } else { conv });
                        // an unsigned word: its digits above maxint too
                        if matches!(&r, Repr::Int(k) if k.unsigned()) {
                            let u = self.input(&v, &Repr::Int(IntKind::Unsigned))?;
                            pieces.push(self.format_uint_with(u, &spec)?);
                            continue;
                        }
                        let x = self.percent_int(&v, &r)?;
                        self.format_with("ll_format_int", x, &spec)?
                    }
                }
                'e' | 'E' | 'f' | 'F' | 'g' | 'G' => {
                    spec.push('.');
                    spec.push_str(precision.as_deref().unwrap_or("6"));
                    spec.push(conv);
                    let x = self.input(&v, &Repr::Float)?;
                    self.format_with("ll_format_float", x, &spec)?
                }
                other => {
                    return Err(RTypeError::unsupported(&format!(
                        "the % directive '{other}'"
                    )))
                }
            };
            pieces.push(piece);
        }
        if next.next().is_some() {
            return Err(RTypeError::new(format!(
                "not all arguments converted by the format {fmt:?}"
            )));
        }
        let acc = self.concat_pieces(literal, pieces)?;
        Ok(acc)
    }

    /// `fmt.format(*args)` with a constant format string: literal text
    /// and `{[index]![conv][:spec]}` fields, each formatted by the helper
    /// of `format()` for its value.
    pub(super) fn str_format(
        &mut self,
        fmt: &str,
        args: &[Hlvalue],
        keywords: &[(String, Hlvalue)],
        want: &Repr,
    ) -> Result<Hlvalue, RTypeError> {
        let chars: Vec<char> = fmt.chars().collect();
        let mut pieces: Vec<Hlvalue> = Vec::new();
        let mut literal = String::new();
        let mut auto = 0usize;
        let mut manual = false;
        let mut i = 0;
        let bad = |why: &str| RTypeError::new(format!("the format string {fmt:?}: {why}"));
        while i < chars.len() {
            let c = chars[i];
            if c == '}' {
                if chars.get(i + 1) != Some(&'}') {
                    return Err(bad("single '}'"));
                }
                literal.push('}');
                i += 2;
                continue;
            }
            if c != '{' {
                literal.push(c);
                i += 1;
                continue;
            }
            if chars.get(i + 1) == Some(&'{') {
                literal.push('{');
                i += 2;
                continue;
            }
            // (the matching '}': a spec may hold fields of its own)
            let mut depth = 0;
            let mut close = None;
            for (p, &x) in chars.iter().enumerate().skip(i) {
                if x == '{' {
                    depth += 1;
                } else if x == '}' {
                    depth -= 1;
                    if depth == 0 {
                        close = Some(p);
                        break;
                    }
                }
            }
            let close = close.ok_or_else(|| bad("unclosed '{'"))?;
            let field: String = chars[i + 1..close].iter().collect();
            i = close + 1;
            if field.split_once(':').map_or(field.contains('{'), |(h, _)| h.contains('{')) {
                return Err(bad("a field name with '{'"));
            }
            let (head, spec) = match field.split_once(':') {
                Some((h, s)) => (h.to_string(), s.to_string()),
                None => (field.clone(), String::new()),
            };
            let (name, conv) = match head.split_once('!') {
                Some((n, c)) => (n.to_string(), Some(c.to_string())),
                None => (head, None),
            };
            // (the argument's index: positional ones first, then keywords)
            let j;
            let v = if name.is_empty() {
                if manual {
                    return Err(bad("cannot switch from manual field specification to automatic field numbering"));
                }
                auto += 1;
                j = auto - 1;
                args.get(auto - 1)
            } else if let Ok(index) = name.parse::<usize>() {
                if auto > 0 {
                    return Err(bad("cannot switch from automatic field numbering to manual field specification"));
                }
                manual = true;
                j = index;
                args.get(index)
            } else if let Some(k) = keywords.iter().position(|(k, _)| *k == name) {
                // a named field: its keyword argument
                j = args.len() + k;
                Some(&keywords[k].1)
            } else if name.chars().all(|c| c.is_alphanumeric() || c == '_') {
                return Err(bad(&format!("no keyword argument '{name}'")));
            } else {
                return Err(RTypeError::unsupported(
                    "str.format() fields with attributes or indexes",
                ));
            }
            .ok_or_else(|| bad("not enough arguments"))?
            .clone();
            self.flush_literal(&mut literal, &mut pieces)?;
            let spec = if spec.contains('{') {
                // a spec holding fields (`{:{width}}`): made when run, of
                // the text of those arguments
                let sc: Vec<char> = spec.chars().collect();
                let mut spieces = Vec::new();
                let mut slit = String::new();
                let mut k = 0;
                while k < sc.len() {
                    if sc[k] != '{' {
                        slit.push(sc[k]);
                        k += 1;
                        continue;
                    }
                    let end = sc[k..]
                        .iter()
                        .position(|&x| x == '}')
                        .map(|p| k + p)
                        .ok_or_else(|| bad("unclosed '{' in a spec"))?;
                    let inner: String = sc[k + 1..end].iter().collect();
                    k = end + 1;
                    let a = if inner.is_empty() {
                        if manual {
                            return Err(bad("cannot switch from manual field specification to automatic field numbering"));
                        }
                        auto += 1;
                        args.get(auto - 1)
                    } else if let Ok(index) = inner.parse::<usize>() {
                        if auto > 0 {
                            return Err(bad("cannot switch from automatic field numbering to manual field specification"));
                        }
                        manual = true;
                        args.get(index)
                    } else {
                        keywords.iter().find(|(kw, _)| *kw == inner).map(|(_, v)| v)
                    }
                    .ok_or_else(|| bad("not enough arguments"))?
                    .clone();
                    self.flush_literal(&mut slit, &mut spieces)?;
                    let ar = self.repr_of(&a)?;
                    spieces.push(self.text_of(&a, &ar, false)?);
                }
                let dynamic = self.concat_pieces(slit, spieces)?;
                self.dynamic_spec = Some(dynamic);
                DYNAMIC_SPEC.to_string()
            } else {
                spec
            };
            let r = self.repr_of(&v)?;
            if let Repr::Instance(c) = r {
                let formatter = self
                    .rt
                    .ann
                    .format_methods
                    .get(&(self.g, self.block, self.index, j | rpy3_annotator::FORMAT_FIELD))
                    .cloned();
                if let (Some(s_method), None) = (formatter, conv.as_deref()) {
                    if spec == DYNAMIC_SPEC {
                        return Err(RTypeError::unsupported(
                            "a spec made of fields for a class's __format__",
                        ));
                    }
                    // the class's __format__, given the spec
                    let x = self.input(&v, &r)?;
                    let spec_arg = Hlvalue::Constant(rpy3_model::Constant::new(rpy3_model::PyObj::new(
                        &pyo3::types::PyString::new(self.py, &spec).into_any(),
                    )));
                    pieces.push(self.call_text_method_with(x, c, s_method, vec![spec_arg])?);
                    continue;
                }
                // an instance shown by its class's __str__ (__repr__)
                let key = if conv.as_deref() == Some("r") {
                    j | rpy3_annotator::REPR_FIELD
                } else {
                    j
                };
                let shown = self
                    .rt
                    .ann
                    .format_methods
                    .get(&(self.g, self.block, self.index, key))
                    .cloned();
                if let Some(s_method) = shown {
                    if conv.is_none() && !spec.is_empty() {
                        return Err(RTypeError::new(format!(
                            "the format string {fmt:?}: a format spec for an instance whose \
                             class has no __format__ (CPython raises TypeError)"
                        )));
                    }
                    let x = self.input(&v, &r)?;
                    let text = self.call_text_method(x, c, s_method)?;
                    pieces.push(self.format_with("ll_format_str", text, &spec)?);
                    continue;
                }
            }
            if let Some(c) = conv.as_deref() {
                // the text is a new low-level value: formatted as a str
                if c != "r" && c != "s" {
                    return Err(bad("unknown conversion"));
                }
                let text = self.text_of(&v, &r, c == "r")?;
                pieces.push(self.format_with("ll_format_str", text, &spec)?);
                continue;
            }
            if spec.is_empty() && (format_helper(&r).is_err() || self.s(&v).can_be_none()) {
                // format(x, '') is str(x) (containers, None, a string or None)
                pieces.push(self.text_of(&v, &r, false)?);
                continue;
            }
            if matches!(r, Repr::Number | Repr::IntBool) {
                let x = self.input(&v, &r)?;
                let spec = self.spec_value(&spec)?;
                pieces.push(self.number_format(x, spec)?);
                continue;
            }
            if matches!(r, Repr::Int(k) if k.unsigned()) {
                let x = self.input(&v, &Repr::Int(IntKind::Unsigned))?;
                pieces.push(self.format_uint_with(x, &spec)?);
                continue;
            }
            let (helper, input) = format_helper(&r)?;
            let x = self.input(&v, &input)?;
            pieces.push(self.format_with(helper, x, &spec)?);
        }
        let acc = self.concat_pieces(literal, pieces)?;
        self.convert(acc, &Repr::Str, want)
    }

    /// A method of a StringBuilder (the receiver is the bound method's value).
    pub(super) fn builder_method(
        &mut self,
        method: &str,
        receiver: &Hlvalue,
        args: &[Hlvalue],
        want: &Repr,
    ) -> Result<Hlvalue, RTypeError> {
        if self.repr_of(receiver)? == Repr::BytesBuilder {
            return self.in_bytes_mode(|cx| {
                cx.builder_method_of(method, receiver, args, want, Repr::BytesBuilder)
            });
        }
        self.builder_method_of(method, receiver, args, want, Repr::StrBuilder)
    }

    fn builder_method_of(
        &mut self,
        method: &str,
        receiver: &Hlvalue,
        args: &[Hlvalue],
        want: &Repr,
        br: Repr,
    ) -> Result<Hlvalue, RTypeError> {
        let sp = if br == Repr::BytesBuilder {
            Repr::Bytes
        } else {
            Repr::Str
        };
        let st = sp.lowleveltype(self.rt);
        let int = Repr::Int(IntKind::Signed);
        let sb = self.input(receiver, &br)?;
        let (helper, reprs, ty, have): (&str, Vec<Repr>, _, Repr) = match method {
            "append" => (
                "ll_sb_append",
                vec![sp.clone()],
                rpy3_model::lltype::VOID,
                Repr::Void,
            ),
            "append_char" => (
                "ll_sb_append_char",
                vec![Repr::UniChar],
                rpy3_model::lltype::VOID,
                Repr::Void,
            ),
            "append_slice" => (
                "ll_sb_append_slice",
                vec![sp.clone(), int.clone(), int.clone()],
                rpy3_model::lltype::VOID,
                Repr::Void,
            ),
            "append_multiple_char" => (
                "ll_sb_append_multiple_char",
                vec![Repr::UniChar, int.clone()],
                rpy3_model::lltype::VOID,
                Repr::Void,
            ),
            "getlength" => ("ll_sb_getlength", vec![], SIGNED, int.clone()),
            "build" => ("ll_sb_build", vec![], st, sp.clone()),
            other => return Err(RTypeError::unsupported(&format!("StringBuilder.{other}()"))),
        };
        if args.len() != reprs.len() {
            return Err(RTypeError::new(format!(
                "StringBuilder.{method}() takes {} arguments, not {}",
                reprs.len(),
                args.len()
            )));
        }
        let mut all = vec![sb];
        for (a, r) in args.iter().zip(&reprs) {
            if *r == Repr::UniChar && sp == Repr::Bytes {
                // a one-byte bytes: its byte
                let b = self.input(a, &sp)?;
                let zero = value_const(self.py, LlValue::Int(0), SIGNED)?;
                all.push(self.call_str_helper("ll_stritem", vec![b, zero], UNICHAR)?);
                continue;
            }
            all.push(self.input(a, r)?);
        }
        let v = self.call_str_helper(helper, all, ty)?;
        if have == Repr::Void {
            return value_const(self.py, LlValue::Void, rpy3_model::lltype::VOID);
        }
        self.convert(v, &have, want)
    }

    /// Adds the pending literal text (if any) to the pieces of a formatted
    /// string.
    pub(super) fn flush_literal(
        &mut self,
        literal: &mut String,
        pieces: &mut Vec<Hlvalue>,
    ) -> Result<(), RTypeError> {
        if !literal.is_empty() {
            let st = Repr::Str.lowleveltype(self.rt);
            let p = self.rt.prebuilt_string(literal)?;
            pieces.push(value_const(self.py, LlValue::Ptr(Some(p)), st)?);
            literal.clear();
        }
        Ok(())
    }

    /// The concatenation of the pieces and the trailing literal text.
    pub(super) fn concat_pieces(
        &mut self,
        mut literal: String,
        mut pieces: Vec<Hlvalue>,
    ) -> Result<Hlvalue, RTypeError> {
        let st = Repr::Str.lowleveltype(self.rt);
        if pieces.is_empty() && literal.is_empty() {
            let p = self.rt.prebuilt_string("")?;
            return value_const(self.py, LlValue::Ptr(Some(p)), st);
        }
        self.flush_literal(&mut literal, &mut pieces)?;
        let mut acc = pieces.remove(0);
        for p in pieces {
            acc = self.call_str_helper("ll_strconcat", vec![acc, p], st)?;
        }
        Ok(acc)
    }

    /// `format(x, spec)` of an unsigned machine word (`spec` a low-level
    /// string).
    pub(super) fn format_uint(&mut self, x: Hlvalue, spec: Hlvalue) -> Result<Hlvalue, RTypeError> {
        let st = Repr::Str.lowleveltype(self.rt);
        let a = self.ll_annotation_of(&Repr::Int(IntKind::Unsigned))?;
        Ok(self
            .call_helper_in(crate::RSTR, "ll_format_uint", vec![(x, a), (spec, SomeValue::Ptr(st))])?
            .0)
    }

    /// [`Cx::format_uint`] with a constant specification.
    pub(super) fn format_uint_with(&mut self, x: Hlvalue, spec: &str) -> Result<Hlvalue, RTypeError> {
        let spec = self.spec_value(spec)?;
        self.format_uint(x, spec)
    }

    /// The signed int an integer `%` directive shows of `v` (repr `r`):
    /// `'%d' % 2.7` is `'2'`.
    fn percent_int(&mut self, v: &Hlvalue, r: &Repr) -> Result<Hlvalue, RTypeError> {
        Ok(match r {
            Repr::Float => {
                let f = self.input(v, &Repr::Float)?;
                self.emit(LlOp::CastFloatToInt, vec![f], SIGNED)
            }
            Repr::Number => {
                let n = self.input(v, &Repr::Number)?;
                self.number_helper("ll_num_int", vec![(n, Repr::Number)])?.0
            }
            _ => self.input(v, &Repr::Int(IntKind::Signed))?,
        })
    }

    /// A format specification as a value: a constant, or, where a `%*d`
    /// takes its width from the values ([`STAR_WIDTH`]), built when run.
    fn spec_value(&mut self, spec: &str) -> Result<Hlvalue, RTypeError> {
        let st = Repr::Str.lowleveltype(self.rt);
        if spec == DYNAMIC_SPEC {
            return self
                .dynamic_spec
                .take()
                .ok_or_else(|| RTypeError::new("a spec made of fields without its value"));
        }
        let Some((before, after)) = spec.split_once(STAR_WIDTH) else {
            let p = self.rt.prebuilt_string(spec)?;
            return value_const(self.py, LlValue::Ptr(Some(p)), st);
        };
        let w = self
            .star_width
            .take()
            .ok_or_else(|| RTypeError::new("a '*' width without its value"))?;
        let mut parts = Vec::new();
        for s in [before, after] {
            let p = self.rt.prebuilt_string(s)?;
            parts.push(value_const(self.py, LlValue::Ptr(Some(p)), st)?);
        }
        let after = parts.pop().expect("two parts");
        let before = parts.pop().expect("two parts");
        self.call_str_helper("ll_star_spec", vec![before, w, after], st)
    }

    /// `helper(value, spec)` with a constant specification.
    fn format_with(
        &mut self,
        helper: &str,
        value: Hlvalue,
        spec: &str,
    ) -> Result<Hlvalue, RTypeError> {
        let st = Repr::Str.lowleveltype(self.rt);
        let spec = self.spec_value(spec)?;
        self.call_str_helper(helper, vec![value, spec], st)
    }

    /// Calls string helper `name`; its result has type `ty`.
    pub(super) fn call_str_helper(
        &mut self,
        name: &str,
        args: Vec<Hlvalue>,
        ty: rpy3_model::lltype::LlType,
    ) -> Result<Hlvalue, RTypeError> {
        let mut f = self.rt.str_helper(self.py, name)?;
        let mut ty = ty;
        if self.bytes_mode {
            // the copy of the helper for bytes: its string arguments are bytes
            let (st, bt) = (self.rt.str_ptr, self.rt.bytes_ptr);
            let rpy3_model::lltype::TypeDef::Func { args: params, .. } = self.rt.funcs_ty(f).def()
            else {
                return Err(RTypeError::new("a string helper without a function type"));
            };
            let mut anns = Vec::new();
            for t in params {
                let t = if Some(t) == st {
                    bt.expect("bytes type")
                } else if Some(t) == self.rt.strbuilder_ptr {
                    self.rt.bytesbuilder_ptr.expect("bytes builder type")
                } else {
                    t
                };
                anns.push(
                    self.rt
                        .ann
                        .ll_annotation(t)
                        .map_err(|e| RTypeError::new(e.message))?,
                );
            }
            let func = self
                .py
                .import(crate::RSTR)
                .and_then(|m| m.getattr(name))
                .map_err(|e| RTypeError::new(e.to_string()))?;
            f = self.rt.helper_for(self.py, &func, anns)?;
            if let rpy3_model::lltype::TypeDef::Func { result, .. } = self.rt.funcs_ty(f).def() {
                ty = result;
            }
        }
        let mut all = vec![self.func_const(f)?];
        all.extend(args);
        Ok(self.emit(LlOp::DirectCall, all, ty))
    }

    /// Lowers `op` if it works on strings; false otherwise.
    pub(super) fn lower_str(&mut self, op: &SpaceOperation) -> Result<bool, RTypeError> {
        use rpy3_model::OpName as H;
        let handled = matches!(
            op.opname,
            H::Len
                | H::Getitem
                | H::Add
                | H::InplaceAdd
                | H::Mul
                | H::InplaceMul
                | H::Eq
                | H::Ne
                | H::Lt
                | H::Le
                | H::Gt
                | H::Ge
                | H::Contains
                | H::Getslice
                | H::Bool
                | H::Str
                | H::Is_
                | H::Iter
                | H::Next
                | H::Repr
                | H::Ascii
                | H::Format
                | H::Mod
                | H::Newslice
        ) || (op.opname == H::Getattr
            && matches!(
                self.repr_of(&op.args[0])?,
                Repr::Str | Repr::StrBuilder | Repr::UniChar | Repr::Bytes | Repr::BytesBuilder
            ));
        if self.rt.str_ptr.is_none() || !handled {
            return Ok(false);
        }
        if op.opname == H::Getattr
            && matches!(
                self.repr_of(&op.args[0])?,
                Repr::StrBuilder | Repr::BytesBuilder | Repr::UniChar
            )
        {
            // a bound method of a builder (of a character) is the builder
            // (the character)
            let r = self.repr_of(&op.args[0])?;
            let v = self.input(&op.args[0], &r)?;
            self.finish(op.result, v);
            return Ok(true);
        }
        let mut reprs = Vec::new();
        for a in &op.args {
            reprs.push(self.repr_of(a)?);
        }
        let stringish =
            |r: &Repr| matches!(r, Repr::Str | Repr::UniChar | Repr::Bytes | Repr::Char);
        if matches!(op.opname, H::Eq | H::Ne | H::Lt | H::Le | H::Gt | H::Ge)
            && !(stringish(&reprs[0]) && stringish(&reprs[1]))
            && (self.is_bytearray(&op.args[0]) || self.is_bytearray(&op.args[1]))
        {
            // bytes compared with a bytearray: the comparisons' own
            return Ok(false);
        }
        if op.opname == H::Contains
            && !matches!(
                reprs[0],
                Repr::Str | Repr::UniChar | Repr::Bytes | Repr::Char
            )
        {
            // a string looked for in a tuple or a list: theirs
            return Ok(false);
        }
        let want = self.result_repr(op)?;
        if op.opname == H::Len && reprs[0] == Repr::UniChar {
            // a character is a string of length 1
            let one = value_const(self.py, LlValue::Int(1), SIGNED)?;
            let v = self.convert(one, &Repr::Int(IntKind::Signed), &want)?;
            self.finish(op.result, v);
            return Ok(true);
        }
        if op.opname == H::Newslice && want == Repr::Slice {
            let int = Repr::Int(IntKind::Signed);
            let mut vals = Vec::new();
            let mut nones = 0;
            for (i, a) in op.args.iter().enumerate() {
                if matches!(self.s(a), rpy3_annotator::model::SomeValue::None_) {
                    nones |= 1 << i;
                    vals.push(value_const(self.py, LlValue::Int(0), SIGNED)?);
                } else {
                    vals.push(self.input(a, &int)?);
                }
            }
            vals.push(value_const(self.py, LlValue::Int(nones), SIGNED)?);
            let v = self.new_tuple(&[int.clone(), int.clone(), int.clone(), int], vals)?;
            self.finish(op.result, v);
            return Ok(true);
        }
        if matches!(op.opname, H::Getitem | H::Iter | H::Contains) && reprs[0] == Repr::UniChar {
            // indexing, iterating or searching a one-character string (a
            // constant 'a'[i], a join of characters): as the string
            let mut as_str = reprs.clone();
            as_str[0] = Repr::Str;
            return self.lower_str_op(op, &as_str, &want, Repr::Str);
        }
        if op.opname == H::Str && reprs[0] == Repr::UniChar && want == Repr::UniChar {
            // str() of a character is the character
            let v = self.input(&op.args[0], &Repr::UniChar)?;
            self.finish(op.result, v);
            return Ok(true);
        }
        if op.opname == H::Getitem && !matches!(reprs[0], Repr::Str | Repr::Bytes) {
            return Ok(false);
        }
        if op.opname == H::Iter && reprs[0] == Repr::StrIter {
            // iter() of a string iterator is the iterator
            let v = self.input(&op.args[0], &Repr::StrIter)?;
            self.finish(op.result, v);
            return Ok(true);
        }
        // (`str % values` is a str operation whatever the values are)
        let bytes = if op.opname == H::Mod && matches!(reprs[0], Repr::Str | Repr::UniChar) {
            false
        } else {
            reprs.contains(&Repr::Bytes) || want == Repr::Bytes
        };
        let any_str = reprs.contains(&Repr::Str)
            || reprs.contains(&Repr::StrIter)
            || want == Repr::Str
            || bytes;
        if op.opname == H::Str && reprs[0] == Repr::UniChar && want == Repr::UniChar {
            // str() of a character is that character
            let v = self.input(&op.args[0], &Repr::UniChar)?;
            self.finish(op.result, v);
            return Ok(true);
        }
        if !any_str {
            return Ok(false);
        }
        if bytes {
            if let Some(v) = self.bytes_op(op, &reprs, &want)? {
                self.finish(op.result, v);
                return Ok(true);
            }
            return self.in_bytes_mode(|cx| cx.lower_str_op(op, &reprs, &want, Repr::Bytes));
        }
        self.lower_str_op(op, &reprs, &want, Repr::Str)
    }

    /// The operations on bytes that differ from those on str: None for the
    /// others.
    fn bytes_op(
        &mut self,
        op: &SpaceOperation,
        reprs: &[Repr],
        want: &Repr,
    ) -> Result<Option<Hlvalue>, RTypeError> {
        use rpy3_model::OpName as H;
        let bp = Repr::Bytes;
        let bt = bp.lowleveltype(self.rt);
        let int = Repr::Int(IntKind::Signed);
        let rstr = crate::RSTR;
        Ok(Some(match op.opname {
            H::Getitem if reprs[0] == bp && reprs[1] != Repr::Slice => {
                let b = self.input(&op.args[0], &bp)?;
                let i = self.input(&op.args[1], &int)?;
                let args = vec![(b, SomeValue::Ptr(bt)), (i, SomeValue::int())];
                let (v, _) = self.call_helper_in(rstr, "ll_bytes_item", args)?;
                self.convert(v, &int, want)?
            }
            H::Contains if reprs[0] == bp && matches!(reprs[1], Repr::Int(_) | Repr::Bool) => {
                let b = self.input(&op.args[0], &bp)?;
                let i = self.input(&op.args[1], &int)?;
                let args = vec![(b, SomeValue::Ptr(bt)), (i, SomeValue::int())];
                self.call_helper_in(rstr, "ll_bytes_contains_int", args)?.0
            }
            H::Iter if reprs[0] == bp => {
                // the byte values, as a list of ints
                let b = self.input(&op.args[0], &bp)?;
                let zero = value_const(self.py, LlValue::Int(0), SIGNED)?;
                let l = self.new_list_of_length(&int, zero)?;
                let lr = Repr::list_of(int.clone());
                let lt = lr.lowleveltype(self.rt);
                self.call_list_helper(
                    "ll_extend_bytes",
                    vec![(l.clone(), SomeValue::Ptr(lt)), (b, SomeValue::Ptr(bt))],
                )?;
                self.new_list_iter(&int, SeqKind::List, l, false)?
            }
            H::Str | H::Repr if reprs[0] == bp => {
                let b = self.input(&op.args[0], &bp)?;
                self.call_helper_in(rstr, "ll_bytes_repr", vec![(b, SomeValue::Ptr(bt))])?
                    .0
            }
            _ => return Ok(None),
        }))
    }

    /// Lowers a string operation on strings of repr `sp` (str or bytes).
    fn lower_str_op(
        &mut self,
        op: &SpaceOperation,
        reprs: &[Repr],
        want: &Repr,
        sp: Repr,
    ) -> Result<bool, RTypeError> {
        use rpy3_model::OpName as H;
        let want = want.clone();
        let st = sp.lowleveltype(self.rt);
        let int = Repr::Int(IntKind::Signed);
        let v = match op.opname {
            H::Len => {
                let s = self.input(&op.args[0], &sp)?;
                self.call_str_helper("ll_strlen", vec![s], SIGNED)?
            }
            H::Getitem if reprs[0] == sp && reprs[1] == Repr::Slice => {
                let s = self.input(&op.args[0], &sp)?;
                let sl = self.input(&op.args[1], &Repr::Slice)?;
                let mut all = vec![s];
                for i in 0..4 {
                    all.push(self.emit(
                        LlOp::Getfield,
                        vec![sl.clone(), super::name(self.py, &format!("item{i}"))],
                        SIGNED,
                    ));
                }
                self.call_str_helper("ll_strslice_step", all, st)?
            }
            H::Getitem if reprs[0] == sp => {
                let s = self.input(&op.args[0], &sp)?;
                let i = self.input(&op.args[1], &int)?;
                let c = self.call_str_helper("ll_stritem", vec![s, i], UNICHAR)?;
                self.convert(c, &Repr::UniChar, &want)?
            }
            H::Add | H::InplaceAdd if want == sp => {
                let a = self.input(&op.args[0], &sp)?;
                let b = self.input(&op.args[1], &sp)?;
                self.call_str_helper("ll_strconcat", vec![a, b], st)?
            }
            H::Mul | H::InplaceMul if want == sp => {
                let (s, n) = if reprs[0] == sp || reprs[0] == Repr::UniChar {
                    (0, 1)
                } else {
                    (1, 0)
                };
                let a = self.input(&op.args[s], &sp)?;
                let k = self.input(&op.args[n], &int)?;
                self.call_str_helper("ll_strmul", vec![a, k], st)?
            }
            H::Eq | H::Ne => {
                let a = self.input(&op.args[0], &sp)?;
                let b = self.input(&op.args[1], &sp)?;
                let eq = self.call_str_helper("ll_streq", vec![a, b], BOOL)?;
                if op.opname == H::Ne {
                    self.emit(LlOp::BoolNot, vec![eq], BOOL)
                } else {
                    eq
                }
            }
            H::Lt | H::Le | H::Gt | H::Ge => {
                let a = self.input(&op.args[0], &sp)?;
                let b = self.input(&op.args[1], &sp)?;
                let c = self.call_str_helper("ll_strcmp", vec![a, b], SIGNED)?;
                let zero = value_const(self.py, LlValue::Int(0), SIGNED)?;
                let cmp = match op.opname {
                    H::Lt => LlOp::IntLt,
                    H::Le => LlOp::IntLe,
                    H::Gt => LlOp::IntGt,
                    _ => LlOp::IntGe,
                };
                self.emit(cmp, vec![c, zero], BOOL)
            }
            // `x in c` where `c` is a one-character string
            H::Contains if reprs[0] == sp || reprs[0] == Repr::UniChar => {
                let s = self.input(&op.args[0], &sp)?;
                if reprs[1] == Repr::UniChar {
                    let c = self.input(&op.args[1], &Repr::UniChar)?;
                    self.call_str_helper("ll_contains_char", vec![s, c], BOOL)?
                } else {
                    let sub = self.input(&op.args[1], &sp)?;
                    self.call_str_helper("ll_contains", vec![s, sub], BOOL)?
                }
            }
            H::Getslice => {
                let s = self.input(&op.args[0], &sp)?;
                let mut bounds = Vec::new();
                for (k, default) in [(1usize, 0i64), (2, i64::MAX)] {
                    if matches!(self.s(&op.args[k]), rpy3_annotator::SomeValue::None_) {
                        bounds.push(value_const(self.py, LlValue::Int(default), SIGNED)?);
                    } else {
                        bounds.push(self.input(&op.args[k], &int)?);
                    }
                }
                self.call_str_helper(
                    "ll_strslice",
                    vec![s, bounds[0].clone(), bounds[1].clone()],
                    st,
                )?
            }
            H::Bool => {
                let s = self.input(&op.args[0], &sp)?;
                self.call_str_helper("ll_str_is_true", vec![s], BOOL)?
            }
            H::Format
                if matches!(self.s(&op.args[1]).konst().map(|k| k.bind(self.py).extract::<String>().ok()), Some(Some(ref s)) if s.is_empty())
                    && (format_helper(&reprs[0]).is_err() || self.s(&op.args[0]).can_be_none()) =>
            {
                // format(x, '') is str(x) (containers, None, a string or None)
                let r = reprs[0].clone();
                self.text_of(&op.args[0], &r, false)?
            }
            H::Format if matches!(reprs[0], Repr::Int(k) if k.unsigned()) => {
                let spec = self.input(&op.args[1], &sp)?;
                let x = self.input(&op.args[0], &Repr::Int(IntKind::Unsigned))?;
                self.format_uint(x, spec)?
            }
            H::Format if matches!(reprs[0], Repr::Number | Repr::IntBool) => {
                let spec = self.input(&op.args[1], &sp)?;
                let x = self.input(&op.args[0], &reprs[0])?;
                self.number_format(x, spec)?
            }
            H::Format => {
                let spec = self.input(&op.args[1], &sp)?;
                let (helper, r) = format_helper(&reprs[0])?;
                let v = self.input(&op.args[0], &r)?;
                self.call_str_helper(helper, vec![v, spec], st)?
            }
            H::Str | H::Repr => {
                let r = reprs[0].clone();
                self.text_of(&op.args[0], &r, op.opname == H::Repr)?
            }
            // ascii(x): repr(x) with its non-ASCII characters escaped
            H::Ascii => {
                let r = reprs[0].clone();
                let text = self.text_of(&op.args[0], &r, true)?;
                self.call_str_helper("ll_ascii_escape", vec![text], st)?
            }
            H::Mod if matches!(reprs[0], Repr::Str | Repr::UniChar) => {
                self.percent_format(op, reprs)?
            }
            H::Iter => {
                let s = self.input(&op.args[0], &sp)?;
                let t = Repr::StrIter.lowleveltype(self.rt);
                self.call_str_helper("ll_striter", vec![s], t)?
            }
            H::Next => {
                let it = self.input(&op.args[0], &Repr::StrIter)?;
                let c = self.call_str_helper("ll_strnext", vec![it], UNICHAR)?;
                self.convert(c, &Repr::UniChar, &want)?
            }
            H::Getattr => {
                // a bound method of a string is the string
                self.input(&op.args[0], &sp)?
            }
            H::Is_ => {
                let a = self.input(&op.args[0], &sp)?;
                let b = self.input(&op.args[1], &sp)?;
                self.emit(LlOp::PtrEq, vec![a, b], BOOL)
            }
            _ => {
                return Err(RTypeError::unsupported(&format!(
                    "the string operation {}",
                    op.opname
                )))
            }
        };
        self.finish(op.result, v);
        Ok(true)
    }
}

/// The `format()` helper for values of repr `r`, and the repr it takes.
fn format_helper(r: &Repr) -> Result<(&'static str, Repr), RTypeError> {
    Ok(match r {
        Repr::Int(k) if !k.unsigned() => ("ll_format_int", Repr::Int(IntKind::Signed)),
        Repr::Bool => ("ll_format_bool", Repr::Bool),
        Repr::Float => ("ll_format_float", Repr::Float),
        // (its callers format a number of either kind by its kind)
        Repr::Number => ("ll_num_format", Repr::Number),
        Repr::IntBool => ("ll_num_format", Repr::IntBool),
        Repr::Int(_) => ("ll_format_uint", Repr::Int(IntKind::Unsigned)),
        Repr::Str | Repr::UniChar => ("ll_format_str", Repr::Str),
        other => return Err(RTypeError::unsupported(&format!("format() of {other:?}"))),
    })
}

/// How many arguments a constant `%` format takes (`%%` takes none).
/// Where a `%*d` directive's width goes in its format specification (see
/// [`Cx::spec_value`]).
const STAR_WIDTH: char = '\u{1}';

/// The whole format specification of a `str.format()` field whose spec
/// holds fields of its own (made when run, see [`Cx::spec_value`]).
const DYNAMIC_SPEC: &str = "\u{2}";

fn percent_arg_count(fmt: &str) -> usize {
    let chars: Vec<char> = fmt.chars().collect();
    let mut count = 0;
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '%' {
            i += 1;
            continue;
        }
        i += 1;
        while matches!(
            chars.get(i),
            Some('-' | '+' | ' ' | '#' | '0'..='9' | '.' | 'l' | 'h' | 'L' | '*')
        ) {
            // (a '*' width takes a value too)
            if chars[i] == '*' {
                count += 1;
            }
            i += 1;
        }
        if matches!(chars.get(i), Some(c) if *c != '%') {
            count += 1;
        }
        i += 1;
    }
    count
}
