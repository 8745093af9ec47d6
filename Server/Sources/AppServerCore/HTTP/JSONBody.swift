public import Foundation
public import Hummingbird

/// JSON in and out, with the contract's one configuration: RFC 3339 dates without fractional seconds.
public enum JSONBody {
    /// The largest request body accepted.
    public static let maximumBodySize = 64 * 1024

    /// An encoder with the contract's date format.
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }

    /// A decoder with the contract's date format.
    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    /// A JSON response.
    public static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        let data: Data
        do {
            data = try makeEncoder().encode(value)
        } catch {
            // Our DTOs always encode; this is a programming error, answered as a plain 500.
            data = Data(#"{"error":{"code":"internal","message":"The response could not be encoded."}}"#.utf8)
            return Response(
                status: .internalServerError,
                headers: [.contentType: "application/json; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: data))
            )
        }
        return Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8", .contentLength: String(data.count)],
            body: .init(byteBuffer: ByteBuffer(bytes: data))
        )
    }

    /// An empty `204 No Content` response.
    public static func noContent() -> Response {
        Response(status: .noContent)
    }

    /// Reads and decodes the request body.
    ///
    /// - Throws: ``APIError`` `invalid_request` naming the offending field when the body is missing,
    ///   not JSON, not an object or has a field of the wrong type.
    public static func decode<T: Decodable>(_ type: T.Type, from request: Request) async throws(APIError) -> T {
        var request = request
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: maximumBodySize)
        } catch {
            throw .invalidRequest("body: larger than \(maximumBodySize) bytes or unreadable")
        }
        guard buffer.readableBytes > 0 else {
            throw .invalidRequest("body: a JSON object is required")
        }
        do {
            return try makeDecoder().decode(T.self, from: Data(buffer.readableBytesView))
        } catch let error as DecodingError {
            throw .invalidRequest(describe(error))
        } catch {
            throw .invalidRequest("body: not valid JSON")
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        func field(_ path: [any CodingKey]) -> String {
            path.isEmpty ? "body" : path.map(\.stringValue).joined(separator: ".")
        }
        switch error {
        case .typeMismatch(let type, let context):
            if context.codingPath.isEmpty { return "body: must be a JSON object" }
            return "\(field(context.codingPath)): must be \(typeName(type))"
        case .valueNotFound(let type, let context):
            return "\(field(context.codingPath)): must be \(typeName(type)), not null"
        case .keyNotFound(let key, let context):
            return "\(field(context.codingPath + [key])): is required"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return "body: not valid JSON" }
            return "\(field(context.codingPath)): invalid value"
        @unknown default:
            return "body: invalid"
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "a boolean"
        case is Int.Type, is Int64.Type: "an integer"
        case is Double.Type: "a number"
        default: "a JSON object"
        }
    }
}
