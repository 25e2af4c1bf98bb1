#!/bin/bash -eu
# Builds rpy3's libFuzzer targets for ClusterFuzzLite / OSS-Fuzz (run by
# `compile` in the image of .clusterfuzzlite/Dockerfile, with $SRC, $OUT
# and the sanitizer flags set).  The targets embed CPython 3.11 and run
# rpy3's Python package, so both go to $OUT beside them, in
# rpy3-runtime/ (the targets find it there): the runner image has neither.

cd "$SRC/rpy3/fuzz"
# cargo fuzz passes $SANITIZER and the coverage flags OSS-Fuzz asks for;
# libpython is found in rpy3-runtime/lib, wherever $OUT is mounted
export RUSTFLAGS="${RUSTFLAGS:-} -C link-arg=-Wl,-rpath,\$ORIGIN/rpy3-runtime/lib"
cargo fuzz build -O --debug-assertions
target_dir=fuzz/target/x86_64-unknown-linux-gnu/release

runtime="$OUT/rpy3-runtime"
mkdir -p "$runtime/lib" "$runtime/python-home/lib"
python3.11 - "$runtime" <<'PY'
import os, shutil, sys, sysconfig
runtime = sys.argv[1]
libdir = sysconfig.get_config_var("LIBDIR")
ldlib = sysconfig.get_config_var("LDLIBRARY")
shutil.copy2(os.path.join(libdir, ldlib), os.path.join(runtime, "lib"))
instsoname = sysconfig.get_config_var("INSTSONAME")
if instsoname and instsoname != ldlib:
    shutil.copy2(os.path.join(libdir, instsoname), os.path.join(runtime, "lib"))
stdlib = sysconfig.get_path("stdlib")
shutil.copytree(stdlib, os.path.join(runtime, "python-home", "lib", "python3.11"),
                ignore=shutil.ignore_patterns("test", "__pycache__", "idlelib", "tkinter"))
PY
cp -r "$SRC/rpy3/python" "$runtime/python"

for target in program lowlevel; do
    cp "$target_dir/$target" "$OUT/"
done
