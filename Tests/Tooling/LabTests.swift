import Foundation
import SDPort
import SDPortTestSupport
import XCTest

@testable import sdport

/// `sdport lab`: each scenario run in-process through both flows (`LabRunner`, on its own loopback servers and
/// temporary caches), with the outcome pinned field by field; the comparison's text and the myth line; the CLI's
/// list, JSON and bad scenario name.
final class LabTests: XCTestCase {
    private func compare(_ scenario: LabScenario, myths: [Myth] = []) async throws -> LabComparison {
        try await LabRunner.compare(scenario, myths: myths)
    }

    private func assertOneFailure(
        _ outcome: LabOutcome, domain: String, code: Int,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(outcome.callbacks.count, 1, "\(outcome.callbacks)", file: file, line: line)
        let call = outcome.callbacks.first
        XCTAssertNil(call?.image, file: file, line: line)
        XCTAssertEqual(call?.errorDomain, domain, file: file, line: line)
        XCTAssertEqual(call?.errorCode, code, file: file, line: line)
        XCTAssertEqual(call?.finished, true, file: file, line: line)
    }

    private func assertNothingStored(_ outcome: LabOutcome, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(outcome.stored.isEmpty, file: file, line: line)
        for storage in outcome.stored {
            XCTAssertFalse(storage.memory || storage.disk, storage.text, file: file, line: line)
        }
    }

    // MARK: Scenarios

    /// A 404: 4.4.8's operation cancels the invalid response (NSURLErrorCancelled, not blacklisted); 5.x reports
    /// InvalidDownloadStatusCode 2001, not blacklisted either (MGR-06, V5-03).
    func test_LAB_404_v4CancelledV5StatusCodeNeitherBlacklisted() async throws {
        let comparison = try await compare(.notFound)
        assertOneFailure(comparison.v4, domain: NSURLErrorDomain, code: NSURLErrorCancelled)
        assertOneFailure(comparison.v5, domain: SDWebImageErrorDomain, code: 2001)
        XCTAssertFalse(comparison.v4.blacklisted)
        XCTAssertFalse(comparison.v5.blacklisted)
        assertNothingStored(comparison.v4)
        assertNothingStored(comparison.v5)
        XCTAssertEqual(comparison.v4.serverRequests, 1)
        XCTAssertEqual(comparison.v5.serverRequests, 1)
        XCTAssertEqual(comparison.differences, ["callbacks", "error"])
    }

    /// A cancel while the request is at the server: 4.4.8 calls no completion once the load is cancelled; the 5.x
    /// flow answers once with SDWebImageErrorCancelled (2002), finished, as 5.x does. Neither lists the URL.
    func test_LAB_cancel_v4SilentV5Answers2002() async throws {
        let comparison = try await compare(.cancel)
        XCTAssertEqual(comparison.v4.callbacks, [])
        assertOneFailure(comparison.v5, domain: SDWebImageErrorDomain, code: 2002)
        for outcome in [comparison.v4, comparison.v5] {
            XCTAssertFalse(outcome.blacklisted, "\(outcome.flow)")
            XCTAssertEqual(
                outcome.serverRequests, 1, "\(outcome.flow): the request reached the server before the cancel")
            assertNothingStored(outcome)
        }
        XCTAssertEqual(comparison.differences, ["callbacks", "error"])
    }

    /// Two callers for one URL: one request, each caller completed once (DL coalescing). 4.4.8 calls them back in
    /// the order they asked (one loop over the operation's callbacks, each queued on the completion queue); the
    /// port's 5.x flow hands each load to its own transform queue first, so there the order is not fixed.
    func test_LAB_twoCallers_oneRequestOneCompletionEach() async throws {
        let comparison = try await compare(.twoCallers)
        XCTAssertEqual(comparison.v4.callbacks.map(\.caller), [1, 2])
        XCTAssertEqual(comparison.v5.callbacks.map(\.caller).sorted(), [1, 2])
        for outcome in [comparison.v4, comparison.v5] {
            XCTAssertEqual(outcome.serverRequests, 1, "\(outcome.flow)")
            XCTAssertEqual(outcome.callbacks.map(\.image), ["2x2", "2x2"], "\(outcome.flow)")
            XCTAssertEqual(outcome.callbacks.map(\.cacheType), ["none", "none"], "\(outcome.flow): both downloaded")
            XCTAssertEqual(outcome.callbacks.map(\.finished), [true, true], "\(outcome.flow)")
            XCTAssertEqual(outcome.stored.map(\.memory), [true], "\(outcome.flow)")
            XCTAssertEqual(outcome.stored.map(\.disk), [true], "\(outcome.flow)")
        }
        XCTAssertEqual(comparison.differences, [])
    }

