#if Server
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdAuth
import JWTKit
import NIOCore
import Suggest

/// How `suggest serve` knows who is asking (the guide's "Who is asking"). A user's recent searches, selection
/// learning and typing sessions are read and written only for requests that carry that user's identity.
public enum Identity: Sendable {
    /// No identity option: nothing a client teaches the server is visible to another client. HTTP requests are
    /// answered by an engine that never learns (`POST /submit` and `/select` are refused with 403); each WebSocket
    /// connection gets an engine of its own, with in-memory recents that end with the connection.
    case anonymous
    /// `Authorization: Bearer JWT` (on a WebSocket upgrade, also a `Sec-WebSocket-Protocol` entry `bearer.JWT`),
    /// verified by ``BearerVerifier``; its `sub` claim is the user. No valid token: 401.
    case bearer(BearerVerifier)
    /// A header set by a reverse proxy that authenticated the user, believed only on connections from
    /// `trustedProxies`. Any other request is refused with 403.
    case userHeader(name: String, trustedProxies: [AddressRange])
    /// `user=` in the query string, believed as it is: anyone can claim to be anyone. For a trusted network or
    /// tests only; without `user=` a request is anonymous.
    case insecureUserParameter

    /// Whether requests may carry `user=`.
    var acceptsUserParameter: Bool {
        if case .insecureUserParameter = self { return true }
        return false
    }
}

/// Who a request comes from, once its credential is verified.
enum Caller: Sendable, Hashable {
    case user(String)
    case anonymous
}

// MARK: Bearer tokens

/// Verifies the bearer JWTs of ``Identity/bearer(_:)``: the signature (HS256 with a shared secret, or RS256 / ES256
/// with the public keys of a JWKS), `exp` (required; ``leeway`` of clock skew allowed), `nbf` when present, `aud`
/// when an audience is set, and `sub` (required: the user id, 1 to 100 UTF-8 bytes, no control characters).
/// The token's `alg` must be one the keys are for: a token signed with another algorithm (or `none`) is refused.
public struct BearerVerifier: Sendable {
    /// Why a secret or a key set cannot be used.
    public struct Problem: Error, Sendable, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// Clock skew allowed on `exp` and `nbf`: a token is accepted up to 60 s after its `exp` (and from 60 s before
    /// its `nbf`).
    public static let leeway: Double = 60

    /// The shortest HS256 secret accepted, in bytes (RFC 7518 §3.2: a key as long as the hash).
    public static let minimumSecretBytes = 32

    let keys: JWTKeyCollection
    /// The `alg` values accepted in a token's header.
    let algorithms: Set<String>
    /// The `aud` a token must name, if any.
    public let audience: String?

    /// HS256 with a shared secret: the secret file's bytes, without a final line break.
    /// - Throws: ``Problem`` for a secret shorter than ``minimumSecretBytes``.
    public init(hs256Secret secret: [UInt8], audience: String? = nil) async throws(Problem) {
        var secret = secret
        while let last = secret.last, last == 0x0A || last == 0x0D { secret.removeLast() }
        guard secret.count >= Self.minimumSecretBytes else {
            throw Problem(
                "the secret is \(secret.count) bytes; HS256 needs at least \(Self.minimumSecretBytes) "
                    + "(e.g. `head -c 32 /dev/urandom | base64 > FILE`)")
        }
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
        self.keys = keys
        self.algorithms = ["HS256"]
        self.audience = audience
    }

