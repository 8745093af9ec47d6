import AppSDKHarness
import Foundation

/// Runs a sign-in while the test plays the user on what it hands to the front end (the URL
/// to open, the code to show), as two tasks: the sign-in's outcome (its error included) and
/// what the user did come back together. The user's part failing cancels the sign-in, so a
/// broken step never leaves the flow waiting out its timeout; so does a sign-in that has not
/// ended after `seconds` (a server that never answers the polls, say), failing the test.
enum UserInTheLoop {
    /// What the user's part returned, or `nil` when the flow never handed anything over.
    static func run<Shown: Sendable, Signed: Sendable, Done: Sendable>(
        seconds: Int = 60,
        signIn: @escaping @Sendable (_ frontEnd: @escaping @Sendable (Shown) async throws -> Void) async throws -> Signed,
        user: @escaping @Sendable (Shown) async throws -> Done
    ) async throws -> (signIn: Result<Signed, any Error>, user: Done?) {
        let (shown, handOver) = AsyncStream<Shown>.makeStream()
        typealias Part = UserInTheLoopPart<Signed, Done>
        return try await withThrowingTaskGroup(of: Part.self) { group in
            group.addTask {
                let result: Result<Signed, any Error>
                do {
                    result = .success(try await signIn { handOver.yield($0) })
                } catch {
                    result = .failure(error)
                }
                handOver.finish()
                return .signIn(result)
            }
            group.addTask {
                var iterator = shown.makeAsyncIterator()
                guard let first = await iterator.next() else { return .user(nil) }
                return .user(try await user(first))
            }
            group.addTask {
                try await Task.sleep(for: .seconds(seconds))
                throw TestSetupError("the sign-in did not end within \(seconds) s")
            }
            var signed: Result<Signed, any Error>?
            var done: Done?
            var partsLeft = 2
            do {
                for try await part in group {
                    switch part {
                    case let .signIn(result): signed = result
                    case let .user(value): done = value
                    }
                    partsLeft -= 1
                    if partsLeft == 0 {
                        group.cancelAll()  // the deadline's task, the only one left: its error is dropped
                        break
                    }
                }
            } catch {
                group.cancelAll()
                throw error
            }
            guard let signed else { throw TestSetupError("the sign-in task ended without an outcome") }
            return (signed, done)
        }
    }

    /// Waits until the server counted `count` device-code polls (at most `seconds`).
    static func waitForPolls(_ count: Int, seconds: Double = 30) async throws {
        let end = ContinuousClock.now + .seconds(seconds)
        while try await OAuthTestServer.counters().deviceCodeCalls < count {
            guard ContinuousClock.now < end else { throw TestSetupError("the SDK did not poll \(count) times within \(Int(seconds)) s") }
            try await Task.sleep(for: .milliseconds(100))
        }
    }
}

/// One of the two parts' outcomes.
enum UserInTheLoopPart<Signed: Sendable, Done: Sendable>: Sendable {
    case signIn(Result<Signed, any Error>)
    case user(Done?)
}
