public import ArgumentParser

/// `--threshold` and `--page-size`, mapped to the API's `threshold` and `pageSize`.
public struct PageOptions: ParsableArguments, Sendable {
    @Option(help: ArgumentHelp("Only items with an id below this (the 'more:' line of the previous page).", valueName: "id"))
    public var threshold: Int?

    @Option(help: ArgumentHelp("Items per page, 1-100 (server default 20).", valueName: "n"))
    public var pageSize: Int?

    public init() {}

    public func validate() throws {
        if let threshold, threshold < 1 {
            throw ValidationError("--threshold must be 1 or more")
        }
        if let pageSize, !(1...100).contains(pageSize) {
            throw ValidationError("--page-size must be between 1 and 100")
        }
    }
}
