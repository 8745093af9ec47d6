import Foundation
import Testing
import TokenStore

@Suite("ExclusiveSection, the re-entrancy building block for store authors")
struct ExclusiveSectionTests {
    /// What a database store keeps inside its section: the connection holding the lock.
    final class Connection: Sendable {}

    @Test("inside a held section, nested code of the same task tree finds the resource that holds it; outside, nothing")
    func resourceIsFoundInsideOnly() async throws {
        let connection = Connection()
        #expect(ExclusiveSection.resource(for: "db:t:kim", as: Connection.self) == nil)
        let found = await ExclusiveSection.holding(key: "db:t:kim", resource: connection) {
            async let child = ExclusiveSection.resource(for: "db:t:kim", as: Connection.self)
            return await (ExclusiveSection.resource(for: "db:t:kim", as: Connection.self), child,
                          ExclusiveSection.isHeld("db:t:lee"))
        }
        #expect(found.0 === connection)
        #expect(found.1 === connection, "a child task inherits the hold")
        #expect(found.2 == false, "another key is another section")
        #expect(ExclusiveSection.resource(for: "db:t:kim", as: Connection.self) == nil)
    }

    @Test("an unstructured task that outlives the section no longer believes it holds it")
    func holdEndsWithTheSection() async throws {
        let gate = AsyncLock()
        try await gate.lock(cancellable: false)
        let outliving = await ExclusiveSection.holding(key: "file:/tmp/x.lock") {
            Task {
                try await gate.lock(cancellable: false)   // waits until the section has ended
                defer { gate.unlock() }
                return ExclusiveSection.isHeld("file:/tmp/x.lock")
            }
        }
        gate.unlock()
        #expect(try await outliving.value == false)
    }
}
