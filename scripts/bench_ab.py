#!/usr/bin/env python3
"""make bench-ab BASE=COMMIT: this build against another commit's, interleaved.

Both release binaries (the other commit built once into .build-ab/COMMIT, from a
detached git worktree) run the same commands on the same inputs, alternating A
and B and the order of the pair each round, so that a machine whose load drifts
(this 2-core machine is shared) affects both alike. Prints each case's medians,
the ratio B/A (B is this build) and whether it is within the tolerance
(AB_TOLERANCE, default 3%). Inputs are made by this build's racekit-gen.

    python3 scripts/bench_ab.py BASE [--rounds N] [--only NAME,...]
"""
import argparse, os, shutil, statistics, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(__file__))
from benchtime import timed  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
RELEASE = ["swift", "build", "-c", "release", "--static-swift-stdlib", "--product", "racekit"]


def build_base(commit):
    """The release racekit of `commit`, built once (cached by the full hash);
    AB_BASE_BIN names one built already."""
    sha = subprocess.run(["git", "rev-parse", commit], cwd=ROOT, check=True, capture_output=True,
                         text=True).stdout.strip()
    if os.environ.get("AB_BASE_BIN"):
        return sha, os.path.abspath(os.environ["AB_BASE_BIN"])
    home = os.path.join(ROOT, ".build-ab", sha)
    binary = os.path.join(home, "src", ".build", "release", "racekit")
    if not os.path.exists(binary):
        src = os.path.join(home, "src")
        if not os.path.exists(src):
            os.makedirs(home, exist_ok=True)
            subprocess.run(["git", "worktree", "add", "--detach", src, sha], cwd=ROOT, check=True)
        print(f"building {sha[:10]} (release) ...", flush=True)
        subprocess.run(RELEASE, cwd=src, check=True, stdout=subprocess.DEVNULL)
    return sha, binary


def inputs(work, gen):
    """The shared inputs: the demo export, a marathon setup over a 40,000-point course."""
    export = os.path.join(work, "export")
    if not os.path.exists(export):
        subprocess.run([gen, "sample-export", export], check=True, stdout=subprocess.DEVNULL)
    course = os.path.join(work, "course-40k.gpx")
    if not os.path.exists(course):
        subprocess.run([gen, "course", course, "--kind", "bench-marathon", "--points", "40000"], check=True,
                       stdout=subprocess.DEVNULL)
    setup = os.path.join(work, "ab-marathon.yaml")
    with open(setup, "w") as f:
        f.write("name: AB Marathon\ndistance: marathon\ntarget_time: \"3:15:00\"\n"
                "pacing: {strategy: negative, split_percent: 2}\ncourse: course-40k.gpx\n"
                "fueling: {carbs_per_hour_g: 75, gel_carbs_g: 25, start_after: \"0:30:00\"}\n"
                "hydration: {ml_per_hour: 500, sodium_mg_per_hour: 500, aid_stations_km: [5, 10, 15, 20, 25, 30, 35, 40]}\n")
    return export, setup


def cases(binary, work, export, setup):
    """name -> argv for one binary (its own store and output folders under `work`)."""
    tag = "b" if binary == os.path.join(ROOT, ".build", "release", "racekit") else "a"
    store = os.path.join(work, f"store-{tag}", "racekit.sqlite")
    if not os.path.exists(store):
        subprocess.run([binary, "--store", store, "import", "--quiet", export], check=True)
    fresh = os.path.join(work, f"fresh-{tag}")
    out = os.path.join(work, f"out-{tag}")
    # The marathon's script, rendered cold (a fresh folder each time) and warm
    # (every clip reused); a racekit without `script render` skips both.
    # Each case has its script of its own: a render writes its folder's paths into it.
    scripts = {k: os.path.join(work, f"render-{k}-{tag}.script.json") for k in ("cold", "warm")}
    cold, warm = os.path.join(work, f"cold-{tag}"), os.path.join(work, f"warm-{tag}")
    render = {}
    made = all(subprocess.run([binary, "race", "script", setup, "--output", s, "--force"],
                              capture_output=True).returncode == 0 for s in scripts.values())
    if made and subprocess.run([binary, "script", "render", scripts["warm"], "--out", warm],
                               capture_output=True).returncode == 0:
        render = {
            "render-cold": ["sh", "-c",
                            f'rm -rf "{cold}" && exec "{binary}" script render "{scripts["cold"]}" --out "{cold}"'],
            "render-warm": [binary, "script", "render", scripts["warm"], "--out", warm],
        }
    return render | {
        "import": ["sh", "-c", f'rm -rf "{fresh}" && exec "{binary}" --store "{fresh}/s.sqlite" import --quiet "{export}"'],
        "runs-list-json": [binary, "--store", store, "runs", "list", "--format", "json"],
        "runs-list": [binary, "--store", store, "runs", "list"],
        "race-plan": [binary, "race", "plan", setup, "--format", "json"],
        # --force: an unchanged script is otherwise left alone (not generated).
        "race-script": [binary, "race", "script", setup, "--output", out + "-script.json", "--force"],
        "report-weekly": [binary, "--store", store, "report", "weekly", "--all-athletes", "--out", out, "--quiet"],
    }


def main():
    p = argparse.ArgumentParser()
    p.add_argument("base")
    p.add_argument("--rounds", type=int, default=int(os.environ.get("AB_ROUNDS", "15")))
    p.add_argument("--only", default="")
    a = p.parse_args()
    tolerance = float(os.environ.get("AB_TOLERANCE", "0.03"))
    mine = os.path.join(ROOT, ".build", "release", "racekit")
    gen = os.path.join(ROOT, ".build", "release", "racekit-gen")
    sha, base = build_base(a.base)
    work = os.path.join(ROOT, ".build", "bench-ab")
    os.makedirs(work, exist_ok=True)
    export, setup = inputs(work, gen)
    ca, cb = cases(base, work, export, setup), cases(mine, work, export, setup)
    names = [n for n in ca if n in cb and (not a.only or n in a.only.split(","))]
    samples = {n: ([], []) for n in names}
    for r in range(a.rounds):
        for n in names:
            pair = [(0, ca[n]), (1, cb[n])]
            for side, cmd in (pair if r % 2 == 0 else pair[::-1]):
                samples[n][side].append(timed(cmd)[0])
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    print(f"A = {sha[:10]}, B = this build ({head}); {a.rounds} interleaved rounds, medians")
    print(f"{'case':16} {'A ms':>9} {'B ms':>9} {'B/A':>7}  within {tolerance:.0%}")
    worst = 0.0
    for n in names:
        ma, mb = statistics.median(samples[n][0]), statistics.median(samples[n][1])
        ratio = mb / ma if ma > 0 else float("nan")
        worst = max(worst, ratio)
        print(f"{n:16} {ma * 1000:9.1f} {mb * 1000:9.1f} {ratio:7.3f}  {'yes' if ratio <= 1 + tolerance else 'NO'}")
    print(f"worst ratio {worst:.3f}")


if __name__ == "__main__":
    main()
