#!/usr/bin/env python3
"""Club-scale store benchmark (make bench-pg): the PostgreSQL store against the
embedded SQLite store in the same run, release build.

  1. import: ATHLETES athletes x RUNS runs each into an empty store, by 1
     importer process (athlete after athlete) and by 3 importer processes
     (different athletes at once); throughput in runs/s, target: 3 importers
     >= 1.3x one
  2. one athlete by 3 importer processes at once (the athlete's files split in
     three) against one process importing the same files: on PostgreSQL the
     per-athlete advisory lock serialises their duplicate decisions and writes
  3. per-athlete commands on the full store: `runs list --athlete`, `runs bests
     --athlete`, `report weekly --athlete` (medians, hyperfine -N when installed);
     target < 100 ms each
  4. every athlete's weekly report: 1 worker (`--all-athletes`), and 2 shards at
     once (`--shard K/2`) when `report weekly --help` lists it

Run under scripts/with-postgres.sh (RACEKIT_TEST_PG: the server's URL; each
measurement gets a database of its own). The runs are racekit-gen bench-folder
files with one point a minute (20-70 minutes each, one run a day from
2020-01-01): what matters here is the number of runs, not their points; one
folder serves every athlete (duplicates are per athlete).

Usage: bench_pg.py BUILD_DIR   (environment: BENCH_PG_ATHLETES, default 100;
       BENCH_PG_RUNS_PER_ATHLETE, default 3000; BENCH_PG_REPEATS, default 15;
       BENCH_PG_TIMED_ATHLETES, default all: the 1- and 3-importer comparison
       imports only this many athletes into each empty store, then 3 importers
       import the others into the second store for the reads)
"""
import json, os, shutil, statistics, subprocess, sys, tempfile, threading, time
from urllib.parse import urlsplit, urlunsplit

BUILD = sys.argv[1]
RACEKIT = os.path.join(BUILD, "racekit")
GEN = os.path.join(BUILD, "racekit-gen")
ATHLETES = int(os.environ.get("BENCH_PG_ATHLETES", "100"))
RUNS = int(os.environ.get("BENCH_PG_RUNS_PER_ATHLETE", "3000"))
REPEATS = int(os.environ.get("BENCH_PG_REPEATS", "15"))
TIMED_ATHLETES = min(ATHLETES, int(os.environ.get("BENCH_PG_TIMED_ATHLETES", str(ATHLETES))))
SERVER = os.environ.get("RACEKIT_TEST_PG")
WORK = os.path.join(".build", "bench-pg")
WEEK = "2025-W10"  # inside every size's runs when RUNS >= 1,900 (2020-01-01 + one a day)
ZONES = ["Europe/Berlin", "America/New_York", "Asia/Tokyo", "UTC", "Australia/Sydney"]


def athlete(i):
    return f"athlete-{i:03d}"


def racekit(store, *args, **kw):
    return subprocess.run([RACEKIT, "--store", store] + list(args), check=True, **kw)


def psql(url, sql):
    subprocess.run(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", url, "-c", sql], check=True,
                   stdout=subprocess.DEVNULL)


def pg_value(url, sql):
    return subprocess.run(["psql", "-X", "-At", url, "-c", sql], check=True, capture_output=True,
                          text=True).stdout.strip()


class Backend:
    """One kind of store; `fresh(label)` names a new, empty store of that kind."""

    def __init__(self, name, tmp):
        self.name, self.tmp = name, tmp

    def fresh(self, label):
        if self.name == "sqlite":
            return os.path.join(self.tmp, f"{label}.sqlite")
        psql(SERVER, f"CREATE DATABASE {label}")
        parts = urlsplit(SERVER)
        return urlunsplit(parts._replace(path="/" + label))


def add_athletes(store, ids):
    for i, a in enumerate(ids):
        racekit(store, "athlete", "add", a, "--time-zone", ZONES[i % len(ZONES)], "--max-hr", "190",
                "--resting-hr", "50", "--threshold-hr", "170", stdout=subprocess.DEVNULL)


