#if Server
import Foundation
public import PostgresNIO

/// Where a PostgreSQL catalogue lives: host, port, user, password, database and TLS, from a connection URL
/// (`postgres://user:password@host:5432/database?sslmode=disable`) or from separate values.
///
/// The password, when neither the URL nor the values give one, is read from the `PGPASSWORD` environment variable
/// (as `psql` does), so that it need not be written in a configuration file.
public struct PostgresConnectionSettings: Hashable, Sendable {
    /// TLS as libpq's `sslmode` names it.
    public enum TLSMode: String, Hashable, Sendable, CaseIterable {
        /// Never TLS.
        case disable
        /// TLS when the server offers it (libpq's default).
        case prefer
        /// TLS or no connection.
        case require
    }

    public var host: String
    public var port: Int
    public var user: String
    public var password: String?
    public var database: String?
    public var tls: TLSMode

    public init(
        host: String = "localhost",
        port: Int = 5432,
        user: String = "postgres",
        password: String? = nil,
        database: String? = nil,
        tls: TLSMode = .prefer
    ) {
        self.host = host
        self.port = port
        self.user = user
        self.password = password
        self.database = database
        self.tls = tls
    }

    /// Parses `postgres://` or `postgresql://` URLs: `postgres://user:password@host:port/database?sslmode=disable`.
    /// Percent-escapes in the user, password and database are decoded.
    /// - Throws: ``PostgresSettingsError`` naming what is wrong (the URL is shown without its password).
    public init(url: String) throws(PostgresSettingsError) {
        let shown = Self.redacted(url)
        guard let components = URLComponents(string: url) else {
            throw PostgresSettingsError("\(shown): not a valid URL (expected postgres://user:password@host:port/database)")
        }
        guard let scheme = components.scheme?.lowercased(), scheme == "postgres" || scheme == "postgresql" else {
            throw PostgresSettingsError("\(shown): expected a postgres:// or postgresql:// URL")
        }
        guard let host = components.host, !host.isEmpty else {
            throw PostgresSettingsError("\(shown): the URL names no host")
        }
        self.init(host: host)
        if let port = components.port {
            guard (1...65_535).contains(port) else {
                throw PostgresSettingsError("\(shown): port \(port) is not from 1 to 65535")
            }
            self.port = port
        }
        if let user = components.user, !user.isEmpty {
            self.user = user.removingPercentEncoding ?? user
        } else if let user = ProcessInfo.processInfo.environment["USER"], !user.isEmpty {
            self.user = user
        }
        password = components.password.map { $0.removingPercentEncoding ?? $0 }
        var path = components.path
        if path.hasPrefix("/") { path.removeFirst() }
        if !path.isEmpty { database = path.removingPercentEncoding ?? path }
        for item in components.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                switch item.value ?? "" {
                case "disable", "allow": tls = .disable
                case "prefer": tls = .prefer
                case "require", "verify-ca", "verify-full": tls = .require
                default:
                    throw PostgresSettingsError(
                        "\(shown): sslmode \"\(item.value ?? "")\" is not one of disable, prefer, require")
                }
            case "user": if let value = item.value { user = value }
            case "password": password = item.value
            case "dbname": database = item.value
            case "application_name", "connect_timeout": break
            default:
                throw PostgresSettingsError(
                    "\(shown): unknown URL parameter \"\(item.name)\" (known: sslmode, user, password, dbname)")
            }
        }
    }

    /// The URL with its password replaced by `***`, for messages.
    public static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "***"
        return components.string ?? url
    }

    /// `user@host:port/database`, for messages (never the password).
    public var displayName: String { "\(user)@\(host):\(port)/\(database ?? user)" }

    /// The postgres-nio configuration: at most `maximumConnections` connections and at least one (see below),
    /// connect timeout `connectTimeout`, and, on every connection, `pg_trgm.word_similarity_threshold` (the typo candidates' threshold) and, when
    /// given, `statement_timeout` (so that the server drops a query whose keystroke gave up on it long ago).
    ///
    /// One connection is always kept (`minimumConnections = 1`): postgres-nio opens connections only when a request
    /// arrives, so when the database restarts and every connection closes, a request already queued waits until
    /// another request arrives; the provider's one probe during an outage could wait for ever
    /// (`serve-load.py --fault-at` found it). With one kept, the pool reconnects by itself, with its backoff.
    public func clientConfiguration(
        maximumConnections: Int = 4,
        connectTimeout: Duration = .seconds(5),
        wordSimilarityThreshold: Double = 0.5,
        statementTimeout: Duration? = nil
    ) -> PostgresClient.Configuration {
        let mode: PostgresClient.Configuration.TLS
        switch tls {
        case .disable: mode = .disable
        case .prefer: mode = .prefer(.makeClientConfiguration())
        case .require: mode = .require(.makeClientConfiguration())
        }
        let password = password ?? ProcessInfo.processInfo.environment["PGPASSWORD"]
        var configuration = PostgresClient.Configuration(
            host: host, port: port, username: user, password: password, database: database, tls: mode)
        configuration.options.maximumConnections = maximumConnections
        configuration.options.minimumConnections = 1
        configuration.options.connectTimeout = connectTimeout
        var options = "-c pg_trgm.word_similarity_threshold=\(wordSimilarityThreshold)"
        if let statementTimeout {
            let (seconds, attoseconds) = statementTimeout.components
            options += " -c statement_timeout=\(max(1, seconds * 1000 + attoseconds / 1_000_000_000_000_000))"
        }
        configuration.options.additionalStartupParameters = [("options", options)]
        return configuration
    }
}

extension PostgresConnectionSettings {
    /// The configuration of a single connection (the importer's).
    public func connectionConfiguration() throws -> PostgresConnection.Configuration {
        let mode: PostgresConnection.Configuration.TLS
        switch tls {
        case .disable: mode = .disable
        case .prefer: mode = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
        case .require: mode = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        }
        return PostgresConnection.Configuration(
            host: host, port: port, username: user, password: password ?? ProcessInfo.processInfo.environment["PGPASSWORD"],
            database: database, tls: mode)
    }
}

/// A connection setting that cannot be used.
public struct PostgresSettingsError: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
#endif
