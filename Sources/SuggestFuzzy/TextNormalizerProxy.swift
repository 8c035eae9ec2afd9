import SuggestCore

/// The core's separator table, called from the hot loops of this module.
enum TextNormalizerProxy {
    @inline(__always)
    static func isSeparator(_ b: UInt8) -> Bool { TextNormalizer.isSeparator(b) }
}