def import_runs(store, athlete_id, folders):
    """Runs stored by one `racekit import` process (its JSON results)."""
    out = racekit(store, "import", "--format", "json", "--athlete", athlete_id, *folders,
                  capture_output=True, text=True).stdout
    return sum(len(r["runIds"]) for r in json.loads(out) if r["status"] == "imported")


def importers(store, jobs, processes):
    """Wall seconds and runs stored when `processes` importer processes work
    through `jobs` ((athlete, folders) pairs) at once, each taking the next."""
    queue, lock, stored = list(jobs), threading.Lock(), []

    def worker():
        while True:
            with lock:
                if not queue:
                    return
                job = queue.pop(0)
            n = import_runs(store, *job)
            with lock:
                stored.append(n)

    threads = [threading.Thread(target=worker) for _ in range(processes)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.perf_counter() - start, sum(stored)


def median_ms(cmd):
    """Median wall time of `cmd` in ms (hyperfine -N when installed)."""
    if shutil.which("hyperfine"):
        with tempfile.NamedTemporaryFile("r", suffix=".json") as f:
            subprocess.run(["hyperfine", "-N", "--warmup", "2", "--runs", str(REPEATS), "--export-json", f.name,
                            "--", " ".join(cmd)], check=True, stdout=subprocess.DEVNULL)
            return json.load(f)["results"][0]["median"] * 1000
    times = []
    for _ in range(REPEATS + 2):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return statistics.median(times[2:]) * 1000


def verdict(ok):
    return "meets" if ok else "MISSES"


def generate():
    folder = os.path.join(WORK, f"runs-{RUNS}")
    if not os.path.isdir(folder):
        subprocess.run([GEN, "bench-folder", folder + ".tmp", "--count", str(RUNS), "--interval", "60"], check=True,
                       stdout=subprocess.DEVNULL)
        os.rename(folder + ".tmp", folder)
    # The same files in three parts, for three importers of one athlete.
    parts = [os.path.join(WORK, f"runs-{RUNS}-part{k}") for k in range(3)]
    if not all(os.path.isdir(p) for p in parts):
        for k, p in enumerate(parts):
            shutil.rmtree(p, ignore_errors=True)
            os.makedirs(p)
        for j, name in enumerate(sorted(os.listdir(folder))):
            os.link(os.path.join(folder, name), os.path.join(parts[j % 3], name))
    return folder, parts


def bench_import(backend, folder, parts):
    ids = [athlete(i) for i in range(ATHLETES)]
    timed_ids = ids[:TIMED_ATHLETES]
    rates = {}
    stores = {}
    for processes in (1, 3):
        store = backend.fresh(f"import{processes}")
        add_athletes(store, ids)
        wall, stored = importers(store, [(a, [folder]) for a in timed_ids], processes)
        if stored != len(timed_ids) * RUNS:
            sys.exit(f"{backend.name}: {stored} runs stored, {len(timed_ids) * RUNS} expected")
        rates[processes] = stored / wall
        stores[processes] = store
        print(f"  {processes} importer{'s' if processes > 1 else ' '} ({len(timed_ids)} athletes x {RUNS} runs, "
              f"empty store)  {wall:7.1f} s  {rates[processes]:7.0f} runs/s")
    ratio = rates[3] / rates[1]
    print(f"  3 importers / 1 importer: {ratio:.2f}x  (target >= 1.3x: {verdict(ratio >= 1.3)})")
    if len(timed_ids) < ATHLETES:
        # The rest of the club, so that the reads below see the whole store.
        rest = ids[len(timed_ids):]
        wall, stored = importers(stores[3], [(a, [folder]) for a in rest], 3)
        if stored != len(rest) * RUNS:
            sys.exit(f"{backend.name}: {stored} runs stored, {len(rest) * RUNS} expected")
        print(f"  3 importers, the other {len(rest)} athletes (store growing to {ATHLETES * RUNS} runs)  "
              f"{wall:7.1f} s  {stored / wall:7.0f} runs/s")
    # One athlete, its files in three parts: one process for all, then three at once.
    store = stores[1]
    add_athletes(store, ["same-1", "same-3"])
    wall1, n1 = importers(store, [("same-1", parts)], 1)
    wall3, n3 = importers(store, [("same-3", [p]) for p in parts], 3)
    if n1 != RUNS or n3 != RUNS:
        sys.exit(f"{backend.name}: one athlete: {n1} and {n3} runs stored, {RUNS} expected")
    print(f"  one athlete, 1 importer {RUNS / wall1:6.0f} runs/s; 3 importers at once {RUNS / wall3:6.0f} runs/s "
          f"({wall1 / wall3:.2f}x)")
    return stores[3]


def bench_reads(backend, store, out):
    a = athlete(ATHLETES // 2)
    results = {}
    for label, args in [("runs list --athlete", ["runs", "list", "--athlete", a]),
                        ("runs bests --athlete", ["runs", "bests", "--athlete", a]),
                        ("report weekly --athlete", ["report", "weekly", "--athlete", a, "--week", WEEK, "--quiet",
                                                     "--out", os.path.join(out, f"{backend.name}-one")])]:
        results[label] = median_ms([RACEKIT, "--store", store] + args)
        print(f"  {label:24s} median {results[label]:7.1f} ms  (target < 100 ms: {verdict(results[label] < 100)})")
    return results


def bench_reports(backend, store, out, shards):
    def once(n):
        procs = []
        start = time.perf_counter()
        for k in range(1, n + 1):
            args = ["report", "weekly", "--all-athletes", "--week", WEEK, "--quiet",
                    "--out", os.path.join(out, f"{backend.name}-all-{n}-{k}")]
            if n > 1:
                args += ["--shard", f"{k}/{n}"]
            procs.append(subprocess.Popen([RACEKIT, "--store", store] + args))
        if any(p.wait() != 0 for p in procs):
            sys.exit(f"{backend.name}: report weekly --all-athletes failed")
        return time.perf_counter() - start

    walls = {n: statistics.median(once(n) for _ in range(3)) for n in ([1, 2] if shards else [1])}
    print(f"  all {ATHLETES + 2} athletes' reports, 1 worker   median {walls[1]:6.2f} s")
    if shards:
        print(f"  all athletes' reports, 2 shards at once median {walls[2]:6.2f} s ({walls[1] / walls[2]:.2f}x)")
    else:
        print("  2 shards: skipped (`racekit report weekly --help` lists no --shard)")


def main():
    if not SERVER:
        sys.exit("bench_pg: RACEKIT_TEST_PG is not set: run it through scripts/with-postgres.sh (make bench-pg)")
    os.makedirs(WORK, exist_ok=True)
    folder, parts = generate()
    shards = "--shard" in subprocess.run([RACEKIT, "report", "weekly", "--help"], capture_output=True,
                                         text=True).stdout
    settings = ", ".join(f"{s}={pg_value(SERVER, 'SHOW ' + s)}" for s in ("fsync", "synchronous_commit",
                                                                          "shared_buffers"))
    print(f"PostgreSQL {pg_value(SERVER, 'SHOW server_version')} on this machine ({settings}); "
          f"{os.cpu_count()} cores; {ATHLETES} athletes x {RUNS} runs; racekit import commits with "
          "synchronous_commit=off (as SQLite's WAL with synchronous=NORMAL)")
    with tempfile.TemporaryDirectory(dir=WORK) as tmp:
        for name in ("sqlite", "postgresql"):
            backend = Backend(name, tmp)
            print(f"\n== {name}")
            store = bench_import(backend, folder, parts)
            bench_reads(backend, store, tmp)
            bench_reports(backend, store, tmp, shards)


if __name__ == "__main__":
    main()
