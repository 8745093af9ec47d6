/// libFuzzer's entry for a program with its own `main` (`FuzzerInterface.h`).
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

@_silgen_name("exit")
private func exit(_ status: CInt) -> Never

/// The target `runFuzzer` was given. Written once, before libFuzzer starts, and only read
/// afterwards (libFuzzer calls the target from one thread).
nonisolated(unsafe) private var currentTarget: ((FuzzInput) -> Void)?

/// Runs libFuzzer with the process's arguments on `target` and exits with its status.
///
/// SwiftPM links an executable's `main` to its module's entry point, so each target has an
/// `@main` that calls this instead of relying on the `main` of libFuzzer's runtime. A target
/// checks its invariants with ``require(_:_:file:line:)``; returning is "no finding".
public func runFuzzer(_ target: @escaping (FuzzInput) -> Void) -> Never {
    currentTarget = target
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        currentTarget?(FuzzInput(data, size))
        return 0
    })
}
