// racekit-fuzz: libFuzzer harness for the GPX and TCX readers (`make fuzz`).
//
// Built with `-DFUZZING -parse-as-library -sanitize=fuzzer,address`, the entry point
// runs libFuzzer's driver over the whole import pipeline. Built normally it
// replays inputs: `racekit-fuzz FILE...` runs each once (regression checks of
// crash inputs, which then live in Tests/RaceKitFormatsTests/Fixtures/fuzz).
import Foundation

#if FUZZING
/// libFuzzer's driver (LLVM 11+): runs the fuzzing loop with our callback.
// swift-format-ignore: AlwaysUseLowerCamelCase
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The fuzz target libFuzzer calls with each input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    if let data { FuzzTarget.run(UnsafeRawBufferPointer(start: data, count: size)) }
    return 0
}

/// SwiftPM links an executable through `<product>_main`; libFuzzer's own `main`
/// is therefore never used, so this entry point starts libFuzzer's driver.
@_cdecl("racekit_fuzz_main")
public func racekitFuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments, fuzzOneInput)
}
#else
@main
enum Replay {
    static func main() {
        var replayed = 0
        for path in CommandLine.arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("racekit-fuzz: cannot read \(path)\n".utf8))
                exit(66)
            }
            data.withUnsafeBytes { FuzzTarget.run($0) }
            replayed += 1
        }
        print("replayed \(replayed) inputs without a crash")
    }
}
#endif
