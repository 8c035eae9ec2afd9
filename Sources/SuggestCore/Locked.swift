#if SUGGEST_TSAN_VISIBLE_LOCKS
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A value behind a pthread mutex. Only built with `-Xswiftc -DSUGGEST_TSAN_VISIBLE_LOCKS`, for thread-sanitizer
/// runs on Linux: `Synchronization.Mutex` locks there with futexes inside the (uninstrumented) standard library, so
/// ThreadSanitizer does not see it and reports every access it protects as a race. The pthread mutex gives the same
/// exclusion and TSan understands it.
package final class Locked<Value: Sendable>: @unchecked Sendable {
    // Safe to share: `value` is only read or written while `mutex` is held.
    private var value: Value
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    package init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    package func withLock<Result: Sendable, E: Error>(_ body: (inout Value) throws(E) -> Result) throws(E) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
#else
import Synchronization

/// A value behind a `Synchronization.Mutex`.
///
/// Thread-sanitizer runs on Linux build with `-Xswiftc -DSUGGEST_TSAN_VISIBLE_LOCKS`, which swaps in a pthread mutex
/// that ThreadSanitizer understands (it cannot see `Mutex`'s futex there and reports false races).
package final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    package init(_ value: sending Value) {
        mutex = Mutex(value)
    }

    package func withLock<Result: Sendable, E: Error>(_ body: (inout sending Value) throws(E) -> Result) throws(E) -> Result {
        try mutex.withLock { (value: inout sending Value) throws(E) -> Result in try body(&value) }
    }
}
#endif
