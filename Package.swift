// swift-tools-version:6.0
import PackageDescription

// RaceKit: a thin `racekit` executable over libraries split along dependency lines.
//
//   RaceKitCore     models, time parsing, geodesy, track repair, plausibility, run analysis
//                   (with the grade cost model GAP needs), the metric registry, race
//                   predictions; the JSON writer and reader (JSON/); CSV and display text;
//                   errors with their exit class; atomic output files and their lock; the
//                   store's domain types, repository protocols, duplicate rule, declared
//                   schema, daily-measurement kinds and the one SQL repository over a
//                   connection protocol and a dialect (Store/) (Foundation only)
//   RaceKitScript   race scripts: the model and its validation, expressions, the trigger
//                   engine, live metrics and replays of a recorded run
//   RaceKitFormats  the ActivityReader seam (Readers/: one type per format, one list,
//                   ActivityReaders); GPX/TCX readers on libxml2's SAX2 callbacks (push
//                   parser, or its I/O parser on a thread of its own for a large file read
//                   ahead; + zlib for .gz), the FIT decoder, the Apple Health export reader,
//                   archives (zip, tar) read entry by entry with libarchive, and the TCX/GPX
//                   course writer (xmlTextWriter): the only libxml2 and libarchive user;
//                   ContentDigest, the one SHA-256 (system libcrypto, EVP)
//   RaceKitStore    the SQLite adapter of the SQL repository (GRDB): migrations, cached
//                   statements, samples bound in place, integrity check; StoreLocation.open,
//                   the one store opener
//   RaceKitPostgres the PostgreSQL adapter (libpq): connections, binary parameters and rows,
//                   retried transactions, per-athlete advisory locks, migrations, errors with
//                   exit classes that never show a password
//   RaceKitImport   the import job: walk inputs, parse in parallel, dedupe, store per file
//   RaceKitRace     race setups (YAML, Yams), course profiles, pace plans, fuel/drink cue
//                   plans, plan output, pace band, course exports, personalities, script
//                   generation and audio (libespeak-ng, libopusenc, opusfile through CSpeech,
//                   loaded at run time), the race review
//   RaceKitReports  weekly aggregation, fitness/fatigue/form, CSV / Markdown / SVG
//   RaceKitWorkflows what the commands do, one job per workflow over the store and the race
//                   code: race review, plan, script and new; script show and simulate; run
//                   lookup (id prefixes), run list and detail; predict; athletes; run edits
//   racekit         argument parsing, one workflow call per command, output, one
//                   error-to-exit-code mapping
//   racekit-gen     developer tool: sample exports for `make demo` and inputs for `make bench`
//   racekit-fuzz    libFuzzer harness for the readers (`make fuzz`), and a replay tool
// The per-point parsing loop runs on the reader's handler classes in RaceKitFormats:
// their dynamic exclusivity checks cost import time in release builds (measured by
// make bench, see below), and the handlers never overlap accesses (single-threaded
// per file), so the checks are off there, in release builds only. Debug builds,
// tests and every other target keep them.
let hotPath: [SwiftSetting] = [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]

let package = Package(
    name: "RaceKit",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "racekit", targets: ["racekit"]),
        .library(name: "RaceKitCore", targets: ["RaceKitCore"])
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
        .target(name: "RaceKitCore"),
        .target(
            name: "RaceKitFormats",
            dependencies: ["RaceKitCore", "CLibXML2", "CZlib", "CLibArchive", "CLibCrypto"],
            swiftSettings: hotPath
        ),
        .target(
            name: "RaceKitStore",
            dependencies: ["RaceKitCore", "RaceKitPostgres", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .target(
            name: "RaceKitImport",
            dependencies: ["RaceKitCore", "RaceKitFormats"]
        ),
        .target(
            name: "RaceKitReports",
            dependencies: ["RaceKitCore"]
        ),
        .target(name: "RaceKitScript", dependencies: ["RaceKitCore"]),
        .target(name: "RaceKitPostgres", dependencies: ["RaceKitCore", "CLibPQ"]),
        .target(
            name: "RaceKitRace",
            dependencies: [
                "RaceKitCore", "RaceKitScript", "RaceKitFormats", "CSpeech", .product(name: "Yams", package: "Yams")
            ],
            resources: [.copy("Personalities")]
        ),
        .target(
            name: "RaceKitWorkflows",
            dependencies: [
                "RaceKitCore", "RaceKitFormats", "RaceKitStore", "RaceKitImport", "RaceKitScript",
                "RaceKitRace", "RaceKitReports"
            ]
        ),
        .executableTarget(
            name: "racekit",
            dependencies: [
                "CMalloc", "RaceKitCore", "RaceKitStore", "RaceKitImport", "RaceKitReports", "RaceKitScript",
                "RaceKitRace",
                "RaceKitWorkflows", .product(name: "ArgumentParser", package: "swift-argument-parser")
            ]
        ),
        .executableTarget(
            name: "racekit-gen",
            dependencies: ["CMalloc", "RaceKitCore", "RaceKitFormats", "RaceKitScript", "RaceKitTestSupport"]),
        .executableTarget(
            name: "racekit-fuzz", dependencies: ["RaceKitCore", "RaceKitFormats", "RaceKitScript", "RaceKitRace"]),
        // Golden files, seeded randomness and made-up exports, shared by the test targets
        // (and racekit-gen, whose demo export has WellnessExport's nights).
        .target(name: "RaceKitTestSupport", path: "Tests/RaceKitTestSupport"),
        .testTarget(name: "RaceKitCoreTests", dependencies: ["RaceKitCore", "RaceKitTestSupport"]),
        .testTarget(name: "RaceKitScriptTests", dependencies: ["RaceKitScript", "RaceKitCore", "RaceKitTestSupport"]),
        .testTarget(
            name: "RaceKitPostgresTests", dependencies: ["RaceKitPostgres", "RaceKitCore", "RaceKitTestSupport"]),
        .testTarget(
            name: "RaceKitFormatsTests",
            dependencies: ["RaceKitFormats", "RaceKitCore", "RaceKitTestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "RaceKitStoreTests",
            dependencies: [
                "RaceKitStore", "RaceKitPostgres", "RaceKitCore", "RaceKitTestSupport",
                .product(name: "GRDB", package: "GRDB.swift")
            ]),
        .testTarget(
            name: "RaceKitImportTests",
            dependencies: ["RaceKitImport", "RaceKitStore", "RaceKitFormats", "RaceKitCore", "RaceKitTestSupport"]
        ),
        .testTarget(
            name: "RaceKitReportsTests",
            dependencies: ["RaceKitReports", "RaceKitStore", "RaceKitCore", "RaceKitTestSupport"],
            exclude: ["Golden"]
        ),
        .testTarget(
            name: "RaceKitRaceTests",
            dependencies: ["RaceKitRace", "RaceKitScript", "RaceKitFormats", "RaceKitCore", "RaceKitTestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "RaceKitWorkflowsTests",
            dependencies: [
                "RaceKitWorkflows", "RaceKitRace", "RaceKitImport", "RaceKitStore", "RaceKitPostgres", "RaceKitCore",
                "RaceKitTestSupport",
                .product(name: "GRDB", package: "GRDB.swift")
            ]
        ),
        .testTarget(
            name: "RaceKitCLITests", dependencies: ["racekit", "RaceKitFormats", "RaceKitTestSupport"],
            exclude: ["Golden"])
    ],
    swiftLanguageModes: [.v6]
)
