public import Hummingbird

/// The pagination query of a list route: `threshold` (exclusive upper bound on ids) and `pageSize`.
public struct PageRequest: Sendable, Equatable {
    /// Only items with an id below this; `nil` for the first page.
    public let threshold: Int?
    /// How many items per page (1–100).
    public let pageSize: Int

    /// Allowed page sizes.
    public static let pageSizes = 1...100
    /// The page size when none is given.
    public static let defaultPageSize = 20

    /// Creates a page request (not validated).
    public init(threshold: Int?, pageSize: Int) {
        self.threshold = threshold
        self.pageSize = pageSize
    }

    /// Reads and validates `threshold` and `pageSize` from the query string.
    /// - Throws: 400 `invalid_request` naming the parameter when it is not an integer or out of range.
    public init(from request: Request) throws(APIError) {
        let query = request.uri.queryParameters
        var threshold: Int?
        if let raw = query["threshold"] {
            guard let value = Int(raw), value >= 1 else {
                throw .invalidRequest("threshold: must be an integer of at least 1")
            }
            threshold = value
        }
        var pageSize = Self.defaultPageSize
        if let raw = query["pageSize"] {
            guard let value = Int(raw), Self.pageSizes.contains(value) else {
                throw .invalidRequest("pageSize: must be an integer from \(Self.pageSizes.lowerBound) to \(Self.pageSizes.upperBound)")
            }
            pageSize = value
        }
        self.init(threshold: threshold, pageSize: pageSize)
    }

    /// The SQL bound for `id < ?`: the threshold, or the largest integer for the first page.
    var upperBound: Int { threshold ?? Int(Int64.max) }

    /// Builds the page from up to `pageSize + 1` items fetched newest first.
    func page<Item: Identifiable & Codable & Sendable & Equatable>(from fetched: [Item]) -> PageDTO<Item> where Item.ID == Int {
        let hasNext = fetched.count > pageSize
        let items = Array(fetched.prefix(pageSize))
        return PageDTO(items: items, nextThreshold: hasNext ? items.last?.id : nil, hasNext: hasNext)
    }
}

/// Reads a positive integer path parameter.
/// - Throws: 400 `invalid_request` naming the parameter when it is not an integer.
func pathID(_ name: String = "id", in context: AppRequestContext) throws(APIError) -> Int {
    guard let raw = context.parameters.get(name), let value = Int(raw) else {
        throw .invalidRequest("\(name): must be an integer")
    }
    return value
}
