import Foundation
import NetworkService
import Testing

@Suite("Query parameters and paths")
struct QueryRenderingTests {
    @Test("every comparison operator renders as field=op.value")
    func comparisonOperators() {
        #expect(QueryParameter.render([.equal("id", 5)]) == "id=eq.5")
        #expect(QueryParameter.render([.notEqual("role", "admin")]) == "role=neq.admin")
        #expect(QueryParameter.render([.greaterThan("id", 5)]) == "id=gt.5")
        #expect(QueryParameter.render([.greaterThanOrEqual("id", 5)]) == "id=gte.5")
        #expect(QueryParameter.render([.lessThan("id", 5)]) == "id=lt.5")
        #expect(QueryParameter.render([.lessThanOrEqual("id", 5)]) == "id=lte.5")
        #expect(QueryParameter.render([.equal("isAnonymous", true)]) == "isAnonymous=eq.true")
    }

    @Test("in renders a parenthesised list and quotes items with special characters")
    func inOperator() {
        #expect(QueryParameter.render([.in("id", [1, 2, 3])]) == "id=in.%281%2C2%2C3%29")
        let decoded = QueryParameter.render([.in("name", ["a,b", "c"])]).removingPercentEncoding
        #expect(decoded == "name=in.(\"a,b\",c)")
    }

    @Test("several orders join into one order parameter")
    func ordering() {
        let rendered = QueryParameter.render([.order("createdAt", .descending), .equal("id", 1), .order("id", .ascending)])
        #expect(rendered == "order=createdAt.desc%2Cid.asc&id=eq.1")
    }

    @Test("pagination renders threshold and pageSize only when given")
    func pagination() {
        #expect(QueryParameter.render(.page(threshold: 120, pageSize: 20)) == "threshold=120&pageSize=20")
        #expect(QueryParameter.render(.page(threshold: nil, pageSize: 5)) == "pageSize=5")
        #expect(QueryParameter.render(.page(threshold: nil, pageSize: nil)) == "")
    }

    @Test("dates and UUIDs render in their canonical forms")
    func typedValues() {
        let date = Date(timeIntervalSince1970: 1_795_852_800)   // 2026-11-28T08:00:00Z
        #expect(QueryValue(date).text == "2026-11-28T08:00:00Z")
        let id = UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!
        #expect(QueryValue(id).text == "6F9619FF-8B86-D011-B42D-00C04FC964FF")
    }

    @Test("spaces, Unicode, &, =, / and + in values are escaped and cannot split the query",
          arguments: [
              ("a b", "a%20b"), ("한글", "%ED%95%9C%EA%B8%80"), ("x&admin=true", "x%26admin%3Dtrue"),
              ("a/b", "a%2Fb"), ("1+1", "1%2B1"), ("é?#", "%C3%A9%3F%23"),
          ])
    func escapingOfValues(value: String, escaped: String) {
        #expect(QueryParameter.render([.equal("q", QueryValue(value))]) == "q=eq.\(escaped)")
        #expect(QueryParameter.render([.equal(value, 1)]) == "\(escaped)=eq.1")
    }

    @Test("values in path segments are escaped, one segment each")
    func escapingOfPathSegments() {
        #expect(EndpointPath("/v1/posts").rendered == "/v1/posts")
        #expect((EndpointPath("/v1/posts") / 42 / "comments").rendered == "/v1/posts/42/comments")
        #expect((EndpointPath("/v1/tags") / "a/b c+d&e=f").rendered == "/v1/tags/a%2Fb%20c%2Bd%26e%3Df")
        #expect((EndpointPath("/v1/tags") / "서울").rendered == "/v1/tags/%EC%84%9C%EC%9A%B8")
        #expect((EndpointPath("/v1/tags") / "..").rendered == "/v1/tags/..")
    }

    @Test("a request URL joins the base URL's path, the endpoint path and the query")
    func requestURL() throws {
        let server = try Server(baseURL: "https://api.example.com/prefix/", transport: TestTransport(always: .status(200)))
        let request = try server.makeRequest(for: SampleEndpoint.list(threshold: 10, pageSize: 2),
                                             accessToken: AccessToken("t"))
        #expect(request.url.absoluteString == "https://api.example.com/prefix/v1/samples?threshold=10&pageSize=2")
        let item = try server.makeRequest(for: SampleEndpoint.item(name: "a b/c?d"), accessToken: AccessToken("t"))
        #expect(item.url.absoluteString == "https://api.example.com/prefix/v1/samples/a%20b%2Fc%3Fd")
    }
}
