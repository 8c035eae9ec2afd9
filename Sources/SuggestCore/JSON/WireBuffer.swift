/// A growable byte buffer written through a raw pointer: the buffer of ``JSONBytes`` (the `suggest batch` answers). `Array.append` checks
/// uniqueness and goes through generic code on every call, which costs more than the JSON itself on answers made of
/// many short pieces; here an append is a capacity check and a copy. Its appends are inlinable, so that writers in other modules (the wire formats) pay no call per byte.
///
/// Noncopyable: the storage has one owner, which frees it (no reference counting on the hot path). For the same
/// reason it is `Sendable`: sending it moves the only owner, so no memory is ever shared.
public struct WireBuffer: ~Copyable, @unchecked Sendable {
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @usableFromInline var capacity: Int
    /// The number of bytes written (`count`), settable by the inlinable appends.
    @usableFromInline var written = 0

    /// The bytes written so far.
    public var count: Int { written }

    public init(capacity: Int = 4096) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// Makes room for `extra` more bytes.
    @inlinable @inline(__always)
    mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(count + extra) }
    }

    @usableFromInline
    mutating func grow(_ needed: Int) {
        let newCapacity = max(needed, capacity * 2)
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.initialize(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    @inlinable @inline(__always)
    public mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        written += 1
    }

    @inlinable @inline(__always)
    public mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        reserve(bytes.count)
        (base + count).initialize(from: source, count: bytes.count)
        written += bytes.count
    }

    public mutating func append(contentsOf bytes: UnsafeRawBufferPointer) {
        append(contentsOf: bytes.assumingMemoryBound(to: UInt8.self))
    }

    /// Forgets the contents; the capacity stays.
    public mutating func removeAll() { written = 0 }

    /// The contents, valid only inside `body`.
    public func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    public var string: String { withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) } }
}
