import SDPort

/// Holds the handle a manager load returned, so the load's own completion can refer to it (MUS-04). The test
/// keeps only weak references to the holder and the handle; breaking `operation` ends the cycle.
final class MUSOperationHolder: @unchecked Sendable {  // written once by the test thread before any completion reads it
    var operation: SDWebImageCombinedOperation?
}
