/// Who searched, as the popular-searches store keeps it: 32 bits of SipHash-2-4 of the user id under the store's
/// own random salt. The store never holds a user id; the same id gives different hashes in stores with different
/// salts, so two stores cannot be joined on it. 32 bits suffice to count distinct users up to a few thousand (two
/// ids share a hash with a chance of about 1 in 4 billion).
struct UserHash: Sendable {
    /// The salt: SipHash's 128-bit key.
    let k0: UInt64
    let k1: UInt64

    init(k0: UInt64, k1: UInt64) {
        self.k0 = k0
        self.k1 = k1
    }

    /// A new random salt.
    static func random() -> UserHash {
        var generator = SystemRandomNumberGenerator()
        return UserHash(k0: generator.next(), k1: generator.next())
    }

    /// The salt as 32 lowercase hex digits (how the store file keeps it).
    var hex: String {
        func digits(_ v: UInt64) -> String {
            let s = String(v, radix: 16)
            return String(repeating: "0", count: 16 - s.count) + s
        }
        return digits(k0) + digits(k1)
    }

    /// The salt written by ``hex``, or nil when `text` is not 32 hex digits.
    init?(hex text: String) {
        let utf8 = Array(text.utf8)
        guard utf8.count == 32, utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }),
            let a = UInt64(String(decoding: utf8[0..<16], as: UTF8.self), radix: 16),
            let b = UInt64(String(decoding: utf8[16..<32], as: UTF8.self), radix: 16)
        else { return nil }
        self.init(k0: a, k1: b)
    }

    /// The 32-bit hash of `user`.
    func hash(_ user: String) -> UInt32 {
        var user = user
        let full = user.withUTF8 { siphash24(UnsafeRawBufferPointer($0)) }
        return UInt32(truncatingIfNeeded: full ^ (full >> 32))
    }

    /// SipHash-2-4 (Aumasson and Bernstein) of `bytes` under (k0, k1).
    func siphash24(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var v0: UInt64 = 0x736f_6d65_7073_6575 ^ k0
        var v1: UInt64 = 0x646f_7261_6e64_6f6d ^ k1
        var v2: UInt64 = 0x6c79_6765_6e65_7261 ^ k0
        var v3: UInt64 = 0x7465_6462_7974_6573 ^ k1
        @inline(__always) func round() {
            v0 &+= v1; v1 = v1.rotl(13); v1 ^= v0; v0 = v0.rotl(32)
            v2 &+= v3; v3 = v3.rotl(16); v3 ^= v2
            v0 &+= v3; v3 = v3.rotl(21); v3 ^= v0
            v2 &+= v1; v1 = v1.rotl(17); v1 ^= v2; v2 = v2.rotl(32)
        }
        let count = bytes.count
        var i = 0
        while i + 8 <= count {
            var m: UInt64 = 0
            for j in 0..<8 { m |= UInt64(bytes[i + j]) << UInt64(8 * j) }
            v3 ^= m
            round()
            round()
            v0 ^= m
            i += 8
        }
        var last = UInt64(truncatingIfNeeded: count) << 56
        for j in 0..<(count - i) { last |= UInt64(bytes[i + j]) << UInt64(8 * j) }
        v3 ^= last
        round()
        round()
        v0 ^= last
        v2 ^= 0xff
        round()
        round()
        round()
        round()
        return v0 ^ v1 ^ v2 ^ v3
    }
}

extension UInt64 {
    @inline(__always) fileprivate func rotl(_ n: UInt64) -> UInt64 { (self << n) | (self >> (64 - n)) }
}
