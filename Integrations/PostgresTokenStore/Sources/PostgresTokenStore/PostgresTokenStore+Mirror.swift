extension PostgresTokenStore: CustomReflectable, CustomDebugStringConvertible {
    /// A mirror with the description only: the store's client holds the database password,
    /// which `dump(_:)` and debuggers would otherwise show.
    public var customMirror: Mirror {
        Mirror(self, children: ["description": description])
    }

    /// The same as ``description``.
    public var debugDescription: String { description }
}
