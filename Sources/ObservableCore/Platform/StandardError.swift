#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#endif

/// The process's standard error, for the debug warnings.
enum StandardError {
    /// Writes `text` with one system call, without touching the C `stderr` global (which strict
    /// concurrency rejects as shared mutable state).
    static func send(_ text: String) {
        var bytes = Array(text.utf8)
        _ = write(2, &bytes, bytes.count)
    }
}
