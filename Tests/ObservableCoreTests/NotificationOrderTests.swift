import ObservableCore
import Testing

private final class Holder: KeyValueObservable {
    @Observed var child: Address?
}

private final class OrderViewer {
    lazy var observations = ObservationController(observer: self)
}

/// The documented rule: a property's observers on one object are called in the order they joined
/// that property's list on that object; a nested path joins it when it moves onto the object.
@Suite("Order between the observations of one property")
struct NotificationOrderTests {
    @Test("tokens and controller observations are called in the order they were registered")
    func registrationOrder() {
        let address = Address()
        var order: [String] = []
        let viewer = OrderViewer()
        let first = address.observe(\.city) { _, _ in order.append("token 1") }
        viewer.observations.observe(address, \.city) { _, _, _ in order.append("controller") }
        let last = address.observe(\.city) { _, _ in order.append("token 2") }
        address.city = "Oslo"
        #expect(order == ["token 1", "controller", "token 2"])
        withExtendedLifetime((first, last)) {}
    }

    @Test("a path that moves onto an object joins the end of its list: after what was registered there meanwhile")
    func pathJoinsOnMove() {
        let holder = Holder()
        let before = Address()
        let target = Address()
        holder.child = before
        var order: [String] = []
        let path = holder.observe(\.child?.city) { _, _ in order.append("path") }
        let direct = target.observe(\.city) { _, _ in order.append("direct on target") }
        holder.child = target
        order.removeAll()
        target.city = "Oslo"
        #expect(order == ["direct on target", "path"])

        // Moving back onto an object it left makes it join that list anew, at the end.
        let onBefore = before.observe(\.city) { _, _ in order.append("direct on before") }
        holder.child = before
        order.removeAll()
        before.city = "Rome"
        #expect(order == ["direct on before", "path"])
        withExtendedLifetime((path, direct, onBefore)) {}
    }

    @Test("a path that stays on an object keeps its place when an intermediate is set to the same object")
    func pathKeepsPlace() {
        let holder = Holder()
        let target = Address()
        holder.child = target
        var order: [String] = []
        let path = holder.observe(\.child?.city) { _, _ in order.append("path") }
        let direct = target.observe(\.city) { _, _ in order.append("direct") }
        holder.child = target
        order.removeAll()
        target.city = "Oslo"
        #expect(order == ["path", "direct"])
        withExtendedLifetime((path, direct)) {}
    }
}
