import Dispatch

/// Two pieces of work at once, for the index builds (the project's machines have two cores or more).
package enum Parallel {
    /// Runs `first` and `second` on two threads when the machine has more than one core (else one after the
    /// other) and returns when both have finished. They must not write to memory that the other reads or writes.
    /// - Parameter parallel: false runs them one after the other on the calling thread (for small inputs, where
    ///   starting a thread costs more than it saves).
    package static func run(if parallel: Bool = true, _ first: () -> Void, and second: () -> Void) {
        guard parallel else {
            first()
            second()
            return
        }
        withoutActuallyEscaping(first) { first in
            withoutActuallyEscaping(second) { second in
                let work = Work(first: first, second: second)
                DispatchQueue.concurrentPerform(iterations: 2) { task in
                    if task == 0 { work.first() } else { work.second() }
                }
            }
        }
    }

    /// The two closures, handed to the worker threads. `@unchecked Sendable`: each closure runs on exactly one
    /// thread, both have returned before ``run(_:and:)`` returns (so nothing they capture outlives the call), and
    /// the caller guarantees that they touch disjoint memory.
    private struct Work: @unchecked Sendable {
        let first: () -> Void
        let second: () -> Void
    }
}
