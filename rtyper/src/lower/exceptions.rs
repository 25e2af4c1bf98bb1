//! The text of an exception's arguments.  CPython keeps the arguments of
//! every exception (`args`) and `str(e)` shows them; RPython drops them.
//! rpy3 keeps their text, computed when the exception is made (or when
//! its `__init__` calls the base `__init__`, which replaces it), in the
//! attribute `EXC_MESSAGE_ATTR` of `BaseException`: `str(e)`, `print(e)`
//! and the `Fatal error: Name: message` line of an escaping exception
//! read it.  The attribute exists only when the program makes some
//! exception with arguments; an exception made without any keeps a null
//! text, shown as ''.

use pyo3::prelude::*;
use rpy3_annotator::{ClassDefId, SomeValue, EXC_ARGS_ATTR, EXC_MESSAGE_ATTR, EXC_NAME_ATTR};
use rpy3_model::lloperation::LlOp;
use rpy3_model::lltype::{LlValue, VOID};
use rpy3_model::Hlvalue;

use super::{name, Cx};
use crate::classes::field_name;
use crate::helpers::value_const;
use crate::repr::Repr;
use crate::RTypeError;

impl Cx<'_, '_, '_, '_> {
    /// The class that holds the message field of instances of `c`, if the
    /// program keeps messages and `c` is an exception class.
    fn message_owner(&self, c: ClassDefId) -> Option<ClassDefId> {
        if !self.rt.ann.is_exception_classdef(self.py, c)
            || !self.rt.ann.exception_keeps_message(self.py, c)
        {
            return None;
        }
        let base_of = |k: ClassDefId| self.rt.ann.classdefs[k].base;
        self.rt.classes.owner_of(c, EXC_MESSAGE_ATTR, &base_of)
    }

    /// The class that holds the fields `repr()` of instances of `c` reads
    /// (see `EXC_NAME_ATTR`), if the program takes such reprs and `c` is
    /// an exception class.
    fn repr_owner(&self, c: ClassDefId, attr: &str) -> Option<ClassDefId> {
        if !self.rt.ann.is_exception_classdef(self.py, c) {
            return None;
        }
        let base_of = |k: ClassDefId| self.rt.ann.classdefs[k].base;
        self.rt.classes.owner_of(c, attr, &base_of)
    }

    /// Where exception `x` of class `c` (exactly) is made: the name
    /// `repr(e)` shows, when the program takes one.
    pub(super) fn set_exception_name(&mut self, x: Hlvalue, c: ClassDefId) -> Result<(), RTypeError> {
        let Some(owner) = self.repr_owner(c, EXC_NAME_ATTR) else {
            return Ok(());
        };
        let cname = self.class_name(c);
        let st = Repr::Str.lowleveltype(self.rt);
        let p = self.rt.prebuilt_string(&cname)?;
        let text = value_const(self.py, LlValue::Ptr(Some(p)), st)?;
        let f = self.field_ptr(x, c, owner)?;
        self.emit(
            LlOp::Setfield,
            vec![f, name(self.py, &field_name(EXC_NAME_ATTR)), text],
            VOID,
        );
        Ok(())
    }

    /// The reprs of `args`, comma-separated, as those `repr(e)` shows of
    /// exception `x` of class `c`, when the program takes such reprs.
    fn set_exception_args_repr(
        &mut self,
        x: Hlvalue,
        c: ClassDefId,
        args: &[Hlvalue],
    ) -> Result<(), RTypeError> {
        let Some(owner) = self.repr_owner(c, EXC_ARGS_ATTR) else {
            return Ok(());
        };
        let mut pieces = Vec::new();
        let mut literal = String::new();
        for (i, a) in args.iter().enumerate() {
            if i > 0 {
                literal.push_str(", ");
            }
            self.flush_literal(&mut literal, &mut pieces)?;
            match self.argument_text(a, true) {
                Ok(t) => pieces.push(t),
                Err(e) if e.retry => return Err(e),
                Err(_) => return Ok(()),
            }
        }
        let text = self.concat_pieces(literal, pieces)?;
        let f = self.field_ptr(x, c, owner)?;
        self.emit(
            LlOp::Setfield,
            vec![f, name(self.py, &field_name(EXC_ARGS_ATTR)), text],
            VOID,
        );
        Ok(())
    }

