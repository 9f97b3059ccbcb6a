import Foundation

/// Turns the downloaded bytes into image bytes before they are decoded (context key `downloadDecryptor`, V5-11),
/// for example data served base64-encoded.
///
/// Ports `SDWebImageDownloaderDecryptor` and its `base64Decryptor` (`SDWebImageDownloaderDecryptor.m`, 5.3.0+);
/// 4.4.8 has no such step. As the port's request and response modifiers, it is a class around a block (5.x also
/// has a protocol of the same name). The downloader loader calls it once the whole body has arrived, with the
/// response; nil fails the load with `BadImageData` (1001). A decryptor turns progressive decoding off for its
/// download, as in 5.x: partial encrypted bytes cannot be decrypted. 5.x's downloader-wide `decryptor` property is
/// not ported (the 4.4.8 downloader has none); only the context key is.
/// At tag 5.21.5: `SDWebImage/Core/SDWebImageDownloaderDecryptor.m:17` (`SDWebImageDownloaderDecryptor`), `SDWebImage/Core/SDWebImageDownloaderDecryptor.m:43` (`+base64Decryptor`).
public final class SDWebImageDownloaderDecryptor: Sendable {
    private let block: @Sendable (Data, URLResponse?) -> Data?

    /// Wraps `block`, which returns the image bytes for the downloaded bytes and response, or nil to fail the load.
    public init(block: @escaping @Sendable (_ data: Data, _ response: URLResponse?) -> Data?) {
        self.block = block
    }

    /// The decrypted bytes, or nil when they cannot be had.
    public func decryptedData(with data: Data, response: URLResponse?) -> Data? {
        block(data, response)
    }

    /// Decodes base64 text, skipping characters that are not base64 (line breaks, spaces), as 5.x's does.
    public static let base64 = SDWebImageDownloaderDecryptor { data, _ in
        Data(base64Encoded: data, options: .ignoreUnknownCharacters)
    }
}
