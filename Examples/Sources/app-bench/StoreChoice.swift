import ArgumentParser
import Foundation

/// The store the workers share (`--store`).
enum StoreChoice: String, ExpressibleByArgument, CaseIterable, Sendable {
    case file, encrypted, postgres
}
