/// The keys next to each letter and digit on a QWERTY keyboard: where a finger that misses lands.
enum KeyboardNeighbours {
    static let rows: [[Character]] = ["1234567890", "qwertyuiop", "asdfghjkl", "zxcvbnm"].map(Array.init)

    /// For each lowercase key: the keys beside it in its row, and the nearest ones in the rows above and below (rows
    /// are staggered by about half a key, so a key touches two keys of the next row).
    static let table: [Character: [Character]] = {
        var table: [Character: [Character]] = [:]
        for (r, row) in rows.enumerated() {
            for (c, key) in row.enumerated() {
                var near: [Character] = []
                if c > 0 { near.append(row[c - 1]) }
                if c + 1 < row.count { near.append(row[c + 1]) }
                if r > 0 {
                    let above = rows[r - 1]
                    for k in [c, c + 1] where k < above.count { near.append(above[k]) }
                }
                if r + 1 < rows.count {
                    let below = rows[r + 1]
                    for k in [c - 1, c] where k >= 0 && k < below.count { near.append(below[k]) }
                }
                table[key] = near
            }
        }
        return table
    }()

    /// The keys next to `character` (an uppercase letter gets uppercase neighbours), or none for a character that
    /// is not a letter or digit of the keyboard.
    static func of(_ character: Character) -> [Character] {
        let lower = Character(character.lowercased())
        guard let near = table[lower] else { return [] }
        guard character != lower, character.isLetter else { return near }
        return near.map { Character($0.uppercased()) }
    }
}
