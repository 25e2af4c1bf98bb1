//! The Unicode database of the C runtime: `rpy_unichar_props`,
//! `rpy_unichar_upper`, `_lower`, `_title` and `_casefold` (declared in
//! `runtime/rpy3.h`) with their tables, generated from the model's
//! [`rpy3_model::unicodedb`] (what the llinterp reads), so every backend
//! classifies characters from the same data.  A program compiles this
//! source in only when it uses one of those operations.
//!
//! Layout: each code point has a small number — an index into a palette
//! of distinct property flags, and one into a table of distinct case
//! records — found through a two-level table (the code point's block,
//! then its offset in a deduplicated block).  A case record holds, for
//! each of the four mappings, the difference between the mapped code
//! point and the code point, or (for mappings to several code points)
//! [`MULTI`] plus an offset into an array of length-prefixed sequences.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::OnceLock;

use rpy3_model::unicodedb;

/// One past the last code point.
const NCODES: u32 = 0x11_0000;

/// A case-record value at or above this is `MULTI + offset` of a
/// length-prefixed sequence; below it, a code point difference (which is
/// at most 0x10FFFF in magnitude).
const MULTI: i32 = 0x20_0000;

/// A two-level lookup table over every code point: `index[c >> shift]`
/// is a block number, `blocks[block << shift | (c & mask)]` the value.
struct TwoLevel {
    shift: u32,
    index: Vec<u32>,
    blocks: Vec<u32>,
}

impl TwoLevel {
    /// The smallest table (in bytes of C data) for `values` (one per
    /// code point), trying block sizes 2**4 .. 2**10.
    fn build(values: &[u32]) -> TwoLevel {
        (4..=10)
            .map(|shift| TwoLevel::with_shift(values, shift))
            .min_by_key(TwoLevel::bytes)
            .expect("at least one block size")
    }

    fn with_shift(values: &[u32], shift: u32) -> TwoLevel {
        let size = 1usize << shift;
        let mut seen: HashMap<&[u32], u32> = HashMap::new();
        let mut index = Vec::with_capacity(values.len() / size);
        let mut blocks = Vec::new();
        for block in values.chunks(size) {
            let n = seen.len() as u32;
            let id = *seen.entry(block).or_insert_with(|| {
                blocks.extend_from_slice(block);
                n
            });
            index.push(id);
        }
        TwoLevel {
            shift,
            index,
            blocks,
        }
    }

    fn bytes(&self) -> usize {
        let width = |max: u32| if max < 256 { 1 } else { 2 };
        let max = |v: &[u32]| v.iter().copied().max().unwrap_or(0);
        self.index.len() * width(max(&self.index)) + self.blocks.len() * width(max(&self.blocks))
    }

    /// C definitions of `NAME_index` and `NAME_blocks`, and a lookup
    /// function `NAME(c)` for `c < 0x110000`.
    fn emit(&self, out: &mut String, name: &str) {
        emit_array(out, &format!("{name}_index"), &self.index);
        emit_array(out, &format!("{name}_blocks"), &self.blocks);
        let mask = (1u32 << self.shift) - 1;
        let _ = writeln!(
            out,
            "static unsigned {name}(rpy_UniChar c)\n{{\n    return {name}_blocks[((unsigned){name}_index[c >> {shift}] << {shift}) | (c & {mask}u)];\n}}\n",
            shift = self.shift,
        );
    }
}

/// A `static const` array of the smallest unsigned type holding `values`.
fn emit_array(out: &mut String, name: &str, values: &[u32]) {
    let max = values.iter().copied().max().unwrap_or(0);
    let ty = if max < 256 {
        "uint8_t"
    } else if max < 65536 {
        "uint16_t"
    } else {
        "uint32_t"
    };
    let _ = writeln!(out, "static const {ty} {name}[{}] = {{", values.len());
    emit_numbers(out, values.iter().map(|v| i64::from(*v)));
    out.push_str("};\n\n");
}

/// Comma-separated numbers in lines of at most 100 characters.
fn emit_numbers(out: &mut String, values: impl Iterator<Item = i64>) {
    let mut line = String::new();
    for v in values {
        let item = format!("{v},");
        if line.len() + item.len() > 100 {
            out.push_str(line.trim_end());
            out.push('\n');
            line.clear();
        }
        line.push_str(&item);
    }
    if !line.is_empty() {
        out.push_str(&line);
        out.push('\n');
    }
}

/// The full mapping of `c` by one of the model's case functions.
fn mapping(f: fn(u32, i64) -> i64, c: u32) -> Vec<u32> {
    (0..)
        .map(|k| f(c, k))
        .take_while(|&m| m >= 0)
        .map(|m| m as u32)
        .collect()
}

/// The C source of the Unicode database (computed once per process).
pub fn unicodedb_c_source() -> String {
    static SOURCE: OnceLock<String> = OnceLock::new();
    SOURCE.get_or_init(generate).clone()
}

