# RaceKit: `make demo` and `make test` are all a fresh Debian/Ubuntu machine with
# Swift needs. Other targets: build, release, install, man, format, lint, conformance,
# bench, clean.

SWIFT       ?= swift
BIN         := .build/debug/racekit
GEN         := .build/debug/racekit-gen
DEMO_DIR    := .build/demo
DEMO_STORE  := $(DEMO_DIR)/racekit.sqlite
CORPUS      ?= ../shared/corpus

# System packages the build needs: pkg-config module -> Debian package.
# espeak-ng, libopusenc and opusfile are the speech engine and the Opus codec of
# `script render`, loaded at run time (dlopen, like libpq); the build needs
# espeak-ng's header, the -dev packages bring the libraries themselves.
SYSTEM_PKGS := libxml-2.0:libxml2-dev sqlite3:libsqlite3-dev zlib:zlib1g-dev libarchive:libarchive-dev libcrypto:libssl-dev libpq:libpq-dev espeak-ng:libespeak-ng-dev libopusenc:libopusenc-dev opusfile:libopusfile-dev
# Programs `script render --codec m4a` runs (the AAC encoder): command -> Debian package.
# Installed with the others when apt-get may run; otherwise only a note: the build
# does not need it, and its test is skipped (with that reason) without it.
SYSTEM_TOOLS := ffmpeg:ffmpeg

.PHONY: all deps pg-deps bench-deps bench-ab bench-pg build release release-racekit install uninstall check-install man completions test test-fast format lint demo conformance bench bench-peers fuzz test-asan test-tsan limits clean help

# make install: the release binary, its man pages and shell completions under PREFIX
# (DESTDIR is prepended for packaging).
PREFIX      ?= /usr/local
DESTDIR     ?=
MAN_DIR     := .build/man
COMP_DIR    := .build/completions
# The pages' date: the last commit's, so regenerated pages do not change by the day.
MAN_DATE    := $(shell git log -1 --format=%cs 2>/dev/null || date +%F)

# Release builds link the Swift runtime and Foundation statically: a smaller
# resident set (no relocation of a dozen shared libraries, only the pages used)
# and a faster start, measured by make bench-peers; the binaries run on any
# machine with the system libraries below.
RELEASE := -c release --static-swift-stdlib
# Product by product: a whole-package static build would also try to link GRDB's
# dynamic library product, which cannot take a static runtime.
RELEASE_RACEKIT := $(SWIFT) build $(RELEASE) --product racekit
RELEASE_BUILD := $(RELEASE_RACEKIT) && $(SWIFT) build $(RELEASE) --product racekit-gen

# libFuzzer build of the reader harness (release, AddressSanitizer, lld).
FUZZ_SECONDS ?= 90
FUZZ_BUILD   := -c release --product racekit-fuzz --scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer,address \
                -Xswiftc -parse-as-library -Xswiftc -DFUZZING -Xswiftc -use-ld=lld

all: build

help:
	@echo "make demo         build, import the bundled sample export into $(DEMO_STORE), show runs, review the race, write Reports/"
	@echo "make test         run the test suite (Swift Testing), documentation links and JSON contracts included"
	@echo "make test-fast    the unit suites alone (no CLI tests, audio renders or PostgreSQL), about 30 s on 2 cores"
	@echo "make install      release build; install racekit, its man pages and bash/zsh/fish completions under PREFIX (default /usr/local)"
	@echo "make man          the man pages (racekit.1 and one per subcommand) into $(MAN_DIR), from the release binary's commands"
	@echo "make format       swift format in place over Sources, Tests and Package.swift (.swift-format)"
	@echo "make lint         swift format lint --strict with .swift-format; fails on any rule finding (LINT_LAYOUT=1: layout too), and on a function over 40 lines in Sources/racekit"
	@echo "make conformance  import ../shared/corpus/public and check it against expected.jsonl; ../shared/corpus/fit against scripts/fit-expected.jsonl and fitdecode (skipped when absent)"
	@echo "make bench        release build; import throughput, peak RSS and ratios to xmllint --stream"
	@echo "make bench-ab     this build against BASE=COMMIT's (default HEAD~1), interleaved: medians, ratios, 3% tolerance"
	@echo "make bench-pg     release build; the PostgreSQL store against SQLite at club scale (100 athletes x 3,000 runs)"
	@echo "make bench-peers  racekit import vs gpxpy and python-tcxparser (pip) and xmllint, same inputs"
	@echo "make fuzz         libFuzzer on the GPX, TCX and FIT readers, the Apple Health export reader, the race-setup loader and its numeric values, the formatters, the expression parser and the CSV reader, FUZZ_SECONDS each (default 90)"
	@echo "make test-asan    the tests under AddressSanitizer;  make test-tsan: under ThreadSanitizer"
	@echo "make limits       the resource-limit cases (1 GB file, 10M points, one 100 MB line, 100k files)"