    /// A flip: both deliver the flipped image (top-left blue, the sample starts red). 4.4.8 stores it under the
    /// URL key; 5.x under the transformed key, with the original on disk only under the URL key (V5-02).
    func test_LAB_transformer_v4StoresUnderTheURLKeyV5UnderTheTransformedKey() async throws {
        let comparison = try await compare(.transformer)
        for outcome in [comparison.v4, comparison.v5] {
            XCTAssertEqual(outcome.callbacks.count, 1, "\(outcome.flow)")
            XCTAssertEqual(outcome.callbacks.first?.topLeft, "blue", "\(outcome.flow): the delivered image is flipped")
            XCTAssertNil(outcome.callbacks.first?.errorDomain)
        }
        XCTAssertEqual(comparison.v4.stored.map(\.role), ["URL key"])
        XCTAssertTrue(comparison.v4.stored[0].key.hasSuffix("/flip.png"))
        XCTAssertTrue(comparison.v4.stored[0].memory && comparison.v4.stored[0].disk)

        XCTAssertEqual(comparison.v5.stored.map(\.role), ["transformed key", "URL key"])
        XCTAssertTrue(
            comparison.v5.stored[0].key.hasSuffix("/flip-SDImageFlippingTransformer(1,0).png"),
            comparison.v5.stored[0].key)
        XCTAssertTrue(comparison.v5.stored[0].memory && comparison.v5.stored[0].disk)
        XCTAssertTrue(comparison.v5.stored[1].key.hasSuffix("/flip.png"))
        XCTAssertFalse(comparison.v5.stored[1].memory, "originalStoreCacheType defaults to disk")
        XCTAssertTrue(comparison.v5.stored[1].disk)
        XCTAssertEqual(comparison.differences, ["stored"])
    }

    /// FromCacheOnly on a miss: one finished call with neither image nor error, and no request, in both flows.
    func test_LAB_cacheOnlyMiss_noImageNoErrorNoRequest() async throws {
        let comparison = try await compare(.cacheOnlyMiss)
        for outcome in [comparison.v4, comparison.v5] {
            XCTAssertEqual(outcome.callbacks.count, 1, "\(outcome.flow)")
            XCTAssertNil(outcome.callbacks.first?.image)
            XCTAssertNil(outcome.callbacks.first?.errorDomain)
            XCTAssertEqual(outcome.callbacks.first?.finished, true)
            XCTAssertEqual(outcome.serverRequests, 0, "\(outcome.flow)")
            XCTAssertFalse(outcome.blacklisted)
        }
        XCTAssertEqual(comparison.differences, [])
    }

    /// Bytes that are no image: 4.4.8's "0 pixels" error has code 0, 5.x's BadImageData 1001; both blacklist.
    func test_LAB_undecodable_code0Versus1001BothBlacklisted() async throws {
        let comparison = try await compare(.undecodable)
        assertOneFailure(comparison.v4, domain: SDWebImageErrorDomain, code: 0)
        assertOneFailure(comparison.v5, domain: SDWebImageErrorDomain, code: 1001)
        XCTAssertTrue(comparison.v4.blacklisted)
        XCTAssertTrue(comparison.v5.blacklisted)
        assertNothingStored(comparison.v4)
        assertNothingStored(comparison.v5)
        XCTAssertEqual(comparison.differences, ["callbacks", "error"])
    }

