import HostileServerKit
import Testing

@Suite("The hostile-server kit's modes")
struct HostileModeCatalogTests {
    @Test("every mode has a name of its own")
    func namesAreUnique() {
        let names = HostileMode.all.map(\.name)
        #expect(Set(names).count == names.count, "repeated: \(Dictionary(grouping: names) { $0 }.filter { $0.value.count > 1 }.keys.sorted())")
    }

    @Test("every category has modes, and every operation is attacked")
    func everyCategoryAndOperation() {
        for category in HostileMode.Category.allCases {
            #expect(HostileMode.all.contains { $0.category == category }, "no mode in \(category)")
        }
        for operation in HostileOperation.allCases {
            #expect(HostileMode.all.contains { $0.operation == operation }, "no mode attacks \(operation)")
        }
    }

    @Test("every invariant is checked by some mode")
    func everyInvariant() {
        for invariant in HostileInvariant.allCases {
            #expect(HostileMode.all.contains { $0.invariants.contains(invariant) }, "no mode checks \(invariant)")
        }
    }
}
