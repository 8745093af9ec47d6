import Foundation
import TokenStore

// What the caller of a ``SessionState`` event must do, once the lock is released: the event
// decides, the caller (SessionService and its extensions) only carries it out.

extension SessionState {
    /// What a new session generation (sign-in, sign-out, account deletion) leaves to do.
    struct NewGeneration: Sendable, Equatable {
        /// The refresh that was in flight: cancel it (it writes nothing).
        let refreshToCancel: RefreshPhase.RefreshTask?
        /// The unsaved rotated credentials it forgot: a sign-out revokes these, the live ones.
        let forgottenUnsaved: UnsavedCredentials?
    }

    /// What a refresh does when it finds that another program ended or replaced the session.
    enum SessionEndAction: Sendable, Equatable {
        /// End it here: record it, send `signedOut`, and fail the call with the reason.
        case endSession
        /// A sign-in or sign-out here already moved on: fail the call with
        /// `sessionEnded(.userSignedOut)`, send nothing.
        case alreadyMovedOn
    }

    /// What a refresh the server did not answer with tokens does.
    enum FailureAction: Sendable, Equatable {
        /// The failure may pass: keep the credentials, fail the call with `refreshFailed`.
        case keepSession
        /// The server refused the refresh token: record it, send `signedOut(reason)`, clear the
        /// store (remembering the credentials as dead when it cannot be cleared).
        case endSession(SignOutReason)
        /// A sign-in or sign-out here already moved on: write nothing, fail the call with
        /// `sessionEnded(.userSignedOut)`.
        case alreadyMovedOn
    }

    /// What a refresh the server rotated for does with the new credentials.
    enum RotationAction: Sendable, Equatable {
        /// Save them, then hand them to the callers and send `refreshed`.
        case save
        /// A sign-in or sign-out here moved on meanwhile: no caller gets them, no event is
        /// sent; they are put in the store only over exactly what they replaced (and kept for
        /// that sign-out to revoke).
        case overtaken
    }

    /// What the refresh limit says of a refresh about to reach the server.
    enum Admission: Sendable, Equatable {
        /// The token it replaces was due (or, expiry unknown, had been accepted): not counted.
        case explained
        /// Not explained, and counted: `count` of the `limit` the interval allows.
        case counted(count: Int, limit: Int)
        /// Not explained, and the interval already holds `count`, as many as the limit allows:
        /// refused; the earliest another would be admitted is `retryIn` seconds from now.
        case refused(count: Int, retryIn: TimeInterval)
    }
}