    /// V5-12 — a cancel below the manager (`cancelAllDownloads` while the request is at the server): 4.4.8 calls
    /// nobody and keeps the load in `runningOperations`; the 5.x flow answers once with SDWebImageErrorCancelled
    /// (2002), finished, and drops the load. Neither lists the URL.
    func test_V512_LAB_cancelAll_v4SilentV5Answers2002() async throws {
        let comparison = try await compare(.cancelAll)
        XCTAssertEqual(comparison.v4.callbacks, [])
        XCTAssertEqual(comparison.v4.runningLoads, 1, "4.4.8: the load nobody called back stays listed")
        assertOneFailure(comparison.v5, domain: SDWebImageErrorDomain, code: 2002)
        XCTAssertEqual(comparison.v5.runningLoads, 0)
        for outcome in [comparison.v4, comparison.v5] {
            XCTAssertFalse(outcome.blacklisted, "\(outcome.flow)")
            XCTAssertEqual(outcome.serverRequests, 1, "\(outcome.flow)")
            assertNothingStored(outcome)
        }
        XCTAssertEqual(comparison.differences, ["callbacks", "error", "running loads"])
        let text = comparison.lines.joined(separator: "\n")
        XCTAssertTrue(
            text.contains(
                "≠ callbacks\n    4.4.8  none\n    5.x    #1 caller 1, no image, error \(SDWebImageErrorDomain) 2002"),
            text)
    }

    // MARK: Text and myths

    /// The printed lines come from the outcomes: a changed outcome changes the text, and `≠` marks only what differs.
    func test_LAB_textIsMadeFromTheOutcomes() {
        let call = LabCallback(
            caller: 1, image: nil, topLeft: nil, errorDomain: "D", errorCode: 7, cacheType: "none",
            finished: true)
        let storage = LabStorage(role: "URL key", key: "http://127.0.0.1:1/a.png", memory: false, disk: false)
        let v4 = LabOutcome(flow: .v4, callbacks: [call], blacklisted: true, stored: [storage], serverRequests: 1)
        let v5 = LabOutcome(
            flow: .v5, callbacks: [call], blacklisted: false,
            stored: [LabStorage(role: "URL key", key: "http://127.0.0.1:2/a.png", memory: false, disk: false)],
            serverRequests: 1)
        let comparison = LabComparison(scenario: .notFound, v4: v4, v5: v5, myth: nil)
        XCTAssertEqual(
            comparison.differences, ["failedURLs"], "keys differing only in the server's port are the same key")
        let text = comparison.lines.joined(separator: "\n")
        XCTAssertTrue(text.contains("= error: D 7 (both)"), text)
        XCTAssertTrue(text.contains("≠ failedURLs\n    4.4.8  URL blacklisted\n    5.x    URL not blacklisted"), text)
        XCTAssertTrue(text.contains("Differs: failedURLs."), text)
        XCTAssertFalse(text.contains("4.0–4.2"), "no myth, no older-version line")

        // Two callers' calls in another order: the same per caller, shown with `~` and both orders.
        let first = LabCallback(
            caller: 1, image: "2x2", topLeft: "red", errorDomain: nil, errorCode: nil,
            cacheType: "none", finished: true)
        let second = LabCallback(
            caller: 2, image: "2x2", topLeft: "red", errorDomain: nil, errorCode: nil,
            cacheType: "none", finished: true)
        let inOrder = LabOutcome(
            flow: .v4, callbacks: [first, second], blacklisted: false, stored: [], serverRequests: 1)
        let swapped = LabOutcome(
            flow: .v5, callbacks: [second, first], blacklisted: false, stored: [], serverRequests: 1)
        let reordered = LabComparison(scenario: .twoCallers, v4: inOrder, v5: swapped, myth: nil)
        XCTAssertEqual(reordered.differences, [])
        let reorderedText = reordered.lines.joined(separator: "\n")
        XCTAssertTrue(
            reorderedText.contains("~ callbacks (the same per caller, in another order)\n    4.4.8  #1 caller 1"),
            reorderedText)
        XCTAssertTrue(reorderedText.contains("    5.x    #1 caller 2"), reorderedText)
    }

