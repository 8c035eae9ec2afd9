#if Server
import HTTPTypes
import Hummingbird
import Logging
import SuggestCore
import SuggestWire

/// Each request's id: the client's `X-Request-ID` when it is sane (1 to ``maximumBytes`` bytes of visible ASCII,
/// `!` to `~`), else 32 new random hex digits. The id is sent back in the response's `X-Request-ID`, put in the
/// `error` JSON of a refusal (`"requestId"`), and in the metadata (`hb.request.id`) of every line logged through the
/// request's logger.
enum SuggestRequestID {
    static let header = HTTPField.Name("X-Request-ID")!
    /// The longest id taken from a client, in bytes.
    static let maximumBytes = 128

    /// The id of the request being answered (nil outside one: a refusal before routing has none).
    @TaskLocal static var current: String?

    /// `text` when it can be a request id: 1 to ``maximumBytes`` bytes, each visible ASCII.
    static func accepting(_ text: String?) -> String? {
        guard let text, !text.isEmpty, text.utf8.count <= maximumBytes,
            text.utf8.allSatisfy({ (0x21...0x7E).contains($0) })
        else { return nil }
        return text
    }

    /// 128 random bits as 32 lowercase hex digits.
    static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        return hex(high) + hex(low)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// `{"error": message}`, with `"requestId"` when a request is being answered.
    static func errorJSON(_ message: String) -> String {
        guard let id = current else { return JSONWriter.error(message) }
        return "{\"error\":" + JSONWriter.quoted(message) + ",\"requestId\":" + JSONWriter.quoted(id) + "}"
    }
}

/// The outermost middleware: gives the request its ``SuggestRequestID`` (in the task-local ``SuggestRequestID/current``, the
/// context's logger metadata and the response's `X-Request-ID`), and logs `METHOD PATH STATUS` at debug level
/// once the response is made.
struct RequestIDMiddleware<Context: RequestContext>: RouterMiddleware {
    @concurrent
    func handle(
        _ request: Request,
        context: Context,
        next: @concurrent (Request, Context) async throws -> Response
    ) async throws -> Response {
        let id = SuggestRequestID.accepting(request.headers[SuggestRequestID.header]) ?? SuggestRequestID.make()
        var identified = context
        identified.logger[metadataKey: "hb.request.id"] = .string(id)
        let requestContext = identified
        var response = try await SuggestRequestID.$current.withValue(id) { try await next(request, requestContext) }
        response.headers[SuggestRequestID.header] = id
        // The path without the query: a query holds what people type.
        requestContext.logger.debug("\(request.method) \(request.uri.path) \(response.status.code)")
        return response
    }
}
#endif
