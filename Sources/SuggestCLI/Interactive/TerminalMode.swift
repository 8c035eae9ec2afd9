import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The terminal on standard input and output switched to what a full-screen program needs — raw input (no echo,
/// no line editing, Ctrl-C and Ctrl-Z as bytes), the alternate screen, bracketed paste — and back exactly as it was.
///
/// The way back runs on every way out: ``leave()`` on a normal exit, `atexit`, and a signal handler for the
/// signals that end the process (SIGTERM, SIGINT, SIGHUP, SIGQUIT) and for the crashes (SIGSEGV, SIGBUS, SIGILL,
/// SIGTRAP, SIGFPE, SIGABRT — a Swift runtime trap is one of these). The handler restores the terminal with
/// async-signal-safe calls only (`tcsetattr`, `write`), puts back the handler that was there before (the default
/// one, or the Swift runtime's backtracer) and raises the signal again, so the process still ends as it would have
/// — with the same status, crash report and core dump.
///
/// Everything the handler reads is stored before it is installed, in memory that is never freed or moved.
enum TerminalMode {
    /// The terminal settings found at ``enter()``.
    nonisolated(unsafe) private static let original = UnsafeMutablePointer<termios>.allocate(capacity: 1)
    /// Whether the terminal is in this program's mode (and must be restored).
    private static let active = Atomic<Bool>(false)
    /// What ``enter()`` writes: the alternate screen, bracketed paste on, the screen cleared.
    static let enterSequence = "\u{1B}[?1049h\u{1B}[?2004h\u{1B}[H\u{1B}[2J"
    /// What the way back writes: attributes reset, bracketed paste off, cursor shown, the alternate screen left.
    static let leaveSequence = "\u{1B}[0m\u{1B}[?2004l\u{1B}[?25h\u{1B}[?1049l"
    nonisolated(unsafe) private static let leaveBytes: UnsafeMutableBufferPointer<UInt8> = {
        let bytes = Array(leaveSequence.utf8)
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        _ = buffer.initialize(from: bytes)
        return buffer
    }()
    /// The handlers in place before ``enter()``, by signal number.
    nonisolated(unsafe) private static let previousActions = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
    /// The signals whose arrival restores the terminal before the process ends.
    static let endingSignals: [Int32] = [
        SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT,
    ]
    /// A pipe a SIGWINCH handler writes one byte to (its read end is ``resizeDescriptor``).
    nonisolated(unsafe) private static let resizePipe = UnsafeMutablePointer<Int32>.allocate(capacity: 2)

    /// The read end of the pipe that gets a byte at each window size change.
    static var resizeDescriptor: Int32 { resizePipe[0] }

    /// Whether standard input and standard output are both terminals.
    static var isInteractive: Bool { isatty(0) == 1 && isatty(1) == 1 }

    /// The terminal's size in columns and rows (nil if it cannot be read).
    static func size() -> (width: Int, height: Int)? {
        var size = winsize()
        guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// Raw mode, the alternate screen and bracketed paste; the handlers that restore them on the way out.
    /// - Throws: an error naming the call that failed (the terminal is then left as it was).
    static func enter() throws(TerminalError) {
        guard tcgetattr(0, original) == 0 else { throw TerminalError("tcgetattr", errno) }
        _ = leaveBytes.count  // initialized now, not inside a signal handler
        guard pipe(resizePipe) == 0 else { throw TerminalError("pipe", errno) }
        for descriptor in [resizePipe[0], resizePipe[1]] {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        var raw = original.pointee
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_cflag |= tcflag_t(CS8)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        installHandlers()
        active.store(true, ordering: .sequentiallyConsistent)
        guard tcsetattr(0, TCSADRAIN, &raw) == 0 else {
            let code = errno
            active.store(false, ordering: .sequentiallyConsistent)
            throw TerminalError("tcsetattr", code)
        }
        write(enterSequence)
    }

    /// Restores the terminal now (idempotent; also what the handlers and `atexit` do).
    static func leave() {
        restore()
    }

    /// The way back: async-signal-safe (an atomic exchange, `write`, `tcsetattr`), done once however many paths
    /// get here.
    private static func restore() {
        guard active.exchange(false, ordering: .sequentiallyConsistent) else { return }
        var written = 0
        while written < leaveBytes.count {
            let n = systemWrite(1, leaveBytes.baseAddress! + written, leaveBytes.count - written)
            if n > 0 {
                written += n
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                break
            }
        }
        while tcsetattr(0, TCSADRAIN, original) != 0 && errno == EINTR {}
    }

    private static func installHandlers() {
        for signal in endingSignals {
            var action = sigaction()
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_SIGINFO
            setHandler(&action) { signal, info, _ in
                TerminalMode.restore()
                TerminalMode.passOn(signal, info)
            }
            sigaction(signal, &action, previousActions + Int(signal))
        }
        var resize = sigaction()
        sigemptyset(&resize.sa_mask)
        resize.sa_flags = SA_RESTART
        setHandler(&resize) { _, _, _ in
            var byte: UInt8 = 0
            _ = systemWrite(TerminalMode.resizePipe[1], &byte, 1)
        }
        sigaction(SIGWINCH, &resize, nil)
        atexit { TerminalMode.restore() }
    }

    /// After the terminal is restored, lets `signal` do what it would have done without this program's handler.
    /// - A fault (the kernel's SIGSEGV, SIGILL of a Swift trap…): the previous handler is put back and the handler
    ///   returns; the faulting instruction runs again and faults into it (the Swift backtracer, or the default).
    /// - A crash signal another process sent (`kill -SEGV`): the default action, raised again — there is no fault
    ///   to trace, and a backtracer's handler would return to the program.
    /// - Any other (SIGTERM, `abort()`): the previous handler, raised again; delivered when this one returns.
    private static func passOn(_ signal: Int32, _ info: UnsafeMutablePointer<siginfo_t>?) {
        let isCrash = signal != SIGTERM && signal != SIGINT && signal != SIGHUP && signal != SIGQUIT
        // si_code > 0: raised by the kernel for a fault; <= 0: sent by a process (kill, raise, abort).
        if isCrash && (info?.pointee.si_code ?? 0) > 0 {
            sigaction(signal, previousActions + Int(signal), nil)
            return
        }
        #if canImport(Glibc)
            let sender = info?.pointee._sifields._kill.si_pid ?? 0
        #else
            let sender = info?.pointee.si_pid ?? 0
        #endif
        if isCrash && sender != getpid() {
            var fallback = sigaction()
            sigemptyset(&fallback.sa_mask)
            #if canImport(Glibc)
                fallback.__sigaction_handler.sa_handler = SIG_DFL
            #else
                fallback.__sigaction_u.__sa_handler = SIG_DFL
            #endif
            sigaction(signal, &fallback, nil)
        } else {
            sigaction(signal, previousActions + Int(signal), nil)
        }
        raise(signal)
    }

    private static func setHandler(
        _ action: inout sigaction,
        _ handler: @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void
    ) {
        #if canImport(Glibc)
            action.__sigaction_handler.sa_sigaction = handler
        #else
            action.__sigaction_u.__sa_sigaction = handler
        #endif
        action.sa_flags |= SA_SIGINFO
    }

    /// Writes `text` to standard output, all of it (a full screen can take more than one `write(2)`).
    static func write(_ text: String) {
        Console.write(text, to: 1, newline: false)
    }
}

/// `write(2)`, named so that it is not taken for ``TerminalMode/write(_:)``.
@inline(__always)
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}

/// A terminal call that failed.
struct TerminalError: Error, CustomStringConvertible {
    let call: String
    let code: Int32

    init(_ call: String, _ code: Int32) {
        self.call = call
        self.code = code
    }

    var description: String { "cannot set up the terminal: \(call): \(String(cString: strerror(code)))" }
}
