import Foundation

/// The bytes libFuzzer hands a target, with the few ways the targets read them.
public struct FuzzInput {
    /// All the bytes.
    public let bytes: [UInt8]

    /// The input at `data` (`size` bytes; `data` may be dangling when `size` is 0).
    public init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        bytes = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : []
    }

    /// The bytes as `Data`.
    public var data: Data { Data(bytes) }

    /// The bytes as text (invalid UTF-8 becomes U+FFFD, as `String(decoding:)` makes it).
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The first byte (a selector) and the rest; `nil` for an empty input.
    public var selectorAndRest: (UInt8, [UInt8])? {
        guard let first = bytes.first else { return nil }
        return (first, Array(bytes.dropFirst()))
    }
}

/// Stops the process with `message` when `condition` is false: a broken invariant is a
/// finding, which libFuzzer reports as a crash and keeps the input of.
public func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
                    file: StaticString = #fileID, line: UInt = #line) {
    if !condition() {
        fatalError("fuzz invariant broken: \(message())", file: file, line: line)
    }
}
