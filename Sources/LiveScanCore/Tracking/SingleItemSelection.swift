import Foundation

/// `recognizesMultipleItems == false`: of everything tracked, show one item, the one nearest the centre
/// of the region of interest, and keep it until it leaves; then the next nearest is added.
package struct SingleItemSelection: Sendable {
    package private(set) var selected: UUID?

    package init() {}

    /// Narrows one frame's changes and item list to the selected item.
    package mutating func narrow(_ changes: TrackerChanges, allItems: [RecognizedItem], center: Point)
        -> (changes: TrackerChanges, items: [RecognizedItem])
    {
        var narrowed = TrackerChanges()
        if let selected {
            narrowed.updated = changes.updated.filter { $0.id == selected }
            narrowed.removed = changes.removed.filter { $0.id == selected }
            if !narrowed.removed.isEmpty {
                self.selected = nil
            }
        }
        if selected == nil {
            let nearest = allItems.min {
                $0.bounds.center.distance(to: center) < $1.bounds.center.distance(to: center)
            }
            if let nearest {
                selected = nearest.id
                narrowed.added = [nearest]
            }
        }
        return (narrowed, allItems.filter { $0.id == selected })
    }
}
