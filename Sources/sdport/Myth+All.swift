import Foundation

extension Myth {
    /// The beliefs the 4.0–4.2 articles (`Docs/articles.md`) leave behind, each set against SDWebImage 4.4.8's line
    /// that decides it and the port's test that shows today's behaviour. Rendered by `MythMarkdown` into
    /// `Docs/walkthrough/10-myths-and-versions.md`; read by `sdport quiz` and `sdport lab`.
    static let all: [Myth] = [
        Myth(
            id: "barrier-queue", topic: "downloader",
            belief: "The downloader keeps its URL-to-operation table safe with a concurrent dispatch queue: reads "
                + "with dispatch_sync, writes with dispatch_barrier.",
            source: "A1",
            trueIn: "4.0–4.2",
            truth: "Since 4.3.0 two semaphores used as locks guard the table (operationsLock) and the headers "
                + "(headersLock); the lookup-or-create of a download runs between LOCK and UNLOCK.",
            original: "SDWebImageDownloader.m -initWithSessionConfiguration: #L123-124; "
                + "SDWebImageDownloader.m -downloadImageWithURL:options:progress:completed: #L295",
            test: "FAQ17_CoalescingTests.test_FAQ17_hundredRequestsForOneURLHitTheServerOnce",
            then: "4.2.0 SDWebImageDownloader.m:83"),
        Myth(
            id: "autopurgecache", topic: "cache",
            belief: "The memory cache is AutoPurgeCache, an NSCache subclass that empties itself on a memory warning.",
            source: "A2",
            trueIn: "4.0–4.2",
            truth: "4.3.0 dropped it for a plain NSCache; 4.3.1 made the memory cache SDMemoryCache, an NSCache "
                + "subclass with a weak map table behind a semaphore (switchable with shouldUseWeakMemoryCache since "
                + "4.4.2). A memory warning empties only the NSCache part; an image a view still holds is found "
                + "again in the weak table and put back.",
            original: "SDImageCache.m SDMemoryCache; SDImageCache.m -didReceiveMemoryWarning: #L67; "
                + "SDImageCache.m -objectForKey: #L93-102",
            test: "AutoPurgeCacheTests.test_CACHE14_weakSideTableSurvivesMemoryWarning",
            then: "4.2.0 SDImageCache.m:15"),
        Myth(
            id: "cancel-block", topic: "manager",
            belief: "The combined operation holds a cancelBlock that the manager sets to cancel the download; "
                + "cancel calls it.",
            source: "A0",
            trueIn: "4.0–4.2",
            truth: "4.4.8's SDWebImageCombinedOperation has no cancel block: it keeps the download token and its "
                + "-cancel hands the token to the manager's downloader itself.",
            original: "SDWebImageManager.m downloadToken; SDWebImageManager.m -cancel #L363-365",
            test: "MGRManagerTests.test_MGR08_cancelDuringDownloadCancelsTokenAndFinishedLeavesRunning",
            then: "4.2.0 SDWebImageManager.m:16"),
        Myth(
            id: "strcmp", topic: "views",
            belief: "dispatch_main_async_safe compares the current queue's label with the main queue's using strcmp.",
            source: "A4",
            trueIn: "4.0–4.3 (3.x asked [NSThread isMainThread])",
            truth: "4.4.0+ compares the two label pointers with ==; 5.15+ adds SDCallbackQueue. The port asks a "
                + "DispatchSpecificKey, as Swift's Dispatch does not expose dispatch_queue_get_label.",
            original: "SDWebImageCompat.h dispatch_queue_async_safe #L98",
            test: "FAQ14_MainQueueTests.test_FAQ14_mainThreadButNotMainQueueIsDispatched",
            then: "4.2.0 SDWebImageCompat.h:104"),
        Myth(
            id: "synchronized", topic: "manager",
            belief: "SDWebImage guards its shared sets (failed URLs, running operations) with @synchronized.",
            source: "A0",
            trueIn: "4.0–4.3 (4.4.0 moved them to semaphores)",
            truth: "4.4.8 guards them with semaphores (failedURLsLock, runningOperationsLock) through the LOCK "
                + "macro; @synchronized remains in many places, each around a single object: among them the combined "
                + "operation's cancel, the downloader adding a second caller's handlers to a running operation and "
                + "reading its task, the operation's URLCache lookup, the views' operation tables (animation images "
                + "included) and the prefetcher.",
            original: "SDWebImageManager.m LOCK; SDWebImageManager.m -loadImageWithURL:options:progress:completed: #L140-142; "
                + "SDWebImageManager.m -cancel #L357; SDWebImageDownloader.m -downloadImageWithURL:options:progress:completed: #L320; "
                + "SDWebImageDownloaderOperation.m -start #L170; UIImageView+WebCache.m -sd_setAnimationImagesWithURLs: #L102",
            test: "FlowTests.test_MGR10_thousandRandomCancelsNeverCallACompletionAfterCancel",
            then: "4.2.0 SDWebImageManager.m:128"),
        Myth(
            id: "decoding-removes-alpha", topic: "coders",
            belief: "Force decoding draws the image into a context without alpha, so transparency is lost.",
            source: "A4",
            trueIn: "4.0–4.3 (and there images with alpha were not decoded at all)",
            truth: "4.4.0+ decodes images with alpha too and keeps it: the bitmap is premultiplied-first when the "
                + "image has alpha, none-skip-first when it has not.",
            original: "SDWebImageImageIOCoder.m -sd_decompressedImageWithImage: #L218-221",
            test: "COD04_ForceDecodeTests.test_COD04_alphaKeptAndDecodedOnlyOnce",
            then: "4.2.0 SDWebImageImageIOCoder.m:467"),
        Myth(
            id: "size-on-main-thread", topic: "cache",
            belief: "The disk cache's size is computed on the main thread.",
            source: "A2",
            trueIn: "never",
            truth: "getSize walks the directory inside dispatch_sync on the io queue: it blocks whichever thread "
                + "calls it (the main thread too, if you call it there). calculateSizeWithCompletionBlock: walks it "
                + "asynchronously on the io queue and answers on the main queue.",
            original: "SDImageCache.m -getSize #L766; SDImageCache.m -calculateSizeWithCompletionBlock: #L789",
            test: "CACHE10_RemoveAndCleanupTests.test_CACHE12_sizeAndCount",
            then: nil),
        Myth(
            id: "view-stores", topic: "manager",
            belief: "After the download, UIView+WebCache stores the image in the cache (the articles' step 8).",
            source: "A0",
            trueIn: "never",
            truth: "The manager stores it, in the download's completion block; the view only sets the image it is "
                + "given. The store comes before the callback on the plain path and after a delegate's transform; with "
                + "a cacheSerializer the store is dispatched to a global queue, so the view may be called back first.",
            original: "SDWebImageManager.m -loadImageWithURL:options:progress:completed: #L274; "
                + "SDWebImageManager.m -loadImageWithURL:options:progress:completed: #L267-270",
            test: "FlowTests.test_MGR07_firstLoadDownloadsAndWritesFileAtMD5Path",
            then: nil),
        Myth(
            id: "404-blacklisted", topic: "manager",
            belief: "A URL that answers 404 goes on the failed-URL list and is never asked again without retryFailed.",
            source: "A0",
            trueIn: "4.0–4.2 (the status code was the error code)",
            truth: "Since 4.3.0 the operation cancels a response of 400 or more, so the error is NSURLErrorCancelled, "
                + "which the manager's rule never lists; the next load asks the server again. 5.x reports "
                + "SDWebImageErrorInvalidDownloadStatusCode and does not list it either.",
            original: "SDWebImageDownloaderOperation.m -URLSession:dataTask:didReceiveResponse:completionHandler: #L291; "
                + "SDWebImageManager.m -loadImageWithURL:options:progress:completed: #L213",
            test: "FAQ17_FailedURLTests.test_FAQ17_a404IsNotBlacklistedIn448",
            then: "4.2.0 SDWebImageDownloaderOperation.m:308"),
        Myth(
            id: "stop-posted-twice", topic: "downloader",
            belief: "A cancelled download posts SDWebImageDownloadStopNotification twice: once from cancel, once "
                + "when the task ends.",
            source: "A1",
            trueIn: "only for an operation on a session of its own (any 4.x)",
            truth: "Through the downloader it is posted once: cancel marks the operation finished, the queue drops "
                + "it, and the downloader, the session's delegate, finds no operation for the task's end, so the "
                + "second post never happens. An operation that owns its session gets both callbacks and posts twice.",
            original: "SDWebImageDownloaderOperation.m -cancelInternal #L221; SDWebImageDownloaderOperation.m -reset #L245; "
                + "SDWebImageDownloader.m -operationWithTask: #L355",
            test: "OPDownloaderOperationTests.test_OP05_cancelIsIdempotent",
            then: nil),
        Myth(
            id: "ten-steps", topic: "views",
            belief: "A load is ten steps: view entry, internal entry, manager, cache, back to the manager, download, "
                + "back to the manager, the view stores, back to the view, set.",
            source: "A0",
            trueIn: "never as drawn (step 8 is the manager's)",
            truth: "The port's ten traced steps cut it differently (memory and disk apart, response and decoding "
                + "shown); chapter 00 maps the article's ten onto 4.4.8's lines and the port's steps.",
            original: "UIView+WebCache.m -sd_internalSetImageWithURL:placeholderImage:options:operationKey:internalSetImageBlock:progress:completed:context: #L121; "
                + "SDWebImageManager.m -loadImageWithURL:options:progress:completed: #L274",
            test: "FlowTests.test_FLOW_coldLoadReportsTenStepsInOrder",
            then: nil),
        Myth(
            id: "lifo-in-download", topic: "downloader",
            belief: "LIFO is set up in downloadImageWithURL, where the new operation is queued.",
            source: "A1",
            trueIn: "4.0–4.4.2",
            truth: "Since 4.4.3 the dependency is added when the operation is built, in "
                + "-createDownloaderOperationWithUrl:options:; 4.x links only the last added operation.",
            original: "SDWebImageDownloader.m -createDownloaderOperationWithUrl:options: #L253-256",
            test: "FAQ16_ExecutionOrderTests.test_FAQ16_lifoRunsTheNewestFirst",
            then: "4.2.0 SDWebImageDownloader.m:199"),
        Myth(
            id: "every-disk-read-on-io-queue", topic: "cache",
            belief: "Every disk read runs on the cache's serial io queue.",
            source: "A0",
            trueIn: "never: 4.0–4.2's imageFromDiskCacheForKey: read and decoded on the caller's thread, and so did 4.3.0–4.4.1's",
            truth: "With SDImageCacheQueryDiskSync (since 4.3.0) the query searches and decodes on the caller's thread. "
                + "imageFromDiskCacheForKey: reads the bytes through the io queue only since 4.4.2 (diskImageDataForKey:), "
                + "then decodes them on the caller's thread.",
            original: "SDImageCache.m -queryCacheOperationForKey:options:done: #L561-562; SDImageCache.m -diskImageDataForKey: #L409",
            test: "CACHE06_QueryTests.test_CACHE09_queryDiskSyncSearchesOnTheCallingThread",
            then: nil),
    ]
}
