import CGIF
import Foundation

extension SDWebImageGIFCoder {
    /// Counts a GIF's frames without decoding any, and refuses it when its canvas, or that many snapshots of it,
    /// would come to more than `SDWebImageCoderHelper.maxDecodedPixelCount` (REL-01).
    ///
    /// The compositor keeps one canvas-sized bitmap per frame. Checked only as frames arrived, a file of many tiny
    /// frames on a large screen (20,000 one-pixel frames on 2,000 × 2,000: 300 KB) took the whole budget, 1 GiB
    /// by default, before it was refused, and the error named the screen, not the frames. Here each frame's
    /// descriptor is read and its compressed data skipped sub-block by sub-block (no LZW decoding), so the check
    /// costs one pass over the bytes and allocates no bitmap. Data that giflib cannot read stops the count at the
    /// frames read so far; the decode that follows reports such data as it always has.
    /// 4.4.8's GIF coder counts no pixels: on iOS, tvOS and watchOS it asks ImageIO for an image per frame of a GIF
    /// with more than one frame, and hands a one-frame GIF whole to `UIImage` (`SDWebImageGIFCoder.m:53-71`).
    static func checkFrameBudget(of data: UnsafeRawBufferPointer, reader: InputFunc) throws {
        guard let base = data.bindMemory(to: UInt8.self).baseAddress else { return }
        var source = MemorySource(base: base, count: data.count, offset: 0)
        try withUnsafeMutablePointer(to: &source) { sourcePointer in
            var openError: Int32 = 0
            guard let gif = DGifOpen(sourcePointer, reader, &openError) else { return }
            defer {
                var closeError: Int32 = 0
                DGifCloseFile(gif, &closeError)
            }
            var width = Int(gif.pointee.SWidth)
            var height = Int(gif.pointee.SHeight)
            var frames = 0
            scan: while true {
                var record = UNDEFINED_RECORD_TYPE
                guard DGifGetRecordType(gif, &record) == GIF_OK else { break scan }
                switch record {
                case IMAGE_DESC_RECORD_TYPE:
                    guard DGifGetImageDesc(gif) == GIF_OK else { break scan }
                    if frames == 0, width <= 0 || height <= 0 {  // no logical screen size: the first frame's, as drawn
                        let desc = gif.pointee.Image
                        width = Int(desc.Left + desc.Width)
                        height = Int(desc.Top + desc.Height)
                    }
                    frames += 1
                    var codeSize: Int32 = 0
                    var block: UnsafeMutablePointer<GifByteType>?
                    guard DGifGetCode(gif, &codeSize, &block) == GIF_OK else { break scan }
                    while block != nil {
                        guard DGifGetCodeNext(gif, &block) == GIF_OK else { break scan }
                    }
                case EXTENSION_RECORD_TYPE:
                    var code: Int32 = 0
                    var block: UnsafeMutablePointer<GifByteType>?
                    guard DGifGetExtension(gif, &code, &block) == GIF_OK else { break scan }
                    while block != nil {
                        guard DGifGetExtensionNext(gif, &block) == GIF_OK else { break scan }
                    }
                case TERMINATE_RECORD_TYPE:
                    break scan
                default:
                    continue
                }
            }
            guard frames > 0, width > 0, height > 0 else { return }  // the decode says what is wrong
            try SDWebImageCoderHelper.checkPixelBudget(width: width, height: height)
            try SDWebImageCoderHelper.checkPixelBudget(width: width, height: height, frames: frames)
        }
    }
}
