/// What a plan keeps for its observations' re-wires to reuse: cells for the path's values
/// (`ValueBox`) and a buffer for an evaluation's reads (`AccessRecord`). Made at the first re-wire.
final class RewireSpares: Sendable {
    let cells = SpareCells()
    let accesses = SpareAccessRecord()
}
