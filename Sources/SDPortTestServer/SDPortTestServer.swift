import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// A scriptable HTTP(S) server on 127.0.0.1 and an ephemeral port, started by a test (or by the demo and
/// the benchmarks) and stopped when it is done.
///
/// This is the port's test infrastructure and ports no SDWebImage type. The original's tests (4.4.8,
/// `Tests/Tests/SDWebImageDownloaderTests.m`, `SDWebImageManagerTests.m`; 5.x's still do) download from
/// real internet hosts; the port's tests run offline and deterministically against this server, which also
/// lets them script faults a public host cannot produce on demand (stalls, truncated bodies, redirect
/// loops, 304s). See `SDPortTestRoute` for what each route option stands for in the downloader's tests.
///
/// Use:
/// ```swift
/// let server = SDPortTestServer()
/// server.route("/a.jpg", .file(TestFixtures.url("a.jpg")).etag("\"v1\""))
/// try server.start()
/// defer { server.stop() }
/// // download server.url("/a.jpg"), then assert server.hits("/a.jpg") or server.requests("/a.jpg")
/// ```
/// Routes may be added or changed at any time, also while the server runs. Unknown paths answer 404.
/// Keep-alive connections are kept (libcurl reuses them); pipelined requests are answered in order.
///
/// Built on SwiftNIO (NIOPosix, NIOHTTP1) and NIOSSL, with its own 2-thread event loop group so that many
/// servers can run in one process (one per test) and each shuts down completely.
///
/// Thread safety: routes, counters and recorded requests live in `SDPortTestServerState` behind its lock;
/// the lifecycle (group, listening channel, port) is guarded by `lifecycleLock`. Per-connection state lives
/// in `SDPortTestConnectionHandler` on its event loop. `stop()` must not be called from one of this server's
/// event loops (nothing outside the server runs there).
public final class SDPortTestServer: @unchecked Sendable {
    private let tls: SDPortTestTLS?
    private let state = SDPortTestServerState()

    private let lifecycleLock = NIOLock()
    // Guarded by `lifecycleLock`.
    private var group: MultiThreadedEventLoopGroup?
    private var listeningChannel: (any Channel)?
    private var boundPort = 0

    /// A server for plain HTTP (`tls == nil`) or HTTPS with the given certificate (see
    /// `SDPortTestTLS.selfSigned()`). Nothing listens until `start()`.
    public init(tls: SDPortTestTLS? = nil) {
        self.tls = tls
    }

    deinit {
        stop()
    }

    // MARK: Lifecycle

