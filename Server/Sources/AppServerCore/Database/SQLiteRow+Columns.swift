import SQLiteNIO

/// A column was missing or had an unexpected type.
struct ColumnError: Error, CustomStringConvertible {
    let column: String
    var description: String { "column \(column) missing or of the wrong type" }
}

extension SQLiteRow {
    /// An integer column.
    func int(_ name: String) throws(DatabaseError) -> Int {
        guard let value = column(name)?.integer else { throw DatabaseError(operation: "read \(name)", underlying: ColumnError(column: name)) }
        return Int(value)
    }

    /// A text column.
    func string(_ name: String) throws(DatabaseError) -> String {
        guard let value = column(name)?.string else { throw DatabaseError(operation: "read \(name)", underlying: ColumnError(column: name)) }
        return value
    }

    /// A nullable text column.
    func optionalString(_ name: String) -> String? {
        guard let data = column(name), data != .null else { return nil }
        return data.string
    }

    /// A nullable integer column.
    func optionalInt(_ name: String) -> Int? {
        guard let data = column(name), data != .null else { return nil }
        return data.integer.map { Int($0) }
    }

    /// A 0/1 column.
    func bool(_ name: String) throws(DatabaseError) -> Bool {
        try int(name) != 0
    }
}

extension SQLiteData {
    /// An integer bind value, portable across `SQLiteInt64` widths.
    static func int(_ value: Int) -> SQLiteData { .integer(SQLiteInt64(value)) }
    /// A 0/1 bind value.
    static func bool(_ value: Bool) -> SQLiteData { .integer(value ? 1 : 0) }
}
