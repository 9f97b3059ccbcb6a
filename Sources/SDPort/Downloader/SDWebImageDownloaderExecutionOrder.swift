/// The order queued downloads start in (FAQ-16).
///
/// Ports `SDWebImageDownloaderExecutionOrder` (`SDWebImageDownloader.h`, 4.4.8). LIFO is emulated by making
/// the previously added operation depend on the new one; 5.2.0 and later make every pending operation depend on it.
/// At tag 4.4.8: `SDWebImage/SDWebImageDownloader.h:65` (`SDWebImageDownloaderExecutionOrder`), `SDWebImage/SDWebImageDownloader.m:217` (`-createDownloaderOperationWithUrl:options:`).
/// At tag 5.21.5: `SDWebImage/Core/SDWebImageDownloader.m:290` (`-createDownloaderOperationWithUrl:options:context:`).
public enum SDWebImageDownloaderExecutionOrder: Int, Sendable {
    /// First in, first out (the default).
    case fifo
    /// Last in, first out.
    case lifo
}
