import SDPort

/// A program's own image view class: its default operation key is module-qualified, as `NSStringFromClass` names a
/// Swift class (VIEW-02).
@MainActor
final class VIEWAvatarView: UIImageView {}
