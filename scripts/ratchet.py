#!/usr/bin/env python3
"""The corpus ratchet: ratchet/passing.txt lists every (backend, file,
function, args) case that passes; it only ever grows.

    ratchet.py check JSON...   fail if a listed case did not pass
    ratchet.py update JSON...  add the cases that pass now (never removes)
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PASSING = os.path.join(HERE, "..", "ratchet", "passing.txt")


def key(rec):
    return "\t".join([rec["backend"], os.path.basename(rec["file"]), rec["function"], rec["args"]])


def load_records(paths):
    recs = []
    for p in paths:
        with open(p) as f:
            data = json.load(f)
        recs.extend(data if isinstance(data, list) else data["records"])
    return recs


def load_passing():
    if not os.path.exists(PASSING):
        return set()
    with open(PASSING) as f:
        return {line.rstrip("\n") for line in f if line.strip() and not line.startswith("#")}


def main(argv):
    if len(argv) < 3 or argv[1] not in ("check", "update"):
        print(__doc__, file=sys.stderr)
        return 2
    recs = load_records(argv[2:])
    status = {key(r): r for r in recs}
    passing = load_passing()
    if argv[1] == "check":
        ran_backends = {r["backend"] for r in recs}
        lost = [k for k in sorted(passing) if k.split("\t")[0] in ran_backends
                and (k not in status or status[k]["status"] != "pass")]
        missing_backends = {k.split("\t")[0] for k in passing} - ran_backends
        for k in lost:
            detail = status[k]["detail"] if k in status else "case not run"
            print("REGRESSION: %s: %s" % (k.replace("\t", " "), detail))
        for b in sorted(missing_backends):
            print("REGRESSION: backend %s was not run" % b)
        npass = sum(1 for r in recs if r["status"] == "pass")
        print("ratchet: %d listed, %d passing now of %d run, %d regressions"
              % (len(passing), npass, len(recs), len(lost) + len(missing_backends)))
        return 1 if lost or missing_backends else 0
    new = passing | {k for k, r in status.items() if r["status"] == "pass"}
    os.makedirs(os.path.dirname(PASSING), exist_ok=True)
    with open(PASSING, "w") as f:
        f.write("# backend\tfile\tfunction\targs -- cases that pass; only ever grows\n")
        for k in sorted(new):
            f.write(k + "\n")
    print("ratchet: %d cases listed (%d new)" % (len(new), len(new - passing)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