# Installs missing -dev packages with apt-get when it may (root, or sudo without a
# password); otherwise prints the exact command and stops.
deps:
	@missing=""; tools=""; \
	command -v pkg-config >/dev/null 2>&1 || missing="pkg-config"; \
	for pair in $(SYSTEM_PKGS); do \
	  mod=$${pair%%:*}; pkg=$${pair##*:}; \
	  pkg-config --exists $$mod 2>/dev/null || missing="$$missing $$pkg"; \
	done; \
	for pair in $(SYSTEM_TOOLS); do \
	  cmd=$${pair%%:*}; pkg=$${pair##*:}; \
	  command -v $$cmd >/dev/null 2>&1 || tools="$$tools $$pkg"; \
	done; \
	if [ -n "$$missing$$tools" ]; then \
	  echo "Installing missing system packages:$$missing$$tools"; \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing$$tools; \
	  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing$$tools; \
	  elif [ -n "$$missing" ]; then echo "Please run: sudo apt-get install -y$$missing$$tools"; exit 1; \
	  else echo "Note: script render and its tests need$$tools (sudo apt-get install -y$$tools); continuing without"; fi; \
	fi

# The PostgreSQL server the store tests run against (Debian's postgresql: initdb,
# pg_ctl). `make test` starts a throwaway one when it is installed and skips those
# tests, saying so, when it is not; .ci/run installs it so CI always runs them.
pg-deps:
	@if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && ! command -v initdb >/dev/null 2>&1; then \
	  echo "Installing the PostgreSQL server for the store tests: postgresql"; \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql; \
	  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql; \
	  else echo "Please run: sudo apt-get install -y postgresql"; exit 1; fi; \
	fi

# Tools only the benchmark needs.
bench-deps:
	@missing=""; \
	command -v xmllint >/dev/null 2>&1 || missing="libxml2-utils"; \
	[ -x /usr/bin/time ] || missing="$$missing time"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	  else echo "Please run: sudo apt-get install -y$$missing"; exit 1; fi; \
	fi

build: deps
	$(SWIFT) build

release: deps
	$(RELEASE_BUILD)

# The installed binary alone (install, man, completions): racekit-gen, the
# benchmarks' input maker, is not installed.
release-racekit: deps
	$(RELEASE_RACEKIT)

# The suite, with a throwaway PostgreSQL server for the PostgreSQL store tests
# (scripts/with-postgres.sh; skipped, saying so, where PostgreSQL is not installed).
# Under scripts/with-test-tmp.sh: a private TMPDIR, removed afterwards, so the
# suite leaves nothing in the machine's temporary folder. scripts/test-shards.sh
# builds the tests and runs them as two processes side by side (it says why);
# `swift test` runs the same tests in one. The build is TEST_BUILD's, below, in a
# folder of its own (.build-test): .build/release stays the optimised binary.
test: deps
	SWIFT=$(SWIFT) scripts/with-postgres.sh scripts/with-test-tmp.sh scripts/test-shards.sh $(TEST_BUILD) --scratch-path .build-test

# The edit-compile-test loop: the unit suites alone, without the CLI's process
# tests, the audio renders and a PostgreSQL server.
test-fast: deps
	scripts/with-test-tmp.sh $(SWIFT) test --skip RaceKitCLITests --skip RaceKitPostgresTests --skip ScriptAudioTests

# Man pages from the commands themselves: swift-argument-parser's generate-manual
# (the tool behind its GenerateManual plugin; `swift package plugin generate-manual`
# does the same but builds every product first) reads `racekit --experimental-dump-help`.
man: release-racekit
	$(SWIFT) build --product generate-manual
	@rm -rf $(MAN_DIR) && mkdir -p $(MAN_DIR)
	.build/debug/generate-manual .build/release/racekit --multi-page --date $(MAN_DATE) --output-directory $(MAN_DIR)

completions: release-racekit
	@mkdir -p $(COMP_DIR)
	.build/release/racekit --generate-completion-script bash > $(COMP_DIR)/racekit
	.build/release/racekit --generate-completion-script zsh > $(COMP_DIR)/_racekit
	.build/release/racekit --generate-completion-script fish > $(COMP_DIR)/racekit.fish

install: release-racekit man completions
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions $(DESTDIR)$(PREFIX)/share/zsh/site-functions \
	  $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	install -m 755 .build/release/racekit $(DESTDIR)$(PREFIX)/bin/racekit
	install -m 644 $(MAN_DIR)/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 644 $(COMP_DIR)/racekit $(DESTDIR)$(PREFIX)/share/bash-completion/completions/racekit
	install -m 644 $(COMP_DIR)/_racekit $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_racekit
	install -m 644 $(COMP_DIR)/racekit.fish $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/racekit.fish
	@echo "installed racekit $$(.build/release/racekit --version) into $(DESTDIR)$(PREFIX): bin/racekit, $$(ls $(MAN_DIR) | wc -l) man pages, bash/zsh/fish completions"

# Installs into a temporary PREFIX and checks the files, the binary and `man -l`.
check-install:
	bash scripts/check-install.sh

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/racekit $(DESTDIR)$(PREFIX)/share/man/man1/racekit.1 \
	  $(DESTDIR)$(PREFIX)/share/man/man1/racekit.*.1 \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions/racekit $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_racekit \
	  $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/racekit.fish

# swift-format ships with the toolchain; .swift-format holds the house settings.
# The layout is swift-format's, with the committed .swift-format: make format
# before committing, make lint (in .ci/run) fails on any finding.
FORMAT_PATHS := Sources Tests Package.swift

format:
	$(SWIFT) format --in-place --recursive --parallel --configuration .swift-format $(FORMAT_PATHS)

# Strict: exit 1 on any finding, layout included.
lint:
	@SWIFT=$(SWIFT) bash scripts/lint.sh

demo: build
	@rm -rf $(DEMO_DIR)
	@$(GEN) sample-export $(DEMO_DIR)/export
	@echo
	@echo "$$ racekit --store $(DEMO_STORE) athlete set default --name 'Mia (demo)' --max-hr 188 --resting-hr 48 --threshold-hr 170 --sex female --time-zone Europe/Berlin"
	@$(BIN) --store $(DEMO_STORE) athlete set default --name 'Mia (demo)' --max-hr 188 --resting-hr 48 --threshold-hr 170 --sex female --time-zone Europe/Berlin
	@echo
	@echo "$$ racekit --store $(DEMO_STORE) import $(DEMO_DIR)/export"
	@$(BIN) --store $(DEMO_STORE) import $(DEMO_DIR)/export
	@echo
	@echo "$$ racekit --store $(DEMO_STORE) import $(DEMO_DIR)/export   # again: nothing changes"
	@$(BIN) --store $(DEMO_STORE) import $(DEMO_DIR)/export
	@echo
	@echo "$$ racekit --store $(DEMO_STORE) runs list"
	@$(BIN) --store $(DEMO_STORE) runs list
	@echo
	@race=$$($(BIN) --store $(DEMO_STORE) runs list --limit 1 --format csv | tail -n 1 | cut -d, -f1); \
	echo "$$ racekit --store $(DEMO_STORE) runs edit $$race --label 'Race - Munich Half' --mode race --rpe 9"; \
	$(BIN) --store $(DEMO_STORE) runs edit $$race --label 'Race - Munich Half' --mode race --rpe 9; \
	echo; echo "$$ racekit --store $(DEMO_STORE) runs show $$race"; \
	$(BIN) --store $(DEMO_STORE) runs show $$race
	@echo
	@echo "$$ racekit --store $(DEMO_STORE) race review Races/munich-half-2026.yaml --out Reports/reviews"
	@$(BIN) --store $(DEMO_STORE) race review Races/munich-half-2026.yaml --out Reports/reviews
	@echo
	@echo "$$ racekit --store $(DEMO_STORE) runs bests"
	@$(BIN) --store $(DEMO_STORE) runs bests
	@echo
	@echo "$$ racekit --store $(DEMO_STORE) wellness list --since 2026-11-09   # the race week's nights, from the Apple Health export"
	@$(BIN) --store $(DEMO_STORE) wellness list --since 2026-11-09
	@echo
	@echo "$$ racekit --store $(DEMO_STORE) report weekly --all-athletes --week 2026-W46"
	@$(BIN) --store $(DEMO_STORE) report weekly --all-athletes --week 2026-W46
	@echo
	@echo
	@echo "$$ racekit --store $(DEMO_STORE) predict --athlete default --to half"
	@$(BIN) --store $(DEMO_STORE) predict --athlete default --to half
	@for race in Races/berlin-marathon-2026.yaml Races/spring-10k.yaml; do \
	  echo; echo "$$ racekit race plan $$race --export band --out $(DEMO_DIR)/plans"; \
	  $(BIN) race plan $$race --export band --out $(DEMO_DIR)/plans || exit 1; \
	done
	@echo
	@echo "$$ racekit race plan Races/hilly-half.yaml --export band,tcx,gpx --out $(DEMO_DIR)/plans"
	@$(BIN) race plan Races/hilly-half.yaml --export band,tcx,gpx --out $(DEMO_DIR)/plans
	@echo
	@echo "$$ racekit --store $(DEMO_STORE) race script Races/hilly-half.yaml --out $(DEMO_DIR)"
	@$(BIN) --store $(DEMO_STORE) race script Races/hilly-half.yaml --out $(DEMO_DIR)
	@echo
	@echo "$$ racekit script show $(DEMO_DIR)/hilly-half.script.json | head -20"
	@$(BIN) script show $(DEMO_DIR)/hilly-half.script.json | head -20
	@echo
	@race=$$($(BIN) --store $(DEMO_STORE) runs list --limit 1 --format csv | tail -n 1 | cut -d, -f1); \
	echo "$$ racekit --store $(DEMO_STORE) script simulate $(DEMO_DIR)/hilly-half.script.json --run $$race   # the sample race run"; \
	$(BIN) --store $(DEMO_STORE) script simulate $(DEMO_DIR)/hilly-half.script.json --run $$race
	@echo
	@echo "$$ racekit script render $(DEMO_DIR)/hilly-half.script.json   # every message playable offline (eSpeak NG, Opus)"
	@$(BIN) script render $(DEMO_DIR)/hilly-half.script.json
	@echo
	@race=$$($(BIN) --store $(DEMO_STORE) runs list --limit 1 --format csv | tail -n 1 | cut -d, -f1); \
	echo "$$ racekit --store $(DEMO_STORE) script simulate $(DEMO_DIR)/hilly-half.script.json --run $$race --format json --audio $(DEMO_DIR)/hilly-half-as-heard.opus > /dev/null"; \
	$(BIN) --store $(DEMO_STORE) script simulate $(DEMO_DIR)/hilly-half.script.json --run $$race --format json --audio $(DEMO_DIR)/hilly-half-as-heard.opus > /dev/null
	@echo "Listen to the race as heard: $(DEMO_DIR)/hilly-half-as-heard.opus (any browser or media player;"
	@echo "ffplay -nodisp -autoexit FILE); its cue sheet: $(DEMO_DIR)/hilly-half-as-heard.cues.txt"
	@echo
	@echo "Open Reports/index.md (the example committed in the repository is this output)"
	@echo "and $(DEMO_DIR)/plans/ (pace bands, and the hilly half's course as TCX and GPX for a watch)."

conformance: build
	@if [ -d "$(CORPUS)/public" ]; then \
	  python3 scripts/conformance.py $(BIN) $(CORPUS); \
	else \
	  echo "conformance skipped: $(CORPUS)/public not found"; \
	fi
	@if [ -d "$(CORPUS)/fit" ]; then \
	  python3 -c "import fitdecode" 2>/dev/null || pip install --quiet fitdecode; \
	  python3 scripts/fit_conformance.py $(BIN) $(CORPUS); \
	else \
	  echo "FIT conformance skipped: $(CORPUS)/fit not found"; \
	fi

bench: deps bench-deps
	$(RELEASE_BUILD)
	python3 scripts/bench.py .build/release $(BENCH_ARGS)

# This build against another commit's, interleaved (BASE=COMMIT, default HEAD~1):
# medians and ratios, each case against a 3% tolerance (scripts/bench_ab.py).
BASE ?= HEAD~1
bench-ab: deps bench-deps
	$(RELEASE_BUILD)
	python3 scripts/bench_ab.py $(BASE) $(AB_ARGS)

# Club scale on both stores, against a throwaway PostgreSQL server with fsync on
# (BENCH_PG_ATHLETES, BENCH_PG_RUNS_PER_ATHLETE, BENCH_PG_REPEATS make it smaller).
bench-pg: deps bench-deps pg-deps
	$(RELEASE_BUILD)
	RACEKIT_PG_DURABLE=1 scripts/with-postgres.sh python3 scripts/bench_pg.py .build/release

bench-peers: deps bench-deps
	@python3 -c "import gpxpy, tcxparser" 2>/dev/null || pip install --quiet gpxpy python-tcxparser
	$(RELEASE_BUILD)
	python3 scripts/bench_peers.py .build/release

fuzz: deps
	$(SWIFT) build --product racekit-gen
	$(SWIFT) build $(FUZZ_BUILD)
	bash scripts/fuzz.sh .build-fuzz/release/racekit-fuzz $(FUZZ_SECONDS)

# The test builds (make test, test-asan, test-tsan): the release configuration,
# unoptimised (-Onone: every check and assertion of a debug build, exclusivity
# checks everywhere). Whole modules at a time, a cold build of the tests takes
# 134 s here (227 CPU-seconds) against 165 s (290) in the debug configuration
# (2026-12-07, 2 cores); without its DEBUG flag swift-argument-parser skips the
# check of the whole command tree it makes on every parse in a debug build (58%
# of ExtremeArgumentTests' time, most of an in-process command's). The suite in
# two shards: 93 s against 101 s. The ASan suite: 268 s against 316 s in one
# process (2026-12-07), then 222 s in two shards (scripts/test-shards.sh).
# -enable-testing: `swift build --build-tests` (the shards' build) gives it only
# to debug builds by itself. `swift test` stays the debug build.
TEST_BUILD := -c release -Xswiftc -Onone -Xswiftc -enforce-exclusivity=checked -Xswiftc -enable-testing
SANITIZER_BUILD := $(TEST_BUILD)

test-asan: deps
	SWIFT=$(SWIFT) RACEKIT_SANITIZER=address ASAN_OPTIONS=suppressions=$(CURDIR)/scripts/asan.supp LSAN_OPTIONS=suppressions=$(CURDIR)/scripts/lsan.supp scripts/with-postgres.sh scripts/with-test-tmp.sh scripts/test-shards.sh $(SANITIZER_BUILD) --sanitize=address --scratch-path .build-asan

test-tsan: deps
	SWIFT=$(SWIFT) RACEKIT_SANITIZER=thread scripts/with-postgres.sh scripts/with-test-tmp.sh scripts/test-shards.sh $(SANITIZER_BUILD) --sanitize=thread --scratch-path .build-tsan

limits: deps bench-deps
	$(RELEASE_BUILD)
	bash scripts/limits.sh .build/release/racekit .build/release/racekit-gen

clean:
	rm -rf .build .build-test .build-fuzz .build-asan .build-tsan
