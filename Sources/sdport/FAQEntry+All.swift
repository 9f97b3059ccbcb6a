import Foundation
import SDPort

/// The 17 interview questions (PARITY.md FAQ-01 … FAQ-17), answered for the port. FAQ-01 to FAQ-11 are the eleven
/// questions that article A0 (`Docs/articles.md`) lists at its start; FAQ-12 to FAQ-17 come from topics the
/// articles explain elsewhere (A0's knowledge points and A1–A4). Each carries its question card:
/// one line, the trap, the versions, the topic and the 4.4.8 lines that decide it. Shared by `sdport faq` and `Docs/walkthrough/07-faq.md` (`sdport faq --markdown`).
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
            oneLine: "<user caches>/<namespace>/com.hackemist.SDWebImageCache.<namespace>; on Linux the user caches directory is $XDG_CACHE_HOME or ~/.cache.",
            trap: "Saying Library/Caches/default is the whole path: the full namespace (prefix + namespace) is appended once more, so the default folder ends in default/com.hackemist.SDWebImageCache.default.",
            versions: "4.0–4.4.8: <caches>/default/com.hackemist.SDWebImageCache.default; 5.x: Caches/com.hackemist.SDImageCache/default, with a one-time migration.",
            topic: "cache",
            deciding: "SDImageCache.m -initWithNamespace:diskCacheDirectory: #L180; SDImageCache.m -initWithNamespace:diskCacheDirectory: #L193; SDImageCache.m -makeDiskCachePath: #L265-266",
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
            oneLine: "6 downloads at once, 15 seconds per request; a timeout of 0 becomes 15 when the request is built.",
            trap: "Quoting NSURLSession's 60 s default: the downloader sets its own 15 s on every request, and on the session configuration.",
            versions: "4.0–4.4.8: 6 and 15 s; 5.x: the same defaults in SDWebImageDownloaderConfig.",
            topic: "downloader",
            deciding: "SDWebImageDownloader.m -initWithSessionConfiguration: #L94; SDWebImageDownloader.m -initWithSessionConfiguration: #L125; SDWebImageDownloader.m -createDownloaderOperationWithUrl:options: #L219-222",
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
            oneLine: "Memory: the URL string. Disk: MD5 of the key in lowercase hex, plus the URL path's extension.",
            trap: "Saying the file is named after the URL, or that a query string ends up in the extension: the extension comes from the key read as a URL, so ?size=large never counts.",
            versions: "4.0–4.1: MD5 + the raw key's extension (a query string included); 4.2+: the extension of the key read as a URL; 4.4.3+: an extension too long for NAME_MAX is dropped; 5.x: the same rule in SDDiskCache.",
            topic: "cache",
            deciding: "SDImageCache.m -cachedFileNameForKey: #L251; SDImageCache.m -cachedFileNameForKey: #L253; SDImageCache.m -cachedFileNameForKey: #L255",
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
                + "ftyphevc or ftyphevx (HEIF for ftypmif1/ftypmsf1). Anything else, and nil data, is undefined. "
                + "Empty data is undefined in the port by its own guard; 4.4.8 checks only nil and reads one byte of an "
                + "empty buffer. 5.x adds BMP, PDF and SVG.",
            portFile: "Sources/SDPort/Define/Data+ImageContentType.swift",
            portAnchor: "public static func sd_imageFormat(forImageData data: Data?)",
            test: "FAQ04_FormatSniffingTests.test_FAQ04_firstByteDecidesTheFormat",
            original: "NSData+ImageContentType.m +sd_imageFormatForImageData:",
            original5: "Core/NSData+ImageContentType.m +sd_imageFormatForImageData:",
            oneLine: "By the first byte (0xFF JPEG, 0x89 PNG, 0x47 GIF, 0x49/0x4D TIFF), with longer checks for WebP (RIFF....WEBP) and HEIC.",
            trap: "Saying the file extension or the Content-Type header decides: only the bytes count, so a PNG named .jpg decodes as PNG.",
            versions: "4.0: JPEG/PNG/GIF/TIFF/WebP; 4.2+: HEIC; 4.4.3+: HEIF brands too; 5.x adds BMP, PDF, SVG.",
            topic: "coders",
            deciding: "NSData+ImageContentType.m +sd_imageFormatForImageData: #L26-32; NSData+ImageContentType.m +sd_imageFormatForImageData: #L34-42",
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
            oneLine: "The completion's SDImageCacheType: none = downloaded, disk, memory.",
            trap: "Reading finished or the data to guess it: the cache type is passed explicitly, and a download reports none, not disk, even though it was just stored.",
            versions: "4.0–4.4.8: none 0, disk 1, memory 2; 5.x adds SDImageCacheTypeAll for queries.",
            topic: "manager",
            deciding: "SDImageCache.m -queryCacheOperationForKey:options:done: #L519; SDImageCache.m -queryCacheOperationForKey:options:done: #L538-540; SDWebImageManager.m -loadImageWithURL:options:progress:completed: #L277",
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
            oneLine: "Memory always (unless the config turns it off); disk unless cacheMemoryOnly; the manager stores after a successful download.",
            trap: "Saying the view stores the image (the articles' step 8): the manager does, in the download's completion (before calling the view back, unless a cacheSerializer moves the store to a global queue).",
            versions: "4.0–4.4.8: the manager stores; 5.x: the manager stores through SDImageCache's storeImage:…cacheType:, with storeCacheType in the context.",
            topic: "manager",
            deciding: "SDWebImageManager.m -loadImageWithURL:options:progress:completed: #L235; SDWebImageManager.m -loadImageWithURL:options:progress:completed: #L274; SDImageCache.m -storeImage:imageData:forKey:toDisk:completion: #L296-298",
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
            oneLine: "One week (maxCacheAge = 604800 s); cleanup runs on app terminate and on entering the background.",
            trap: "Saying files expire on their own or on launch: nothing deletes them until deleteOldFiles runs, which the two notifications (or a caller) trigger.",
            versions: "4.0–4.4.8: one week, terminate + background; 5.x: the same, through SDImageCacheConfig.",
            topic: "cache",
            deciding: "SDImageCacheConfig.m kDefaultCacheMaxCacheAge #L11; SDImageCache.m -initWithNamespace:diskCacheDirectory: #L205-213",
            live: {
                let age = SDImageCacheConfig().maxCacheAge
                return "SDImageCacheConfig().maxCacheAge = \(Int(age)) s = \(Int(age / 86_400)) days; cleanup on "
                    + "\(UIApplication.willTerminateNotification.rawValue) and "
                    + "\(UIApplication.didEnterBackgroundNotification.rawValue)"
            }),
        FAQEntry(
            number: 8,
            question: "By what rule does the disk cleanup delete files?",
            answer: "Pass 1 deletes every file whose date is older than now − maxCacheAge: the modification date by "
                + "default, the last access with diskCacheExpireType = accessDate (4.4.2+; the default since 5.20). On "
                + "Linux the access date is atime, which relatime mounts move at most once a day and noatime mounts never, "
                + "so there the access rule is close to the modification rule. Pass 2 runs "
                + "only when maxCacheSize > 0 and the files left take more than maxCacheSize on disk: it deletes the "
                + "oldest files first until they take less than maxCacheSize / 2. No rule looks at how often an image "
                + "is used. Directories and hidden files are skipped.",
            portFile: "Sources/SDPort/Cache/SDImageCache+Cleanup.swift",
            portAnchor: "public func deleteOldFiles(completionBlock",
            test: "FAQ08_CleanupRuleTests.test_FAQ08_passOneDeletesExpiredFilesOnly",
            original: "SDImageCache.m -deleteOldFilesWithCompletionBlock:",
            oneLine: "Pass 1 deletes files older than maxCacheAge (by modification date, or access date with diskCacheExpireType); pass 2 deletes oldest first down to half of maxCacheSize.",
            trap: "Saying it is LRU by use, or that it always goes by modification date: 4.4.2 added diskCacheExpireType, and on Linux atime under relatime/noatime barely moves.",
            versions: "4.0–4.4.1: modification date only; 4.4.2+: diskCacheExpireType (default modification date); 5.20+: access date by default.",
            topic: "cache",
            deciding: "SDImageCache.m -deleteOldFilesWithCompletionBlock: #L651-658; SDImageCache.m -deleteOldFilesWithCompletionBlock: #L692; SDImageCache.m -deleteOldFilesWithCompletionBlock: #L711",
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
            oneLine: "No: requests ignore the protocol cache unless useNSURLCache (refreshCached) asks for it.",
            trap: "Saying NSURLCache caches every image twice: the default request policy is ReloadIgnoringLocalCacheData.",
            versions: "4.0–4.4.8: ReloadIgnoringLocalCacheData unless useNSURLCache; 5.x: the same rule.",
            topic: "downloader",
            deciding: "SDWebImageDownloader.m -createDownloaderOperationWithUrl:options: #L225",
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
            oneLine: "No: a String is converted with URLWithString:, anything else becomes nil and fails with FileDoesNotExist.",
            trap: "Saying a String URL crashes or is silently ignored: the manager converts it, and a non-URL value completes with an error.",
            versions: "4.0–4.4.8: NSString converted, -1100 for nil; 5.x: SDWebImageErrorInvalidURL.",
            topic: "manager",
            deciding: "SDWebImageManager.m -loadImageWithURL:options:progress:completed: #L126-128; SDWebImageManager.m -loadImageWithURL:options:progress:completed: #L145",
            live: { try await FAQLiveProbes.urlTypes() }),
        FAQEntry(
            number: 11,
            question: "How are memory and disk reads kept thread-safe?",
            answer: "The memory cache is thread-safe by itself (NSCache in the original; an LRU store behind a lock in "
                + "the port; 4.4.8's SDMemoryCache is an NSCache plus a weak map table behind a semaphore). Every disk write and "
                + "delete, and the asynchronous disk query, run on one serial io queue labelled "
                + "com.hackemist.SDWebImageCache. Not every read: with queryDiskSync the query searches and decodes on the "
                + "caller's thread, and imageFromDiskCacheForKey: waits on the io queue for the bytes only, then decodes "
                + "on the caller's thread. The disk query returns an Operation that is only a cancel token: "
                + "cancelled before the io queue reaches it, its done block is never called.",
            portFile: "Sources/SDPort/Cache/SDImageCache+Query.swift",
            portAnchor: "public func queryCacheOperation(forKey key: String?, options",
            test: "FAQ11_ThreadSafetyTests.test_FAQ11_cancelledQueryNeverCallsDone",
            original: "SDImageCache.m -queryCacheOperationForKey:options:done:, ioQueue",
            oneLine: "NSCache (with a locked weak table) for memory; a serial io queue for writes, deletes and the async query — but queryDiskSync and imageFromDiskCacheForKey: decode on the caller's thread.",
            trap: "Saying every disk read runs on the io queue: with queryDiskSync the search runs on the caller's thread, and imageFromDiskCacheForKey: decodes there.",
            versions: "4.0–4.2: memory is AutoPurgeCache (NSCache); 4.3.0: a plain NSCache, and the queryDiskSync option; 4.3.1+: SDMemoryCache with a weak map table; 4.4.2+: imageFromDiskCacheForKey: reads its bytes through the io queue (before, on the caller's thread); 5.x: SDMemoryCache/SDDiskCache protocols.",
            topic: "cache",
            deciding: "SDImageCache.m -queryCacheOperationForKey:options:done: #L526-529; SDImageCache.m -queryCacheOperationForKey:options:done: #L561-562; SDImageCache.m -diskImageDataForKey: #L409",
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
            oneLine: "Accept: image/webp,image/*;q=0.8 when WebP is compiled in.",
            trap: "Saying image/*: that is the header without WebP support; 5.1+ sends image/*,*/*;q=0.8.",
            versions: "4.0–4.4.8: image/webp,image/*;q=0.8 (with WebP); 5.1+: image/*,*/*;q=0.8.",
            topic: "downloader",
            deciding: "SDWebImageDownloader.m -initWithSessionConfiguration: #L118",
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
            oneLine: "Redraws a still image into a 32-bit bitmap (alpha kept when present) so the first display does not decode on the main thread; animated images are skipped.",
            trap: "Saying force decoding drops alpha: 4.0–4.3 skipped images with alpha and drew the rest without it; 4.4.x decodes them too and keeps the alpha.",
            versions: "4.0–4.3: images with alpha not decoded, context without alpha; 4.4.0+: alpha kept (premultiplied first); 5.x: SDImageCoderHelper, decodeFirstFrameOnly options.",
            topic: "coders",
            deciding: "SDWebImageImageIOCoder.m +shouldDecodeImage: #L441; SDWebImageImageIOCoder.m -sd_decompressedImageWithImage: #L218-221",
            live: { FAQLiveProbes.forceDecode() }),
        FAQEntry(
            number: 14,
            question: "Why check for the main queue rather than the main thread?",
            answer: "dispatch_main_async_safe compares the current queue with the main queue: some frameworks need "
                + "their work on the main queue, not on any block that happens to run on the main thread. Already on "
                + "the main queue, the block runs at once; from anywhere else it is dispatched to the main queue. "
                + "History: 3.x asked [NSThread isMainThread]; 4.0 compared the two labels with strcmp; 4.4.0 compares "
                + "the label pointers with ==; 5.15 adds SDCallbackQueue, whose main queue checks NSThread.isMainThread "
                + "again since 5.21.0. The port asks a DispatchSpecificKey, since "
                + "Swift's Dispatch does not expose dispatch_queue_get_label.",
            portFile: "Sources/SDPort/Internal/SDWebImageCompat.swift",
            portAnchor: "public func dispatch_main_async_safe",
            test: "FAQ14_MainQueueTests.test_FAQ14_onMainQueueRunsAtOnce",
            original: "SDWebImageCompat.h dispatch_main_async_safe",
            oneLine: "Because some work must run on the main queue, not merely the main thread; the macro compares queue labels.",
            trap: "Saying [NSThread isMainThread] is enough: a block run by another queue's dispatch_sync on the main thread is on the main thread but not on the main queue.",
            versions: "3.x: [NSThread isMainThread]; 4.0–4.3: strcmp of the labels; 4.4.0+: label pointers compared with ==; 5.15–5.20: SDCallbackQueue compares queues; 5.21.0+: SDCallbackQueue.mainQueue checks NSThread.isMainThread.",
            topic: "views",
            deciding: "SDWebImageCompat.h dispatch_queue_async_safe #L98",
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
            oneLine: "NS_OPTIONS bit flags (1 << n), combined with | and tested with &; OptionSets in Swift.",
            trap: "Saying they are an NS_ENUM: an enum holds one value, the options must combine.",
            versions: "4.0–4.4.8: SDWebImageOptions bits (cacheMemoryOnly is 1 << 2); 5.x: renumbered (cacheMemoryOnly gone, progressiveLoad is 1 << 2), plus the context dictionary.",
            topic: "manager",
            deciding: "SDWebImageManager.h SDWebImageOptions #L14",
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
                + "operation; 5.2.0+ makes every pending one depend on the new one).",
            portFile: "Sources/SDPort/Downloader/SDWebImageDownloader.swift",
            portAnchor: "if settings.executionOrder == .lifo",
            test: "FAQ16_ExecutionOrderTests.test_FAQ16_lifoRunsTheNewestFirst",
            original: "SDWebImageDownloader.m -createDownloaderOperationWithUrl:options:",
            original5: "Core/SDWebImageDownloader.m -createDownloaderOperationWithUrl:options:context:",
            oneLine: "FIFO; with LIFO, the previously added operation is made to depend on the new one, when the operation is built.",
            trap: "Citing downloadImageWithURL: the dependency is added in -createDownloaderOperationWithUrl:options:, and 4.x links only the last added operation, not every pending one.",
            versions: "4.0–4.4.2: inside downloadImageWithURL (its create block); 4.4.3–4.4.8: in -createDownloaderOperationWithUrl:options:; 5.0–5.1: still the last added one; 5.2.0+: every pending operation depends on the new one.",
            topic: "downloader",
            deciding: "SDWebImageDownloader.m -createDownloaderOperationWithUrl:options: #L253-256",
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
            oneLine: "One request per URL (callers join the running operation); a failed URL is not retried without retryFailed — but a 404 is not listed in 4.4.8.",
            trap: "Saying a 404 is blacklisted: 4.4.8 cancels a response of 400+, so the error is NSURLErrorCancelled, which the manager never lists.",
            versions: "4.0–4.2: the status was the error code, so a 404 was listed; 4.3–4.4.8: cancelled, not listed; 5.x: SDWebImageErrorInvalidDownloadStatusCode, not listed.",
            topic: "downloader",
            deciding: "SDWebImageDownloader.m -downloadImageWithURL:options:progress:completed: #L299; SDWebImageDownloaderOperation.m -URLSession:dataTask:didReceiveResponse:completionHandler: #L291; SDWebImageManager.m -loadImageWithURL:options:progress:completed: #L212-219",
            live: { try await FAQLiveProbes.coalescingAndFailedURLs() }),
    ]
}
