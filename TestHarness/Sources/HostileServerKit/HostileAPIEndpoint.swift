import NetworkService

/// `GET {issuer}/api/me`, the API call a session makes with its access token.
struct HostileAPIEndpoint: Endpoint {
    var method: HTTPMethod { .get }
    var path: EndpointPath { "/me" }
}
