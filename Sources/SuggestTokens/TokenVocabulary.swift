public import SuggestCore

/// Words and phrases that become tokens of their kind ("Chicken" → `ingredient:Chicken`), matched case- and
/// diacritic-insensitively ("crème brûlée" = "Creme Brulee"), multi-word entries included ("Sweet Potato").
///
/// A flat byte trie over the folded entries (see `TextNormalizer`): one array per field, linked by index.
public struct TokenVocabulary: Sendable {
    /// The tokens, in the order they were added; an entry whose folded text was already present is skipped.
    public private(set) var tokens: [SearchToken] = []
    /// Folded length of each entry.
    var foldedLengths: [Int32] = []
    /// Trie nodes: the byte on the edge into the node, first child, next sibling, entry index or -1.
    var edgeByte: [UInt8] = [0]
    var firstChild: [Int32] = [-1]
    var nextSibling: [Int32] = [-1]
    var terminal: [Int32] = [-1]
    /// Child of the root for each first byte (-1 if none).
    var rootChildren = [Int32](repeating: -1, count: 256)
    /// The longest folded entry, in bytes.
    public private(set) var maximumLength = 0

    public init() {}

    /// A vocabulary from `(kind, values)` pairs, in order.
    public init(_ kinds: KeyValuePairs<String, [String]>, systemImages: [String: String] = [:]) {
        for (kind, values) in kinds {
            for value in values { add(SearchToken(kind: kind, value: value, systemImage: systemImages[kind])) }
        }
    }

    public var isEmpty: Bool { tokens.isEmpty }
    public var count: Int { tokens.count }

    /// Adds `token`, matched by its value; returns false when an entry with the same folded text is already there
    /// (the first one wins) or the value folds to nothing.
    @discardableResult
    public mutating func add(_ token: SearchToken) -> Bool {
        let folded = Self.fold(token.value)
        guard !folded.isEmpty else { return false }
        var node: Int32 = 0
        for byte in folded {
            if let child = child(of: node, byte) {
                node = child
                continue
            }
            let new = Int32(edgeByte.count)
            edgeByte.append(byte)
            firstChild.append(-1)
            terminal.append(-1)
            if node == 0 {
                nextSibling.append(-1)
                rootChildren[Int(byte)] = new
            } else {
                nextSibling.append(firstChild[Int(node)])
                firstChild[Int(node)] = new
            }
            node = new
        }
        guard terminal[Int(node)] < 0 else { return false }
        terminal[Int(node)] = Int32(tokens.count)
        tokens.append(token)
        foldedLengths.append(Int32(folded.count))
        maximumLength = max(maximumLength, folded.count)
        return true
    }

    /// The entry whose folded text is `folded` exactly.
    func lookup(_ folded: some Collection<UInt8>) -> SearchToken? {
        var node: Int32 = 0
        for byte in folded {
            guard let next = child(of: node, byte) else { return nil }
            node = next
        }
        let entry = terminal[Int(node)]
        return entry >= 0 ? tokens[Int(entry)] : nil
    }

    /// The entry for `text` (folded first).
    public func token(for text: String) -> SearchToken? { lookup(Self.fold(text)) }

    @inline(__always)
    func child(of node: Int32, _ byte: UInt8) -> Int32? {
        if node == 0 {
            let child = rootChildren[Int(byte)]
            return child >= 0 ? child : nil
        }
        var child = firstChild[Int(node)]
        while child >= 0 {
            if edgeByte[Int(child)] == byte { return child }
            child = nextSibling[Int(child)]
        }
        return nil
    }

    /// Entries below `node` (at most `cap`), shortest first then in the order they were added.
    func entries(below node: Int32, cap: Int) -> [Int] {
        var found: [Int] = []
        var stack: [Int32] = [node]
        while let n = stack.popLast(), found.count < cap {
            if terminal[Int(n)] >= 0 { found.append(Int(terminal[Int(n)])) }
            var child = firstChild[Int(n)]
            while child >= 0 {
                stack.append(child)
                child = nextSibling[Int(child)]
            }
        }
        found.sort { (foldedLengths[$0], $0) < (foldedLengths[$1], $1) }
        return found
    }

    /// Folded bytes with every run of spaces inside collapsed to one and trimmed at both ends
    /// (`TextNormalizer.collapsedKey`).
    static func fold(_ text: String) -> [UInt8] { TextNormalizer.collapsedKey(text) }
}
