import Foundation

/// Runs several transformers one after the other (V5-02).
///
/// Ports `SDImagePipelineTransformer` (`SDImageTransformer.m`, 5.x): its key is the transformers' keys joined with
/// `-`, and a step that returns nil stops the pipeline with nil (the original hands nil on to the next step instead;
/// its built-in transformers answer nil to nil, so with them the result is the same). An empty pipeline returns the
/// image itself.
/// At tag 5.21.5: `SDWebImage/Core/SDImageTransformer.m:54` (`SDImagePipelineTransformer`).
public final class SDImagePipelineTransformer: SDImageTransformer {
    /// The transformers, applied in order.
    public let transformers: [any SDImageTransformer]
    public let transformerKey: String

    /// A transformer that applies `transformers` one after the other.
    public init(transformers: [any SDImageTransformer]) {
        self.transformers = transformers
        self.transformerKey = transformers.map(\.transformerKey).joined(separator: SDImageTransformerKeySeparator)
    }

    public func transformedImage(with image: UIImage, forKey key: String) -> UIImage? {
        var current = image
        for transformer in transformers {
            guard let next = transformer.transformedImage(with: current, forKey: key) else { return nil }
            current = next
        }
        return current
    }
}
