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
  timerSeconds     session total_timer_time          0.5 s
  energyKcal       session total_calories            1 kcal (0 is none: null)
  sport            session sport (running, cycling)  exact
  avgPowerWatts    mean of the session's record power          2 %   (native field 7, or the
  normalizedPowerWatts  its 30-record rolling mean's            3 %    developer field that
                   fourth-power mean, fourth root                     stands for it) when the
                                                                      session has 60 records
                                                                      with power

A line of fit-expected.jsonl may widen a tolerance (`tolerances`) or leave a metric
out (`skip`), always with its reason in `why`.

Usage: fit_conformance.py RACEKIT_BINARY CORPUS_DIR [--verbose]
"""
import json, os, subprocess, sys, tempfile
from datetime import datetime, timezone

TOLERANCES = {"distanceMeters": (0.5, "%"), "elapsedSeconds": (2, "s"), "movingSeconds": (5, "%"),
              "avgHeartRate": (2, "bpm"), "maxHeartRate": (2, "bpm"), "startedAt": (60, "s"),
              "avgPowerWatts": (2, "%"), "normalizedPowerWatts": (3, "%"),
              "timerSeconds": (0.5, "s"), "energyKcal": (1, "kcal")}
CHECKED_SPORTS = {"running", "cycling"}

def sessions(path):
    """fitdecode's sessions of one file (transitions left out), in start order."""
    import fitdecode
    out = []
    try:
        frames = list(read_frames(path))
    except Exception as e:  # the oracle gives up on some damaged files: what it read before
        frames = getattr(e, "frames", [])
    power = record_power(frames)
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
                    # 0 is what a device writes when it counted nothing: RaceKit's null.
                    "energyKcal": v.get("total_calories") or None,
                })
                end = v.get("timestamp")
                if isinstance(start, datetime) and isinstance(end, datetime):
                    watts = [w for t, w in power if start.timestamp() <= t <= end.timestamp()]
                    if len(watts) >= 60:
                        out[-1]["avgPowerWatts"] = sum(watts) / len(watts)
                        rolling = [sum(watts[i - 29:i + 1]) / 30 for i in range(29, len(watts))]
                        out[-1]["normalizedPowerWatts"] = (sum(r ** 4 for r in rolling) / len(rolling)) ** 0.25
    return sorted(out, key=lambda s: s["startedAt"] or 0)

def record_power(frames):
    """(time, watts) of every record with power: its native field, else a developer
    field that declares native field 7 or is named Power or RP_Power."""
    out = []
    for frame in frames:
        if type(frame).__name__ != "FitDataMessage" or frame.name != "record":
            continue
        t = frame.get_value("timestamp", fallback=None)
        watts = None
        for f in frame.fields:
            if f.name == "power" and isinstance(f.value, (int, float)) and not getattr(f, "is_developer", False):
                watts = f.value
        if watts is None:
            for f in frame.fields:
                if f.name in ("Power", "RP_Power") and isinstance(f.value, (int, float)):
                    watts = f.value
        if isinstance(t, datetime) and watts is not None and 0 <= watts <= 3000:
            out.append((t.timestamp(), watts))
    return out

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
    passed = failed = compared = powered = 0
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
                        powered += "avgPowerWatts" in ref
                        if ref["sport"] in CHECKED_SPORTS:
                            compared += 1
                            problems += check(run, ref, exp, verbose, name)
                        elif "avgPowerWatts" in ref:  # power on any sport (an indoor rower, a trainer)
                            compared += 1
                            problems += check(run, ref, exp, verbose, name, POWER)
                elif refs:
                    problems.append(f"{len(stored)} runs, fitdecode has {len(refs)} sessions")
        if problems:
            failed += 1
            print(f"FAIL {name}: " + "; ".join(problems))
        else:
            passed += 1
    print(f"FIT conformance: {passed} passed, {failed} failed ({compared} sessions compared with "
          f"fitdecode, {powered} of them with power)")
    return 1 if failed else 0

POWER = ("avgPowerWatts", "normalizedPowerWatts", "timerSeconds", "energyKcal")

def check(run, ref, exp, verbose, name, keys=None):
    errs = []
    if keys is None and run["sport"] != ref["sport"]:
        errs.append(f"sport {run['sport']}, fitdecode {ref['sport']}")
    timer = ref.get("timerSeconds")
    if keys is None and ref.get("movingSeconds") is None and timer and run.get("movingSeconds") is not None:
        if run["movingSeconds"] > timer * 1.05:
            errs.append(f"movingSeconds {run['movingSeconds']} exceeds the timer time {timer} by more than 5%")
        elif verbose:
            print(f"  {name[:44]:44s} movingSeconds   ours {run['movingSeconds']:>14.1f} timer     {timer:>14.1f} (upper bound)")
    for key, (tol, unit) in TOLERANCES.items():
        if key in exp.get("skip", []) or ref.get(key) is None or (keys is not None and key not in keys):
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
