#!/usr/bin/env bash
# make limits: the resource-limit cases of the robustness issue, each with its
# outcome, wall time and peak RSS. Needs about 2.5 GB of disk in .build/limits.
set -uo pipefail
racekit=$1; gen=$2
work=.build/limits
mkdir -p "$work"
run() {  # label, then the import arguments
  local label=$1; shift
  rm -f "$work/store.sqlite"*
  /usr/bin/time -f "%e %M" -o "$work/time" "$racekit" --store "$work/store.sqlite" import "$@" > "$work/out" 2> "$work/err"
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
