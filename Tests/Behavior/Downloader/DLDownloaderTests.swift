import Foundation
import SDPortTestServer
import SDPortTestSupport
import XCTest

@testable import SDPort

/// `SDWebImageDownloader`'s settings and the requests it builds (4.4.8 `SDWebImageDownloader.m`:
/// `initWithSessionConfiguration:`, `setValue:forHTTPHeaderField:`, `setOperationClass:`,
/// `createDownloaderOperationWithUrl:options:`), checked against what reaches a real loopback server.
final class DLDownloaderTests: XCTestCase {
    private var env: DownloaderTestEnvironment!
    private var server: SDPortTestServer { env.server }
    private var downloader: SDWebImageDownloader { env.downloader }

    override func setUpWithError() throws {
        env = try DownloaderTestEnvironment(prefix: "dl-urlcache") { server in
            server.route("/a.jpg", .file(TestFixtures.url("baseline.jpg"), contentType: "image/jpeg"))
            server.route("/b.jpg", .file(TestFixtures.url("baseline.jpg"), contentType: "image/jpeg"))
            server.route(
                "/auth.jpg",
                .file(TestFixtures.url("baseline.jpg"), contentType: "image/jpeg")
                    .requireBasicAuth(user: "sd", password: "secret"))
            server.route(
                "/cookie.jpg",
                .file(TestFixtures.url("baseline.jpg"), contentType: "image/jpeg")
                    .setCookie("dlflavour=oat; Path=/"))
        }
    }

    override func tearDown() {
        env.tearDown()
        env = nil
    }

    /// Downloads `path` and waits for the final completion.
    private func download(_ path: String, options: SDWebImageDownloaderOptions = []) -> DownloadRecorder {
        downloadAndWait(downloader, server.url(path), options: options, timeout: 10)
    }

    /// Queues a download on a suspended downloader and returns the operation made for it.
    private func queuedOperation(_ path: String, options: SDWebImageDownloaderOptions = [])
        -> SDWebImageDownloaderOperation?
    {
        downloader.setSuspended(true)
        downloader.downloadImage(with: server.url(path), options: options, progress: nil, completed: nil)
        return downloader.runningOperation(for: server.url(path)) as? SDWebImageDownloaderOperation
    }

    // MARK: DL-01

    /// Parity: DL-01 — `shared` is one instance.
    func test_DL01_sharedIsOneInstance() {
        XCTAssertTrue(SDWebImageDownloader.shared === SDWebImageDownloader.shared)
        XCTAssertEqual(SDWebImageDownloader.shared.sessionConfiguration.timeoutIntervalForRequest, 15)
    }

    /// Parity: DL-01 — `init(sessionConfiguration:)` replaces the configuration's request timeout with the
    /// downloader's 15 s, and the downloader uses that configuration's protocol cache.
    func test_DL01_initOverwritesTheSessionRequestTimeout() throws {
        let configuration = URLSessionConfiguration.default
        configuration.timeoutIntervalForRequest = 60
        let cache = URLCache(memoryCapacity: 1024, diskCapacity: 0, diskPath: nil)
        configuration.urlCache = cache
        let custom = SDWebImageDownloader(sessionConfiguration: configuration)
        XCTAssertEqual(custom.sessionConfiguration.timeoutIntervalForRequest, 15)
        XCTAssertTrue(custom.urlCache === cache)
        XCTAssertEqual(
            SDWebImageDownloader(sessionConfiguration: nil).sessionConfiguration.timeoutIntervalForRequest, 15)
    }

    // MARK: DL-02

    /// Parity: DL-02 — defaults: operation class, decompression, FIFO, 6 at a time, the queue names, 15 s.
    func test_DL02_defaults() {
        XCTAssertTrue(downloader.operationClass == SDWebImageDownloaderOperation.self)
        XCTAssertTrue(downloader.shouldDecompressImages)
        XCTAssertEqual(downloader.executionOrder, .fifo)
        XCTAssertEqual(downloader.maxConcurrentDownloads, 6)
        XCTAssertEqual(downloader.downloadQueue.name, "com.hackemist.SDWebImageDownloader")
        XCTAssertEqual(downloader.downloadTimeout, 15)
        XCTAssertEqual(downloader.currentDownloadCount, 0)
        XCTAssertNil(downloader.urlCredential)
        XCTAssertNil(downloader.headersFilter)
    }