fn generate() -> String {
    // property flags, through a palette of their distinct values
    let mut palette: Vec<u32> = Vec::new();
    let mut palette_ids: HashMap<u32, u32> = HashMap::new();
    let props: Vec<u32> = (0..NCODES)
        .map(|c| {
            let f = unicodedb::flags(c);
            *palette_ids.entry(f).or_insert_with(|| {
                palette.push(f);
                palette.len() as u32 - 1
            })
        })
        .collect();

    // case records
    let funcs: [fn(u32, i64) -> i64; 4] = [
        unicodedb::upper,
        unicodedb::lower,
        unicodedb::title,
        unicodedb::casefold,
    ];
    let mut multi: Vec<i32> = Vec::new();
    let mut multi_ids: HashMap<Vec<u32>, i32> = HashMap::new();
    let mut records: Vec<[i32; 4]> = Vec::new();
    let mut record_ids: HashMap<[i32; 4], u32> = HashMap::new();
    let cases: Vec<u32> = (0..NCODES)
        .map(|c| {
            let mut rec = [0i32; 4];
            for (slot, f) in rec.iter_mut().zip(funcs) {
                if f(c, 1) == -1 {
                    // one code point (the identity for most)
                    *slot = (f(c, 0) - i64::from(c)) as i32;
                    continue;
                }
                let m = mapping(f, c);
                *slot = if m.len() == 1 {
                    m[0] as i32 - c as i32
                } else {
                    let offset = *multi_ids.entry(m.clone()).or_insert_with(|| {
                        let at = multi.len() as i32;
                        multi.push(m.len() as i32);
                        multi.extend(m.iter().map(|&x| x as i32));
                        at
                    });
                    MULTI + offset
                };
            }
            *record_ids.entry(rec).or_insert_with(|| {
                records.push(rec);
                records.len() as u32 - 1
            })
        })
        .collect();

    let mut out = String::new();
    let _ = writeln!(
        out,
        "/* rpy3 runtime: the Unicode database (Unicode {}, as CPython 3.11 sees\n \
         * it), generated from rpy3's model/src/unicodedb.rs by genc: do not edit. */\n\
         #include \"rpy3.h\"\n",
        unicodedb::UNIDATA_VERSION
    );
    let _ = writeln!(
        out,
        "static const uint16_t rpy_unicode_palette[{}] = {{",
        palette.len()
    );
    emit_numbers(&mut out, palette.iter().map(|v| i64::from(*v)));
    out.push_str("};\n\n");
    TwoLevel::build(&props).emit(&mut out, "rpy_unicode_props");

    let _ = writeln!(
        out,
        "/* per mapping (upper, lower, title, casefold): the difference to the\n \
         * code point, or {MULTI:#x} + the offset of a length-prefixed sequence */\n\
         static const int32_t rpy_unicode_case_records[{}][4] = {{",
        records.len()
    );
    for r in &records {
        let _ = writeln!(out, "{{{},{},{},{}}},", r[0], r[1], r[2], r[3]);
    }
    out.push_str("};\n\n");
    let _ = writeln!(
        out,
        "static const int32_t rpy_unicode_case_multi[{}] = {{",
        multi.len().max(1)
    );
    if multi.is_empty() {
        out.push_str("0,\n");
    }
    emit_numbers(&mut out, multi.iter().map(|v| i64::from(*v)));
    out.push_str("};\n\n");
    TwoLevel::build(&cases).emit(&mut out, "rpy_unicode_case");

    let _ = writeln!(
        out,
        "rpy_Signed rpy_unichar_props(rpy_UniChar c)\n{{\n    \
         if (c >= 0x110000)\n        return 0;\n    \
         return rpy_unicode_palette[rpy_unicode_props(c)];\n}}\n\n\
         /* code point k of mapping `which` of c, or -1 past its end */\n\
         static rpy_Signed rpy_unicode_mapped(rpy_UniChar c, rpy_Signed k, int which)\n{{\n    \
         int32_t d = c < 0x110000 ? rpy_unicode_case_records[rpy_unicode_case(c)][which] : 0;\n    \
         if (d >= {MULTI:#x}) {{\n        \
         const int32_t *m = rpy_unicode_case_multi + (d - {MULTI:#x});\n        \
         return (k >= 0 && k < m[0]) ? m[1 + k] : -1;\n    }}\n    \
         return k == 0 ? (rpy_Signed)c + d : -1;\n}}\n\n\
         rpy_Signed rpy_unichar_upper(rpy_UniChar c, rpy_Signed k) {{ return rpy_unicode_mapped(c, k, 0); }}\n\
         rpy_Signed rpy_unichar_lower(rpy_UniChar c, rpy_Signed k) {{ return rpy_unicode_mapped(c, k, 1); }}\n\
         rpy_Signed rpy_unichar_title(rpy_UniChar c, rpy_Signed k) {{ return rpy_unicode_mapped(c, k, 2); }}\n\
         rpy_Signed rpy_unichar_casefold(rpy_UniChar c, rpy_Signed k) {{ return rpy_unicode_mapped(c, k, 3); }}"
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn source_is_small_and_declares_every_function() {
        let src = unicodedb_c_source();
        assert!(src.len() < 300_000, "{} bytes", src.len());
        for f in ["props", "upper", "lower", "title", "casefold"] {
            assert!(src.contains(&format!("rpy_Signed rpy_unichar_{f}(rpy_UniChar c")));
        }
    }
}
