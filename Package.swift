// swift-tools-version:6.0
import PackageDescription

// RaceKit: a thin `racekit` executable over libraries split along dependency lines.
//
//   RaceKitModel     what a file holds: raw activities and their samples (and the stored
//                    samples' codec), sports, units, timestamps and local calendars,
//                    geodesy, ids, errors with their exit class (Foundation only)
//   RaceKitOutput    the writers: JSON (writer and reader), CSV, display text and number
//                    formatting, atomic output files and their lock, sport display
//   RaceKitMetrics   track repair into an Activity, plausibility, run analysis (with the
//                    grade cost model GAP needs), the metric registry and its metrics (one
//                    file each), power, heart rate zones, load, race predictions, heat,
//                    daily measurements and their kinds, wellness and readiness
//   Store/           the store, one folder per layer:
//     RaceKitStore       Repository/: the store's domain types, repository protocols,
//                        duplicate rule, declared schema and the one SQL repository over a
//                        connection protocol and a dialect; store locations
//     RaceKitSQLite      SQLite/: the GRDB adapter: migrations, cached statements, samples
//                        bound in place, integrity check, the store file's open lock
//     RaceKitPostgres    Postgres/: the libpq adapter: connections, binary parameters and
//                        rows, pipelines, retried transactions, per-athlete advisory locks,
//                        migrations, errors with exit classes that never show a password
//     RaceKitStoreOpener Opener/: `StoreLocation.open`, the one store opener (either backend)
//   RaceKitScript    race scripts: the model and its validation, expressions, the trigger
//                    engine, live metrics and replays of a recorded run
//   RaceKitFormats   the ActivityReader seam (Readers/: one type per format, one list,
//                    ActivityReaders); GPX/TCX readers on libxml2's SAX2 callbacks (push
//                    parser, or its I/O parser on a thread of its own for a large file read
//                    ahead; + zlib for .gz), the FIT decoder, the Apple Health export reader,
//                    archives (zip, tar) read entry by entry with libarchive, and the TCX/GPX
//                    course writer (xmlTextWriter): the only libxml2 and libarchive user;
//                    ContentDigest, the one SHA-256 (system libcrypto, EVP)
//   RaceKitImport    the import job: walk inputs, parse in parallel, dedupe, store per file
//   RaceKitPlan      race setups (YAML, Yams), weather, course profiles, pace and power
//                    plans, fuel/drink cue plans, plan output, pace band, course exports,
//                    `race new`
//   RaceKitScriptWriter  script generation: personalities (YAML), spoken sentences and
//                    the claims each line makes, `race script`
//   RaceKitAudio     the script's audio: libespeak-ng, libopusenc and opusfile through
//                    CSpeech (loaded at run time), PCM, Ogg Opus, manifests, the race as heard
//   RaceKitReview    the race review: matching, findings, timeline, chart, heat, output
//   RaceKitReports   weekly aggregation, fitness/fatigue/form, wellness weeks, CSV /
//                    Markdown / SVG
//   RaceKitWorkflows what the commands do, one job per workflow over the store and the race
//                    code: import, the weekly report, race review, plan, script and new; script show and
//                    simulate; run lookup (id prefixes), run list and detail; predict;
//                    athletes; run edits; wellness; store copy
//   racekit          argument parsing, one workflow call per command, output, one
//                    error-to-exit-code mapping, the allocator settings
//   racekit-gen      developer tool: sample exports for `make demo` and inputs for `make bench`
//   racekit-fuzz     libFuzzer harness for the readers (`make fuzz`), and a replay tool
// The per-point parsing loop runs on the reader's handler classes in RaceKitFormats:
// their dynamic exclusivity checks cost import time in release builds (measured by
// make bench, see below), and the handlers never overlap accesses (single-threaded
// per file), so the checks are off there, in release builds only. Debug builds,
// tests and every other target keep them.
let hotPath: [SwiftSetting] = [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]

/// What almost every library stands on: the model, the writers and the metrics.
let core: [Target.Dependency] = ["RaceKitModel", "RaceKitOutput", "RaceKitMetrics"]

