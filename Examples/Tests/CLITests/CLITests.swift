import Testing

/// Every CLI test, one at a time: some expire every access token on the server and count
/// refreshes, which tests running alongside would disturb.
@Suite("The command-line front ends", .serialized)
struct CLITests {}