    /// A myth that names the scenario supplies the 4.0–4.2 line; one about something else does not.
    func test_LAB_olderVersionLineComesFromAMatchingMyth() {
        let unrelated = Myth(
            id: "disk-format", topic: "cache", belief: "Images are stored as PNG.", source: "blog posts",
            trueIn: "never", truth: "The downloaded bytes are stored.", original: "SDImageCache.m -storeImage:",
            test: "X.test")
        let related = Myth(
            id: "failed-404", topic: "manager", belief: "A 404 puts the URL on the failed list.",
            source: "blog posts", trueIn: "4.0–4.2", truth: "4.4.8 does not blacklist a 404.",
            original: "SDWebImageManager.m failedURLs", test: "X.test")
        let cancelled404 = Myth(
            id: "cancelled-404", topic: "downloader", belief: "A 404 is reported as cancelled.",
            source: "blog posts", trueIn: "never", truth: "4.4.8 cancels a 404 response.",
            original: "SDWebImageDownloaderOperation.m", test: "X.test")
        XCTAssertNil(LabScenario.transformer.myth(in: [unrelated, related]))
        XCTAssertEqual(
            LabScenario.notFound.myth(in: [unrelated, cancelled404, related])?.id, "failed-404",
            "one held in 4.0–4.2 comes first")
        XCTAssertNil(
            LabScenario.cancel.myth(in: [cancelled404]), "a myth about the 404 that says cancelled stays with the 404")
        let inPassing = Myth(
            id: "locks", topic: "manager", belief: "The failed URLs are guarded by @synchronized.",
            source: "s", trueIn: "4.0–4.3", truth: "Semaphores.", original: "o", test: "X.test")
        XCTAssertEqual(
            LabScenario.notFound.myth(in: [inPassing, related])?.id, "failed-404",
            "the myth that shares the most words wins over one that names failed URLs in passing")
        let outcome = LabOutcome(flow: .v4, callbacks: [], blacklisted: false, stored: [], serverRequests: 0)
        let text = LabComparison(scenario: .notFound, v4: outcome, v5: outcome, myth: related).lines.joined(
            separator: "\n")
        XCTAssertTrue(
            text.contains("4.0–4.2 (failed-404, held in 4.0–4.2): A 404 puts the URL on the failed list."), text)
        let never = LabComparison(scenario: .notFound, v4: outcome, v5: outcome, myth: cancelled404).lines.joined(
            separator: "\n")
        XCTAssertTrue(never.contains("Myth (cancelled-404, held in never): A 404 is reported as cancelled."), never)
    }

    // MARK: Command line

    func test_LAB_CLI_listsTheScenariosAndRejectsAnUnknownOne() throws {
        let list = try CLIProcess.run(["lab"])
        XCTAssertEqual(list.status, 0, list.stderr)
        for scenario in ["404", "cancel", "two-callers", "transformer", "cache-only-miss", "undecodable", "cancel-all"]
        {
            XCTAssertTrue(list.stdoutLines.contains { $0.hasPrefix(scenario + " ") }, "\(scenario) in \(list.stdout)")
        }
        let unknown = try CLIProcess.run(["lab", "teapot"])
        XCTAssertEqual(unknown.status, 2)
        XCTAssertEqual(unknown.stderrLines.count, 1, unknown.stderr)
        XCTAssertTrue(unknown.stderr.contains("there is no scenario teapot"), unknown.stderr)
    }

    func test_LAB_CLI_jsonCarriesBothOutcomes() throws {
        let result = try CLIProcess.run(["lab", "undecodable", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["scenario"] as? String, "undecodable")
        let v5 = try XCTUnwrap(object["v5"] as? [String: Any])
        let calls = try XCTUnwrap(v5["callbacks"] as? [[String: Any]])
        XCTAssertEqual(calls.first?["errorCode"] as? Int, 1001)
        XCTAssertEqual(v5["blacklisted"] as? Bool, true)
        let rows = try XCTUnwrap(object["rows"] as? [[String: Any]])
        XCTAssertEqual(
            rows.filter { $0["differs"] as? Bool == true }.compactMap { $0["aspect"] as? String },
            ["callbacks", "error"])
    }
}
