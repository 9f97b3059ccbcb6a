ls -l /tmp/sdport-tutorial/com.hackemist.SDWebImageCache.default/
# One file of 138516 bytes, the PNG as it was downloaded:
# -rw-r--r-- 1 you you 138516 … <32 hex digits>.png
swift run sdport cache path --cache-dir /tmp/sdport-tutorial   # the same directory, as the cache computes it
