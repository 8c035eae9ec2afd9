import Foundation
import Testing
import SuggestTestSupport

/// A shell in a detached tmux session of a given size, on a tmux server of its own (a unique `-L` socket, so tests
/// run in parallel), for driving `suggest interactive` as a person would: type keys, read the screen.
///
/// tmux is required under `CI=true` (`.ci/run` installs it): there a missing tmux fails the tests that need it;
/// elsewhere they are skipped, saying why.
final class TmuxPane {
    /// The prompt of the pane's shell.
    static let prompt = "PROMPT$ "
    /// The prompt as `capture-pane` shows it on an empty command line (trailing spaces are not kept).
    static let promptMark = "PROMPT$"

    static let executable: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/tmux"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }()

    static var isRequired: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// For `@Test(.enabled(if: TmuxPane.canRun, …))`: tmux is there, or it must be (CI), and the test then fails
    /// when it is not.
    static var canRun: Bool { executable != nil || isRequired }

    let socket = "suggest-test-\(UUID().uuidString.prefix(8))"
    let tmux: String
    /// A folder of the test's own (for `stty -a` dumps, configurations with a recents store).
    let folder: String

    /// Starts `sh` with a known prompt in a `width`×`height` pane, in ``folder``. `environment` is set in the shell
    /// (a nil value unsets the variable); `NO_COLOR` is unset unless given.
    init(width: Int = 80, height: Int = 24, environment: [String: String?] = [:]) throws {
        guard let tmux = Self.executable else {
            throw TmuxError("tmux is not installed (CI=true requires it: .ci/run installs it with apt-get)")
        }
        self.tmux = tmux
        folder = TestFolders.unique("suggest-interactive-")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var variables: [String: String?] = ["NO_COLOR": nil, "PS1": Self.prompt, "ENV": nil, "HISTFILE": nil]
        for (key, value) in environment { variables.updateValue(value, forKey: key) }
        var command = ["env"]
        for (key, value) in variables.sorted(by: { $0.key < $1.key }) {
            if let value { command.append("\(key)=\(value)") } else { command += ["-u", key] }
        }
        command.append("sh")
        try startServer([
            "new-session", "-d", "-x", "\(width)", "-y", "\(height)", "-s", "test", "-c", folder,
            command.map(Self.quoted).joined(separator: " "),
        ])
        // tmux otherwise waits to tell a lone Escape from the start of a sequence it reads from a client; keys sent
        // with send-keys do not need it.
        _ = try? run(["set-option", "-s", "escape-time", "0"])
        try waitFor("the shell's prompt") { $0.contains(Self.promptMark) }
    }

