/// Which file date `deleteOldFiles` compares with `maxCacheAge`.
///
/// Ports `SDImageCacheConfigExpireType` from `SDImageCacheConfig.h` (4.4.8, added in 4.4.2; earlier 4.x always
/// used the modification date). On Linux the dates are `stat`'s `st_atim` and `st_mtim`; the access date only
/// moves on read when the file system is not mounted `noatime` (`relatime`, the usual default, updates it at
/// most once a day). 5.5.0 adds creation and change dates; 5.20.0 makes the access date the default.
/// At tag 4.4.8: `SDWebImage/SDImageCacheConfig.h:12` (`SDImageCacheConfigExpireType`).
/// At tag 5.21.5: `SDWebImage/Core/SDImageCacheConfig.h:13` (`SDImageCacheConfigExpireType`).
public enum SDImageCacheConfigExpireType: UInt, Sendable {
    /// The last time the file was read.
    case accessDate = 0
    /// The last time the file was written (the default).
    case modificationDate = 1
}
