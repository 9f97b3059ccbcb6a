import Foundation
import SDPort

/// The 17 interview questions (PARITY.md FAQ-01 … FAQ-17, from the 4.x walkthrough's "interview" list), answered
/// for the port. Shared by `sdport faq` and `Docs/walkthrough/07-faq.md` (`sdport faq --markdown`).
extension FAQEntry {
    static let all: [FAQEntry] = [
        FAQEntry(
            number: 1,
            question: "Where is the disk cache directory?",
            answer: "init() uses the namespace \"default\". The full namespace is \"com.hackemist.SDWebImageCache.\" + "
                + "namespace. init(namespace:) puts the cache in makeDiskCachePath(namespace) = <user caches dir>/<namespace>, "
                + "and diskCachePath = that directory + \"/\" + full namespace. iOS's user caches directory is "
                + "Library/Caches; on Linux it is $XDG_CACHE_HOME, else ~/.cache. addReadOnlyCachePath adds directories "
                + "that are searched but never written. 5.x moves the default to Caches/com.hackemist.SDImageCache/default.",
            portFile: "Sources/SDPort/Cache/SDImageCache.swift",
            portAnchor: "public init(namespace: String, diskCacheDirectory: String?)",
            test: "FAQ01_DiskDirectoryTests.test_FAQ01_defaultPathIsCachesDefaultFullNamespace",
            original: "SDImageCache.m -initWithNamespace:diskCacheDirectory:, -makeDiskCachePath:",
            original5: "Core/SDImageCache.m +defaultDiskCacheDirectory, -migrateDiskCacheDirectory",
            live: {
                let shared = SDImageCache.shared.diskCachePath
                let custom = SDImageCache(namespace: "avatars", diskCacheDirectory: "/tmp/sdport").diskCachePath
                return "SDImageCache.shared.diskCachePath = \(shared); "
                    + "SDImageCache(namespace: \"avatars\", diskCacheDirectory: \"/tmp/sdport\").diskCachePath = \(custom)"
            }),
        FAQEntry(
            number: 2,
            question: "How many downloads run at once, and what is the timeout?",
            answer: "At most 6 downloads run at once (the download queue's maxConcurrentOperationCount) and a request "
                + "times out after 15 seconds. A downloadTimeout set to 0 is replaced by 15 when the request is made.",
            portFile: "Sources/SDPort/Downloader/SDWebImageDownloader.swift",
            portAnchor: "downloadQueue.maxConcurrentOperationCount = 6",
            test: "FAQ02_DownloaderDefaultsTests.test_FAQ02_sixConcurrentDownloadsAndFifteenSeconds",
            original: "SDWebImageDownloader.m -initWithSessionConfiguration:, -createDownloaderOperationWithUrl:options:",
            live: { FAQLiveProbes.downloaderDefaults() }),
        FAQEntry(
            number: 3,
            question: "How are cached images named?",
            answer: "The memory cache's key is the URL's absolute string (the manager's cacheKey(for:), unless a "
                + "cacheKeyFilter is set). The disk file name is the lowercase hex MD5 of the key's UTF-8 bytes, then \".\" "
                + "and the path extension of the key read as a URL (a query string never counts). A key without an "
                + "extension gives the bare 32-digit hash; an extension longer than 222 characters is dropped (4.4.3+) so "
                + "the name always fits in 255 bytes.",
            portFile: "Sources/SDPort/Cache/SDImageCache+FileName.swift",
            portAnchor: "public static func cachedFileName(forKey key: String?)",
            test: "FAQ03_FileNamingTests.test_FAQ03_fileNameIsMD5PlusExtension",
            original: "SDImageCache.m -cachedFileNameForKey:",
            live: {
                let cache = SDImageCache(namespace: "faq", diskCacheDirectory: "/tmp")
                let withQuery = "https://example.com/images/cat.png?size=large"
                let bare = "https://example.com/avatar"
                return "cachePath(forKey: \"\(withQuery)\", inPath: \"/cache\") = "
                    + "\(cache.cachePath(forKey: withQuery, inPath: "/cache") ?? "nil"); "
                    + "no extension: \(SDImageCache.cachedFileName(forKey: bare))"
            }),
        FAQEntry(
            number: 4,
            question: "How does SDWebImage tell an image's format before decoding it?",
            answer: "From the first byte: 0xFF is JPEG, 0x89 PNG, 0x47 ('G') GIF, 0x49 or 0x4D TIFF. 0x52 ('R') is WebP "
                + "only when the first 12 bytes read RIFF....WEBP; 0x00 is HEIC when bytes 4..<12 are ftypheic, ftypheix, "
                + "ftyphevc or ftyphevx (HEIF for ftypmif1/ftypmsf1). Anything else, and nil or empty data, is undefined. "
                + "5.x adds BMP, PDF and SVG.",
            portFile: "Sources/SDPort/Define/Data+ImageContentType.swift",
            portAnchor: "public static func sd_imageFormat(forImageData data: Data?)",
            test: "FAQ04_FormatSniffingTests.test_FAQ04_firstByteDecidesTheFormat",
            original: "NSData+ImageContentType.m +sd_imageFormatForImageData:",
            original5: "Core/NSData+ImageContentType.m +sd_imageFormatForImageData:",
            live: {
                let samples: [(String, Data)] = [
                    ("FF D8 FF", Data([0xFF, 0xD8, 0xFF])),
                    ("89 50 4E 47", Data([0x89, 0x50, 0x4E, 0x47])),
                    ("GIF89a", Data("GIF89a".utf8)),
                    ("RIFF....WEBP", Data("RIFF\u{0}\u{0}\u{0}\u{0}WEBP".utf8)),
                    ("RIFF....WAVE", Data("RIFF\u{0}\u{0}\u{0}\u{0}WAVE".utf8)),
                    ("<svg", Data("<svg".utf8)),
                ]
                return samples.map { "\($0.0) → \(Data.sd_imageFormat(forImageData: $0.1))" }.joined(separator: ", ")
            }),
        FAQEntry(
            number: 5,
            question: "How do you know where a loaded image came from?",
            answer: "The completion's SDImageCacheType: none (0) means it was downloaded, disk (1) that it was read "
                + "from the disk cache, memory (2) that it was found in the memory cache.",
            portFile: "Sources/SDPort/Define/SDImageCacheType.swift",
            portAnchor: "public enum SDImageCacheType",
            test: "FAQ05_ManagerCacheTypeTests.test_FAQ05_managerReportsNoneThenMemoryThenDisk",
            original: "SDImageCache.h SDImageCacheType",
            live: { try await FAQLiveProbes.cacheTypes() }),
        FAQEntry(
            number: 6,
            question: "Is every downloaded image cached in memory? On disk? When?",
            answer: "In memory always, unless the cache's config.shouldCacheImagesInMemory is off; on disk unless the "
                + "load has the cacheMemoryOnly option. The manager stores once a download has finished successfully "
                + "(with the downloaded bytes), or stores the image its delegate transformed (re-encoded when the "
                + "transform made a new image). An image found on disk is put into memory too.",
            portFile: "Sources/SDPort/Manager/SDWebImageManager.swift",
            portAnchor: "let cacheOnDisk = !options.contains(.cacheMemoryOnly)",
            test: "FAQ06_ManagerSideCachingTests.test_FAQ06_downloadIsStoredInMemoryAndOnDiskWithItsBytes",
            original: "SDWebImageManager.m -loadImageWithURL:options:progress:completed:; "
                + "SDImageCache.m -storeImage:imageData:forKey:toDisk:completion:",
            live: { try await FAQLiveProbes.whatIsCached() }),
        FAQEntry(
            number: 7,
            question: "How long do files stay in the disk cache, and when is the cleanup run?",
            answer: "maxCacheAge defaults to one week (60*60*24*7 = 604800 s). The cache runs deleteOldFiles when the "
                + "app terminates and when it enters the background; anyone may also call it. On Linux there is no "
                + "app life cycle: the host program posts UIApplication.willTerminateNotification or "
                + "didEnterBackgroundNotification (the port's names), or calls deleteOldFiles (sdport cache clean).",
            portFile: "Sources/SDPort/Cache/SDImageCacheConfig.swift",
            portAnchor: "public static let defaultMaxCacheAge",
            test: "FAQ07_DiskLifetimeTests.test_FAQ07_maxCacheAgeIsOneWeek",
            original: "SDImageCacheConfig.m kDefaultCacheMaxCacheAge; SDImageCache.m -backgroundDeleteOldFiles",
            live: {
                let age = SDImageCacheConfig().maxCacheAge
                return "SDImageCacheConfig().maxCacheAge = \(Int(age)) s = \(Int(age / 86_400)) days; cleanup on "
                    + "\(UIApplication.willTerminateNotification.rawValue) and "
                    + "\(UIApplication.didEnterBackgroundNotification.rawValue)"
            }),
        FAQEntry(
            number: 8,
            question: "By what rule does the disk cleanup delete files?",
            answer: "Pass 1 deletes every file whose modification date is older than now − maxCacheAge. Pass 2 runs "
                + "only when maxCacheSize > 0 and the files left take more than maxCacheSize on disk: it deletes the "
                + "oldest files first until they take less than maxCacheSize / 2. No rule looks at how often an image "
                + "is used. Directories and hidden files are skipped.",
            portFile: "Sources/SDPort/Cache/SDImageCache+Cleanup.swift",
            portAnchor: "public func deleteOldFiles(completionBlock",
            test: "FAQ08_CleanupRuleTests.test_FAQ08_passOneDeletesExpiredFilesOnly",
            original: "SDImageCache.m -deleteOldFilesWithCompletionBlock:",
            live: { try await FAQLiveProbes.cleanupRule() }),
        FAQEntry(
            number: 9,
            question: "Does a download use the HTTP protocol cache?",
            answer: "Not by default: requests use ReloadIgnoringLocalCacheData and responses are not stored, so an "
                + "image is never cached twice (protocol cache + SDImageCache). Only the downloader option useNSURLCache "
                + "(which the manager's refreshCached maps to) uses the protocol cache policy; with ignoreCachedResponse "
                + "a response served from that cache completes with nil image and data. On Linux the port keeps the "
                + "protocol cache itself, since libcurl has none.",
            portFile: "Sources/SDPort/Downloader/SDWebImageDownloader.swift",
            portAnchor: "let cachePolicy: URLRequest.CachePolicy",
            test: "FAQ09_ProtocolCacheTests.test_FAQ09_defaultBypassesTheProtocolCache",
            original: "SDWebImageDownloader.m -createDownloaderOperationWithUrl:options:",
            live: { try await FAQLiveProbes.protocolCache() }),
        FAQEntry(
            number: 10,
            question: "Must the URL passed in be an NSURL?",
            answer: "No: the manager also accepts a String and converts it with URL(string:); any other value that is "
                + "not a URL becomes nil. A nil or empty URL completes at once with an NSURLErrorDomain "
                + "FileDoesNotExist (-1100) error and finished = true.",
            portFile: "Sources/SDPort/Manager/SDWebImageManager.swift",
            portAnchor: "public func loadImage(withAnyURL value: Any?",
            test: "FAQ10_URLTypeTests.test_FAQ10_nilOrEmptyURLCompletesWithFileDoesNotExist",
            original: "SDWebImageManager.m -loadImageWithURL:options:progress:completed:",
            live: { try await FAQLiveProbes.urlTypes() }),
        FAQEntry(
            number: 11,
            question: "How are memory and disk reads kept thread-safe?",
            answer: "The memory cache is thread-safe by itself (NSCache in the original; an LRU store behind a lock in "
                + "the port). Every disk read, write and delete runs on one serial io queue labelled "
                + "com.hackemist.SDWebImageCache. The disk query returns an Operation that is only a cancel token: "
                + "cancelled before the io queue reaches it, its done block is never called.",
            portFile: "Sources/SDPort/Cache/SDImageCache+Query.swift",
            portAnchor: "public func queryCacheOperation(forKey key: String?, options",
            test: "FAQ11_ThreadSafetyTests.test_FAQ11_cancelledQueryNeverCallsDone",
            original: "SDImageCache.m -queryCacheOperationForKey:options:done:, ioQueue",
            live: { await FAQLiveProbes.ioQueue() }),
        FAQEntry(
            number: 12,
            question: "What Accept header does the downloader send?",
            answer: "Accept: image/webp,image/*;q=0.8 (WebP support is compiled in). 5.1+ sends image/*,*/*;q=0.8.",
            portFile: "Sources/SDPort/Downloader/SDWebImageDownloader.swift",
            portAnchor: "image/webp,image/*;q=0.8",
            test: "FAQ12_AcceptHeaderTests.test_FAQ12_acceptHeaderReachesTheServer",
            original: "SDWebImageDownloader.m -initWithSessionConfiguration:",
            original5: "Core/SDWebImageDownloader.m -initWithConfig:",
            live: { try await FAQLiveProbes.acceptHeader() }),
        FAQEntry(
            number: 13,
            question: "What does force decoding do?",
            answer: "It redraws the image into a bitmap of 8 bits per component and 4 bytes per pixel, with the alpha "
                + "channel skipped when the image is opaque, so the first display does not decode on the main thread. "
                + "Animated images are not force-decoded. A GIF with 4.4.8's default coders is not animated: the "
                + "ImageIO coder gives its first frame, a still image, so it is force-decoded (when read from disk; the "
                + "downloader skips GIFs by format); only with SDWebImageGIFCoder added is it animated and left alone. "
                + "With scaleDownLargeImages, an image over 60 MB of pixels (15,728,640 px) is scaled down to that "
                + "size, aspect kept.",
            portFile: "Sources/SDPort/Coders/SDWebImageCoderHelper.swift",
            portAnchor: "public static func decompressedImage(_ image: UIImage?) -> UIImage?",
            test: "FAQ13_ForceDecodingTests.test_FAQ13_forceDecodingMakesA32BitBitmapAndSkipsAnimatedImages; FAQ13_ForceDecodingTests.test_FAQ13_gifFromDiskIsForceDecodedWithTheDefaultCoders",
            original: "SDWebImageImageIOCoder.m -decompressedImageWithImage:data:options:, -sd_decompressedAndScaledDownImageWithImage:",
            live: { FAQLiveProbes.forceDecode() }),
        FAQEntry(
            number: 14,
            question: "Why check for the main queue rather than the main thread?",
            answer: "dispatch_main_async_safe compares the current queue with the main queue: some frameworks need "
                + "their work on the main queue, not on any block that happens to run on the main thread. Already on "
                + "the main queue, the block runs at once; from anywhere else it is dispatched to the main queue.",
            portFile: "Sources/SDPort/Internal/SDWebImageCompat.swift",
            portAnchor: "public func dispatch_main_async_safe",
            test: "FAQ14_MainQueueTests.test_FAQ14_onMainQueueRunsAtOnce",
            original: "SDWebImageCompat.h dispatch_main_async_safe",
            live: { await FAQLiveProbes.mainQueueRule() }),
        FAQEntry(
            number: 15,
            question: "How are the options represented?",
            answer: "As bit flags (1 << n, with the 4.x values), combined with | and tested with &. In Swift they are "
                + "OptionSets with the same raw values: [.retryFailed, .refreshCached] and contains(_:).",
            portFile: "Sources/SDPort/Define/SDWebImageOptions.swift",
            portAnchor: "public struct SDWebImageOptions",
            test: "FAQ15_OptionBitsTests.test_FAQ15_managerOptionBitValues",
            original: "SDWebImageManager.h SDWebImageOptions; SDWebImageDownloader.h SDWebImageDownloaderOptions",
            live: {
                let options: SDWebImageOptions = [.retryFailed, .refreshCached]
                return "retryFailed = \(SDWebImageOptions.retryFailed.rawValue), refreshCached = "
                    + "\(SDWebImageOptions.refreshCached.rawValue), [.retryFailed, .refreshCached].rawValue = "
                    + "\(options.rawValue), contains(.lowPriority) = \(options.contains(.lowPriority)), "
                    + "SDWebImageDownloaderOptions.useNSURLCache = \(SDWebImageDownloaderOptions.useNSURLCache.rawValue)"
            }),
        FAQEntry(
            number: 16,
            question: "In what order do queued downloads start?",
            answer: "FIFO by default. With executionOrder = .lifo, the operation added before the new one is made to "
                + "depend on the new one, so the newest request starts first (4.x links only the last added "
                + "operation; 5.x makes every pending one depend on the new one).",
            portFile: "Sources/SDPort/Downloader/SDWebImageDownloader.swift",
            portAnchor: "if settings.executionOrder == .lifo",
            test: "FAQ16_ExecutionOrderTests.test_FAQ16_lifoRunsTheNewestFirst",
            original: "SDWebImageDownloader.m -downloadImageWithURL:options:progress:completed:",
            original5: "Core/SDWebImageDownloader.m -createDownloaderOperationWithUrl:options:context:",
            live: { try await FAQLiveProbes.executionOrder() }),
        FAQEntry(
            number: 17,
            question: "Can the same URL be downloaded twice at once? Is a failed URL tried again?",
            answer: "No: a second request for a URL that is downloading joins the running operation (its callbacks "
                + "are added to it), so the server sees one request. A URL whose download failed is put on the "
                + "manager's failed list and is not tried again unless the load has retryFailed; network failures "
                + "(timeout, refused connection, lost connection, cancelled) are not listed. The trap: in 4.4.8 an "
                + "HTTP 404 is not listed either. The operation cancels a response with a status of 400 or more, so "
                + "the error is NSURLErrorCancelled (-999) and the next load asks the server again; bytes that do not "
                + "decode (\"Downloaded image has 0 pixels\") are listed. 4.0-4.2 listed the 404 (the status was the "
                + "error code); 5.x reports SDWebImageErrorInvalidDownloadStatusCode and does not list it.",
            portFile: "Sources/SDPort/Downloader/SDWebImageDownloader.swift",
            portAnchor: "if let running = URLOperations[url]",
            test: "FAQ17_CoalescingTests.test_FAQ17_hundredRequestsForOneURLHitTheServerOnce; FAQ17_FailedURLTests.test_FAQ17_failedURLIsNotTriedAgainUnlessRetryFailed; FAQ17_FailedURLTests.test_FAQ17_a404IsNotBlacklistedIn448",
            original: "SDWebImageDownloader.m -downloadImageWithURL:options:progress:completed:; "
                + "SDWebImageManager.m failedURLs, -loadImageWithURL:options:progress:completed:",
            original5: "Core/SDWebImageDownloaderOperation.m -URLSession:dataTask:didReceiveResponse:completionHandler:; "
                + "Core/SDWebImageDownloader.m -shouldBlockFailedURLWithURL:error:",
            live: { try await FAQLiveProbes.coalescingAndFailedURLs() }),
    ]
}
