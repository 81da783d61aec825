#!/usr/bin/env bash
# make limits: the resource-limit cases of the robustness issue, each with its
# outcome, wall time and peak RSS (a run still going after 120 s is killed: exit
# 124). Needs about 4 GB of disk in .build/limits.
set -uo pipefail
racekit=$1; gen=$2
work=.build/limits
mkdir -p "$work"
run() {  # label, then the import arguments
  local label=$1; shift
  rm -f "$work/store.sqlite"*
  /usr/bin/time -f "%e %M" -o "$work/time" timeout 120 "$racekit" --store "$work/store.sqlite" import "$@" > "$work/out" 2> "$work/err"
  local rc=$?
  read -r wall rss < <(tail -n 1 "$work/time")
  printf '%-34s exit %d  %6.1f s  peak RSS %6.0f MB  %s\n' "$label" "$rc" "$wall" "$(echo "$rss / 1024" | bc -l)" \
    "$(cat "$work/out" "$work/err" | grep -E 'files:|failed:|Nothing' | head -1 | cut -c1-110)"
}
[ -f "$work/1gb.gpx" ] || "$gen" bench-big "$work/1gb.gpx" --megabytes 1024 > /dev/null
run "1 GB GPX (4.5 million points)" "$work/1gb.gpx"
if [ ! -f "$work/10m-points.gpx" ]; then
  python3 - "$work/10m-points.gpx" <<'PY'
import sys, time
with open(sys.argv[1], "w") as f:
    f.write('<?xml version="1.0"?><gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>\n')
    for i in range(10_000_000):
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(1767250800 + i))
        f.write(f'<trkpt lat="{48 + i * 1e-7:.7f}" lon="11"><time>{stamp}</time></trkpt>\n')
    f.write('</trkseg></trk></gpx>\n')
PY
fi
run "10 million points" "$work/10m-points.gpx"
[ -f "$work/100mb.gpx" ] || "$gen" bench-big "$work/100mb.gpx" --megabytes 100 > /dev/null
[ -f "$work/one-line.gpx" ] || tr -d '\n' < "$work/100mb.gpx" > "$work/one-line.gpx"
run "100 MB on a single line" "$work/one-line.gpx"
if [ ! -d "$work/tiny" ]; then
  python3 - "$work/tiny" <<'PY'
import os, sys, time
d = sys.argv[1]
for k in range(100):
    os.makedirs(f"{d}/{k:02d}", exist_ok=True)
for i in range(100_000):
    t = 1_600_000_000 + i * 3600
    a, b = (time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(x)) for x in (t, t + 30))
    with open(f"{d}/{i % 100:02d}/{i:06d}.gpx", "w") as f:
        f.write(f'<?xml version="1.0"?><gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>'
                f'<trkpt lat="48" lon="11"><time>{a}</time></trkpt><trkpt lat="48.001" lon="11"><time>{b}</time></trkpt>'
                '</trkseg></trk></gpx>\n')
PY
fi
run "100,000 tiny files" "$work/tiny"

# The hostile pass's shapes (issue: lose nothing, escape nowhere, stay bounded):
# each finishes or is refused within 30 s with a peak RSS under 250 MB.
python3 - "$work" <<'PY'
import gzip, os, sys
w = sys.argv[1]
def once(path, make):
    if not os.path.exists(path): make(path)
def gz_bomb(p):  # 1 GiB of tiny elements in about 1 MB of gzip
    with gzip.open(p, "wb", compresslevel=9) as f:
        f.write(b'<?xml version="1.0"?><gpx version="1.1" creator="t">')
        chunk = b"<x/>" * (1 << 20)
        for _ in range(256): f.write(chunk)
        f.write(b"</gpx>")
def tcx(n):
    def make(p):
        with open(p, "w") as f:
            f.write('<?xml version="1.0"?><TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"><Activities>')
            for i in range(n):
                t = f"{2000 + i // 336}-{1 + (i // 28) % 12:02d}-{1 + i % 28:02d}T07:00:00Z"
                f.write(f'<Activity Sport="Running"><Id>{t}</Id><Lap StartTime="{t}"><Track><Trackpoint><Time>{t}</Time></Trackpoint></Track></Lap></Activity>\n')
            f.write("</Activities></TrainingCenterDatabase>")
    return make
