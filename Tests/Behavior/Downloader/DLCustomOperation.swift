import SDPort

/// A custom operation class for DL-05: a subclass of the default one, which inherits the required init.
final class DLCustomOperation: SDWebImageDownloaderOperation, @unchecked Sendable {}
