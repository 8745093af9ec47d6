public import Foundation

/// The default store files: one per user, the plain and the encrypted one apart, so that
/// switching `--store` never reads one kind of file as the other.
public enum StoreLocation {
    /// `$XDG_CONFIG_HOME/app-sdk` when that is an absolute path, else `~/.config/app-sdk`.
    public static var folder: URL {
        if let configHome = Environment.value("XDG_CONFIG_HOME"), configHome.hasPrefix("/") {
            return URL(fileURLWithPath: configHome, isDirectory: true).appendingPathComponent("app-sdk", isDirectory: true)
        }
        let home = Environment.value("HOME") ?? NSHomeDirectory()
        return URL(fileURLWithPath: home, isDirectory: true)
            .appendingPathComponent(".config", isDirectory: true)
            .appendingPathComponent("app-sdk", isDirectory: true)
    }

    /// `credentials.json` for the plain file store, `credentials.enc` for the encrypted one.
    public static func defaultFile(for kind: StoreKind) -> URL {
        folder.appendingPathComponent(kind == .encrypted ? "credentials.enc" : "credentials.json")
    }
}
