import SDPort

/// Lays the frames of an animated image side by side in a grid, so `--output` can show them in one PNG.
enum ContactSheet {
    /// Pixels between frames (left transparent).
    static let gap = 2

    /// The frames of `image` in a grid of ⌈√n⌉ columns; a still image is returned as it is.
    static func make(from image: UIImage) -> UIImage {
        guard let frames = SDWebImageCoderHelper.frames(from: image)?.map(\.image), frames.count > 1 else {
            return image
        }
        let columns = Int(Double(frames.count).squareRoot().rounded(.up))
        let rows = (frames.count + columns - 1) / columns
        let cellWidth = frames.map(\.pixelWidth).max() ?? 0
        let cellHeight = frames.map(\.pixelHeight).max() ?? 0
        let width = columns * cellWidth + (columns - 1) * gap
        let height = rows * cellHeight + (rows - 1) * gap
        let bytesPerRow = width * 4
        var pixels = [UInt8](repeating: 0, count: bytesPerRow * height)
        for (index, frame) in frames.enumerated() {
            let originX = (index % columns) * (cellWidth + gap)
            let originY = (index / columns) * (cellHeight + gap)
            let rowBytes = frame.pixelWidth * 4
            guard rowBytes > 0, frame.pixels.count >= frame.bytesPerRow * (frame.pixelHeight - 1) + rowBytes else {
                continue
            }
            for y in 0..<frame.pixelHeight {
                let source = y * frame.bytesPerRow
                let destination = (originY + y) * bytesPerRow + originX * 4
                pixels.replaceSubrange(
                    destination..<(destination + rowBytes), with: frame.pixels[source..<(source + rowBytes)])
            }
        }
        return UIImage(
            pixelWidth: width, pixelHeight: height, pixels: pixels, bytesPerRow: bytesPerRow,
            hasAlpha: true, scale: 1, format: .png)
    }
}