    /// Binds 127.0.0.1 on an ephemeral port and returns once the socket listens. Does nothing when already
    /// running; after `stop()` it starts again (on a new port). Throws when the certificate cannot be loaded
    /// or the socket cannot be bound.
    public func start() throws {
        try lifecycleLock.withLock {
            guard group == nil else { return }
            let sslContext = try tls.map { try Self.makeSSLContext($0) }
            let newGroup = MultiThreadedEventLoopGroup(numberOfThreads: 2)
            let state = self.state
            state.startAccepting()
            let bootstrap = ServerBootstrap(group: newGroup)
                .serverChannelOption(ChannelOptions.backlog, value: 256)
                .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
                .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        guard state.connectionOpened(channel) else {
                            channel.close(promise: nil)
                            return
                        }
                        channel.closeFuture.whenComplete { _ in state.connectionClosed(channel) }
                        let pipeline = channel.pipeline.syncOperations
                        if let sslContext {
                            try pipeline.addHandler(NIOSSLServerHandler(context: sslContext))
                        }
                        // Framing headers are set by the response plan: a close-delimited body needs the
                        // encoder NOT to add chunked encoding on its own.
                        var encoder = HTTPResponseEncoder.Configuration()
                        encoder.automaticallySetFramingHeaders = false
                        try pipeline.configureHTTPServerPipeline(
                            withPipeliningAssistance: true,
                            withErrorHandling: true,
                            withEncoderConfiguration: encoder)
                        try pipeline.addHandler(SDPortTestConnectionHandler(state: state))
                    }
                }
            do {
                let channel = try bootstrap.bind(host: "127.0.0.1", port: 0).wait()
                guard let port = channel.localAddress?.port else {
                    try? channel.close().wait()
                    throw SDPortTestServerError.noBoundPort
                }
                group = newGroup
                listeningChannel = channel
                boundPort = port
            } catch {
                try? newGroup.syncShutdownGracefully()
                throw error
            }
        }
    }

    /// Stops listening, closes every open connection (stalled ones too, so their clients see the connection
    /// end) and shuts the event loop group down. Safe to call more than once, and before `start()`.
    public func stop() {
        let (stoppingGroup, channel) = lifecycleLock.withLock { () -> (MultiThreadedEventLoopGroup?, (any Channel)?) in
            defer {
                group = nil
                listeningChannel = nil
                boundPort = 0
            }
            return (group, listeningChannel)
        }
        guard let stoppingGroup else { return }
        let isOnOwnLoop = stoppingGroup.makeIterator().contains { $0.inEventLoop }
        if isOnOwnLoop {
            // Blocking here would deadlock; close and shut down asynchronously instead.
            channel?.close(promise: nil)
            for connection in state.stopAccepting() { connection.close(promise: nil) }
            stoppingGroup.shutdownGracefully { _ in }
            return
        }
        try? channel?.close().wait()
        for connection in state.stopAccepting() {
            try? connection.close().wait()
        }
        // A connection accepted just before the listener closed may still be setting up on the other loop (the
        // refused ones close themselves there). Shutting the group down under it makes that set-up schedule onto
        // a loop that has ended, which SwiftNIO reports and leaks: let each loop run what is queued first.
        for _ in 0..<3 {
            for loop in stoppingGroup.makeIterator() { try? loop.submit {}.wait() }
        }
        try? stoppingGroup.syncShutdownGracefully()
    }

    // MARK: Addresses

    /// The listening port; 0 before `start()` and after `stop()`.
    public var port: Int { lifecycleLock.withLock { boundPort } }

    /// `http://127.0.0.1:PORT` (`https` with TLS); port 0 before `start()`.
    public var baseURL: URL {
        URL(string: "\(tls == nil ? "http" : "https")://127.0.0.1:\(port)")!
    }

    /// `baseURL` followed by `path` ("/a.jpg", may include a query: "/a.jpg?v=2"). Ask after `start()`:
    /// the port is only known then (and changes when the server is restarted).
    public func url(_ path: String) -> URL {
        let slashed = path.hasPrefix("/") ? path : "/" + path
        return URL(string: baseURL.absoluteString + slashed)!
    }

    // MARK: Routes

    /// Answers requests whose path (query ignored) is exactly `path` with `route`; replaces an earlier route.
    public func route(_ path: String, _ route: SDPortTestRoute) {
        state.setRoute(route, for: path)
    }

    /// Serves every file under `directory` at `prefix` + its relative path (percent-decoded), with the content
    /// type from its extension (jpg/jpeg, png, gif, webp, else application/octet-stream). Files are read at
    /// request time; missing files answer 404. Exact routes win over directories.
    public func serveDirectory(_ directory: URL, under prefix: String = "/") {
        state.addDirectory(directory, under: prefix)
    }

    // MARK: What reached the server

    /// Requests received for `path` (a query in `path` is ignored), counted when the request head arrives.
    public func hits(_ path: String) -> Int { state.hits(path) }

    /// Requests received on any path.
    public var totalHits: Int { state.totalHits }

    /// The largest number of requests in flight at once: a request counts from the arrival of its head until
    /// its response has ended or its connection has closed.
    public var maxConcurrentRequests: Int { state.maxConcurrentRequests }

    /// Requests in flight now (addition to the contract).
    public var requestsInFlight: Int { state.requestsInFlight }

    /// Connections accepted since start or the last `resetCounters()` (addition to the contract): with
    /// keep-alive, several requests share one connection.
    public var acceptedConnections: Int { state.acceptedConnections }

    /// The requests received for `path` (query ignored for matching, kept in each record), in arrival order.
    public func requests(_ path: String) -> [SDPortRecordedRequest] { state.requests(path) }

    /// Forgets hits, recorded requests and accepted connections; the in-flight maximum restarts from the
    /// number of requests in flight now.
    public func resetCounters() { state.resetCounters() }

    // MARK: TLS

    private static func makeSSLContext(_ tls: SDPortTestTLS) throws -> NIOSSLContext {
        let chain = try NIOSSLCertificate.fromPEMFile(tls.certificatePath)
        let key = try NIOSSLPrivateKey(file: tls.privateKeyPath, format: .pem)
        let configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) },
            privateKey: .privateKey(key))
        return try NIOSSLContext(configuration: configuration)
    }
}
