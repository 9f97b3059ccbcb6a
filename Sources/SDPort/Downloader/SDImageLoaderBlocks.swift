import Foundation

/// Progress of one load: bytes received, bytes expected (the downloader gives -1 before the response and 0 when the
/// response states no length), the URL.
/// Ports `SDImageLoaderProgressBlock` (`SDImageLoader.h`, 5.x), the same shape as 4.4.8's downloader progress block.
/// At tag 5.21.5: `SDWebImage/Core/SDImageLoader.h:14` (`SDImageLoaderProgressBlock`).
public typealias SDImageLoaderProgressBlock = SDWebImageDownloaderProgressBlock

/// The end (or a partial image, `finished == false`) of one load.
/// Ports `SDImageLoaderCompletedBlock` (`SDImageLoader.h`, 5.x), the same shape as 4.4.8's downloader completion.
/// At tag 5.21.5: `SDWebImage/Core/SDImageLoader.h:15` (`SDImageLoaderCompletedBlock`).
public typealias SDImageLoaderCompletedBlock = SDWebImageDownloaderCompletedBlock
