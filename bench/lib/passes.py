#!/usr/bin/env python3
"""Translator and build times, ours against SystemTap 4.8, interleaved.

    passes.py --ours STAP --release REL --stap48-home DIR --runs N --out FILE

Each row runs ours, then 4.8, then ours... (A B A B), so that both see
the same host load; a row's wall times (ms) go to FILE as JSON lines
{"section", "row", "tool", "values", "unit", "size"?, "note"?}. A tool's
failed run ends its part of the row with a note (its stderr's last line).

Pass 1 (-p1) and passes 1-2 (-p2) take the same command every run. Passes
1-4 (-p4):
  cold: every run builds a new variant of the script (a string differs),
        so neither tool finds the module in its cache; the caches that
        belong to the kernel or the machine stay warm, as a user sees them
        after the first module (ours: the prebuilt runtime, the kernel's
        symbols, the unwind tables of -d programs; 4.8: its stapconf
        feature tests). One unmeasured run first fills those.
  warm: the same script again: a module cache hit for both.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.dirname(HERE)
LIBRARY = os.path.join(BENCH, "elaborate", "library.stp")
SEED = 'probe syscall.getdents { log("%s" . pn()); print_ubacktrace() }'


def log(msg):
    print(msg, file=sys.stderr, flush=True)


class Tool:
    def __init__(self, name, argv, env):
        self.name, self.argv, self.env = name, argv, env


def run_once(tool, args, cwd, timeout):
    """((wall ms, CPU ms), None) of one run, or (None, reason). CPU is user +
    system time of the process and the children it waited for (the
    compiler and make of pass 4): it moves much less with the host's load."""
    t0 = time.monotonic()
    err = tempfile.TemporaryFile()
    out = tempfile.TemporaryFile()
    p = subprocess.Popen(tool.argv + args, cwd=cwd, env=tool.env, stdout=out, stderr=err)
    deadline = t0 + timeout
    while True:
        pid, status, ru = os.wait4(p.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() > deadline:
            p.kill()
            os.wait4(p.pid, 0)
            return None, "timed out after %d s" % timeout
        time.sleep(0.005)
    ms = (time.monotonic() - t0) * 1000
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        err.seek(0)
        lines = [l for l in err.read().decode(errors="replace").splitlines() if l.strip()]
        last = [l for l in lines if "error" in l.lower()][:1] or lines[-1:] or ["?"]
        return None, "status %d: %s" % (p.returncode, last[0][:160])
    out.seek(0)
    lines = out.read().decode(errors="replace").split()
    tool.last_output = os.path.join(cwd, lines[-1]) if lines else None
    return (ms, (ru.ru_utime + ru.ru_stime) * 1000), None


def row(out, section, name, tools, runs, make_args, cwd, timeout, size_of=None):
    """Runs every tool `runs` times, interleaved; make_args(tool, i) gives
    run i's arguments (i = -1: the unmeasured warm-up run, when wanted)."""
    vals = {t.name: [] for t in tools}
    cpus = {t.name: [] for t in tools}
    notes = {}
    sizes = {}
    for i in range(runs):
        for t in tools:
            if t.name in notes or t.name + " " in notes:
                continue
            r, err = run_once(t, make_args(t, i), cwd, timeout)
            if err:
                notes[t.name] = err
                continue
            vals[t.name].append(r[0])
            cpus[t.name].append(r[1])
            if r[0] > 120000:  # one run of two minutes says enough (4.8's syscall.* at load)
                notes[t.name + " "] = "one run: over 120 s"
            if size_of:
                s = size_of(t, i)
                if s:
                    sizes[t.name] = s
    for t in tools:
        rec = {"section": section, "row": name, "tool": t.name, "values": vals[t.name],
               "cpu": cpus[t.name], "unit": "ms"}
        if t.name in notes:
            rec["note"] = notes[t.name]
        if t.name in sizes:
            rec["size"] = sizes[t.name]
        out.write(json.dumps(rec) + "\n")
        out.flush()
    summary = "  ".join("%s %s" % (t.name, ("%.0f ms" % sorted(vals[t.name])[len(vals[t.name]) // 2])
                                   if vals[t.name] else notes.get(t.name, "-")) for t in tools)
    log("  %s / %s: %s" % (section, name, summary))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ours", required=True)
    ap.add_argument("--release", required=True)
    ap.add_argument("--stap48", default="/usr/bin/stap")
    ap.add_argument("--stap48-home", required=True)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--slow-runs", type=int, default=3, help="runs of rows where 4.8 takes > 10 s")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()

    rel = a.release
    kb48 = os.path.join(a.stap48_home, "kbuild-" + rel)
    rt48 = os.path.join(a.stap48_home, "runtime")
    env48 = dict(os.environ, SYSTEMTAP_DIR=os.path.join(a.stap48_home, "sysdir"))
    ours = Tool("ours", [os.path.abspath(a.ours), "-r", rel], dict(os.environ))
    s48 = Tool("4.8", [a.stap48, "-r", kb48, "-R", rt48], env48)
    tools = [ours, s48]
    work = tempfile.mkdtemp(prefix="stap-passes-")
    out = open(a.out, "a")

    # Pass 1 and 1-2. -u: 4.8 drops empty probes and then has none.
    scripts = [
        ("`probe begin {}`", ["-e", "probe begin {}"], False),
        ("`probe syscall.* {}`", ["-e", "probe syscall.* {}"], True),
        ("`probe syscall.*.return {}`", ["-e", "probe syscall.*.return {}"], True),
        ('`probe kernel.function("vfs_*") {}`', ["-e", 'probe kernel.function("vfs_*") {}'], False),
        ("library.stp (50 lines)", [LIBRARY], False),
    ]
    for p in ("-p1", "-p2"):
        for name, args, slow in scripts:
            n = a.slow_runs if slow and p == "-p2" else a.runs
            row(out, "pass " + ("1" if p == "-p1" else "1-2"), name, tools, n,
                lambda t, i, args=args, p=p: [p, "-u"] + args, work, 400)

    # Passes 1-4, cold (a new variant every run) and warm (cache hit).
    def hello(v):
        return ["-e", 'probe begin { println("hi %s"); exit() }' % v]

    def library(v):
        f = os.path.join(work, "library-%s.stp" % v)
        with open(LIBRARY) as src, open(f, "w") as dst:
            dst.write(src.read().replace("hello world", "hello %s" % v))
        return [f]

    def seed(v):
        return ["-d", "/bin/ls", "--ldd", "-e", SEED % v]

    # No -m: 4.8 does not use its cache for a named module. -p4 prints
    # the module's path (in the cache, or here), whose size the row gives.
    stamp = "%d" % os.getpid()
    for name, make in (("hello", hello), ("library.stp (50 lines)", library),
                       ("seed demo (`-d /bin/ls --ldd`, getdents + print_ubacktrace)", seed)):
        def args_of(t, i, make=make, cold=True):
            v = "%s-%s" % (stamp, i) if cold else "%s-warm" % stamp
            return ["-p4"] + make(v)

        def size_of(t, i):
            f = getattr(t, "last_output", None)
            return os.path.getsize(f) if f and f.endswith(".ko") and os.path.exists(f) else None

        # unmeasured first run: fills the per-kernel caches, then the warm variant's module
        for t in tools:
            run_once(t, args_of(t, "first"), work, 900)
            run_once(t, args_of(t, 0, cold=False), work, 900)
        row(out, "pass 1-4 cold (cache miss)", name, tools, a.runs, args_of, work, 900, size_of)
        row(out, "pass 1-4 warm (cache hit)", name, tools, a.runs,
            lambda t, i, args_of=args_of: args_of(t, i, cold=False), work, 900)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
