// SuggestUI binds SwiftUI's `.searchable` to a `SearchSession`. Every decision (what a keystroke shows, what a chosen
// token removes, what submit, cancel and backspace do) is made in `SearchSession` (SuggestCore), which is tested on
// Linux; this file only wires bindings and views. It compiles to nothing where SwiftUI is absent (Linux), and it was
// written without an Apple toolchain at hand: every SwiftUI call was checked against the reference pages in
// /work/shared/reference (file names below) and must be compiled on macOS or iOS before a release. On 2026-11-23 it
// was type-checked on Linux (swiftc -typecheck, Swift 6.3.1, the package's upcoming features) against a hand-written
// stand-in declaring the SwiftUI signatures below: that shows the file agrees with those signatures, not that they
// are SwiftUI's; `AttributedString.inlinePresentationIntent` (Apple's Foundation only) was left out of that check.
//
// Where each call comes from:
// - `searchable(text:tokens:suggestedTokens:isPresented:placement:prompt:token:)` — 001_db2528143ed3b2de.txt
//   ("Managing search interface activation", See Also: "Marks this view as searchable with text, tokens, and
//   suggestions, as well as programmatic presentation"); 000_8b5df2d2d45f5384.txt Part 10
//   (`.searchable(text:tokens:suggestedTokens:isPresented:token:)`, iOS 17+) and Part 6; 003_f1e03958150a0003.txt
//   (`suggestedTokens` is a binding of the same collection type as `tokens`; SwiftUI moves a tapped one into
//   `tokens`; one view builder draws a token in the field and among the suggestions). Tokens must be
//   `Identifiable` (000 Part 6, 004): `SearchToken` is.
// - `placement: SearchFieldPlacement = .automatic` — 000 Part 1; `prompt: Text?` — the `prompt:` parameter of the
//   same signature (001).
// - `isPresented:` bound to `SearchSession.isSearching` — 001 ("Control Activation Through a Binding").
// - `searchSuggestions(_:)` after the `searchable` it applies to — 004_83e1edf151695058.txt ("Suggest Search Text":
//   "This modifier applies to the searchable modifier that appears before it").
// - `searchCompletion(_:)` with a `String` — 004, 000 Part 3; with a token — 004 ("Suggest Tokens":
//   `Text("Apple").searchCompletion(FruitToken.apple)`).
// - `Section` with a header among the suggestions — 004 ("group the views with Section containers that have
//   headers ... like recent searches and common search terms").
// - `searchScopes(_:_:)` with `.tag(_:)` on each scope — 000 Part 5 (iOS 16+, macOS 13+), after `searchable`
//   (000 Part 9, gotcha 5).
// - `onSubmit(of: .search)` — 000 Part 4, 001 ("React to Search Submission").
// Not on the reference pages (standard SwiftUI and Foundation, all older than the package's minimums): `@Bindable`
// (iOS 17, macOS 14), `ViewModifier`, `ForEach`, `Button`, `Label(title:icon:)`, `Label(_:systemImage:)`,
// `Image(systemName:)`, `Text(verbatim:)`, `Text(_: AttributedString)` and `AttributedString` with
// `inlinePresentationIntent = .stronglyEmphasized` (iOS 15, macOS 12).
//
// Availability: the newest API here is `searchable(…suggestedTokens:isPresented:…)` (iOS 17, macOS 14, 000 Part 10);
// the package's minimums are iOS 18 and macOS 15, so no `@available` is needed. tvOS and watchOS are left out: on
// tvOS suggestions can only be `Text` views (004, "Important"), and the reference pages document the token and scope
// APIs for iOS and macOS only.

#if canImport(SwiftUI) && (os(iOS) || os(macOS))
import Foundation  // AttributedString (not in the public API)
public import SuggestCore
public import SwiftUI

