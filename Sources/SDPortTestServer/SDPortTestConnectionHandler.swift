import Foundation
import NIOCore
import NIOHTTP1

/// Answers the requests of one connection according to the server's routes. Port test infrastructure.
///
/// Concurrency: NIO handlers are not Sendable. All of this handler's state lives on its channel's event loop;
/// timers (delays, trickled pieces) are scheduled on that same loop through `assumeIsolated()`, so nothing
/// here is touched from another thread. Shared data goes through `SDPortTestServerState` (locked).
/// `HTTPServerPipelineHandler` (installed by `configureHTTPServerPipeline`) holds back a pipelined request
/// until the previous response has ended, so there is at most one request in progress per connection.
final class SDPortTestConnectionHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let state: SDPortTestServerState
    /// The head of the request being received (between `.head` and `.end`).
    private var receivingHead: HTTPRequestHead?
    /// Whether a request of this connection is counted in flight and not yet finished.
    private var countedInFlight = false
    /// The pending delay or trickle timer, cancelled when the connection closes.
    private var timer: Scheduled<Void>?
    private var isOpen = true
    /// The last write of the current response: closing waits for it, because closing a NIO channel fails
    /// writes still queued (a large body may not fit in the socket buffer at once).
    private var lastWrite: EventLoopFuture<Void>?

    init(state: SDPortTestServerState) {
        self.state = state
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            receivingHead = head
            let headers = head.headers.map { (name: $0.name, value: $0.value) }
            state.requestArrived(SDPortRecordedRequest(method: head.method.rawValue, path: head.uri, headers: headers))
            countedInFlight = true
        case .body:
            break  // request bodies are not used by any route
        case .end:
            guard let head = receivingHead else { return }
            receivingHead = nil
            let route = state.route(forPath: SDPortTestServerState.pathWithoutQuery(head.uri))
            let plan = SDPortTestResponsePlan(route: route, request: head)
            guard !plan.stall else { return }  // never answer; stays in flight until the connection closes
            if let gate = plan.gate {
                // Held: back on this loop once the gate opens (the handler and context never leave it).
                let loop = context.eventLoop
                let held = NIOLoopBound((handler: self, context: context, plan: plan), eventLoop: loop)
                gate.whenOpen {
                    loop.execute { held.value.handler.answer(context: held.value.context, plan: held.value.plan) }
                }
            } else {
                answer(context: context, plan: plan)
            }
        }
    }

    /// Sends the planned response, after its delay.
    private func answer(context: ChannelHandlerContext, plan: SDPortTestResponsePlan) {
        if plan.delay > 0 {
            schedule(context: context, after: plan.delay) { [self] in self.sendHead(context: context, plan: plan) }
        } else {
            sendHead(context: context, plan: plan)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        isOpen = false
        timer?.cancel()
        timer = nil
        finishInFlight()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        // Client resets, TLS handshakes a verifying client refused, malformed requests: drop the connection.
        context.close(promise: nil)
    }

    // MARK: Sending

    private func sendHead(context: ChannelHandlerContext, plan: SDPortTestResponsePlan) {
        guard isOpen else { return }
        if plan.reset {
            resetConnection(context: context)
            return
        }
        lastWrite = context.write(wrapOutboundOut(.head(plan.head)))
        sendPieces(context: context, plan: plan, from: 0)
    }

    private func sendPieces(context: ChannelHandlerContext, plan: SDPortTestResponsePlan, from index: Int) {
        guard isOpen else { return }
        guard index < plan.pieces.count else {
            finish(context: context, plan: plan)
            return
        }
        lastWrite = context.write(wrapOutboundOut(.body(.byteBuffer(plan.pieces[index]))))
        let next = index + 1
        if next < plan.pieces.count && plan.interval > 0 {
            context.flush()
            schedule(context: context, after: plan.interval) { [self] in
                self.sendPieces(context: context, plan: plan, from: next)
            }
        } else {
            sendPieces(context: context, plan: plan, from: next)
        }
    }

    private func finish(context: ChannelHandlerContext, plan: SDPortTestResponsePlan) {
        switch plan.ending {
        case .closeConnection:
            // A truncated body: flush what was sent, then close without ending the message. The request
            // stops being in flight when the channel goes inactive.
            context.flush()
            closeAfter(lastWrite, context: context)
        case .endMessage(let keepAlive):
            // Finished before writing the end, so a pipelined next request (released by the pipeline handler
            // when it sees the end) is never counted as overlapping this one.
            finishInFlight()
            let end = context.writeAndFlush(wrapOutboundOut(.end(nil)))
            if !keepAlive { closeAfter(end, context: context) }
        case .endMessageThenClose:
            finishInFlight()
            closeAfter(context.writeAndFlush(wrapOutboundOut(.end(nil))), context: context)
        }
        lastWrite = nil
    }

    private func closeAfter(_ write: EventLoopFuture<Void>?, context: ChannelHandlerContext) {
        guard let write else {
            context.close(promise: nil)
            return
        }
        write.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }

    /// Closes with SO_LINGER 0, so the kernel sends RST instead of FIN and the client sees a reset.
    private func resetConnection(context: ChannelHandlerContext) {
        guard let socket = context.channel as? any SocketOptionProvider else {
            context.close(promise: nil)
            return
        }
        socket.setSoLinger(NIOLinger(l_onoff: 1, l_linger: 0)).assumeIsolated().whenComplete { _ in
            context.close(promise: nil)
        }
    }

    private func finishInFlight() {
        guard countedInFlight else { return }
        countedInFlight = false
        state.requestFinished()
    }

    /// Runs `task` on this channel's event loop after `seconds`, unless the connection closes first.
    private func schedule(context: ChannelHandlerContext, after seconds: TimeInterval, _ task: @escaping () -> Void) {
        let nanoseconds = Int64((seconds * 1_000_000_000).rounded())
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: .nanoseconds(nanoseconds)) { [self] in
            self.timer = nil
            task()
        }
    }
}
