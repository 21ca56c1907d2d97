import Testing

@testable import ObservableCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a nested observation occupies: its observation within a malloc chunk of 128 bytes, its
/// token within one of 32 (BENCHMARKS.md counts the bytes; this fails as soon as a field added to
/// `PathObservation` or its bases starts a larger chunk).
@Suite("Path observation layout")
struct PathObservationLayoutTests {
    /// The size of the heap block at `address`, as the allocator rounded it: glibc's chunk (its
    /// usable bytes and the 8 of its header), Darwin's block.
    private static func blockSize(_ address: UnsafeRawPointer) -> Int {
        #if canImport(Glibc)
        // malloc.h is not part of the Glibc module: the function is looked up by name.
        typealias UsableSize = @convention(c) (UnsafeRawPointer) -> Int
        let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_usable_size")
        return unsafeBitCast(symbol, to: UsableSize.self)(address) + 8
        #else
        malloc_size(address)
        #endif
    }

    @Test("a nested observation fits 128 bytes, its token 32")
    func nestedObservationFitsItsChunk() {
        let person = Person(name: "Ann")
        person.address = Address(city: "Oslo")
        var cities: [String?] = []
        let token = person.observe(\.address?.city) { _, change in cities.append(change.newValue ?? nil) }
        person.address?.city = "Bergen"
        #expect(cities == ["Bergen"])
        #expect(Self.blockSize(token.observationAddress) <= 128)
        #expect(Self.blockSize(Unmanaged.passUnretained(token).toOpaque()) <= 32)
        token.cancel()
    }
}
