#!/usr/bin/env python3
"""Imports every file of ../shared/corpus/public and checks the outcome and the
numbers against ../shared/corpus/expected.jsonl.

Usage: conformance.py RACEKIT_BINARY CORPUS_DIR [--import-only] [--report]

Checked: status, run count, distanceMeters, elapsedSeconds, movingSeconds,
avgHeartRate, maxHeartRate, heartRateNull, avgCadence, ascentMeters, ascentNull,
startedAt (--import-only: the import issue's subset). --report prints, per
metric, how far our numbers are from the reference values.
The import uses --allow-duplicates: the corpus holds several edits of one
activity (e.g. cerknicko with and without elevation), which RaceKit otherwise
rightly reports as duplicates.
"""
import json, os, subprocess, sys, tempfile
from datetime import datetime

def iso(s):
    return datetime.fromisoformat(s.replace("Z", "+00:00")).timestamp()

def main():
    binary, corpus = sys.argv[1], sys.argv[2]
    all_metrics = "--import-only" not in sys.argv
    report = "--report" in sys.argv
    deviations = {}
    expected = [json.loads(l) for l in open(os.path.join(corpus, "expected.jsonl")) if l.strip()]
    public = os.path.join(corpus, "public")
    with tempfile.TemporaryDirectory() as tmp:
        store = os.path.join(tmp, "store.sqlite")
        env = dict(os.environ, RACEKIT_STORE=store)
        out = subprocess.run([binary, "import", "--allow-duplicates", "--format", "json", public],
                             capture_output=True, text=True, env=env)
        if out.returncode not in (0, 1):
            print(f"import crashed or refused: exit {out.returncode}\n{out.stderr}")
            return 1
        results = {os.path.basename(r["file"]): r for r in json.loads(out.stdout)}
        runs = {r["id"]: r for r in json.loads(subprocess.run(
            [binary, "runs", "list", "--format", "json"], capture_output=True, text=True, env=env, check=True).stdout)}

    passed = failed = 0
    for exp in expected:
        name = exp["file"]
        problems = []
        got = results.get(name)
        if got is None:
            problems.append("not in the import output")
        else:
            allowed = exp["status"].split("_or_")
            if got["status"] not in allowed:
                problems.append(f"status {got['status']} ({got['reason']}), expected {exp['status']}")
            elif got["status"] == "imported":
                stored = sorted((runs[i] for i in got["runIds"]), key=lambda r: r["startedAt"])
                options = [exp] + exp.get("alternatives", [])
                best = None
                for option in options:
                    n = option.get("runs", exp.get("runs", 1))
                    want = option.get("expect", exp.get("expect", [])) if len(stored) == n else None
                    if want is None:
                        continue
                    errs = [e for run, w in zip(stored, want) for e in check(run, w, all_metrics)]
                    if option is options[0] or best is None:
                        for run, w in zip(stored, want):
                            collect(deviations, name, run, w)
                    if best is None or len(errs) < len(best):
                        best = errs
                if best is None:
                    problems.append(f"{len(stored)} runs, expected {exp.get('runs', 1)}")
                else:
                    problems += best
        if problems:
            failed += 1
            print(f"FAIL {name}: " + "; ".join(problems))
        else:
            passed += 1
    if report:
        print_report(deviations)
    print(f"conformance: {passed} passed, {failed} failed")
    return 1 if failed else 0

PERCENT = {"distanceMeters", "movingSeconds"}
IMPORT_METRICS = {"distanceMeters", "elapsedSeconds", "avgHeartRate", "maxHeartRate", "startedAt"}
ANALYTICS_METRICS = {"movingSeconds", "avgCadence"}

def check(run, want, all_metrics):
    errs = []
    for key, spec in want.items():
        if key == "heartRateNull":
            if spec and (run["avgHeartRate"] is not None or run["maxHeartRate"] is not None):
                errs.append(f"heart rate {run['avgHeartRate']} should be null")
            continue
        if key == "ascentNull":
            if all_metrics and spec and run["ascentMeters"] is not None:
                errs.append(f"ascent {run['ascentMeters']} should be null")
            continue
        if key == "ascentMeters":
            if all_metrics:
                v = run["ascentMeters"]
                if v is None or not (spec[0] <= v <= spec[1]):
                    errs.append(f"ascentMeters {v} not in {spec}")
            continue
        if key not in IMPORT_METRICS and not (all_metrics and key in ANALYTICS_METRICS):
            continue
        ref, tol = spec
        if key == "startedAt":
            v, ref = iso(run["startedAt"]), iso(ref)
        else:
            v = run[key]
        if v is None:
            errs.append(f"{key} is null, expected {ref}")
            continue
        limit = abs(ref) * tol / 100 if key in PERCENT else tol
        if abs(v - ref) > limit + 1e-9:
            errs.append(f"{key} {v} vs {ref} ± {tol}{'%' if key in PERCENT else ''}")
    return errs

def collect(deviations, name, run, want):
    """Relative (%) or absolute deviation of each reference metric."""
    for key, spec in want.items():
        if key in ("heartRateNull", "ascentNull", "startedAt") or run.get(key) is None:
            continue
        if key == "ascentMeters":
            lo, hi = spec
            deviations.setdefault(key, []).append((name, run[key], f"{lo}..{hi}", 0 if lo <= run[key] <= hi else min(abs(run[key]-lo), abs(run[key]-hi))))
            continue
        ref = spec[0]
        dev = (run[key] - ref) / ref * 100 if key in PERCENT and ref else run[key] - ref
        deviations.setdefault(key, []).append((name, run[key], ref, dev))

def print_report(deviations):
    for key, rows in sorted(deviations.items()):
        unit = "%" if key in PERCENT else ""
        devs = [abs(r[3]) for r in rows]
        print(f"\n{key}: {len(rows)} runs, median |dev| {sorted(devs)[len(devs)//2]:.2f}{unit}, max {max(devs):.2f}{unit}")
        for name, ours, ref, dev in sorted(rows, key=lambda r: -abs(r[3]))[:5]:
            print(f"  {name:55s} ours {ours:>10} ref {ref:>10}  dev {dev:+.2f}{unit}")

if __name__ == "__main__":
    sys.exit(main())
