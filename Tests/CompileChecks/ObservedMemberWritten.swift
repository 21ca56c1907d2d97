// expect-error: '@_ObservedMember' is written by '@KeyValueObservable' on the class; write '@Observed' instead
// expect-error-count: 1
// The mark @KeyValueObservable gives the properties whose storage it declares, written by hand on a
// class without the attribute: one error naming the attribute to write instead.
import ObservableCore

final class Person: KeyValueObservable {
    @_ObservedMember var name = ""
}