    /// `repr(e)` of `x`, a low-level exception instance of class `c`:
    /// `Name(args...)`, the name of the class it was made of (else `c`'s).
    pub(super) fn exception_repr(&mut self, x: Hlvalue, c: ClassDefId) -> Result<Hlvalue, RTypeError> {
        let st = Repr::Str.lowleveltype(self.rt);
        let cname = self.class_name(c);
        let p = self.rt.prebuilt_string(&cname)?;
        let static_name = value_const(self.py, LlValue::Ptr(Some(p)), st)?;
        let (Some(no), Some(ao)) = (self.repr_owner(c, EXC_NAME_ATTR), self.repr_owner(c, EXC_ARGS_ATTR)) else {
            return Err(RTypeError::unsupported("repr() of an exception"));
        };
        let f = self.field_ptr(x.clone(), c, no)?;
        let n = self.emit(LlOp::Getfield, vec![f, name(self.py, &field_name(EXC_NAME_ATTR))], st);
        let f = self.field_ptr(x, c, ao)?;
        let a = self.emit(LlOp::Getfield, vec![f, name(self.py, &field_name(EXC_ARGS_ATTR))], st);
        self.call_str_helper("ll_exception_repr", vec![n, static_name, a], st)
    }

    /// Whether instances of exception class `c` keep a message.
    pub(super) fn keeps_message(&self, c: ClassDefId) -> bool {
        self.message_owner(c).is_some()
    }

    fn is_subclass(&self, c: ClassDefId, of: ClassDefId) -> bool {
        let mut k = Some(c);
        while let Some(x) = k {
            if x == of {
                return true;
            }
            k = self.rt.ann.classdefs[x].base;
        }
        false
    }

    /// `str(args)` as CPython's `BaseException.__str__` gives it: '' for
    /// no argument, `str(arg)` for one (`repr(arg)` for a `KeyError`),
    /// the tuple's repr for several.
    fn arguments_text(&mut self, c: ClassDefId, args: &[Hlvalue]) -> Result<Hlvalue, RTypeError> {
        let keyerror = self.is_subclass(c, self.rt.exception_classdef("KeyError"));
        let text = |cx: &mut Self, a: &Hlvalue, repr: bool| cx.argument_text(a, repr);
        if let [one] = args {
            return text(self, one, keyerror);
        }

        let mut pieces = Vec::new();
        let mut literal = String::from("(");
        for (i, a) in args.iter().enumerate() {
            if i > 0 {
                literal.push_str(", ");
            }
            self.flush_literal(&mut literal, &mut pieces)?;
            pieces.push(text(self, a, true)?);
        }
        literal.push(')');
        self.concat_pieces(literal, pieces)
    }

    /// The text (`repr`: the repr) of an exception's argument `a`.
    fn argument_text(&mut self, a: &Hlvalue, repr: bool) -> Result<Hlvalue, RTypeError> {
        let r = self.repr_of(a)?;
        let x = self.input(a, &r)?;
        // a low-level string (the messages rpy3's helpers build)
        let r = match r {
            Repr::LlPtr(t) if Some(t) == self.rt.str_ptr => Repr::Str,
            r => r,
        };
        let maybe_none = matches!(
            self.s(a),
            SomeValue::Str {
                can_be_none: true,
                ..
            }
        );
        self.text_of_ll(x, &r, repr, maybe_none)
    }

    /// The `__name__` of the class of class definition `c`.
    pub(super) fn class_name(&self, c: ClassDefId) -> String {
        self.rt.ann.classdefs[c]
            .cls
            .bind(self.py)
            .getattr("__name__")
            .and_then(|n| n.extract())
            .unwrap_or_default()
    }