extension View {
    /// Makes this view searchable with `session`: the field's text, tokens, suggested tokens and presentation are
    /// the session's; its suggestions (in sections with headers, matched parts in bold) and, when the session has
    /// ``SearchSession/scopes``, a scope bar; return submits.
    ///
    /// ```swift
    /// @State private var search = SearchSession(engine: engine)
    /// var body: some View {
    ///     NavigationStack { ResultsList(query: search.query).searchSession(search) }
    /// }
    /// ```
    /// - Parameters:
    ///   - session: the model; every decision is its own.
    ///   - placement: where the field goes (`.automatic`: the navigation container decides).
    ///   - prompt: the field's placeholder; say what can be searched ("Recipes, ingredients").
    ///   - allScopesTitle: the title of the scope that is no scope (`nil`), first in the scope bar.
    public func searchSession(
        _ session: SearchSession,
        placement: SearchFieldPlacement = .automatic,
        prompt: Text? = nil,
        allScopesTitle: LocalizedStringKey = "All"
    ) -> some View {
        modifier(
            SearchSessionModifier(
                session: session,
                placement: placement,
                prompt: prompt,
                allScopesTitle: allScopesTitle
            )
        )
    }
}

/// `.searchable` + `.searchSuggestions` + `.searchScopes` + `.onSubmit(of: .search)` bound to a session. (`@MainActor`
/// spelt out: the session is main-actor isolated, whatever the SDK says of `ViewModifier`.)
@MainActor
struct SearchSessionModifier: ViewModifier {
    @Bindable var session: SearchSession
    let placement: SearchFieldPlacement
    let prompt: Text?
    let allScopesTitle: LocalizedStringKey

    func body(content: Content) -> some View {
        scoped(
            content
                .searchable(
                    text: $session.text,
                    tokens: $session.tokens,
                    suggestedTokens: $session.suggestedTokens,
                    isPresented: $session.isSearching,
                    placement: placement,
                    prompt: prompt
                ) { token in
                    TokenLabel(token: token)
                }
                .searchSuggestions {
                    ForEach(session.result.sections, id: \.title) { section in
                        Section {
                            ForEach(section.suggestions) { suggestion in
                                SuggestionRow(suggestion: suggestion, session: session)
                            }
                        } header: {
                            Text(verbatim: section.title)
                        }
                    }
                }
                .onSubmit(of: .search) {
                    session.submit()
                }
        )
    }

    /// The scope bar, when the session offers scopes: "All" (`nil`), then each scope.
    @ViewBuilder
    func scoped(_ view: some View) -> some View {
        if session.scopes.isEmpty {
            view
        } else {
            view.searchScopes($session.scope) {
                Text(allScopesTitle).tag(SearchScope?.none)
                ForEach(session.scopes, id: \.self) { scope in
                    Text(verbatim: scope.name).tag(SearchScope?.some(scope))
                }
            }
        }
    }
}

/// One suggestion: a completion SwiftUI applies itself (text or token, which the session notices and learns from),
/// or, for a whole recent search with tokens, a button that asks the session to restore it.
@MainActor
struct SuggestionRow: View {
    let suggestion: Suggestion
    let session: SearchSession

    var body: some View {
        switch suggestion.completion {
        case .text(let text):
            label.searchCompletion(text)
        case .token(let token):
            label.searchCompletion(token)
        case .query:
            // No form of `searchCompletion` sets text and tokens at once.
            Button {
                session.choose(suggestion)
            } label: {
                label
            }
        }
    }

    var label: some View {
        Label {
            VStack(alignment: .leading) {
                Text(title)
                if let subtitle = suggestion.subtitle {
                    Text(verbatim: subtitle).font(.caption).foregroundStyle(.secondary)
                }
            }
        } icon: {
            if let image = suggestion.systemImage {
                Image(systemName: image)
            }
        }
    }

    /// The title with its matched parts in bold (``Suggestion/titleRuns``).
    var title: AttributedString {
        var title = AttributedString()
        for run in suggestion.titleRuns {
            var piece = AttributedString(String(run.text))
            if run.isMatched { piece.inlinePresentationIntent = .stronglyEmphasized }
            title += piece
        }
        return title
    }
}

/// A token, in the field and among the suggested tokens.
@MainActor
struct TokenLabel: View {
    let token: SearchToken

    var body: some View {
        if let image = token.systemImage {
            Label(token.display, systemImage: image)
        } else {
            Text(verbatim: token.display)
        }
    }
}
#endif