def events(p):  # 1 GiB of WorkoutEvents in one export, gzip on disk
    with gzip.open(p, "wb", compresslevel=6) as f:
        f.write(b'<?xml version="1.0"?>\n<HealthData locale="en_US">\n')
        line = b'<WorkoutEvent type="HKWorkoutEventTypePause" date="2024-01-01 07:10:00 +0000"/>\n'
        block = line * 10000
        for k in range(10):
            f.write(f'<Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" sourceName="W" startDate="2024-01-0{k % 9 + 1} 07:00:00 +0000" endDate="2024-01-0{k % 9 + 1} 07:30:00 +0000">\n'.encode())
            for _ in range(130): f.write(block)
            f.write(b"</Workout>\n")
        f.write(b"</HealthData>\n")
def strava(lines):
    def make(d):
        os.makedirs(f"{d}/activities", exist_ok=True)
        with open(f"{d}/activities/1.gpx", "w") as f:
            f.write('<?xml version="1.0"?><gpx version="1.1" creator="t"><trk><trkseg><trkpt lat="48" lon="11"><time>2026-01-01T07:00:00Z</time></trkpt><trkpt lat="48.001" lon="11"><time>2026-01-01T07:00:30Z</time></trkpt></trkseg></trk></gpx>\n')
        if lines == "zero":
            os.symlink("/dev/zero", f"{d}/activities.csv")
            return
        with open(f"{d}/activities.csv", "w") as f:
            f.write("Activity ID,Activity Name,Filename\n")
            if lines == "one-line":
                f.write("1," + "," * 60_000_000 + "\n")
            else:
                row = "1," + "x" * 990 + ",activities/1.gpx\n"
                for _ in range(120_000): f.write(row)
    return make
once(f"{w}/bomb.gpx.gz", gz_bomb)
once(f"{w}/20k-activities.tcx", tcx(20_000))
once(f"{w}/50k-activities.tcx", tcx(50_000))
once(f"{w}/events.xml.gz", events)
once(f"{w}/strava-one-line", strava("one-line"))
once(f"{w}/strava-120mb", strava("120mb"))
once(f"{w}/strava-zero", strava("zero"))
if not os.path.exists(f"{w}/fifo/x.gpx"):
    os.makedirs(f"{w}/fifo", exist_ok=True)
    os.mkfifo(f"{w}/fifo/x.gpx")
PY
[ -f "$work/sessions-20k.fit" ] || "$gen" fit-sessions "$work/sessions-20k.fit" --sessions 20000 --records 200000 > /dev/null
[ -f "$work/sessions-100.fit" ] || "$gen" fit-sessions "$work/sessions-100.fit" --sessions 100 --records 1000000 > /dev/null
[ -f "$work/sessions-1000.fit" ] || "$gen" fit-sessions "$work/sessions-1000.fit" --sessions 1000 --records 1000000 > /dev/null
[ -f "$work/sessions-1000-100k.fit" ] || "$gen" fit-sessions "$work/sessions-1000-100k.fit" --sessions 1000 --records 100000 > /dev/null
[ -d "$work/health" ] || { mkdir -p "$work/health"; gunzip -c "$work/events.xml.gz" > "$work/health/export.xml"; }
run "1 MB .gpx.gz of 1 GiB <x/>" "$work/bomb.gpx.gz"
run "TCX of 20,000 tiny activities" "$work/20k-activities.tcx"
run "TCX of 50,000 tiny activities" "$work/50k-activities.tcx"
run "FIT of 20,000 sessions" "$work/sessions-20k.fit"
run "FIT 1,000 sessions x 100k records" "$work/sessions-1000-100k.fit"
run "FIT 1,000 sessions x 1M records" "$work/sessions-1000.fit"
run "FIT 100 sessions x 1M records" "$work/sessions-100.fit"
run "Apple Health: 1.3 GB of events" "$work/health/export.xml"
run "activities.csv: one 60M-comma line" "$work/strava-one-line"
run "activities.csv: 120 MB" "$work/strava-120mb"
run "activities.csv -> /dev/zero" "$work/strava-zero"
run "a FIFO named x.gpx" "$work/fifo"
