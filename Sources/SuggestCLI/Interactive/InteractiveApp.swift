import Dispatch
import Foundation
import Suggest

/// The terminal side of `suggest interactive`: reads keys from standard input, hands them to the
/// ``InteractiveController``, and draws its frame on the alternate screen — after each read, after an asynchronous
/// provider's answer and after a window size change. Everything runs on the main queue (the main actor), which
/// the ``SearchSession`` needs.
@MainActor
final class InteractiveApp {
    /// How long a lone ESC waits for the rest of an escape sequence before it counts as the Escape key.
    static let escapeDelay: DispatchTimeInterval = .milliseconds(40)

    let controller: InteractiveController
    let color: Bool
    private var screen: InteractiveScreen
    private var decoder = KeyDecoder()
    private var input: (any DispatchSourceRead)? = nil
    private var resize: (any DispatchSourceRead)? = nil
    private var finished: CheckedContinuation<Void, Never>? = nil
    /// Counts reads, so that a pending Escape is settled only if no byte came since.
    private var reads = 0
    private var redrawScheduled = false
    private var buffer = [UInt8](repeating: 0, count: 4096)

    init(controller: InteractiveController, width: Int, height: Int, color: Bool) {
        self.controller = controller
        self.color = color
        self.screen = InteractiveScreen(width: width, height: height, color: color)
    }

    /// Runs until Ctrl-C, Ctrl-D on an empty field, or the end of the input; the terminal is restored on return.
    /// - Throws: ``TerminalError`` if the terminal cannot be set up (it is then left as it was).
    func run() async throws(TerminalError) {
        try TerminalMode.enter()
        controller.onUpdate = { [weak self] in self?.setNeedsRedraw() }
        draw(clear: true)
        await withCheckedContinuation { continuation in
            finished = continuation
            let input = DispatchSource.makeReadSource(fileDescriptor: 0, queue: .main)
            input.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.readInput() } }
            input.resume()
            self.input = input
            let resize = DispatchSource.makeReadSource(fileDescriptor: TerminalMode.resizeDescriptor, queue: .main)
            resize.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.resized() } }
            resize.resume()
            self.resize = resize
        }
        controller.onUpdate = nil
        TerminalMode.leave()
    }

    private func stop() {
        input?.cancel()
        resize?.cancel()
        input = nil
        resize = nil
        finished?.resume()
        finished = nil
    }

    private func readInput() {
        let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress!, $0.count) }
        if count < 0 && (errno == EINTR || errno == EAGAIN) { return }
        guard count > 0 else { return stop() }  // end of input: the terminal went away
        reads += 1
        let keys = decoder.decode(buffer[0..<count])
        guard handle(keys) else { return }
        if !decoder.pending.isEmpty {
            let read = reads
            DispatchQueue.main.asyncAfter(deadline: .now() + Self.escapeDelay) { [weak self] in
                MainActor.assumeIsolated {
                    guard let self, self.reads == read, self.finished != nil else { return }
                    if self.handle(self.decoder.flush()) { self.draw() }
                }
            }
        }
        draw()
    }

    /// Handles `keys` in order. Returns false if one of them ended the program. While the terminal is too small
    /// (the field is not shown) only the keys that quit or redraw count: nothing is edited unseen.
    private func handle(_ keys: [Key]) -> Bool {
        for key in keys {
            if key == .control("l") {
                draw(clear: true)
                continue
            }
            if !screen.fits && key != .control("c") && key != .control("d") { continue }
            if controller.handle(key) == .quit {
                stop()
                return false
            }
        }
        return true
    }

    private func resized() {
        var drain = [UInt8](repeating: 0, count: 64)
        while drain.withUnsafeMutableBytes({ read(TerminalMode.resizeDescriptor, $0.baseAddress!, $0.count) }) > 0 {}
        draw(clear: true)
    }

    private func setNeedsRedraw() {
        guard !redrawScheduled else { return }
        redrawScheduled = true
        DispatchQueue.main.async { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                self.redrawScheduled = false
                if self.finished != nil { self.draw() }
            }
        }
    }

    /// Draws the whole frame in one write: every row rewritten and erased to its end, so nothing of the previous
    /// frame (or of a stray message) stays; the cursor is hidden while drawing and put after the field's text.
    private func draw(clear: Bool = false) {
        if let size = TerminalMode.size() {
            screen.width = size.width
            screen.height = size.height
        }
        let help = Self.help(scopes: !controller.session.scopes.isEmpty, width: screen.width)
        let (lines, cursor) = screen.render(controller.frame(help: help))
        var out = "\u{1B}[?25l"
        if clear { out += "\u{1B}[H\u{1B}[2J" }
        for (row, line) in lines.enumerated() {
            out += "\u{1B}[\(row + 1);1H" + line.rendered(color: color)
            // Erase the rest of the row; not after a full row, whose cursor waits on the last column (erasing would
            // take that column's character).
            if line.used < line.width { out += "\u{1B}[K" }
        }
        out += "\u{1B}[\(cursor.row + 1);\(cursor.column + 1)H"
        if screen.fits { out += "\u{1B}[?25h" }
        TerminalMode.write(out)
    }

    /// The help line: the keys, with what they do when that fits in `width` columns, else the keys alone (the way
    /// to quit is always shown).
    nonisolated static func help(scopes: Bool, width: Int = .max) -> String {
        let full = "↑↓ select · Tab complete · ⏎ submit · Esc clear · " + (scopes ? "^S scope · " : "") + "^C quit"
        if TerminalText.width(of: full) <= width { return full }
        return "↑↓ Tab ⏎ Esc " + (scopes ? "^S " : "") + "· ^C quit"
    }
}
