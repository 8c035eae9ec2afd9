/// The version of swift-suggest, in one place: `suggest --version` prints it.
///
/// Raise it with each release tag (semantic versioning: the public API of the library products and the JSON
/// configuration format).
public enum SuggestVersion: Sendable {
    /// This build's version, `MAJOR.MINOR.PATCH`.
    public static let current = "0.1.0"
}