    deinit {
        _ = try? run(["kill-server"])
        // A killed server leaves its socket behind.
        let sockets = (ProcessInfo.processInfo.environment["TMUX_TMPDIR"] ?? "/tmp") + "/tmux-\(getuid())"
        try? FileManager.default.removeItem(atPath: sockets + "/" + socket)
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Types `text` literally and presses Enter: a command line for the shell.
    func enter(_ command: String) throws {
        try type(command)
        try press("Enter")
    }

    /// Types `text` literally (no key names).
    func type(_ text: String) throws {
        _ = try run(["send-keys", "-t", "test", "-l", text])
    }

    /// Presses keys by their tmux names: `Up`, `Down`, `Tab`, `Enter`, `Escape`, `BSpace`, `C-c`, `F5`, `M-x`…
    func press(_ keys: String...) throws {
        _ = try run(["send-keys", "-t", "test"] + keys)
    }

    /// The screen's text, one string per row (`escapes`: with the attributes as SGR escape sequences).
    func screen(escapes: Bool = false) throws -> String {
        try run(["capture-pane", "-p", "-t", "test"] + (escapes ? ["-e"] : []))
    }

    /// The screen's rows, trailing blanks dropped.
    func rows() throws -> [String] {
        var screen = try screen()
        if screen.last == "\n" { screen.removeLast() }
        return screen.split(separator: "\n", omittingEmptySubsequences: false).map {
            var row = String($0)
            while row.last == " " { row.removeLast() }
            return row
        }
    }

    /// Polls the screen every 20 ms until `condition` holds; after `timeout` seconds, throws with the last screen.
    @discardableResult
    func waitFor(
        _ what: String, timeout: Double = 15, escapes: Bool = false, _ condition: (String) -> Bool
    ) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        while true {
            last = try screen(escapes: escapes)
            if condition(last) { return last }
            if Date() > deadline { throw TmuxError("timed out waiting for \(what); the screen:\n\(last)") }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    /// Waits until the screen shows `text`.
    @discardableResult
    func waitFor(_ text: String, timeout: Double = 15) throws -> String {
        try waitFor("\"\(text)\"", timeout: timeout) { $0.contains(text) }
    }

    /// Waits until `row` (0-based, trailing blanks dropped) is `text`.
    func waitFor(row: Int, toBe text: String, timeout: Double = 15) throws {
        try waitFor("row \(row) to be \"\(text)\"", timeout: timeout) { screen in
            let rows = screen.split(separator: "\n", omittingEmptySubsequences: false)
            guard row < rows.count else { return false }
            var line = String(rows[row])
            while line.last == " " { line.removeLast() }
            return line == text
        }
    }

    /// Starts `suggest interactive ARGUMENTS` in the shell and waits for its help line.
    func startInteractive(_ arguments: [String], environment: String = "") throws {
        let command = ([CLIRunner.executable.path, "interactive"] + arguments).map(Self.quoted).joined(separator: " ")
        try enter(environment + command)
        try waitFor("^C quit")
    }

    /// The shell's last command's exit status: runs `echo` in the shell and reads it from the screen (the command
    /// may be typed while the program still exits, so its output may follow a prompt on the same row).
    func lastStatus() throws -> Int32 {
        let marker = "status-\(UUID().uuidString.prefix(6))="
        try enter("echo \(marker)$?")
        func status(in screen: String) -> Int32? {
            guard let range = screen.range(of: marker + #"[0-9]+"#, options: .regularExpression) else { return nil }
            return Int32(screen[range].dropFirst(marker.count))
        }
        return status(in: try waitFor("the exit status") { status(in: $0) != nil })!
    }

    /// The process id of the program the shell runs in the foreground.
    func foregroundProcess() throws -> Int32 {
        let shell = try run(["display-message", "-p", "-t", "test", "#{pane_pid}"]).trimmingCharacters(
            in: .whitespacesAndNewlines)
        let children = try FileManager.default.contentsOfDirectory(atPath: "/proc").compactMap { Int32($0) }.filter {
            pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
            // pid (comm) state ppid …: the command name may hold spaces, the fields after ")" do not.
            let fields = stat[stat.range(of: ")", options: .backwards)!.upperBound...].split(separator: " ")
            return fields.count > 1 && String(fields[1]) == shell
        }
        guard let child = children.first else { throw TmuxError("no program runs in the pane's shell \(shell)") }
        return child
    }

    func resize(width: Int, height: Int) throws {
        _ = try run(["resize-window", "-t", "test", "-x", "\(width)", "-y", "\(height)"])
    }

    /// Pastes `text` as a terminal does when the program asked for bracketed paste.
    func paste(_ text: String) throws {
        _ = try run(["set-buffer", "-b", "test", "--", text])
        _ = try run(["paste-buffer", "-p", "-d", "-b", "test", "-t", "test"])
    }

    /// Runs `tmux -L SOCKET arguments…`, a command that starts the server, with nothing open but /dev/null as
    /// standard input, output and error (Linux: the descriptors are listed in /proc). The server daemonizes with the
    /// client's descriptors: started by `Process`, it would keep the one Foundation watches to see the client exit
    /// (and `waitUntilExit` would wait for the server), and any pipe another test has open at that moment.
    func startServer(_ arguments: [String]) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // Every other descriptor closed (glibc ignores closing one that is not open): those open now, and room for
        // those another test may open meanwhile.
        let open =
            (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap { Int32($0) }) ?? []
        for descriptor in 3..<((open.max() ?? 1024) + 256) {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
        let argv = ([tmux, "-L", socket, "-f", "/dev/null"] + arguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        // No signal blocked or ignored: this thread blocks some (a dispatch worker), and a server that inherits the
        // mask never sees SIGCHLD, so `kill-server` leaves it waiting for its panes for ever.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let code = posix_spawn(&pid, tmux, &actions, &attributes, argv + [nil], environ)
        guard code == 0 else { throw TmuxError("cannot start tmux: \(String(cString: strerror(code)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    }

    /// Runs `tmux -L SOCKET arguments…` and returns its standard output.
    @discardableResult
    func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tmux)
        process.arguments = ["-L", socket] + arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let error = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TmuxError(
                "tmux \(arguments.joined(separator: " ")): status \(process.terminationStatus): "
                    + String(decoding: error, as: UTF8.self))
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// `text` in single quotes for `sh`.
    static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

struct TmuxError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
