/// The port's version, and the version of SDWebImage whose semantics it ports.
public enum SDPortVersion {
    /// SDPort's own version.
    public static let string = "0.1.0"
    /// The SDWebImage release the port follows.
    public static let portedSDWebImageVersion = "4.4.8"
}
