#if Server
import Crypto
import Foundation

/// The search page that `suggest serve --demo-page` serves at `GET /`: one HTML file with its CSS and JavaScript
/// inline, no network resource, talking to `/ws` on its own origin (see the "The demo search page" section of the
/// "Serving suggestions over HTTP" guide).
///
/// The page is served with a strict Content-Security-Policy built from the page itself: the SHA-256 of each inline
/// `<style>` and `<script>` element (written exactly so, without attributes) is the only style and script allowed,
/// connections go only to the page's own origin (`connect-src 'self'`, which covers `ws:`/`wss:` to the same host
/// and port), nothing else loads, and Trusted Types are required, so the page's script can only build the document
/// with the DOM, never parse markup from a string.
public struct DemoPage: Sendable {
    /// The page, UTF-8 HTML.
    public let html: [UInt8]
    /// The value of the `Content-Security-Policy` header.
    public let contentSecurityPolicy: String
    /// A strong entity tag of ``html`` (quoted, from its SHA-256), for `ETag` and `If-None-Match`.
    public let entityTag: String

    /// The name of the bundled page in this module's resources.
    public static let resourceName = "search-page.html"

    /// A page and the policy that lets exactly its inline style and script run.
    /// - Parameter html: the page's HTML.
    public init(html: String) {
        let bytes = Array(html.utf8)
        self.html = bytes
        let scripts = Self.inlineHashes(of: "script", in: bytes)
        let styles = Self.inlineHashes(of: "style", in: bytes)
        contentSecurityPolicy = [
            "default-src 'none'",
            "script-src " + (scripts.isEmpty ? "'none'" : scripts.joined(separator: " ")),
            "style-src " + (styles.isEmpty ? "'none'" : styles.joined(separator: " ")),
            "connect-src 'self'",
            "img-src data:",
            "base-uri 'none'",
            "form-action 'none'",
            "frame-ancestors 'none'",
            "require-trusted-types-for 'script'",
        ].joined(separator: "; ")
        let digest = Array(SHA256.hash(data: bytes))
        entityTag = "\"" + digest.prefix(16).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined() + "\""
    }

    /// Why the bundled page could not be read.
    public struct Unavailable: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The page shipped as a resource of this module (`Resources/search-page.html`).
    /// - Throws: ``Unavailable`` naming the resource when it is missing or not UTF-8.
    public static func bundled() throws(Unavailable) -> DemoPage {
        guard let url = Bundle.module.url(forResource: "search-page", withExtension: "html") else {
            throw Unavailable(
                description: "the demo page \(resourceName) is missing from SuggestServer's resources (\(Bundle.module.bundlePath))"
            )
        }
        guard let data = try? Data(contentsOf: url), let html = String(data: data, encoding: .utf8) else {
            throw Unavailable(description: "\(url.path): cannot be read as UTF-8")
        }
        return DemoPage(html: html)
    }

    /// Whether an `If-None-Match` header value names this page's entity tag (weak comparison, as RFC 9110 asks).
    public func matches(ifNoneMatch value: String) -> Bool {
        value.split(separator: ",").contains { candidate in
            var tag = candidate.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return tag == entityTag
        }
    }

    /// The CSP source (`'sha256-BASE64'`) of each `<NAME>…</NAME>` element's text in `html`.
    static func inlineHashes(of name: String, in html: [UInt8]) -> [String] {
        let open = Array("<\(name)>".utf8)
        let close = Array("</\(name)>".utf8)
        var hashes: [String] = []
        var index = 0
        while let start = firstIndex(of: open, in: html, from: index) {
            let contentStart = start + open.count
            guard let end = firstIndex(of: close, in: html, from: contentStart) else { break }
            let digest = Array(SHA256.hash(data: html[contentStart..<end]))
            hashes.append("'sha256-" + Data(digest).base64EncodedString() + "'")
            index = end + close.count
        }
        return hashes
    }

    private static func firstIndex(of needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard needle.count <= bytes.count, start <= bytes.count - needle.count else { return nil }
        for i in start...(bytes.count - needle.count) where bytes[i] == needle[0] {
            if bytes[i..<(i + needle.count)].elementsEqual(needle) { return i }
        }
        return nil
    }
}
#endif
