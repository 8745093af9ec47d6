import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension TransportError {
    /// A short English summary of a `URLError` that names neither the URL nor anything it
    /// carried, for example `too many HTTP redirects (URLError -1007)`.
    static func summary(of error: URLError) -> String {
        let text: String
        switch error.code {
        case .httpTooManyRedirects: text = "too many HTTP redirects"
        case .redirectToNonExistentLocation: text = "a redirect to a location that does not exist"
        case .timedOut: text = "the request timed out"
        case .cannotConnectToHost: text = "could not connect to the server"
        case .cannotFindHost, .dnsLookupFailed: text = "the server's host name could not be found"
        case .notConnectedToInternet: text = "not connected to the internet"
        case .networkConnectionLost: text = "the network connection was lost"
        case .badServerResponse: text = "the server's response was not valid HTTP"
        case .cannotParseResponse: text = "the response could not be parsed"
        case .zeroByteResource: text = "the response was empty"
        case .badURL, .unsupportedURL: text = "the URL is not supported"
        case .userAuthenticationRequired: text = "the server asked for HTTP authentication"
        case .secureConnectionFailed: text = "the secure connection failed"
        case .serverCertificateUntrusted, .serverCertificateHasUnknownRoot, .serverCertificateHasBadDate,
             .serverCertificateNotYetValid:
            text = "the server's certificate is not trusted"
        case .unknown: text = "the connection failed"
        default: text = "the request failed"
        }
        return "\(text) (URLError \(error.code.rawValue))"
    }
}
