// expect-error: '@Observed(skipsEqualValues: true)' needs an Equatable value or a class reference
import ObservableCore

struct Point {
    var x = 0
}

final class Marker: KeyValueObservable {
    @Observed(skipsEqualValues: true) var point = Point()
}
