//! The generated Unicode tables of `rpy3_model::unicodedb` (which the
//! `unichar_*` operations read) agree with the CPython that runs rpy3, on
//! every code point.

use pyo3::prelude::*;
use rpy3_model::unicodedb;

/// A code point's property flags and its case mappings.
type CaseRow = (u32, Vec<u32>, Vec<u32>, Vec<u32>, Vec<u32>);

#[test]
fn tables_agree_with_cpython_on_every_code_point() {
    Python::attach(|py| {
        rpy3_testsuite::load::add_to_sys_path(py, &rpy3_testsuite::load::python_package_dir())
            .unwrap();
        let version: String = py
            .import("unicodedata")
            .and_then(|m| m.getattr("unidata_version"))
            .and_then(|v| v.extract())
            .unwrap();
        assert_eq!(
            version,
            unicodedb::UNIDATA_VERSION,
            "regenerate model/src/unicodedb.rs with scripts/gen_unicodedb.py"
        );
        // flags and the code points of the mappings, computed in one go
        let table = py
            .import("rpy3.lltype")
            .unwrap()
            .getattr("_unichar_flags")
            .unwrap();
        let code = c"[(_f(chr(c)), [ord(x) for x in chr(c).upper()], [ord(x) for x in chr(c).lower()], [ord(x) for x in chr(c).title()], [ord(x) for x in chr(c).casefold()]) for c in range(0x110000)]";
        let globals = pyo3::types::PyDict::new(py);
        globals.set_item("_f", table).unwrap();
        let rows: Vec<CaseRow> = py
            .eval(code, Some(&globals), None)
            .unwrap()
            .extract()
            .unwrap();
        let mapping = |f: fn(u32, i64) -> i64, c: u32| -> Vec<u32> {
            (0..)
                .map(|k| f(c, k))
                .take_while(|&x| x >= 0)
                .map(|x| x as u32)
                .collect()
        };
        for (c, (flags, up, low, title, fold)) in (0u32..).zip(rows) {
            assert_eq!(unicodedb::flags(c), flags, "flags of U+{c:04X}");
            assert_eq!(mapping(unicodedb::upper, c), up, "upper of U+{c:04X}");
            assert_eq!(mapping(unicodedb::lower, c), low, "lower of U+{c:04X}");
            assert_eq!(mapping(unicodedb::title, c), title, "title of U+{c:04X}");
            assert_eq!(
                mapping(unicodedb::casefold, c),
                fold,
                "casefold of U+{c:04X}"
            );
        }
        assert_eq!(unicodedb::flags(0x110000), 0);
    });
}
