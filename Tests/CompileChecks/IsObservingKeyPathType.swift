// expect-error: cannot convert value of type 'Person' to expected argument type 'Address'
import ObservableCore

final class Person: KeyValueObservable {
    @Observed var name = ""
}

final class Address: KeyValueObservable {
    @Observed var city = ""
}

final class View {}

func check(_ controller: ObservationController<View>, _ person: Person) -> Bool {
    // A key path of another class is refused, as unobserve refuses it.
    controller.isObserving(person, \Address.city)
}
