import ArgumentParser
import SDPort

/// `--gif-coder`: adds `SDWebImageGIFCoder` to the shared coders, as a 4.4.8 app does to get animated GIFs.
/// Without it the coders are 4.4.8's default set (`SDWebImageImageIOCoder`, `SDWebImageWebPCoder`), which
/// decodes a GIF to its first frame, still.
struct CoderOptions: ParsableArguments {
    @Flag(name: .customLong("gif-coder"), help: "Add SDWebImageGIFCoder (animated GIFs), as a 4.4.8 app does; by default a GIF decodes to its first frame.")
    var addsGIFCoder = false

    /// Registers the GIF coder when asked; call once, before loading.
    func apply() {
        if addsGIFCoder { SDWebImageCodersManager.shared.addCoder(SDWebImageGIFCoder.shared) }
    }

    /// The coders' names, the one asked first last, for the command's header.
    static var registeredNames: String {
        SDWebImageCodersManager.shared.coders.map { String(describing: type(of: $0)) }.joined(separator: ", ")
    }
}