let package = Package(
    name: "RaceKit",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "racekit", targets: ["racekit"]),
        .library(name: "RaceKitMetrics", targets: ["RaceKitMetrics"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0")
    ],
    targets: [
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        .systemLibrary(
            name: "CLibArchive",
            pkgConfig: "libarchive",
            providers: [.apt(["libarchive-dev"])]
        ),
        .systemLibrary(
            name: "CLibCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // Header only: libpq is loaded at run time (dlopen) by the first command that
        // connects to PostgreSQL, so no command pays for loading it (and its twenty
        // libraries) at start. No pkgConfig: it would link libpq into the binary.
        .systemLibrary(name: "CLibPQ", providers: [.apt(["libpq-dev"])]),
        // Header only, likewise: libespeak-ng, libopusenc and opusfile are loaded by
        // the first audio render (dlopen); racekit starts without them.
        .systemLibrary(name: "CSpeech", providers: [.apt(["libespeak-ng-dev", "libopusenc-dev", "libopusfile-dev"])]),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        // glibc's <malloc.h> (mallopt): the allocator settings of the racekit binary
        // (and of racekit-gen's decode benchmark), set by the executable itself.
        .systemLibrary(name: "CMalloc"),
        .target(name: "RaceKitModel"),
        .target(name: "RaceKitOutput", dependencies: ["RaceKitModel"]),
        .target(name: "RaceKitMetrics", dependencies: ["RaceKitModel", "RaceKitOutput"]),
        .target(name: "RaceKitStore", dependencies: core, path: "Sources/Store/Repository"),
        .target(
            name: "RaceKitSQLite", dependencies: core + ["RaceKitStore", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Sources/Store/SQLite"),
        .target(
            name: "RaceKitPostgres", dependencies: core + ["RaceKitStore", "CLibPQ"], path: "Sources/Store/Postgres"),
        .target(
            name: "RaceKitStoreOpener", dependencies: core + ["RaceKitStore", "RaceKitSQLite", "RaceKitPostgres"],
            path: "Sources/Store/Opener"),
        .target(
            name: "RaceKitFormats",
            dependencies: core + ["CLibXML2", "CZlib", "CLibArchive", "CLibCrypto"],
            swiftSettings: hotPath
        ),
        .target(name: "RaceKitImport", dependencies: core + ["RaceKitStore", "RaceKitFormats"]),
        .target(name: "RaceKitReports", dependencies: core),
        .target(name: "RaceKitScript", dependencies: core),
        .target(
            name: "RaceKitPlan",
            dependencies: core + ["RaceKitFormats", "RaceKitScript", .product(name: "Yams", package: "Yams")]),
        .target(
            name: "RaceKitScriptWriter",
            dependencies: core + [
                "RaceKitFormats", "RaceKitScript", "RaceKitPlan", .product(name: "Yams", package: "Yams")
            ],
            // Built into the code, not a bundle beside the binary: an installed
            // racekit found its personalities only while its build folder was there.
            resources: ["calm_coach", "roast_coach", "drill_sergeant"].map { .embedInCode("Personalities/\($0).yaml") }),
        .target(
            name: "RaceKitAudio",
            dependencies: core + ["RaceKitFormats", "RaceKitScript", "RaceKitPlan", "RaceKitScriptWriter", "CSpeech"]),
        .target(name: "RaceKitReview", dependencies: core + ["RaceKitScript", "RaceKitPlan"]),
        .target(
            name: "RaceKitWorkflows",
            dependencies: core + [
                "RaceKitFormats", "RaceKitStore", "RaceKitStoreOpener", "RaceKitImport", "RaceKitScript", "RaceKitPlan",
                "RaceKitScriptWriter", "RaceKitAudio", "RaceKitReview", "RaceKitReports"
            ]
        ),
        .executableTarget(
            name: "racekit",
            dependencies: core + [
                "CMalloc", "RaceKitFormats", "RaceKitStore", "RaceKitStoreOpener", "RaceKitImport", "RaceKitReports",
                "RaceKitPlan", "RaceKitScriptWriter", "RaceKitAudio", "RaceKitWorkflows",
                .product(name: "ArgumentParser", package: "swift-argument-parser")
            ]
        ),
        .executableTarget(
            name: "racekit-gen",
            dependencies: core + ["CMalloc", "RaceKitFormats", "RaceKitScript", "RaceKitTestSupport"]),
        .executableTarget(
            name: "racekit-fuzz", dependencies: core + ["RaceKitFormats", "RaceKitScript", "RaceKitPlan"]),
        // Golden files, seeded randomness and made-up exports, shared by the test targets
        // (and racekit-gen, whose demo export has WellnessExport's nights).
        .target(name: "RaceKitTestSupport", path: "Tests/RaceKitTestSupport"),
        // The model, the writers, the metrics and the store's domain types (no database).
        .testTarget(name: "RaceKitCoreTests", dependencies: core + ["RaceKitStore", "RaceKitTestSupport"]),
        .testTarget(name: "RaceKitScriptTests", dependencies: core + ["RaceKitScript", "RaceKitTestSupport"]),
        .testTarget(
            name: "RaceKitPostgresTests",
            dependencies: core + ["RaceKitStore", "RaceKitPostgres", "RaceKitTestSupport"]),
        .testTarget(
            name: "RaceKitFormatsTests",
            dependencies: core + ["RaceKitFormats", "RaceKitPlan", "RaceKitTestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "RaceKitStoreTests",
            dependencies: core + [
                "RaceKitStore", "RaceKitSQLite", "RaceKitPostgres", "RaceKitStoreOpener", "RaceKitTestSupport",
                .product(name: "GRDB", package: "GRDB.swift")
            ]),
        .testTarget(
            name: "RaceKitImportTests",
            dependencies: core + [
                "RaceKitImport", "RaceKitStore", "RaceKitSQLite", "RaceKitStoreOpener", "RaceKitFormats",
                "RaceKitTestSupport"
            ]
        ),
        .testTarget(
            name: "RaceKitReportsTests",
            dependencies: core + [
                "RaceKitReports", "RaceKitWorkflows", "RaceKitStore", "RaceKitSQLite", "RaceKitTestSupport"
            ],
            exclude: ["Golden"]
        ),
        // Plans, script writing, audio and the review.
        .testTarget(
            name: "RaceKitRaceTests",
            dependencies: core + [
                "RaceKitPlan", "RaceKitScriptWriter", "RaceKitAudio", "RaceKitReview", "RaceKitScript",
                "RaceKitFormats",
                "RaceKitTestSupport"
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "RaceKitWorkflowsTests",
            dependencies: core + [
                "RaceKitWorkflows", "RaceKitPlan", "RaceKitScriptWriter", "RaceKitReports", "RaceKitImport",
                "RaceKitFormats", "RaceKitStore", "RaceKitSQLite", "RaceKitPostgres", "RaceKitStoreOpener",
                "RaceKitTestSupport", .product(name: "GRDB", package: "GRDB.swift")
            ]
        ),
        .testTarget(
            name: "RaceKitCLITests",
            dependencies: core + [
                "racekit", "RaceKitWorkflows", "RaceKitAudio", "RaceKitStore", "RaceKitFormats", "RaceKitTestSupport"
            ],
            exclude: ["Golden"])
    ],
    swiftLanguageModes: [.v6]
)
