// On Linux, URLRequest, URLResponse, URLCache, URLCredential and URLSessionConfiguration live in
// FoundationNetworking, not Foundation. The downloader's public API uses them, so SDPort re-exports the
// module: code that imports SDPort can name them without importing FoundationNetworking itself.
#if canImport(FoundationNetworking)
    @_exported import FoundationNetworking
#endif
