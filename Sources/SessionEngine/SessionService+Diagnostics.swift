import Foundation

// The observer's records (SessionRecord): built only when an observer is installed.

extension SessionService {
    /// Sends the record of `event` in refresh `refreshID` to the observer, if one is installed;
    /// without one, `event` is never evaluated.
    @inline(__always)
    func record(_ refreshID: Int, _ event: @autoclosure () -> SessionRecord.Event) {
        guard let observer = configuration.observer else { return }
        observer.receive(SessionRecord(refreshID: refreshID, date: configuration.now(), event: event()))
    }

    /// A store error's description for a record: the store's own (the SDK's stores never put
    /// credentials in their errors).
    static func summary(of error: any Error) -> String {
        String(describing: error)
    }
}
