/// A key path as its user wrote it, for the library's descriptions.
///
/// The runtime describes an `@Observed` property's component as `<computed 0x… (Type)>` where it
/// cannot find the accessor's symbol (on Linux): the macro makes every `@Observed` property
/// computed. A key path learnt to be exactly one `@Observed` property of a class that
/// `@KeyValueObservable` lists is named as its list names the slot, once an instance has told where
/// the slots are; a string key path's stand-in is the string, quoted; any other is the runtime's
/// description.
enum KeyPathDescription {
    static func of(_ keyPath: AnyKeyPath, rootType: AnyClass) -> String {
        if let name = StringKeyPathNames.name(of: keyPath) { return "\"\(name)\"" }
        if let offset = KeyPathResolutions.shared.knownSlotOffset(keyPath, rootType: rootType) ?? nil,
            let name = ListedProperties.of(rootType)?.name(ofSlotAt: offset)
        {
            return "\\\(rootType).\(name)"
        }
        return String(describing: keyPath)
    }
}

/// `keyPath` as this library's descriptions write it (`\Person.name`, `"address.city"`), for
/// ObservableCoreTesting's recorder. Not API: its spelling may change with any release.
@_spi(Testing)
public func _describeKeyPath(_ keyPath: AnyKeyPath, rootType: AnyClass) -> String {
    KeyPathDescription.of(keyPath, rootType: rootType)
}

/// Learns where `object`'s listed slots are, so that `_describeKeyPath` names the key paths of its
/// class, for ObservableCoreTesting's recorder. Not API.
@_spi(Testing)
public func _learnSlotNames(of object: AnyObject) {
    ListedProperties.learnSlots(of: object)
}
