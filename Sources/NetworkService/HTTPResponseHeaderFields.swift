import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where an ``HTTPResponse`` keeps its header fields: a dictionary, or the `HTTPURLResponse`
/// `URLSession` made, read only when asked (``HTTPResponse``'s discussion says why).
enum HTTPResponseHeaderFields: Sendable {
    /// Fields given by name.
    case dictionary([String: String])
    /// The fields of a response `URLSession` received.
    case urlResponse(ReceivedResponse)

    /// Every field, by name.
    var dictionary: [String: String] {
        switch self {
        case .dictionary(let fields):
            return fields
        case .urlResponse(let received):
            var fields: [String: String] = [:]
            for (name, value) in received.response.allHeaderFields {
                if let name = name as? String, let value = value as? String { fields[name] = value }
            }
            return fields
        }
    }

    /// The value of the field `name`, looked up case-insensitively.
    func value(forName name: String) -> String? {
        switch self {
        case .dictionary(let fields):
            return fields.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
        case .urlResponse(let received):
            return received.response.value(forHTTPHeaderField: name)
        }
    }
}

extension HTTPResponseHeaderFields {
    /// A response `URLSession` received, kept for its header fields.
    ///
    /// `@unchecked Sendable`: `HTTPURLResponse` is immutable once `URLSession` has made it
    /// (every property is read-only) and nothing else holds this reference to change it; it is
    /// `Sendable` in FoundationNetworking already, and this says so on every platform.
    struct ReceivedResponse: @unchecked Sendable {
        let response: HTTPURLResponse
    }
}