    /// Parity: DL-02 — `URLOperations` and the headers are guarded by semaphore locks (4.4.8's `operationsLock`
    /// and `headersLock`; 4.0–4.2's barrier queue is gone): 80 callers of one URL from 8 threads at once, while the
    /// same threads change a header, make one operation that all of them join, and every caller completes once.
    func test_DL02_operationsAndHeadersAreGuardedBySemaphores() {
        downloader.setSuspended(true)
        let url = server.url("/a.jpg")
        let completions = Locked(0)
        let allDone = expectation(description: "80 completions")
        allDone.expectedFulfillmentCount = 80
        let downloader = self.downloader
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for call in 0..<10 {
                downloader.setValue("\(thread)-\(call)", forHTTPHeaderField: "X-Caller")
                downloader.downloadImage(with: url, options: [], progress: nil) { _, _, _, finished in
                    if finished {
                        completions.update { $0 += 1 }
                        allDone.fulfill()
                    }
                }
            }
        }
        XCTAssertEqual(downloader.runningURLCount, 1)
        XCTAssertEqual(downloader.currentDownloadCount, 1, "every caller joined the one operation")
        XCTAssertNotNil(downloader.value(forHTTPHeaderField: "X-Caller"))
        downloader.setSuspended(false)
        wait(for: [allDone], timeout: 20)
        XCTAssertEqual(completions.value, 80)
        XCTAssertEqual(server.requests("/a.jpg").count, 1)
    }

    // MARK: DL-03

    /// Parity: DL-03 — `setValue(_:forHTTPHeaderField:)` adds a header to every request, nil removes it.
    func test_DL03_headersAreSetReadAndRemoved() {
        downloader.setValue("yes", forHTTPHeaderField: "X-SDPort")
        XCTAssertEqual(downloader.value(forHTTPHeaderField: "X-SDPort"), "yes")
        XCTAssertNil(download("/a.jpg").final?.error)
        XCTAssertEqual(server.requests("/a.jpg").last?.header("X-SDPort"), "yes")

        downloader.setValue(nil, forHTTPHeaderField: "X-SDPort")
        XCTAssertNil(downloader.value(forHTTPHeaderField: "X-SDPort"))
        XCTAssertNil(download("/b.jpg").final?.error)
        XCTAssertNil(server.requests("/b.jpg").last?.header("X-SDPort"))
    }

    /// Parity: DL-03 — `headersFilter` gets the URL and the downloader's headers and its result is what is sent.
    func test_DL03_headersFilterReplacesTheHeaders() {
        downloader.setValue("kept?", forHTTPHeaderField: "X-Original")
        let seen = Locked<[String: String]?>(nil)
        downloader.headersFilter = { url, headers in
            seen.value = headers
            return ["X-Filtered": url?.lastPathComponent ?? "-", "Accept": "image/png"]
        }
        XCTAssertNil(download("/a.jpg").final?.error)
        XCTAssertEqual(seen.value?["X-Original"], "kept?")
        XCTAssertEqual(seen.value?["Accept"], "image/webp,image/*;q=0.8")
        let request = server.requests("/a.jpg").last
        XCTAssertEqual(request?.header("X-Filtered"), "a.jpg")
        XCTAssertEqual(request?.header("Accept"), "image/png")
        XCTAssertNil(request?.header("X-Original"), "the filter's result replaces the downloader's headers")
    }

    // MARK: DL-04

    /// Parity: DL-04 — `maxConcurrentDownloads` is the queue's limit and bounds what the server sees in flight;
    /// `currentDownloadCount` counts the queued operations.
    func test_DL04_maxConcurrentDownloadsAndCurrentCount() {
        downloader.maxConcurrentDownloads = 2
        XCTAssertEqual(downloader.maxConcurrentDownloads, 2)
        downloader.setSuspended(true)
        var expectations: [XCTestExpectation] = []
        for index in 0..<5 {
            server.route(
                "/slow\(index).jpg", .file(TestFixtures.url("baseline.jpg"), contentType: "image/jpeg").delay(0.1))
            let done = expectation(description: "slow \(index)")
            expectations.append(done)
            let recorder = DownloadRecorder { done.fulfill() }
            downloader.downloadImage(
                with: server.url("/slow\(index).jpg"), options: [],
                progress: nil, completed: recorder.completed)
        }
        XCTAssertEqual(downloader.currentDownloadCount, 5)
        downloader.setSuspended(false)
        wait(for: expectations, timeout: 20)
        XCTAssertEqual(server.totalHits, 5)
        XCTAssertLessThanOrEqual(server.maxConcurrentRequests, 2)
        XCTAssertTrue(waitUntil { self.downloader.currentDownloadCount == 0 })
    }

    // MARK: DL-05

    /// Parity: DL-05 — an Operation subclass conforming to the interface is used for new operations.
    func test_DL05_customOperationClassIsUsed() {
        downloader.setOperationClass(DLCustomOperation.self)
        XCTAssertTrue(downloader.operationClass == DLCustomOperation.self)
        downloader.setSuspended(true)
        downloader.downloadImage(with: server.url("/a.jpg"), options: [], progress: nil, completed: nil)
        XCTAssertTrue(downloader.runningOperation(for: server.url("/a.jpg")) is DLCustomOperation)
        downloader.cancelAllDownloads()
    }

    /// Parity: DL-05 — anything else (not an Operation, or not conforming, or nil) restores the default class.
    func test_DL05_unusableClassesFallBackToTheDefault() {
        for candidate: AnyClass? in [NSObject.self, Operation.self, BlockOperation.self, nil] {
            downloader.setOperationClass(DLCustomOperation.self)
            downloader.setOperationClass(candidate)
            XCTAssertTrue(
                downloader.operationClass == SDWebImageDownloaderOperation.self,
                "\(String(describing: candidate)) must not be accepted")
        }
    }

    // MARK: DL-07

    /// Parity: DL-07 — the request's timeout is `downloadTimeout`, and 0 means 15 s.
    func test_DL07_requestTimeoutComesFromDownloadTimeout() {
        downloader.downloadTimeout = 3
        XCTAssertEqual(queuedOperation("/a.jpg")?.request?.timeoutInterval, 3)
        downloader.cancelAllDownloads()
        downloader.downloadTimeout = 0
        XCTAssertEqual(queuedOperation("/b.jpg")?.request?.timeoutInterval, 15)
        downloader.cancelAllDownloads()
    }

    /// Parity: DL-07 — cache policy: ReloadIgnoringLocalCacheData unless `UseNSURLCache`; cookies only with
    /// `HandleCookies`; the downloader's headers are on the request.
    func test_DL07_cachePolicyCookiesAndHeadersOnTheRequest() throws {
        let plain = try XCTUnwrap(queuedOperation("/a.jpg")?.request)
        XCTAssertEqual(plain.cachePolicy, .reloadIgnoringLocalCacheData)
        XCTAssertFalse(plain.httpShouldHandleCookies)
        XCTAssertEqual(plain.value(forHTTPHeaderField: "Accept"), "image/webp,image/*;q=0.8")
        let cached = try XCTUnwrap(queuedOperation("/b.jpg", options: [.useNSURLCache, .handleCookies])?.request)
        XCTAssertEqual(cached.cachePolicy, .useProtocolCachePolicy)
        XCTAssertTrue(cached.httpShouldHandleCookies)
        downloader.cancelAllDownloads()
    }

    /// Parity: DL-07 — pipelining: 4.4.8 sets `HTTPShouldUsePipelining`. libcurl no longer pipelines HTTP/1.1 and
    /// Foundation deprecates the flag, so the port leaves it unset and documents it as what it amounts to today:
    /// requests go out over one reused connection (HTTP/2 streams would be multiplexed). Two downloads one after
    /// the other are both made, over a single accepted connection.
    func test_DL07_pipeliningMeansConnectionReuse() throws {
        server.resetCounters()
        XCTAssertNotNil(download("/a.jpg?first").final?.image)
        XCTAssertNotNil(download("/a.jpg?second").final?.image)
        XCTAssertEqual(server.hits("/a.jpg"), 2, "both requests were made")
        XCTAssertEqual(server.acceptedConnections, 1, "over one kept-alive connection")
    }

    /// Parity: DL-07 — with `HandleCookies` a Set-Cookie is stored in the shared cookie storage and sent back;
    /// without it nothing is stored and nothing is sent.
    func test_DL07_cookiesOnlyWithHandleCookies() throws {
        let storage = HTTPCookieStorage.shared
        let url = server.url("/cookie.jpg")
        defer { storage.cookies(for: url)?.forEach(storage.deleteCookie) }

        XCTAssertNil(download("/cookie.jpg").final?.error)
        XCTAssertTrue((storage.cookies(for: url) ?? []).isEmpty, "no HandleCookies: the cookie must not be stored")

        XCTAssertNil(download("/cookie.jpg", options: .handleCookies).final?.error)
        XCTAssertEqual(storage.cookies(for: url)?.first { $0.name == "dlflavour" }?.value, "oat")
        XCTAssertNil(server.requests("/cookie.jpg").last?.header("Cookie"))

        XCTAssertNil(download("/cookie.jpg", options: .handleCookies).final?.error)
        XCTAssertEqual(server.requests("/cookie.jpg").last?.header("Cookie"), "dlflavour=oat")

        XCTAssertNil(download("/cookie.jpg").final?.error)
        XCTAssertNil(server.requests("/cookie.jpg").last?.header("Cookie"), "no HandleCookies: no Cookie header")
    }

    // MARK: DL-08

    /// Parity: DL-08 — `urlCredential` answers the server's Basic challenge.
    func test_DL08_urlCredentialAnswersBasicAuth() {
        downloader.urlCredential = URLCredential(user: "sd", password: "secret", persistence: .forSession)
        downloader.username = "wrong"
        downloader.password = "wrong"
        let result = download("/auth.jpg")
        XCTAssertNil(result.final?.error)
        XCTAssertNotNil(result.final?.image)
        let requests = server.requests("/auth.jpg")
        XCTAssertEqual(requests.count, 2, "asked without credentials, then answered the 401 once")
        XCTAssertNil(requests.first?.header("Authorization"))
        XCTAssertEqual(requests.last?.header("Authorization"), "Basic " + Data("sd:secret".utf8).base64EncodedString())
    }

    /// Parity: DL-08 — without `urlCredential`, `username` + `password` are sent as HTTP Basic.
    func test_DL08_usernameAndPasswordAnswerBasicAuth() {
        downloader.username = "sd"
        downloader.password = "secret"
        let result = download("/auth.jpg")
        XCTAssertNil(result.final?.error)
        XCTAssertNotNil(result.final?.image)
    }

    /// Parity: DL-08, OP-07 — no credential: 4.4.8 cancels the challenge, so the download ends with
    /// NSURLErrorCancelled (the 401 in userInfo), which is not blacklisted.
    func test_DL08_noCredentialCancelsTheChallenge() {
        let result = download("/auth.jpg")
        XCTAssertEqual(result.final?.error?.domain, NSURLErrorDomain)
        XCTAssertEqual(result.final?.error?.code, NSURLErrorCancelled)
        XCTAssertEqual(result.final?.error?.userInfo["statusCode"] as? Int, 401)
        XCTAssertTrue(result.final?.error?.localizedDescription.contains("no credential") ?? false)
        XCTAssertNil(result.final?.image)
        XCTAssertEqual(server.hits("/auth.jpg"), 1)
    }

    // MARK: Flow trace

    /// Parity: DL-06 — the downloader reports step 5 (new or joined download), the operation step 6 (status
    /// and bytes), the decoder step 7, in that order, for the URL.
    func test_DL06_flowTraceReportsStartResponseDecode() throws {
        let key = server.url("/a.jpg").absoluteString
        let events = Locked<[SDWebImageTraceEvent]>([])
        let token = SDWebImageTrace.addObserver { event in
            if event.key == key { events.update { $0.append(event) } }
        }
        defer { SDWebImageTrace.removeObserver(token) }
        XCTAssertNotNil(download("/a.jpg").final?.image)
        let steps = events.value.map(\.step)
        XCTAssertEqual(steps, [.downloadStart, .downloadResponse, .decode])
        XCTAssertEqual(events.value.first?.detail, "new download operation")
        XCTAssertEqual(
            events.value.dropFirst().first?.detail, "200, \(try TestFixtures.data("baseline.jpg").count) bytes")
        XCTAssertEqual(events.value.last?.detail, "jpg 256×192")
    }

    // MARK: DL-09

    /// Parity: DL-09 — HighPriority → high, LowPriority → low queue priority; a caller joining a waiting
    /// operation sets its priority again.
    func test_DL09_queuePriorityFromOptions() {
        XCTAssertEqual(queuedOperation("/a.jpg", options: .highPriority)?.queuePriority, .high)
        XCTAssertEqual(queuedOperation("/b.jpg", options: .lowPriority)?.queuePriority, .low)
        downloader.downloadImage(with: server.url("/b.jpg"), options: .highPriority, progress: nil, completed: nil)
        XCTAssertEqual(downloader.runningOperation(for: server.url("/b.jpg"))?.queuePriority, .high)
        downloader.downloadImage(with: server.url("/b.jpg"), options: [], progress: nil, completed: nil)
        XCTAssertEqual(downloader.runningOperation(for: server.url("/b.jpg"))?.queuePriority, .normal)
        downloader.cancelAllDownloads()
    }

    /// Parity: DL-09 — the queue priority decides the order: with one slot, three downloads queued on a suspended
    /// downloader (normal, low, then high added last) reach the server high first, then normal, then low.
    func test_DL09_highPriorityAddedLastRunsFirstWithOneSlot() {
        downloader.maxConcurrentDownloads = 1
        downloader.setSuspended(true)
        let arrival = Locked<[String]>([])
        let all = expectation(description: "three downloads")
        all.expectedFulfillmentCount = 3
        for (path, options) in [
            ("/a.jpg", SDWebImageDownloaderOptions()), ("/b.jpg", .lowPriority), ("/c.jpg", .highPriority),
        ] {
            server.route(path, .file(TestFixtures.url("baseline.jpg"), contentType: "image/jpeg"))
            downloader.downloadImage(
                with: server.url(path), options: options,
                progress: { received, expected, _ in
                    // With one download at a time, this response arrives before the next request is sent.
                    if received == 0 && expected > 0 { arrival.update { $0.append(path) } }
                }, completed: { _, _, _, finished in if finished { all.fulfill() } })
        }
        downloader.setSuspended(false)
        wait(for: [all], timeout: 20)
        XCTAssertEqual(arrival.value, ["/c.jpg", "/a.jpg", "/b.jpg"], "high, normal, low")
        XCTAssertEqual(server.maxConcurrentRequests, 1)
    }

    /// Parity: DL-09 — the task gets NSURLSessionTask's high / low priority too.
    func test_DL09_taskPriorityFromOptions() {
        server.route("/stall.jpg", .stall)
        downloader.downloadImage(with: server.url("/stall.jpg"), options: .highPriority, progress: nil, completed: nil)
        let operation = downloader.runningOperation(for: server.url("/stall.jpg"))
        XCTAssertTrue(waitUntil { operation?.dataTask != nil })
        XCTAssertEqual(operation?.dataTask?.priority, SDWebImageCurlTask.highPriority)
        downloader.cancelAllDownloads()
    }
}
