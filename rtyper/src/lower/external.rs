//! Calls into the outside world: `print()`, the standard streams,
//! `os.write`/`read`/`open`/`close`, `os.environ.get`, `time.*` and
//! `sys.exit` become `external_call` operations on the functions of the
//! external-function table (`rpy3_model::extfunc`).  `print()` builds its
//! line with the same `str()` as everything else and writes it with one
//! `stream_write`.

use pyo3::prelude::*;
use rpy3_annotator::model::IntKind;
use rpy3_annotator::SomeValue;
use rpy3_model::extfunc::ExtFunc;
use rpy3_model::lloperation::LlOp;
use rpy3_model::lltype::{LlType, LlValue, FLOAT, SIGNED, VOID};
use rpy3_model::Hlvalue;

use super::{constant_of, name, value_const, Cx};
use crate::repr::Repr;
use crate::RTypeError;

/// The stream a world object writes to.
fn stream_fd(world: &str) -> Option<i64> {
    match world {
        "sys.stdout" => Some(1),
        "sys.stderr" => Some(2),
        _ => None,
    }
}

impl Cx<'_, '_, '_, '_> {
    /// Emits a call of external function `f`.
    fn external(&mut self, f: ExtFunc, args: Vec<Hlvalue>, ty: LlType) -> Hlvalue {
        let mut all = vec![name(self.py, f.name())];
        all.extend(args);
        self.emit(LlOp::ExternalCall, all, ty)
    }

    fn int_const(&self, i: i64) -> Result<Hlvalue, RTypeError> {
        value_const(self.py, LlValue::Int(i), SIGNED)
    }

    /// Lowers a call of a world function or of a method of a world object;
    /// `None` when `s_callee` is neither.
    pub(super) fn external_call(
        &mut self,
        s_callee: &SomeValue,
        positional: &[Hlvalue],
        keywords: &[(String, Hlvalue)],
        want: &Repr,
    ) -> Result<Option<Hlvalue>, RTypeError> {
        let int = Repr::Int(IntKind::Signed);
        let none = |cx: &mut Self| constant_of(cx.rt, cx.py, &SomeValue::None_, want);
        let (name, receiver) = match s_callee {
            SomeValue::Builtin { name, s_self: None } => (*name, None),
            SomeValue::Builtin {
                name,
                s_self: Some(recv),
            } => match &**recv {
                SomeValue::Builtin {
                    name: world,
                    s_self: None,
                } => (*name, Some(*world)),
                _ => return Ok(None),
            },
            _ => return Ok(None),
        };
        let v = match (receiver, name) {
            (None, "print") => {
                self.print(positional, keywords)?;
                none(self)?
            }
            (Some(world @ ("sys.stdout" | "sys.stderr")), "write") => {
                let fd = stream_fd(world).unwrap_or(1);
                let s = self.input(&positional[0], &Repr::Str)?;
                let n = self.call_str_helper("ll_strlen", vec![s.clone()], SIGNED)?;
                let fd = self.int_const(fd)?;
                self.external(ExtFunc::StreamWrite, vec![fd, s], VOID);
                self.convert(n, &int, want)?
            }
            (Some(world @ ("sys.stdout" | "sys.stderr")), "flush") => {
                let fd = self.int_const(stream_fd(world).unwrap_or(1))?;
                self.external(ExtFunc::StreamFlush, vec![fd], VOID);
                none(self)?
            }
            (Some("sys.stdin"), "readline") => {
                let st = Repr::Str.lowleveltype(self.rt);
                let v = self.external(ExtFunc::StreamReadline, vec![], st);
                self.convert(v, &Repr::Str, want)?
            }
            (Some("os.environ"), "get") | (None, "os.getenv") => {
                let st = Repr::Str.lowleveltype(self.rt);
                let key = self.input(&positional[0], &Repr::Str)?;
                let default = match positional.get(1) {
                    Some(d) if !matches!(self.s(d), SomeValue::None_) => {
                        Some(self.input(d, &Repr::Str)?)
                    }
                    _ => None,
                };
                let v = self.external(ExtFunc::OsGetenv, vec![key], st);
                let v = match default {
                    Some(d) => self.call_str_helper("ll_str_or", vec![v, d], st)?,
                    None => v,
                };
                self.convert(v, &Repr::Str, want)?
            }
            (None, "os.write") => {
                let fd = self.input(&positional[0], &int)?;
                let data = self.input(&positional[1], &Repr::Bytes)?;
                let v = self.external(ExtFunc::OsWrite, vec![fd, data], SIGNED);
                self.convert(v, &int, want)?
            }
            (None, "os.read") => {
                let bt = Repr::Bytes.lowleveltype(self.rt);
                let fd = self.input(&positional[0], &int)?;
                let n = self.input(&positional[1], &int)?;
                let v = self.external(ExtFunc::OsRead, vec![fd, n], bt);
                self.convert(v, &Repr::Bytes, want)?
            }
            (None, "os.open") => {
                let path = self.input(&positional[0], &Repr::Str)?;
                let flags = self.input(&positional[1], &int)?;
                let mode = match positional.get(2) {
                    Some(m) => self.input(m, &int)?,
                    None => self.int_const(0o777)?,
                };
                let v = self.external(ExtFunc::OsOpen, vec![path, flags, mode], SIGNED);
                self.convert(v, &int, want)?
            }
            (None, "os.close") => {
                let fd = self.input(&positional[0], &int)?;
                self.external(ExtFunc::OsClose, vec![fd], VOID);
                none(self)?
            }
            (None, "time.time" | "time.perf_counter" | "time.monotonic" | "time.process_time") => {
                let f = match name {
                    "time.time" => ExtFunc::TimeTime,
                    "time.perf_counter" => ExtFunc::TimePerfCounter,
                    "time.monotonic" => ExtFunc::TimeMonotonic,
                    _ => ExtFunc::TimeProcessTime,
                };
                let v = self.external(f, vec![], FLOAT);
                self.convert(v, &Repr::Float, want)?
            }
            (None, "time.sleep") => {
                let secs = self.input(&positional[0], &Repr::Float)?;
                self.external(ExtFunc::TimeSleep, vec![secs], VOID);
                none(self)?
            }
            (None, "sys.setrecursionlimit") => {
                let n = self.input(&positional[0], &int)?;
                self.external(ExtFunc::SysSetrecursionlimit, vec![n], VOID);
                none(self)?
            }
            (None, "sys.exit") => {
                let status = match positional.first() {
                    Some(s) if !matches!(self.s(s), SomeValue::None_) => self.input(s, &int)?,
                    _ => self.int_const(0)?,
                };
                self.external(ExtFunc::SysExit, vec![status], VOID);
                none(self)?
            }
            _ => return Ok(None),
        };
        Ok(Some(v))
    }

