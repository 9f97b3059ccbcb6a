import ArgumentParser
import SDPort

/// `--gif-coder`: adds `SDWebImageGIFCoder` to the shared coders, as a 4.4.8 app on iOS, tvOS or watchOS does to
/// get animated GIFs as `UIImage`s.
/// Without it the coders are 4.4.8's default set with `SD_WEBP` (`SDWebImageImageIOCoder`, `SDWebImageWebPCoder`),
/// which decodes a GIF to its first frame, still, as under UIKit. `--max-pixels` sets
/// `SDWebImageCoderHelper.maxDecodedPixelCount`, the decoders' pixel limit (REL-01).
struct CoderOptions: ParsableArguments {
    @Flag(
        name: .customLong("gif-coder"),
        help:
            "Add SDWebImageGIFCoder (animated GIFs), as a 4.4.8 iOS app does; by default a GIF decodes to its first frame."
    )
    var addsGIFCoder = false

    @Option(
        name: .customLong("max-pixels"),
        help: ArgumentHelp(
            "The most pixels a decoder may allocate for one image, every frame of an animation counted; larger images are refused before decoding (default \(SDWebImageCoderHelper.defaultMaxDecodedPixelCount), 16384²).",
            valueName: "N"))
    var maxPixels: Int?

    func validate() throws {
        if let maxPixels, maxPixels < 1 { throw ValidationError("--max-pixels must be at least 1") }
    }

    /// Registers the GIF coder and sets the pixel limit when asked; call once, before loading.
    func apply() {
        if addsGIFCoder { SDWebImageCodersManager.shared.addCoder(SDWebImageGIFCoder.shared) }
        if let maxPixels { SDWebImageCoderHelper.maxDecodedPixelCount = maxPixels }
    }

    /// The coders' names, the one asked first last, for the command's header.
    static var registeredNames: String {
        SDWebImageCodersManager.shared.coders.map { String(describing: type(of: $0)) }.joined(separator: ", ")
    }
}
