/// A fast 64-bit hash of bytes (four independent multiply–rotate lanes over 8-byte words), for index file
/// checksums and dictionary fingerprints. Not cryptographic.
enum Checksum {
    static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> UInt64 {
        let p1: UInt64 = 0x9E37_79B1_85EB_CA87
        let p2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
        var a = seed &+ p1, b = seed &+ p2, c = seed, d = seed &- p1
        let n = bytes.count
        var i = 0
        @inline(__always) func round(_ acc: UInt64, _ word: UInt64) -> UInt64 {
            var x = acc &+ word &* p2
            x = (x << 31) | (x >> 33)
            return x &* p1
        }
        while i + 32 <= n {
            a = round(a, bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            b = round(b, bytes.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self))
            c = round(c, bytes.loadUnaligned(fromByteOffset: i + 16, as: UInt64.self))
            d = round(d, bytes.loadUnaligned(fromByteOffset: i + 24, as: UInt64.self))
            i += 32
        }
        var h = ((a << 1) | (a >> 63)) &+ ((b << 7) | (b >> 57)) &+ ((c << 12) | (c >> 52)) &+ ((d << 18) | (d >> 46))
        h = h &+ UInt64(n)
        while i + 8 <= n {
            h = round(h, bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self))
            i += 8
        }
        while i < n {
            h = (h ^ UInt64(bytes[i])) &* p1
            i += 1
        }
        h ^= h >> 33
        h = h &* p2
        h ^= h >> 29
        return h
    }
}
