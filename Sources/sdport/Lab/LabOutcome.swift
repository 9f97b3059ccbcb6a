/// What one flow of a lab scenario did, read from the run: the completion calls, whether the URL went on the
/// failed-URL list, what the cache holds under the flow's keys, and how many requests reached the server.
/// Port addition.
struct LabOutcome: Codable, Sendable, Equatable {
    let flow: LabFlow
    let callbacks: [LabCallback]
    /// `SDWebImageManager.failedURLs` contains the URL after the run.
    let blacklisted: Bool
    let stored: [LabStorage]
    let serverRequests: Int
    /// How many loads the manager still lists in `runningOperations` after the run (in 4.4.8, a load whose
    /// download was cancelled below the manager is never called back by the default download operation, and it
    /// stays listed).
    var runningLoads: Int = 0

    /// The error of the first call that had one, as "domain code".
    var error: String? {
        callbacks.first { $0.errorDomain != nil }.map { "\($0.errorDomain!) \($0.errorCode!)" }
    }
}