    /// RS256 and ES256 with the public keys of a JSON Web Key Set: `{"keys": [{"kty": "RSA", "kid": …, "n": …,
    /// "e": …}, {"kty": "EC", "crv": "P-256", "kid": …, "x": …, "y": …}]}`. Each key needs a `kid`; its `alg`, when
    /// given, must be RS256 (RSA keys, at least 2048 bits) or ES256 (EC P-256 keys).
    /// - Throws: ``Problem`` naming the key (`keys[1].alg: …`).
    public init(jwks json: [UInt8], audience: String? = nil) async throws(Problem) {
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: Data(json))
        } catch {
            throw Problem("malformed JSON: \((error as NSError).userInfo[NSDebugDescriptionErrorKey] ?? error)")
        }
        guard let set = parsed as? [String: Any], let list = set["keys"] as? [Any] else {
            throw Problem("expected a JSON Web Key Set: {\"keys\": [...]}")
        }
        guard !list.isEmpty else { throw Problem("keys: empty (at least one RS256 or ES256 public key)") }
        let keys = JWTKeyCollection()
        var algorithms: Set<String> = []
        for (index, item) in list.enumerated() {
            let place = "keys[\(index)]"
            guard let key = item as? [String: Any] else { throw Problem("\(place): expected an object") }
            guard let kid = key["kid"] as? String, !kid.isEmpty else { throw Problem("\(place).kid: missing") }
            let algorithm: String
            switch key["kty"] as? String {
            case "RSA": algorithm = "RS256"
            case "EC":
                guard key["crv"] as? String == "P-256" else {
                    throw Problem("\(place).crv: expected \"P-256\" (ES256), found \(key["crv"].map { "\($0)" } ?? "nothing")")
                }
                algorithm = "ES256"
            case let other:
                throw Problem("\(place).kty: expected \"RSA\" or \"EC\", found \(other.map { "\"\($0)\"" } ?? "nothing")")
            }
            if let declared = key["alg"] {
                guard declared as? String == algorithm else {
                    throw Problem("\(place).alg: expected \"\(algorithm)\" for this key type, found \(declared)")
                }
            }
            var jwk: JWK
            do {
                jwk = try JSONDecoder().decode(JWK.self, from: JSONSerialization.data(withJSONObject: key))
            } catch {
                throw Problem("\(place): not a valid JWK: \(error)")
            }
            jwk.algorithm = algorithm == "RS256" ? .rs256 : .es256
            do {
                try await keys.add(jwk: jwk)
                // Builds the verifier now, so that a bad key (a short RSA modulus, a point off the curve) is refused
                // at start rather than on the first request.
                _ = try await keys.getKey(for: JWKIdentifier(string: kid), alg: algorithm)
            } catch {
                throw Problem("\(place) (kid \"\(kid)\"): unusable key: \(error)")
            }
            algorithms.insert(algorithm)
        }
        self.keys = keys
        self.algorithms = algorithms
        self.audience = audience
    }

    /// The claims read from a token (the others are ignored).
    struct Claims: JWTPayload {
        var sub: SubjectClaim?
        var exp: ExpirationClaim?
        var nbf: NotBeforeClaim?
        var aud: AudienceClaim?

        /// The claims are checked by ``BearerVerifier/user(of:now:)`` with its leeway and audience.
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    /// Why a token was refused; the message goes into the 401's JSON body.
    struct Refusal: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    /// The user a token speaks for.
    /// - Throws: ``Refusal`` for a malformed, forged, expired, premature or misaddressed token.
    func user(of token: String, now: Date = Date()) async throws(Refusal) -> String {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let header = Self.base64URLDecoded(parts[0]),
            let fields = try? JSONSerialization.jsonObject(with: header) as? [String: Any]
        else { throw Refusal("malformed token") }
        guard let algorithm = fields["alg"] as? String, algorithms.contains(algorithm) else {
            throw Refusal("token algorithm \(fields["alg"].map { "\"\($0)\"" } ?? "missing") is not accepted")
        }
        let claims: Claims
        do {
            claims = try await keys.verify(token, as: Claims.self)
        } catch let error as JWTError where error.errorType == .signatureVerificationFailed {
            throw Refusal("invalid token signature")
        } catch {
            throw Refusal("invalid token")
        }
        guard let exp = claims.exp else { throw Refusal("token has no exp claim") }
        do {
            try exp.verifyNotExpired(currentDate: now.addingTimeInterval(-Self.leeway))
        } catch {
            throw Refusal("token expired")
        }
        if let nbf = claims.nbf {
            do { try nbf.verifyNotBefore(currentDate: now.addingTimeInterval(Self.leeway)) } catch {
                throw Refusal("token not valid yet (nbf)")
            }
        }
        if let audience {
            guard let aud = claims.aud, aud.value.contains(audience) else {
                throw Refusal("token is not for this audience")
            }
        }
        guard let user = claims.sub?.value else { throw Refusal("token has no sub claim") }
        guard UserEngines.isValid(user: user) else {
            throw Refusal("token sub: invalid user id (expected 1 to 100 UTF-8 bytes, no control characters)")
        }
        return user
    }

    static func base64URLDecoded(_ text: Substring) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }
}

// MARK: Trusted proxies

/// An IPv4 or IPv6 address range in CIDR notation (`10.0.0.0/8`, `::1/128`; a bare address is the address alone).
/// An IPv4 range also contains the IPv4-mapped IPv6 form of its addresses (`::ffff:10.1.2.3`).
public struct AddressRange: Sendable, Hashable, CustomStringConvertible {
    /// Why a range was refused.
    public struct Problem: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// The network's address bytes (4 or 16), host bits cleared.
    let network: [UInt8]
    public let prefixLength: Int
    public let description: String

