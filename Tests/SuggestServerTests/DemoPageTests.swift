#if Server
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
@testable import SuggestServer
import Testing

/// `GET /` with and without the demo page, its headers, and the policy built from the page.
struct DemoPageTests {
    @Test func thePolicyAllowsExactlyTheInlineStyleAndScripts() {
        // Digests from Python's hashlib: base64(sha256(b"x()")) and so on.
        let page = DemoPage(html: "<html><style>a{}</style><script>x()</script><p>text</p><script>y()</script></html>")
        let policy = page.contentSecurityPolicy
        #expect(policy.contains("script-src 'sha256-D6IGS8VMvCoyaR/l0h9tERrBTATY01CoPS7l6xDv0kI=' 'sha256-nwG+cZ8J4yZ7RZ4RWxVDwCwkMn9GJelY2VgKXNi2Uvk=';"))
        #expect(policy.contains("style-src 'sha256-X1RutGBrXCt9KkSaXMK7tHftWiRscFHOhxsS8tv8hBk=';"))
        #expect(policy.hasPrefix("default-src 'none';"))
        #expect(policy.contains("connect-src 'self'"))
        #expect(!policy.contains("unsafe"))
        let plain = DemoPage(html: "<p>no script</p>")
        #expect(plain.contentSecurityPolicy.contains("script-src 'none';"))
        #expect(plain.contentSecurityPolicy.contains("style-src 'none';"))
        #expect(plain.entityTag != page.entityTag)
        #expect(page.matches(ifNoneMatch: page.entityTag))
        #expect(page.matches(ifNoneMatch: "\"other\", W/\(page.entityTag)"))
        #expect(page.matches(ifNoneMatch: "*"))
        #expect(!page.matches(ifNoneMatch: plain.entityTag))
    }

    @Test func theBundledPageIsOneFileWithNothingToFetch() throws {
        let page = try DemoPage.bundled()
        let html = String(decoding: page.html, as: UTF8.self)
        #expect(html.contains("role=\"combobox\""))
        #expect(html.contains("role=\"listbox\""))
        // One inline style and one inline script, both in the policy; no file or address to load.
        #expect(DemoPage.inlineHashes(of: "script", in: page.html).count == 1)
        #expect(DemoPage.inlineHashes(of: "style", in: page.html).count == 1)
        for reference in ["src=", "@import", "url(", "<link rel=\"stylesheet", "<iframe", "<img"] {
            #expect(!html.contains(reference), "the page refers to something to load: \(reference)")
        }
        // The only absolute address is the SVG namespace (a name, never fetched).
        let addresses = html.split(separator: "\"").filter { $0.hasPrefix("http://") || $0.hasPrefix("https://") }
        #expect(Set(addresses) == ["http://www.w3.org/2000/svg"], "\(addresses)")
        #expect(html.contains("<link rel=\"icon\" href=\"data:,\">"))
    }

    @Test func rootServesThePageWithItsHeadersWhenTurnedOn() async throws {
        let fixture = try Fixture()
        let page = try DemoPage.bundled()
        let server = SuggestServer(configuration: try fixture.configuration(), options: ServerOptions(demoPage: page))
        try await server.makeApplication().test(.router) { client in
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                #expect(response.headers[.contentSecurityPolicy] == page.contentSecurityPolicy)
                #expect(response.headers[.cacheControl] == "no-cache")
                #expect(response.headers[.eTag] == page.entityTag)
                #expect(response.headers[.xContentTypeOptions] == "nosniff")
                #expect(Array(buffer: response.body) == page.html)
            }
            // A browser revalidating its copy.
            try await client.execute(uri: "/", method: .get, headers: [.ifNoneMatch: page.entityTag]) { response in
                #expect(response.status == .notModified)
                #expect(response.body.readableBytes == 0)
                #expect(response.headers[.eTag] == page.entityTag)
            }
            try await client.execute(uri: "/", method: .get, headers: [.ifNoneMatch: "\"stale\""]) { response in
                #expect(response.status == .ok)
            }
            // The rest of the server is unchanged.
            try await client.execute(uri: "/health", method: .get) { #expect($0.status == .ok) }
        }
    }

    @Test func rootIs404WithoutTheDemoPage() async throws {
        let fixture = try Fixture()
        let server = SuggestServer(configuration: try fixture.configuration())
        try await server.makeApplication().test(.router) { client in
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                #expect(object(String(buffer: response.body))["error"] as? String == "no such endpoint: GET /")
            }
        }
    }
}
#endif
