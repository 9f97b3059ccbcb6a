swift run sdport load Fixtures/gradient.png --trace --cache-dir /tmp/sdport-tutorial
# Output of one run (in a clone at /work/wt-docc; times and the port differ on every run):
#        2.09 ms  2.  manager: loadImage              options 0
#        2.31 ms  3.  cache: memory query             miss
#        2.55 ms  4.  cache: disk query               miss
#        2.82 ms  5.  downloader: start download      new download operation
#        5.98 ms  6.  operation: response and data    200, 138516 bytes
#        7.09 ms  7.  coder: decode                   png 256×192
#        7.27 ms  8.  cache: store                    memory and disk
#        7.30 ms  9.  manager: completion             256x192 from none (downloaded)
# file:       /work/wt-docc/Fixtures/gradient.png (served on loopback, cache key file:///work/wt-docc/Fixtures/gradient.png)
# url:        http://127.0.0.1:33909/gradient.png
# origin:     download (SDImageCacheType.none = 0)
# format:     png
# pixels:     256×192, 1 frame
# coder:      SDWebImageImageIOCoder
# cacheFile:  /tmp/sdport-tutorial/com.hackemist.SDWebImageCache.default/<md5>.png
