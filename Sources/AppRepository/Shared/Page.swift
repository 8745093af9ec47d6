/// One page of a list, newest first.
///
/// Ask for the next page with `threshold: page.nextThreshold`:
///
/// ```swift
/// var page = try await service.request { try await PostAPI.fetchList(pageSize: 20, server: $0, accessToken: $1) }
/// while let next = page.nextThreshold {
///     page = try await service.request { try await PostAPI.fetchList(threshold: next, pageSize: 20, server: $0, accessToken: $1) }
/// }
/// ```
public struct Page<Item: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
    /// The items, newest (highest id) first.
    public let items: [Item]
    /// The threshold for the next page; `nil` on the last page.
    public let nextThreshold: Int?
    /// Whether there is another page.
    public let hasNext: Bool

    /// Creates a page value.
    public init(items: [Item], nextThreshold: Int?, hasNext: Bool) {
        self.items = items
        self.nextThreshold = nextThreshold
        self.hasNext = hasNext
    }
}
