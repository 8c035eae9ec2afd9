#if Server
public import HTTPTypes
public import Hummingbird

/// A request refused with a status and a JSON body `{"error": "…", "requestId": "…"}` (and headers such as
/// `WWW-Authenticate`).
public struct RequestProblem: Error, HTTPResponseError, Sendable, CustomStringConvertible {
    public let status: HTTPResponse.Status
    public let message: String
    /// Headers of the refusal beside its `Content-Type`.
    public let headers: HTTPFields

    public init(_ status: HTTPResponse.Status, _ message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.message = message
        self.headers = headers
    }

    public var description: String { "\(status.code) \(message)" }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = Response.json(SuggestRequestID.errorJSON(message), status: status)
        response.headers.append(contentsOf: headers)
        return response
    }
}

import Logging
import NIOCore
import SuggestCore
import SuggestWire

extension Response {
    /// A JSON response from text that is JSON already.
    static func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: NIOCore.ByteBuffer(string: text))
        )
    }

    /// A JSON response from the bytes of a ``JSONBytes``.
    static func json(_ out: borrowing JSONBytes, status: HTTPResponse.Status = .ok) -> Response {
        let buffer = out.bytes.withUnsafeBufferPointer { NIOCore.ByteBuffer(bytes: $0) }
        return Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8"],
            body: ResponseBody(byteBuffer: buffer)
        )
    }
}

/// Turns every error into a JSON answer: ``RequestProblem``s as they are, Hummingbird's own (404, 413, …) with
/// their status, anything else as 500 (logged).
struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    @concurrent
    func handle(
        _ request: Request,
        context: Context,
        next: @concurrent (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let problem as RequestProblem {
            var response = Response.json(SuggestRequestID.errorJSON(problem.message), status: problem.status)
            response.headers.append(contentsOf: problem.headers)
            return response
        } catch let error as HTTPError {
            let message: String =
                switch error.status {
                case .notFound: "no such endpoint: \(request.method) \(request.uri.path)"
                case .contentTooLarge: "request body too large"
                default: error.body ?? error.status.reasonPhrase
                }
            return .json(SuggestRequestID.errorJSON(message), status: error.status)
        } catch is NIOTooManyBytesError {
            return .json(SuggestRequestID.errorJSON("request body too large"), status: .contentTooLarge)
        } catch {
            context.logger.error("request failed: \(error)")
            return .json(SuggestRequestID.errorJSON("internal error"), status: .internalServerError)
        }
    }
}
#endif
