#!/usr/bin/env bash
# Installs RaceKit into a temporary PREFIX (make install) and checks that the
# binary, the man pages and the bash, zsh and fish completions are there and
# work: the binary runs, racekit.1 and a subcommand page render with `man -l`
# (when man is installed), each completion script names the commands, and the
# installed binary writes a race script (its personalities are built in: it
# needs nothing beside it).
# Usage: scripts/check-install.sh [PREFIX]   (default: a new temporary folder, removed after)
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=${1:-}
if [ -z "$prefix" ]; then
  prefix=$(mktemp -d)
  trap 'rm -rf "$prefix"' EXIT
fi
fail() { echo "check-install: $*" >&2; exit 1; }
log=$(mktemp)
make --no-print-directory install PREFIX="$prefix" >"$log" 2>&1 || { tail -20 "$log" >&2; rm -f "$log"; fail "make install failed"; }
rm -f "$log"
for f in bin/racekit share/man/man1/racekit.1 share/man/man1/racekit.race.plan.1 \
         share/bash-completion/completions/racekit share/zsh/site-functions/_racekit \
         share/fish/vendor_completions.d/racekit.fish; do
  [ -s "$prefix/$f" ] || fail "missing or empty: $prefix/$f"
done
[ -x "$prefix/bin/racekit" ] || fail "$prefix/bin/racekit is not executable"
version=$("$prefix/bin/racekit" --version)
pages=$(ls "$prefix/share/man/man1" | wc -l)
[ "$pages" -ge 20 ] || fail "only $pages man pages in $prefix/share/man/man1"
grep -q "race" "$prefix/share/bash-completion/completions/racekit" || fail "bash completion names no 'race' command"
grep -q "race" "$prefix/share/zsh/site-functions/_racekit" || fail "zsh completion names no 'race' command"
grep -q "race" "$prefix/share/fish/vendor_completions.d/racekit.fish" || fail "fish completion names no 'race' command"
# A race script from a setup, by the installed binary in a folder of its own.
race=$(mktemp -d)
printf 'name: Install Check 10K\ndistance: 10k\ntarget_time: "50:00"\n' > "$race/race.yaml"
(cd "$race" && "$prefix/bin/racekit" race script race.yaml --output race.script.json >/dev/null 2>&1) \
  || { rm -rf "$race"; fail "the installed racekit could not write a race script"; }
grep -q '"messages"' "$race/race.script.json" || { rm -rf "$race"; fail "the race script has no messages"; }
rm -rf "$race"
if command -v man >/dev/null 2>&1; then
  for page in racekit.1 racekit.race.plan.1; do
    text=$(MANWIDTH=80 man -l "$prefix/share/man/man1/$page" 2>/dev/null | col -b 2>/dev/null || true)
    echo "$text" | grep -q "NAME" || fail "man -l $page renders no NAME section"
  done
  rendered="rendered with man -l"
else
  rendered="man not installed: pages not rendered"
fi
echo "check-install: racekit $version, $pages man pages, 3 completions in $prefix ($rendered)"
