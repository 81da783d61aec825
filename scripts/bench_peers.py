#!/usr/bin/env python3
"""make bench-peers: racekit import against the reference Python parsers and the
xmllint floor, over the same inputs, in the same run (medians of 7 runs for the
fast commands, 3 for the Python peers, each series after one warm-up run).

  GPX: racekit import, gpxpy (parse + length + moving data), xmllint --stream
  TCX: racekit import, python-tcxparser (parse + distance, duration, HR), xmllint --stream

Usage: bench_peers.py BUILD_DIR
"""
import os, statistics, subprocess, sys, tempfile, time

BUILD = sys.argv[1]
RACEKIT = os.path.join(BUILD, "racekit")
GEN = os.path.join(BUILD, "racekit-gen")
WORK = os.path.join(".build", "bench", "peers")
RUNS = 3        # the Python peers (seconds each)
FAST_RUNS = 7   # racekit and xmllint (a fraction of a second)

GPXPY = """
import sys, gpxpy
for path in sys.argv[1:]:
    with open(path) as f:
        gpx = gpxpy.parse(f)
    gpx.length_2d(); gpx.get_moving_data(); gpx.get_duration()
"""
TCXPARSER = """
import sys, tcxparser
for path in sys.argv[1:]:
    t = tcxparser.TCXParser(path)
    t.distance; t.duration; t.hr_avg; t.started_at
"""

def launch(cmd):
    """Wall time (perf_counter) and peak RSS (/usr/bin/time %M) of one run."""
    with tempfile.NamedTemporaryFile("r") as out:
        start = time.perf_counter()
        r = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", out.name] + cmd,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        wall = time.perf_counter() - start
        if r.returncode != 0:
            sys.exit(f"failed ({r.returncode}): {' '.join(cmd[:3])}...\n{r.stderr.decode()[-1500:]}")
        return wall, int(out.read().split()[-1]) / 1024

# What starting a process through /usr/bin/time costs by itself (its %e rounds to
# 10 ms, too coarse here): subtracted from every wall time, the same for all tools.
LAUNCH = None

def timed(cmd):
    global LAUNCH
    if LAUNCH is None:
        LAUNCH = statistics.median(launch(["true"])[0] for _ in range(15))
    wall, rss = launch(cmd)
    return max(wall - LAUNCH, 0.0), rss

def median(cmdf, runs=RUNS):
    samples = [cmdf() for _ in range(runs)]
    return statistics.median(s[0] for s in samples), statistics.median(s[1] for s in samples)

def racekit_once(files):
    with tempfile.TemporaryDirectory() as tmp:
        return timed([RACEKIT, "--store", os.path.join(tmp, "s.sqlite"), "import", "--quiet"] + files)

def series(run, runs):
    """Median wall time and peak RSS of `runs` runs after one discarded warm-up
    run. The warm-up matters on the shared virtual machine this was measured on:
    for a second or so after a process that used hundreds of MB (gpxpy), racekit
    runs took 190-240 ms instead of 150 (no major faults in the guest: the host,
    presumably), which says nothing about racekit."""
    run()
    return median(run, runs)

def main():
    folder = os.path.join(WORK, "files")
    if not os.path.isdir(folder):
        subprocess.run([GEN, "bench-folder", folder, "--count", "160"], check=True)
    big = os.path.join(WORK, "big-20mb.gpx")
    if not os.path.exists(big):
        subprocess.run([GEN, "bench-big", big, "--megabytes", "20"], check=True)
    gpx = sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".gpx"))
    tcx = sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".tcx"))
    sets = [("GPX files", gpx, "gpxpy", GPXPY), ("one 20 MB GPX", [big], "gpxpy", GPXPY),
            ("TCX files", tcx, "python-tcxparser", TCXPARSER)]
    for name, files, peer, script in sets:
        mb = sum(os.path.getsize(f) for f in files) / 1048576
        print(f"\n== {name}: {len(files)} files, {mb:.1f} MB, medians of {FAST_RUNS} (racekit, xmllint) and {RUNS} ({peer}) after a warm-up run each")
        floor = series(lambda: timed(["xmllint", "--stream", "--noout"] + files), FAST_RUNS)
        ours = series(lambda: racekit_once(files), FAST_RUNS)
        theirs = series(lambda: timed([sys.executable, "-c", script] + files), RUNS)
        print(f"xmllint --stream --noout  {floor[0]:7.3f} s  peak RSS {floor[1]:7.1f} MB")
        print(f"racekit import            {ours[0]:7.3f} s  peak RSS {ours[1]:7.1f} MB  ({ours[0] / floor[0]:.2f}x xmllint)")
        print(f"{peer:25s} {theirs[0]:7.3f} s  peak RSS {theirs[1]:7.1f} MB")
        print(f"racekit is {theirs[0] / ours[0]:.1f}x faster than {peer} with {ours[1] / theirs[1]:.2f}x its peak memory")

if __name__ == "__main__":
    main()
