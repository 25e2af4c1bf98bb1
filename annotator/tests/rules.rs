//! Operation rules on small programs: the annotation of a function's
//! result for given argument annotations.

use std::path::Path;

use pyo3::prelude::*;
use rpy3_annotator::model::{IntKind, StrKind};
use rpy3_annotator::{Annotator, SomeValue};

/// Annotates the function `f` defined by `source` for the given arguments
/// and returns its result annotation (or the error text).
fn annotate(source: &str, args: Vec<SomeValue>) -> Result<SomeValue, String> {
    Python::attach(|py| {
        let sys = py.import("sys").unwrap();
        let pkg = Path::new(env!("CARGO_MANIFEST_DIR")).join("../python");
        sys.getattr("path")
            .unwrap()
            .call_method1("insert", (0, pkg.to_str().unwrap()))
            .unwrap();
        // a real file, so the flow space can find the source lines
        let dir = std::env::temp_dir().join(format!("rpy3_rules_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let path = dir.join(format!("case{n}.py"));
        std::fs::write(&path, source).unwrap();
        let util = py.import("importlib.util").unwrap();
        let spec = util
            .call_method1(
                "spec_from_file_location",
                (format!("rules_case_{n}"), path.to_str().unwrap()),
            )
            .unwrap();
        let module = util.call_method1("module_from_spec", (&spec,)).unwrap();
        spec.getattr("loader")
            .unwrap()
            .call_method1("exec_module", (&module,))
            .unwrap();
        let f = module.getattr("f").unwrap();
        let mut ann = Annotator::new();
        let g = ann.annotate(py, &f, args).map_err(|e| e.to_string())?;
        Ok(ann.return_annotation(g))
    })
}

static COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

fn int() -> SomeValue {
    SomeValue::int()
}

fn is_str(s: &SomeValue, char: bool) -> bool {
    matches!(s, SomeValue::Str { kind: StrKind::Str, is_char, .. } if *is_char == char)
}

#[test]
fn slices_with_a_step() {
    let r = annotate(
        "def f(s):\n    return s[::-1] + s[1:5:2]\n",
        vec![SomeValue::str()],
    )
    .unwrap();
    assert!(is_str(&r, false), "{r:?}");
    let r = annotate("def f(n, k):\n    l = list(range(n))\n    x = l[n:k:2]\n    l[::2] = x\n    del l[::3]\n    return l\n", vec![int(), int()])
        .unwrap();
    assert!(matches!(r, SomeValue::List(_)), "{r:?}");
}

#[test]
fn slicing_a_tuple_with_constant_bounds() {
    let r = annotate(
        "def f(a, s):\n    t = (a, s, 1.5)\n    return t[1:] + t[::-1][:1]\n",
        vec![int(), SomeValue::str()],
    )
    .unwrap();
    let SomeValue::Tuple(items) = &r else {
        panic!("{r:?}")
    };
    assert_eq!(items.len(), 3);
    assert!(is_str(&items[0], false));
    assert!(matches!(items[1], SomeValue::Float { .. }));
    assert!(matches!(items[2], SomeValue::Float { .. }));
}

#[test]
fn methods_bound_to_constant_strings() {
    let r = annotate(
        "def f(s):\n    return ', '.join([s, s]) + '{}-{}'.format(s, 3)\n",
        vec![SomeValue::str()],
    )
    .unwrap();
    assert!(is_str(&r, false), "{r:?}");
}

#[test]
fn repr_of_a_character_is_not_a_character() {
    let r = annotate("def f(s):\n    return repr(s[0])\n", vec![SomeValue::str()]).unwrap();
    assert!(is_str(&r, false), "{r:?}");
    let r = annotate(
        "def f(s):\n    return s[0].upper()\n",
        vec![SomeValue::str()],
    )
    .unwrap();
    assert!(is_str(&r, false), "'ß'.upper() is 'SS': {r:?}");
}

#[test]
fn round_pow_and_math() {
    let r = annotate("import math\ndef f(x):\n    return (round(x), round(x, 2), pow(x, 2.0), math.log10(x), pow(3, 2))\n", vec![SomeValue::float()])
        .unwrap();
    let SomeValue::Tuple(items) = &r else {
        panic!("{r:?}")
    };
    assert!(matches!(
        items[0],
        SomeValue::Integer {
            kind: IntKind::Signed,
            ..
        }
    ));
    assert!(matches!(items[1], SomeValue::Float { .. }));
    assert!(matches!(items[2], SomeValue::Float { .. }));
    assert!(matches!(items[3], SomeValue::Float { .. }));
    assert!(matches!(items[4], SomeValue::Integer { .. }));
}

#[test]
fn enumerate_with_a_start() {
    let r = annotate("def f(n):\n    out = 0\n    for i, c in enumerate('abc', n):\n        out = i\n    return out\n", vec![int()]).unwrap();
    assert!(
        matches!(r, SomeValue::Integer { nonneg: false, .. }),
        "{r:?}"
    );
    let r = annotate("def f(n):\n    out = 0\n    for i, c in enumerate('abc', 1):\n        out = i\n    return out\n", vec![int()]).unwrap();
    assert!(
        matches!(r, SomeValue::Integer { nonneg: true, .. }),
        "{r:?}"
    );
}

#[test]
fn nonneg_compared_with_zero_is_decided() {
    let r = annotate(
        "def f(x):\n    y = abs(x)\n    return (y < 0, y >= 0)\n",
        vec![int()],
    )
    .unwrap();
    let SomeValue::Tuple(items) = &r else {
        panic!("{r:?}")
    };
    assert_eq!(items[0].const_bool(), Some(false));
    assert_eq!(items[1].const_bool(), Some(true));
}

#[test]
fn comparing_with_an_unsigned_value_does_not_narrow() {
    // in RPython `x >= r_uint(0)` compares as unsigned: x may be negative
    let src = "from rpy3.rlib.rarithmetic import r_uint\ndef f(x):\n    if x >= r_uint(0):\n        return x\n    return 0\n";
    let r = annotate(src, vec![int()]).unwrap();
    assert!(
        matches!(r, SomeValue::Integer { nonneg: false, .. }),
        "{r:?}"
    );
}

#[test]
fn set_methods_and_sort_keywords() {
    let src = "def f(n):\n    a = set([n, 1])\n    b = set([2])\n    l = sorted(a.symmetric_difference(b), reverse=True)\n    l.sort(reverse=True)\n    return l\n";
    let r = annotate(src, vec![int()]).unwrap();
    assert!(matches!(r, SomeValue::List(_)), "{r:?}");
}

#[test]
fn missing_arguments_are_errors_not_panics() {
    let e = annotate("def f(s):\n    return s.join()\n", vec![SomeValue::str()]).unwrap_err();
    assert!(e.contains("join() called with 0 arguments"), "{e}");
    let e = annotate("def f(s):\n    return sum()\n", vec![SomeValue::str()]).unwrap_err();
    assert!(e.contains("sum() called with 0 arguments"), "{e}");
}

#[test]
fn range_lists_remember_their_step_until_mutated() {
    use pyo3::types::PyDict;
    use rpy3_annotator::Annotator;
    pyo3::Python::attach(|py| {
        let globals = PyDict::new(py);
        let src = "def f(n):\n    r = range(0, n, 2)\n    l = range(n)\n    l.append(3)\n    return len(r) + len(l)\n";
        py.run(&std::ffi::CString::new(src).unwrap(), Some(&globals), None)
            .unwrap();
        let f = globals.get_item("f").unwrap().unwrap();
        let mut ann = Annotator::new();
        ann.annotate(py, &f, vec![rpy3_annotator::SomeValue::int()])
            .unwrap();
        let mut steps: Vec<(Option<Option<i64>>, bool)> = (0..ann.itemdefs_len())
            .map(|i| {
                let d = ann
                    .itemdefs
                    .get(rpy3_annotator::ItemDefId::from_u32(i as u32));
                (d.range_step, d.resized || d.mutated)
            })
            .collect();
        steps.sort();
        assert_eq!(steps, vec![(Some(Some(1)), true), (Some(Some(2)), false)]);
    });
}

#[test]
fn range_lists_stay_ranges_when_their_steps_differ() {
    use pyo3::types::PyDict;
    use rpy3_annotator::Annotator;
    pyo3::Python::attach(|py| {
        let globals = PyDict::new(py);
        // r: steps 2 and 3 merged (a range, step unknown); v: a variable
        // step; w: a range merged with an ordinary list (not a range)
        let src = "def f(n, s):\n    if n:\n        r = range(0, n, 2)\n    else:\n        r = range(0, n, 3)\n    v = range(0, n, s)\n    if s:\n        w = range(n)\n    else:\n        w = [n]\n    return len(r) + len(v) + len(w)\n";
        py.run(&std::ffi::CString::new(src).unwrap(), Some(&globals), None)
            .unwrap();
        let f = globals.get_item("f").unwrap().unwrap();
        let mut ann = Annotator::new();
        ann.annotate(
            py,
            &f,
            vec![
                rpy3_annotator::SomeValue::int(),
                rpy3_annotator::SomeValue::int(),
            ],
        )
        .unwrap();
        let mut reps: Vec<rpy3_annotator::ItemDefId> = (0..ann.itemdefs_len())
            .map(|i| {
                ann.itemdefs
                    .find(rpy3_annotator::ItemDefId::from_u32(i as u32))
            })
            .collect();
        reps.sort();
        reps.dedup();
        let mut steps: Vec<Option<Option<i64>>> = reps
            .iter()
            .map(|&id| ann.itemdefs.get(id).range_step)
            .collect();
        steps.sort();
        assert_eq!(steps, vec![None, Some(None), Some(None)]);
    });
}