    /// `print(*args, sep=, end=, file=, flush=)`: the line is built as one
    /// string (constant separators folded into the text) and written with
    /// one `stream_write`.
    fn print(
        &mut self,
        positional: &[Hlvalue],
        keywords: &[(String, Hlvalue)],
    ) -> Result<(), RTypeError> {
        let mut fd = 1;
        let mut flush = false;
        let mut sep: Option<Hlvalue> = None;
        let mut end: Option<Hlvalue> = None;
        for (k, v) in keywords {
            let s = self.s(v);
            match k.as_str() {
                "file" => {
                    if let SomeValue::Builtin { name: world, .. } = s {
                        fd = stream_fd(world).ok_or_else(|| {
                            RTypeError::unsupported(&format!("print(file={world})"))
                        })?;
                    }
                }
                // a flush that is not known to be false flushes
                "flush" => {
                    flush = !matches!(
                        s,
                        SomeValue::Bool {
                            konst: Some(false),
                            ..
                        }
                    )
                }
                "sep" if !matches!(s, SomeValue::None_) => sep = Some(v.clone()),
                "end" if !matches!(s, SomeValue::None_) => end = Some(v.clone()),
                _ => {}
            }
        }
        let mut literal = String::new();
        let mut pieces = Vec::new();
        // a separator or end given as a constant joins the literal text
        let const_text = |cx: &Self, v: &Option<Hlvalue>, default: &str| -> Option<String> {
            match v {
                None => Some(default.to_string()),
                Some(h) => cx
                    .s(h)
                    .konst()
                    .and_then(|k| k.bind(cx.py).extract::<String>().ok()),
            }
        };
        let sep_text = const_text(self, &sep, " ");
        let end_text = const_text(self, &end, "\n");
        for (i, a) in positional.iter().enumerate() {
            if i > 0 {
                self.add_text_piece(&mut literal, &mut pieces, &sep_text, &sep)?;
            }
            let r = self.repr_of(a)?;
            if let Some(k) = self.s(a).konst() {
                if let Ok(text) = k.bind(self.py).str().and_then(|t| t.extract::<String>()) {
                    if matches!(r, Repr::Str | Repr::UniChar | Repr::Int(_) | Repr::Bool) {
                        literal.push_str(&text);
                        continue;
                    }
                }
            }
            let text = self.text_of(a, &r, false)?;
            self.flush_literal(&mut literal, &mut pieces)?;
            pieces.push(text);
        }
        self.add_text_piece(&mut literal, &mut pieces, &end_text, &end)?;
        let line = self.concat_pieces(literal, pieces)?;
        let fdc = self.int_const(fd)?;
        self.external(ExtFunc::StreamWrite, vec![fdc.clone(), line], VOID);
        if flush {
            self.external(ExtFunc::StreamFlush, vec![fdc], VOID);
        }
        Ok(())
    }

    /// Appends a separator: its constant text, or its value.
    fn add_text_piece(
        &mut self,
        literal: &mut String,
        pieces: &mut Vec<Hlvalue>,
        text: &Option<String>,
        value: &Option<Hlvalue>,
    ) -> Result<(), RTypeError> {
        match (text, value) {
            (Some(t), _) => literal.push_str(t),
            (None, Some(v)) => {
                let s = self.input(v, &Repr::Str)?;
                self.flush_literal(literal, pieces)?;
                pieces.push(s);
            }
            (None, None) => {}
        }
        Ok(())
    }
}
