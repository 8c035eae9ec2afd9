#if Server
import Foundation
public import Suggest

/// Popular searches across users: every `"popular"` provider of the configuration is one provider that all users'
/// engines share, counting each identified user's submitted searches for that user.
///
/// - **One provider for everyone:** each user's engine gets a view of it, `PopularProvider/attributed(to:)`, that
///   counts the searches submitted (and, with `recordSelections`, chosen) through it for the user's id in
///   Normalization Form C (``normalized(user:)``). So a search is offered to anyone only once `minUsers` different
///   users made it, and one user repeating it never pushes it up.
/// - **Anonymous searches are not counted:** an engine of nobody's (``ephemeralEngine()``: an anonymous WebSocket
///   connection, anonymous HTTP requests) offers the popular searches but counts nothing, so that no client can
///   reach `minUsers` alone by opening connections.
/// - **Kept** in the file the provider's `"store"` names, else in the users database (``Options/recentsDatabase``,
///   shared by replicas: see ``UsersDatabase/preparePopular(_:)``, which must read it before the engines are made),
///   else with a users folder (``Options/recentsFolder``) in `FOLDER/PROVIDER/popular.json` (PROVIDER named by
///   ``storeName(for:)``), else in memory only. The file is written after every counted search; a write that failed
///   is tried again by ``savePopular()`` (at every sweep and at shutdown).
extension UserEngines {
    /// The file name of a popular provider's searches in its folder of the users folder.
    public static let popularFileName = "popular.json"

    /// The file of the popular provider `provider`'s searches in the users folder `folder`:
    /// `folder/PROVIDER/popular.json`.
    public static func popularStorePath(provider: String, in folder: String) -> String {
        providerFolder(provider, in: folder) + "/" + popularFileName
    }

    /// The shared providers, by id: the configuration's own when it names a store or there is no users folder,
    /// else one with the same options keeping its searches in the users folder.
    static func sharedPopular(_ configuration: EngineConfiguration, folder: String?, database: UsersDatabase?)
        -> [String: PopularProvider]
    {
        var shared: [String: PopularProvider] = [:]
        for slot in configuration.slots {
            guard let popular = slot.provider as? PopularProvider else { continue }
            if popular.store == nil, let database {
                let id = popular.id
                let provider = PopularProvider(
                    id: id, store: database.popularStore(for: id), options: popular.options,
                    onCount: { [weak database] search in database?.enqueue(search, provider: id) })
                database.attach(provider)
                shared[id] = provider
            } else if popular.store == nil, let folder {
                // A folder that cannot be made shows as popular searches that cannot be saved.
                makeFolder(providerFolder(popular.id, in: folder))
                let path = popularStorePath(provider: popular.id, in: folder)
                shared[popular.id] = PopularProvider(
                    id: popular.id, store: PopularFileStore(path: path), options: popular.options)
            } else {
                shared[popular.id] = popular
            }
        }
        return shared
    }

    /// The popular providers every user's engine shares (one per `"popular"` entry of the configuration).
    public var popularProviders: [PopularProvider] {
        configuration.slots.compactMap { ($0.provider as? PopularProvider).flatMap { popular[$0.id] } }
    }

    /// `slot` (a `"popular"` entry) for `user`'s engine: a view of the shared provider counting for `user`, or one
    /// that counts nothing for nobody's engine (nil).
    func popularSlot(_ slot: ProviderSlot, _ provider: PopularProvider, user: String?) -> ProviderSlot {
        let shared = popular[provider.id] ?? provider
        var slot = slot
        if let user {
            slot.provider = shared.attributed(to: user)
        } else {
            slot.provider = UncountedPopularView(popular: shared)
        }
        return slot
    }

    /// A popular provider's searches that could not be written.
    public struct PopularSaveFailure: Sendable, CustomStringConvertible {
        public let provider: String
        public let message: String
        public var description: String { "\(provider): popular searches not saved: \(message)" }
    }

    /// Writes every shared popular provider's changes not written yet.
    /// - Returns: the failures (empty when everything is written, or kept in memory only as configured).
    @discardableResult
    public func savePopular() -> [PopularSaveFailure] {
        var failures: [PopularSaveFailure] = []
        for provider in popularProviders where provider.store != nil && provider.unsavedChangeCount > 0 {
            if let folder = options.recentsFolder,
                (provider.store as? PopularFileStore)?.path == Self.popularStorePath(provider: provider.id, in: folder)
            {
                // A folder that could not be made before (a full or read-only disk since fixed).
                Self.makeFolder(Self.providerFolder(provider.id, in: folder))
            }
            do {
                try provider.synchronize()
            } catch {
                failures.append(PopularSaveFailure(provider: provider.id, message: "\(error)"))
            }
        }
        return failures
    }
}

/// A shared popular provider as an engine of nobody's sees it: its suggestions, and nothing counted.
struct UncountedPopularView: SuggestionProvider {
    let popular: PopularProvider
    var id: String { popular.id }
    var exactMatch: ExactMatchRule { popular.exactMatch }

    func suggest(_ request: SuggestionRequest, into output: inout ProviderOutput) throws {
        try popular.suggest(request, into: &output)
    }
}
#endif