    /// Stores the text of `args` as the message of `x`, a low-level
    /// instance of class `c` (nothing when `c` is not an exception class
    /// or the program keeps no messages).  Arguments whose text rpy3
    /// cannot make leave the message unset.
    pub(super) fn set_exception_message(
        &mut self,
        x: Hlvalue,
        c: ClassDefId,
        args: &[Hlvalue],
    ) -> Result<(), RTypeError> {
        self.set_exception_args_repr(x.clone(), c, args)?;
        let Some(owner) = self.message_owner(c) else {
            return Ok(());
        };
        if args.len() > 1 {
            // SyntaxError(msg, (file, line, offset, text)) shows its
            // location and OSError(errno, strerror) its number, which rpy3
            // does not keep
            for name in ["SyntaxError", "OSError"] {
                let k = self
                    .py
                    .import("builtins")
                    .and_then(|b| b.getattr(name))
                    .ok()
                    .and_then(|cls| self.rt.classdef_of_class(self.py, &cls).ok());
                if k.is_some_and(|k| self.is_subclass(c, k)) {
                    return Err(RTypeError::unsupported(&format!(
                        "the text of {name}(...) made with several arguments"
                    )));
                }
            }
        }
        let text = if args.is_empty() {
            let st = Repr::Str.lowleveltype(self.rt);
            value_const(self.py, LlValue::Ptr(None), st)?
        } else {
            match self.arguments_text(c, args) {
                Ok(t) => t,
                Err(e) if e.retry => return Err(e),
                Err(_) => return Ok(()),
            }
        };
        let p = self.field_ptr(x, c, owner)?;
        self.emit(
            LlOp::Setfield,
            vec![p, name(self.py, &field_name(EXC_MESSAGE_ATTR)), text],
            VOID,
        );
        Ok(())
    }

    /// `str(e)` of `x`, a low-level exception instance of class `c`.
    pub(super) fn exception_text(
        &mut self,
        x: Hlvalue,
        c: ClassDefId,
    ) -> Result<Hlvalue, RTypeError> {
        if let Some(f) = self.rt.ann.exception_str_dispatchers.get(&c).cloned() {
            // subclasses define __str__: the dispatcher the annotator made
            let s = SomeValue::Instance {
                classdef: c,
                can_be_none: false,
            };
            let idx = self.rt.helper_for(self.py, f.bind(self.py), vec![s])?;
            // (one dispatcher may serve several classes: it takes their
            // common base)
            let x = match self.rt.funcs_ty(idx).def() {
                rpy3_model::lltype::TypeDef::Func { args, .. }
                    if args.first().is_some_and(|&t| t != Repr::Instance(c).lowleveltype(self.rt)) =>
                {
                    let t = args[0];
                    self.emit(
                        LlOp::CastPointer,
                        vec![crate::helpers::type_const(self.py, t)?, x],
                        t,
                    )
                }
                _ => x,
            };
            let fc = self.func_const(idx)?;
            let st = Repr::Str.lowleveltype(self.rt);
            return Ok(self.emit(LlOp::DirectCall, vec![fc, x], st));
        }
        self.exception_message_text(x, c)
    }

    /// The text of the arguments of `x`, a low-level exception instance of
    /// class `c` (BaseException's `__str__`).
    pub(super) fn exception_message_text(
        &mut self,
        x: Hlvalue,
        c: ClassDefId,
    ) -> Result<Hlvalue, RTypeError> {
        let st = Repr::Str.lowleveltype(self.rt);
        let Some(owner) = self.message_owner(c) else {
            let p = self.rt.prebuilt_string("")?;
            return value_const(self.py, LlValue::Ptr(Some(p)), st);
        };
        let p = self.field_ptr(x, c, owner)?;
        let v = self.emit(
            LlOp::Getfield,
            vec![p, name(self.py, &field_name(EXC_MESSAGE_ATTR))],
            st,
        );
        self.call_str_helper("ll_str_or_empty", vec![v], st)
    }

    /// Whether `c` is an exception class (its instances have a text).
    pub(super) fn is_exception_class(&self, c: ClassDefId) -> bool {
        self.rt.ann.is_exception_classdef(self.py, c)
    }
}
