#if Server
import Crypto
import Foundation
import Logging
import Suggest

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where each user's recents live in ``UserEngines/Options/recentsFolder``, and the move from the earlier layout.
///
/// `FOLDER/PROVIDER/USER.json`: a folder per `"recent"` provider, a file per user in it, both named by
/// ``UserEngines/storeName(for:)``. No two (provider, user) pairs share a file, no name leaves the folder, and every
/// name fits a file system's 255-byte limit with room for the store's own suffixes (`.journal`, `.lock`,
/// `.tmp-…`, `.corrupt-…`).
extension UserEngines {
    /// The longest escaped name ``storeName(for:)`` gives; longer ones are hashed.
    static let maximumEscapedNameBytes = 120

    /// `user` in Unicode Normalization Form C: the form that names the user in memory and on disk, so that `é` as
    /// one scalar and `e` followed by U+0301 are one user.
    public static func normalized(user: String) -> String {
        // ASCII is its own normal form (the common case: no conversion).
        user.utf8.allSatisfy { $0 < 0x80 } ? user : user.precomposedStringWithCanonicalMapping
    }

    /// The file-system name of a user id or provider id (without `.json`).
    ///
    /// - ASCII lowercase letters, digits, `-` and `_` stay as they are; every other UTF-8 byte (an uppercase letter
    ///   included) is written `%` and two lowercase hexadecimal digits: `Alice` is `%41lice`, `../x` is
    ///   `%2e%2e%2fx`. The result is made of lowercase ASCII only, so two ids never share a name even on a
    ///   case-insensitive file system, and no name is `.`, `..` or holds a `/`.
    /// - When that would be longer than 120 bytes (or `name` is empty), `sha256.` and the 64 hexadecimal digits of
    ///   the SHA-256 of its UTF-8 bytes: an escaped name never holds a `.`, so it never looks like a hashed one.
    public static func storeName(for name: String) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var escaped: [UInt8] = []
        escaped.reserveCapacity(name.utf8.count)
        for b in name.utf8 {
            if (0x61...0x7A).contains(b) || (0x30...0x39).contains(b) || b == 0x2D || b == 0x5F {
                escaped.append(b)
            } else {
                escaped += [0x25, digits[Int(b >> 4)], digits[Int(b & 0x0F)]]
            }
            if escaped.count > maximumEscapedNameBytes { break }
        }
        if !escaped.isEmpty && escaped.count <= maximumEscapedNameBytes {
            return String(decoding: escaped, as: UTF8.self)
        }
        var hashed = Array("sha256.".utf8)
        for b in SHA256.hash(data: Array(name.utf8)) {
            hashed += [digits[Int(b >> 4)], digits[Int(b & 0x0F)]]
        }
        return String(decoding: hashed, as: UTF8.self)
    }

    /// The file name of `user`'s recents in their provider's folder: ``storeName(for:)`` of the normalized id,
    /// and `.json`.
    public static func storeFileName(for user: String) -> String {
        storeName(for: normalized(user: user)) + ".json"
    }

    /// The file of `user`'s recents for the `"recent"` provider `provider` in `folder`:
    /// `folder/PROVIDER/USER.json` (see ``storeName(for:)``).
    public static func storePath(user: String, provider: String, in folder: String) -> String {
        providerFolder(provider, in: folder) + "/" + storeFileName(for: user)
    }

    /// The file of `user`'s recents for `provider` in ``Options/recentsFolder``; nil when recents are kept in memory
    /// only.
    public func storePath(user: String, provider: String) -> String? {
        options.recentsFolder.map { Self.storePath(user: user, provider: provider, in: $0) }
    }

    /// The folder of a `"recent"` provider's files in `folder`.
    static func providerFolder(_ provider: String, in folder: String) -> String {
        (folder.hasSuffix("/") ? folder : folder + "/") + storeName(for: normalized(user: provider))
    }

    /// Makes `path` (one level) unless it exists; a failure shows later as recents that cannot be saved.
    static func makeFolder(_ path: String) {
        _ = mkdir(path, 0o700)
    }

    /// Makes the folder of every `"recent"` provider of the configuration.
    func makeProviderFolders() {
        guard let folder = options.recentsFolder else { return }
        for slot in configuration.slots {
            if let recents = slot.provider as? RecentsProvider { Self.makeFolder(Self.providerFolder(recents.id, in: folder)) }
        }
    }

    // MARK: The earlier layout

    /// The name the earlier layout gave a user's file: the id when it was ASCII letters, digits, `-` and `_` (and
    /// did not start with `x-`), else `x-` and the hexadecimal of its UTF-8 bytes.
    static func legacyStoreFileName(for user: String) -> String {
        let plain = user.utf8.allSatisfy { b in
            (0x30...0x39).contains(b) || (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) || b == 0x2D || b == 0x5F
        }
        if plain && !user.hasPrefix("x-") { return user + ".json" }
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = Array("x-".utf8)
        for b in user.utf8 { hex += [digits[Int(b >> 4)], digits[Int(b & 0x0F)]] }
        return String(decoding: hex, as: UTF8.self) + ".json"
    }

    /// Where the earlier layout kept `user`'s recents for `provider`: `folder/USER.json` for the configuration's
    /// first `"recent"` provider, `folder/PROVIDER-USER.json` for the others; one path per form of the id it may
    /// have been written under (the normalized one first, then the one the caller gave, then the decomposed one).
    static func legacyStorePaths(user: String, given: String, provider: String, isFirst: Bool, in folder: String)
        -> [String]
    {
        var forms: [String] = []
        for form in [user, given, user.decomposedStringWithCanonicalMapping]
        where !forms.contains(where: { Array($0.utf8) == Array(form.utf8) }) {
            forms.append(form)
        }
        return forms.map { form in
            let name = legacyStoreFileName(for: form)
            return (folder as NSString).appendingPathComponent(isFirst ? name : "\(provider)-\(name)")
        }
    }

    /// Brings the files of the earlier layout to `path`: the first one found is renamed there (with its journal)
    /// when `path` has no file yet; any other is claimed (renamed aside), its searches added to `path`'s, then
    /// removed. A file that cannot be moved is left where it is, logged, and tried again the next time the user's
    /// engine is built: nothing is deleted before its searches are in the new file.
    func migrate(_ legacy: [String], to path: String) {
        for old in legacy where Self.exists(old) {
            if !Self.exists(path) && !Self.exists(path + ".journal") {
                if Self.exists(old + ".journal") { _ = rename(old + ".journal", path + ".journal") }
                if rename(old, path) == 0 {
                    _ = unlink(old + ".lock")
                    configuration.logger.info("moved recent searches from \(old) to \(path)")
                    continue
                }
                guard errno != ENOENT else { continue }  // another task moved it meanwhile
                if Self.exists(path + ".journal") && !Self.exists(path) { _ = rename(path + ".journal", old + ".journal") }
                configuration.logger.error(
                    "could not move recent searches from \(old) to \(path): \(String(cString: strerror(errno)))")
                continue
            }
            // Claimed by a rename, so that two tasks never add the same file twice.
            let claimed = old + ".migrating-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            guard rename(old, claimed) == 0 else { continue }
            if Self.exists(old + ".journal") { _ = rename(old + ".journal", claimed + ".journal") }
            do {
                let searches: [RecentSearch]
                do {
                    searches = try JSONFileRecentsStore(path: claimed).load()
                } catch let error as RecentsStoreError where error.salvaged != nil {
                    // An unreadable journal: the searches read before its bad line are added, and the journal is kept
                    // beside the old file (a retry would fail the same way every time the engine is built).
                    searches = error.salvaged ?? []
                    let kept = old + ".journal.corrupt-" + JSONFileRecentsStore.timestampNow()
                    _ = rename(claimed + ".journal", kept)
                    configuration.logger.warning(
                        "the journal of \(old) is unreadable (\(error.reason)); kept as \(kept), its searches before the bad line added")
                }
                _ = try JSONFileRecentsStore(path: path).commit([]) { stored in (stored ?? []) + searches }
                for leftover in [claimed, claimed + ".journal", old + ".lock"] { _ = unlink(leftover) }
                configuration.logger.info("added recent searches from \(old) to \(path)")
            } catch {
                _ = rename(claimed, old)
                if Self.exists(claimed + ".journal") { _ = rename(claimed + ".journal", old + ".journal") }
                configuration.logger.error("could not add recent searches from \(old) to \(path): \(error)")
            }
        }
    }

    /// Whether something (a file, a folder) is at `path`.
    static func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: path)
    }
}
#endif
