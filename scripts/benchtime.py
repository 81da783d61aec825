"""Timing of one command for the benchmarks (make bench, make bench-peers).

Wall time from perf_counter, less what launching a process through /usr/bin/time
costs by itself (measured once per benchmark); CPU time from the rusage of the
children (user + system); peak RSS from /usr/bin/time's %M. /usr/bin/time's own
%e, %U and %S round to 10 ms, too coarse for commands of a few milliseconds."""
import os, resource, statistics, subprocess, sys, tempfile, time

_launch = None

def _run(cmd, env=None):
    with tempfile.NamedTemporaryFile("r") as out:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        r = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", out.name] + cmd,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if r.returncode != 0:
            sys.exit(f"failed ({r.returncode}): {' '.join(cmd)[:300]}\n{r.stderr.decode()[-2000:]}")
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return wall, int(out.read().split()[-1]) / 1024, cpu

def timed(cmd, env=None):
    """(wall seconds, peak RSS in MB, CPU seconds) of one run of `cmd`."""
    global _launch
    if _launch is None:
        _launch = statistics.median(_run(["true"])[0] for _ in range(15))
    wall, rss, cpu = _run(cmd, env)
    return max(wall - _launch, 0.0), rss, cpu

def timed_import(racekit, paths):
    """timed() of `racekit import --quiet PATHS` into a new, empty store."""
    with tempfile.TemporaryDirectory() as tmp:
        return timed([racekit, "--store", os.path.join(tmp, "s.sqlite"), "import", "--quiet"] + list(paths))
