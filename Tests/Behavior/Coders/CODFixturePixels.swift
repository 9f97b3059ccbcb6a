import Foundation
import SDPort
import XCTest

/// What the coder tests know about the fixtures' pixels (see Fixtures/README.md), and pixel assertions.
enum CODFixturePixels {
    /// Colour of the 16×16 block (bx, by) of baseline.jpg, progressive.jpg and lossy.webp.
    static func blockColor(_ bx: Int, _ by: Int) -> (r: Int, g: Int, b: Int) {
        (bx * 16 + 8, by * 20 + 10, ((bx + by) * 23) % 256)
    }

    /// Checks every block's centre of a block-colour image, within `tolerance` per channel.
    static func assertBlockColors(_ image: UIImage, tolerance: Int, file: StaticString = #filePath, line: UInt = #line)
    {
        XCTAssertEqual(image.pixelWidth, 256, file: file, line: line)
        XCTAssertEqual(image.pixelHeight, 192, file: file, line: line)
        guard image.pixelWidth == 256, image.pixelHeight == 192 else { return }
        for by in 0..<12 {
            for bx in 0..<16 {
                let expected = blockColor(bx, by)
                assertPixel(
                    image, x: bx * 16 + 8, y: by * 16 + 8, (expected.r, expected.g, expected.b, 255),
                    tolerance: tolerance, file: file, line: line)
            }
        }
    }

    /// Asserts one pixel's RGBA within `tolerance` per channel.
    static func assertPixel(
        _ image: UIImage, x: Int, y: Int, _ expected: (Int, Int, Int, Int), tolerance: Int = 0,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        let p = image.pixel(x: x, y: y)
        let actual = [Int(p.r), Int(p.g), Int(p.b), Int(p.a)]
        let wanted = [expected.0, expected.1, expected.2, expected.3]
        let worst = zip(actual, wanted).map { abs($0 - $1) }.max() ?? 0
        XCTAssertLessThanOrEqual(
            worst, tolerance, "pixel (\(x), \(y)) is \(actual), expected \(wanted) ± \(tolerance)",
            file: file, line: line)
    }

    /// The largest per-channel difference between two images of the same size (Int.max when sizes differ).
    static func maxDifference(_ a: UIImage, _ b: UIImage) -> Int {
        guard a.pixelWidth == b.pixelWidth, a.pixelHeight == b.pixelHeight else { return Int.max }
        var worst = 0
        for y in 0..<a.pixelHeight {
            for x in 0..<a.pixelWidth {
                let p = a.pixel(x: x, y: y)
                let q = b.pixel(x: x, y: y)
                worst = max(
                    worst, abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b)),
                    abs(Int(p.a) - Int(q.a)))
            }
        }
        return worst
    }

    /// Mean absolute difference per channel between two images of the same size.
    static func meanDifference(_ a: UIImage, _ b: UIImage) -> Double {
        precondition(a.pixelWidth == b.pixelWidth && a.pixelHeight == b.pixelHeight)
        var total = 0
        for y in 0..<a.pixelHeight {
            for x in 0..<a.pixelWidth {
                let p = a.pixel(x: x, y: y)
                let q = b.pixel(x: x, y: y)
                total += abs(Int(p.r) - Int(q.r)) + abs(Int(p.g) - Int(q.g)) + abs(Int(p.b) - Int(q.b))
            }
        }
        return Double(total) / Double(a.pixelWidth * a.pixelHeight * 3)
    }

    /// How many rows from the top are identical in both images.
    static func identicalLeadingRows(_ a: UIImage, _ b: UIImage) -> Int {
        guard a.pixelWidth == b.pixelWidth, a.pixelHeight == b.pixelHeight else { return 0 }
        for y in 0..<a.pixelHeight {
            let rowA = a.pixels[(y * a.bytesPerRow)..<(y * a.bytesPerRow + a.pixelWidth * 4)]
            let rowB = b.pixels[(y * b.bytesPerRow)..<(y * b.bytesPerRow + b.pixelWidth * 4)]
            if rowA != rowB { return y }
        }
        return a.pixelHeight
    }
}
