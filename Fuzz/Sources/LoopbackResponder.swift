import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP listener on 127.0.0.1 that answers every connection with the same raw bytes (the fuzz input, status
/// line and headers included), then closes it. It reads the request head first, so libcurl never sees a reset
/// before it has sent its request. One thread, one connection at a time. Fuzzing support only.
final class LoopbackResponder: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32
    /// Guards `response`, which the fuzz thread sets and the accept thread reads.
    private let lock = NSLock()
    private var response = Data()

    init() {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        precondition(listener >= 0, "socket: \(errno)")
        var one: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        precondition(bound == 0 && listen(listener, 64) == 0, "bind/listen: \(errno)")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = UInt16(bigEndian: address.sin_port)
        self.listener = listener
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "sdport-fuzz-responder"
        thread.start()
    }

    /// The bytes every following connection gets.
    func respond(with bytes: Data) {
        lock.withLock { response = bytes }
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 { continue }
            serve(connection)
            close(connection)
        }
    }

    private func serve(_ connection: Int32) {
        // Read until the blank line that ends the request head (or 64 KB, or the client goes away).
        var head = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while head.count < 65_536 {
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return }
            head.append(contentsOf: buffer[0..<count])
            if head.count >= 4, head.suffix(4).elementsEqual([13, 10, 13, 10]) { break }
        }
        let bytes = lock.withLock { response }
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let sent = send(connection, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if sent <= 0 { return }
                offset += sent
            }
        }
        shutdown(connection, Int32(SHUT_WR))
    }
}
