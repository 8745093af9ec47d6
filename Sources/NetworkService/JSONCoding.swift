public import Foundation

/// The one JSON configuration every endpoint shares.
///
/// Dates are RFC 3339 in UTC without fractional seconds (`2026-11-22T10:00:00Z`) when
/// encoded; decoding also accepts fractional seconds and numeric offsets (`+02:00`, also
/// `+0200` and `+02`), so a server that adds precision does not break clients, and refuses a
/// date that does not exist (`2026-02-29`, `24:00`). Keys are used as they are (camelCase).
public enum JSONCoding {
    /// A new encoder with the shared configuration.
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(format(date))
        }
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// A new decoder with the shared configuration.
    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = parse(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "Expected an RFC 3339 date such as 2026-11-22T10:00:00Z"
                )
            }
            return date
        }
        return decoder
    }

    /// Formats a date as RFC 3339 UTC without fractional seconds (rounded down), in the
    /// proleptic Gregorian calendar as RFC 3339 asks, so that ``parse(_:)`` reads it back.
    /// Outside the years 0000–9999, which the form cannot write, Foundation's ISO 8601 style
    /// writes it.
    public static func format(_ date: Date) -> String {
        RFC3339Date.format(date) ?? date.formatted(utcStyle)
    }

    /// Parses an RFC 3339 date, with or without fractional seconds, in UTC or with a numeric
    /// offset; `nil` if it is not one or names a date that does not exist.
    public static func parse(_ text: String) -> Date? {
        RFC3339Date.parse(text)
    }

    // A value (Sendable), made once rather than per date.
    private static let utcStyle = Date.ISO8601FormatStyle(timeZone: .gmt)
}
