#!/usr/bin/env python3
"""FIT conformance (make conformance): imports every file of ../shared/corpus/fit and
checks the outcome against scripts/fit-expected.jsonl and, for every imported
running or cycling session, the numbers against fitdecode's session messages (the
oracle, decoded in the same run) within the tolerances of ../shared/corpus/README.md:

  distanceMeters   session total_distance            0.5 %
  elapsedSeconds   session total_elapsed_time        2 s
  movingSeconds    session total_moving_time         5 %   when the session has one (newer
                   devices); otherwise only checked not to exceed total_timer_time by more
                   than 5 %: the timer runs through stops unless auto-pause is on, and
                   RaceKit's moving time is its own pause rule (docs/numbers.md), so timer time is
                   an upper bound, not a reference
  avgHeartRate     session avg_heart_rate            2 bpm
  maxHeartRate     session max_heart_rate            2 bpm
  startedAt        session start_time                60 s
  sport            session sport (running, cycling)  exact

A line of fit-expected.jsonl may widen a tolerance (`tolerances`) or leave a metric
out (`skip`), always with its reason in `why`.

Usage: fit_conformance.py RACEKIT_BINARY CORPUS_DIR [--verbose]
"""
import json, os, subprocess, sys, tempfile
from datetime import datetime, timezone

TOLERANCES = {"distanceMeters": (0.5, "%"), "elapsedSeconds": (2, "s"), "movingSeconds": (5, "%"),
              "avgHeartRate": (2, "bpm"), "maxHeartRate": (2, "bpm"), "startedAt": (60, "s")}
CHECKED_SPORTS = {"running", "cycling"}

def sessions(path):
    """fitdecode's sessions of one file (transitions left out), in start order."""
    import fitdecode
    out = []
    try:
        frames = list(read_frames(path))
    except Exception as e:  # the oracle gives up on some damaged files: what it read before
        frames = getattr(e, "frames", [])
    for frame in frames:
        if True:
            if type(frame).__name__ == "FitDataMessage" and frame.name == "session":
                v = {f.name: f.value for f in frame.fields}
                if v.get("sport") == "transition":
                    continue
                start = v.get("start_time")
                out.append({
                    "sport": v.get("sport"),
                    "startedAt": start.timestamp() if isinstance(start, datetime) else None,
                    "distanceMeters": v.get("total_distance"),
                    "elapsedSeconds": v.get("total_elapsed_time"),
                    "movingSeconds": v.get("total_moving_time"),
                    "timerSeconds": v.get("total_timer_time"),
                    "avgHeartRate": v.get("avg_heart_rate"),
                    "maxHeartRate": v.get("max_heart_rate"),
                })
    return sorted(out, key=lambda s: s["startedAt"] or 0)

def read_frames(path):
    import fitdecode
    frames = []
    try:
        with fitdecode.FitReader(path, check_crc=fitdecode.CrcCheck.DISABLED,
                                 error_handling=fitdecode.ErrorHandling.IGNORE) as fit:
            for frame in fit:
                frames.append(frame)
    except Exception as e:
        e.frames = frames
        raise
    return frames

def iso(s):
    return datetime.fromisoformat(s.replace("Z", "+00:00")).timestamp()

def main():
    binary, corpus = sys.argv[1], sys.argv[2]
    verbose = "--verbose" in sys.argv
    folder = os.path.join(corpus, "fit")
    here = os.path.dirname(os.path.abspath(__file__))
    expected = [json.loads(l) for l in open(os.path.join(here, "fit-expected.jsonl")) if l.strip()]
    try:
        import fitdecode  # noqa: F401
    except ImportError:
        print("FIT conformance: fitdecode is missing (pip install fitdecode); numbers not checked")
        fitdecode_ok = False
    else:
        fitdecode_ok = True
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, RACEKIT_STORE=os.path.join(tmp, "store.sqlite"))
        out = subprocess.run([binary, "import", "--allow-duplicates", "--format", "json", folder],
                             capture_output=True, text=True, env=env)
        if out.returncode not in (0, 1):
            print(f"FIT import crashed or refused: exit {out.returncode}\n{out.stderr[-2000:]}")
            return 1
        results = {os.path.basename(r["file"]): r for r in json.loads(out.stdout)}
        runs = {r["id"]: r for r in json.loads(subprocess.run(
            [binary, "runs", "list", "--format", "json"], capture_output=True, text=True, env=env, check=True).stdout)}
    names = sorted(f for f in os.listdir(folder) if f.lower().endswith((".fit", ".fit.gz")))
    listed = {e["file"] for e in expected}
    passed = failed = compared = 0
    for name in names:
        if name not in listed:
            failed += 1
            print(f"FAIL {name}: no line in scripts/fit-expected.jsonl")
    for exp in expected:
        name, problems = exp["file"], []
        got = results.get(name)
        if got is None:
            problems.append("not in the import output")
        elif got["status"] not in exp["status"].split("_or_"):
            problems.append(f"status {got['status']} ({got.get('reason')}), expected {exp['status']}")
        elif got["status"] == "imported":
            stored = sorted((runs[i] for i in got["runIds"]), key=lambda r: r["startedAt"])
            if len(stored) != exp.get("runs", 1):
                problems.append(f"{len(stored)} runs, expected {exp.get('runs', 1)}")
            elif fitdecode_ok:
                refs = sessions(os.path.join(folder, name))
                if len(refs) == len(stored):
                    for run, ref in zip(stored, refs):
                        if ref["sport"] in CHECKED_SPORTS:
                            compared += 1
                            problems += check(run, ref, exp, verbose, name)
                elif refs:
                    problems.append(f"{len(stored)} runs, fitdecode has {len(refs)} sessions")
        if problems:
            failed += 1
            print(f"FAIL {name}: " + "; ".join(problems))
        else:
            passed += 1
    print(f"FIT conformance: {passed} passed, {failed} failed ({compared} running/cycling sessions "
          f"compared with fitdecode)")
    return 1 if failed else 0

def check(run, ref, exp, verbose, name):
    errs = []
    if run["sport"] != ref["sport"]:
        errs.append(f"sport {run['sport']}, fitdecode {ref['sport']}")
    timer = ref.get("timerSeconds")
    if ref.get("movingSeconds") is None and timer and run.get("movingSeconds") is not None:
        if run["movingSeconds"] > timer * 1.05:
            errs.append(f"movingSeconds {run['movingSeconds']} exceeds the timer time {timer} by more than 5%")
        elif verbose:
            print(f"  {name[:44]:44s} movingSeconds   ours {run['movingSeconds']:>14.1f} timer     {timer:>14.1f} (upper bound)")
    for key, (tol, unit) in TOLERANCES.items():
        if key in exp.get("skip", []) or ref.get(key) is None:
            continue
        tol = exp.get("tolerances", {}).get(key, tol)
        v = iso(run["startedAt"]) if key == "startedAt" else run.get(key)
        if v is None:
            errs.append(f"{key} is null, fitdecode {ref[key]}")
            continue
        limit = abs(ref[key]) * tol / 100 if unit == "%" else tol
        dev = v - ref[key]
        if verbose:
            print(f"  {name[:44]:44s} {key:15s} ours {v:>14.1f} fitdecode {ref[key]:>14.1f} dev {dev:+.1f}")
        if abs(dev) > limit + 1e-9:
            errs.append(f"{key} {v} vs {ref[key]} ± {tol}{unit}")
    return errs

if __name__ == "__main__":
    sys.exit(main())
