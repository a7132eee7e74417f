#!/usr/bin/env python3
"""usage: DRYDOCK=bin CONFTEST=bin gen.py FIXTUREDIR HEADER CASES.json OUT.txtar

Regenerates script/conftest_output_{formats,flags,passes}.txtar: extract the
script's fixture (its files but want/*) into FIXTUREDIR, then run e.g.
  gen.py DIR formats.head formats.json ../script/conftest_output_formats.txtar
with CONFTEST a conftest v0.71.1 binary and DRYDOCK a drydock binary.

Writes a testscript from cases: each case runs conftest (the truth) in the fixture
directory and stores its stdout (and stderr when asked) and exit code as the expected
output of the same drydock test --conftest command. conftest orders files by Go map
iteration; a multi-file case is run until conftest's stdout equals the order drydock
gives (the order given), up to 40 runs."""
import subprocess, sys, os, json
fixture, header, cases, out = sys.argv[1], sys.argv[2], json.load(open(sys.argv[3])), sys.argv[4]
env = dict(os.environ)
lines = [open(header).read().rstrip("\n"), ""]
files = {}
drydock = os.environ.get("DRYDOCK", "drydock")
conftest = os.environ.get("CONFTEST", "/work/tools/conftest")
for i, c in enumerate(cases):
    args = c["args"]
    dargs = c.get("dargs", args)
    d = subprocess.run([drydock, "test", "--conftest"] + dargs, cwd=fixture, capture_output=True)
    for n in range(40):
        r = subprocess.run([conftest, "test"] + args, cwd=fixture, capture_output=True)
        if r.stdout == d.stdout:
            break
    name = c["name"]
    norm = c.get("norm", [])
    so = r.stdout.decode()
    for a, b in norm:
        so = so.replace(a, b)
    lines.append("# " + c["comment"])
    lines.append("# conftest test " + " ".join(args) + f"  (exit {r.returncode})")
    cmd = ("exits %d " % r.returncode if r.returncode else "exec ") + "drydock test --conftest " + " ".join(dargs)
    lines.append(cmd)
    cmpc = "cmpenv" if norm else "cmp"
    if not so.endswith("\n") and so:
        cmpc = "cmpenv-noeol"  # txtar files end in a newline
    lines.append(f"{cmpc} stdout want/{name}")
    files[f"want/{name}"] = so
    if c.get("stderr"):
        lines.append(f"cmp stderr want/{name}.stderr")
        files[f"want/{name}.stderr"] = r.stderr.decode()
    lines.append("")
    if r.stdout != d.stdout:
        print("MISMATCH", name, file=sys.stderr)
    if c.get("stderr") and r.stderr != d.stderr:
        print("STDERR MISMATCH", name, file=sys.stderr)
    if r.returncode != d.returncode:
        print("EXIT MISMATCH", name, r.returncode, d.returncode, file=sys.stderr)
for root, _, fs in os.walk(fixture):
    for f in sorted(fs):
        p = os.path.relpath(os.path.join(root, f), fixture)
        files[p] = open(os.path.join(root, f)).read()
with open(out, "w") as o:
    o.write("\n".join(lines) + "\n")
    for k in sorted(files, key=lambda k: (not k.startswith(("policy", "p2", "in")), k)):
        o.write(f"-- {k} --\n")
        v = files[k]
        o.write(v)
        if v and not v.endswith("\n"):
            o.write("\n")
