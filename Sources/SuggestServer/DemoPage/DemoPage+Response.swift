#if Server
import HTTPTypes
import Hummingbird
import NIOCore

extension DemoPage {
    /// The answer to `GET /`: the page with its Content-Type, Content-Security-Policy and cache headers, or
    /// 304 Not Modified (same headers, no body) when `If-None-Match` names its entity tag. `Cache-Control: no-cache`
    /// lets a browser keep the page but makes it ask each time, so a new server's page is never shown stale.
    func response(to request: Request) -> Response {
        var headers: HTTPFields = [
            .contentType: "text/html; charset=utf-8",
            .contentSecurityPolicy: contentSecurityPolicy,
            .cacheControl: "no-cache",
            .eTag: entityTag,
            .xContentTypeOptions: "nosniff",
        ]
        headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        let ifNoneMatch = request.headers[values: .ifNoneMatch]
        if !ifNoneMatch.isEmpty, matches(ifNoneMatch: ifNoneMatch.joined(separator: ",")) {
            return Response(status: .notModified, headers: headers)
        }
        let body = html.withUnsafeBufferPointer { ByteBuffer(bytes: $0) }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: body))
    }
}
#endif