    public init(_ text: String) throws(Problem) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = Self.bytes(of: String(parts[0])) else {
            throw Problem(description: "\"\(text)\": not an IPv4 or IPv6 address (expected e.g. 10.0.0.0/8 or fd00::/8)")
        }
        let bits = address.count * 8
        var length = bits
        if parts.count == 2 {
            guard let value = Int(parts[1]), parts[1].allSatisfy(\.isASCII), (0...bits).contains(value) else {
                throw Problem(description: "\"\(text)\": prefix length must be 0 to \(bits)")
            }
            length = value
        }
        network = Self.masked(address, length)
        prefixLength = length
        description = text
    }

    /// Whether `address` (textual, as NIO gives it) is in the range.
    func contains(_ address: String) -> Bool {
        guard var bytes = Self.bytes(of: address) else { return false }
        if network.count == 4, bytes.count == 16, bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF,
            bytes[11] == 0xFF
        {
            bytes = Array(bytes[12...])
        }
        guard bytes.count == network.count else { return false }
        return Self.masked(bytes, prefixLength) == network
    }

    static func masked(_ bytes: [UInt8], _ length: Int) -> [UInt8] {
        var out = bytes
        for i in 0..<out.count {
            let keep = max(0, min(8, length - i * 8))
            out[i] &= keep == 8 ? 0xFF : ~(0xFF >> UInt8(keep))
        }
        return out
    }

    /// The bytes of an IPv4 (4) or IPv6 (16) address, nil if `text` is neither.
    static func bytes(of text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }
}

// MARK: Resolving a request's caller

extension SuggestServer {
    static let bearerProtocolPrefix = "bearer."
    /// The WebSocket subprotocol a browser offers beside its `bearer.JWT` entry, and the one the server selects.
    public static let webSocketProtocol = "suggest"

    /// Who `request` comes from under ``ServerOptions/identity``.
    /// - Parameter webSocket: an upgrade request, which may carry its token in `Sec-WebSocket-Protocol`.
    /// - Throws: 401 (bearer: no valid token), 403 (user header: not from a trusted proxy, or no header), 400 (an
    ///   invalid `user=` or header value).
    func caller(of request: Request, context: SuggestRequestContext, parameters: QueryParameters, webSocket: Bool = false)
        async throws(RequestProblem) -> Caller
    {
        switch options.identity {
        case .anonymous:
            return .anonymous
        case .insecureUserParameter:
            guard let user = parameters["user"] else { return .anonymous }
            guard UserEngines.isValid(user: user) else {
                throw RequestProblem(.badRequest, "user: \(UserEngines.InvalidUser(user: user))")
            }
            return .user(user)
        case .bearer(let verifier):
            guard let token = Self.bearerToken(of: request, webSocket: webSocket) else {
                throw RequestProblem(
                    .unauthorized, "missing bearer token (Authorization: Bearer JWT)",
                    headers: [.wwwAuthenticate: #"Bearer realm="suggest""#])
            }
            do {
                return .user(try await verifier.user(of: token))
            } catch {
                throw RequestProblem(
                    .unauthorized, error.message,
                    headers: [.wwwAuthenticate: #"Bearer realm="suggest", error="invalid_token""#])
            }
        case .userHeader(let name, let proxies):
            guard let field = HTTPField.Name(name) else {
                throw RequestProblem(.internalServerError, "invalid user header name")
            }
            let values = request.headers[values: field]
            let peer = context.remoteAddress?.ipAddress
            guard let peer, proxies.contains(where: { $0.contains(peer) }) else {
                if values.isEmpty {
                    throw RequestProblem(.forbidden, "requests must come through a trusted proxy")
                }
                throw RequestProblem(.forbidden, "\(name): accepted only from a trusted proxy")
            }
            guard values.count == 1, let user = values.first else {
                throw RequestProblem(.forbidden, values.isEmpty ? "missing \(name) header" : "\(name) given twice")
            }
            guard UserEngines.isValid(user: user) else {
                throw RequestProblem(.badRequest, "\(name): \(UserEngines.InvalidUser(user: user))")
            }
            return .user(user)
        }
    }

    /// The token of `Authorization: Bearer` (hummingbird-auth's parsing), or on a WebSocket upgrade the first
    /// `Sec-WebSocket-Protocol` entry `bearer.JWT` (browsers cannot set headers on an upgrade).
    static func bearerToken(of request: Request, webSocket: Bool) -> String? {
        if let bearer = request.headers.bearer { return bearer.token }
        guard webSocket else { return nil }
        for value in request.headers[values: .secWebSocketProtocol] {
            for entry in value.split(separator: ",") {
                let entry = entry.trimmingCharacters(in: .whitespaces)
                if entry.hasPrefix(bearerProtocolPrefix) { return String(entry.dropFirst(bearerProtocolPrefix.count)) }
            }
        }
        return nil
    }

    /// Whether the upgrade request offered the ``webSocketProtocol`` subprotocol (the server then selects it).
    static func offersSuggestProtocol(_ request: Request) -> Bool {
        request.headers[values: .secWebSocketProtocol].contains { value in
            value.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == webSocketProtocol }
        }
    }
}
#endif
