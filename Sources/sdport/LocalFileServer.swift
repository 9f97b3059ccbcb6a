import Foundation
import SDPortTestServer

/// Serves one local file on the loopback server, so `sdport load PATH` runs the same download → decode → store
/// path as a URL does.
struct LocalFileServer: Sendable {
    let server: SDPortTestServer
    let url: URL

    init(file: URL) throws {
        server = SDPortTestServer()
        do {
            try server.start()
        } catch {
            throw SDPortFailure(.loadFailed, "load failed: cannot start the loopback server for \(file.path): \(error)")
        }
        let path = "/" + (file.lastPathComponent.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? "image")
        server.route(path, .file(file))
        url = server.url(path)
    }

    func stop() { server.stop() }
}
