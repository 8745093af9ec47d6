import Foundation
import NetworkService
import Testing

/// `EndpointPath` renders once when it is made (issue #24); these pin that the kept rendering
/// is the one rendering its segments gives, for every kind of literal and appended segment.
@Suite("Endpoint paths rendered once")
struct EndpointPathRenderingTests {
    /// Literals and what they render to: already-rendered ones kept as they are, the others
    /// split and encoded.
    static let literals: [(String, String)] = [
        ("/v1/posts/42", "/v1/posts/42"),
        ("/o/token/", "/o/token/"),
        ("/", "/"),
        ("", "/"),
        ("v1/posts", "/v1/posts"),
        ("//v1//posts//", "/v1/posts/"),
        ("/v1/a b", "/v1/a%20b"),
        ("/v1/a+b&c=d?e#f", "/v1/a%2Bb%26c%3Dd%3Fe%23f"),
        ("/v1/서울", "/v1/%EC%84%9C%EC%9A%B8"),
        ("/v1/%2F", "/v1/%252F"),
        ("/v1/../x/./y", "/v1/../x/./y"),
        ("/~user/_a-b.c~", "/~user/_a-b.c~"),
    ]

    @Test("a literal renders as its segments do, reserved characters, percent signs and dot segments included",
          arguments: literals)
    func literalRendering(literal: String, expected: String) {
        let path = EndpointPath(stringLiteral: literal)
        #expect(path.rendered == expected)
        #expect(path.rendered == EndpointPath.render(path.segments, hasTrailingSlash: path.hasTrailingSlash))
        #expect(path == EndpointPath(segments: path.segments, hasTrailingSlash: path.hasTrailingSlash))
        #expect(path.description == expected)
    }

    @Test("only a literal with a leading slash, no empty segment and nothing to encode is its own rendering")
    func renderedLiterals() {
        #expect(EndpointPath.isRendered("/v1/posts/42"))
        #expect(EndpointPath.isRendered("/o/token/"))
        #expect(EndpointPath.isRendered("/"))
        for text in ["", "v1", "//", "/v1//x", "/a b", "/a%20b", "/ü", "/a?b"] {
            #expect(!EndpointPath.isRendered(text), "\(text)")
        }
    }

    @Test("appending a segment renders as the segments do, after a trailing slash, a bare slash or nothing")
    func appendedRendering() {
        let cases: [(EndpointPath, String)] = [
            ("/v1/posts" / 42 / "comments", "/v1/posts/42/comments"),
            ("/api/items/" / 42, "/api/items/42"),
            ("/" / "x", "/x"),
            (EndpointPath(segments: [], hasTrailingSlash: true) / "x", "/x"),
            ("/v1/tags" / "a/b c", "/v1/tags/a%2Fb%20c"),
            ("/v1/tags" / "..", "/v1/tags/.."),
            ("/v1/tags" / "", "/v1/tags/"),
            ("/v1/tags" / "" / "x", "/v1/tags//x"),
            (EndpointPath(segments: ["a b"], hasTrailingSlash: true) / "c", "/a%20b/c"),
        ]
        for (path, expected) in cases {
            #expect(path.rendered == expected)
            #expect(path.rendered == EndpointPath.render(path.segments, hasTrailingSlash: path.hasTrailingSlash))
            #expect(!path.hasTrailingSlash)
        }
    }

    @Test("a path from segments renders each one encoded, empty ones kept")
    func segmentsRendering() {
        #expect(EndpointPath(segments: []).rendered == "/")
        #expect(EndpointPath(segments: [""]).rendered == "/")
        #expect(EndpointPath(segments: ["", "a"]).rendered == "//a")
        #expect(EndpointPath(segments: ["a/b", "%"], hasTrailingSlash: true).rendered == "/a%2Fb/%25/")
    }

    @Test("the request's URL is the base URL, without its trailing slash, and the rendered path",
          arguments: [("https://api.example.com", "https://api.example.com/v1/samples/a%20b"),
                      ("https://h/api/", "https://h/api/v1/samples/a%20b"),
                      ("http://127.0.0.1:8080/prefix", "http://127.0.0.1:8080/prefix/v1/samples/a%20b")])
    func requestURL(base: String, expected: String) throws {
        let server = try Server(baseURL: base)
        let request = try server.makeRequest(for: SampleEndpoint.item(name: "a b"), accessToken: AccessToken("t"))
        #expect(request.url.absoluteString == expected)
    }
}
