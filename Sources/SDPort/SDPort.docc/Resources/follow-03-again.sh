swift run sdport load Fixtures/gradient.png --trace --cache-dir /tmp/sdport-tutorial
# Output of the second run:
#        9.97 ms  2.  manager: loadImage              options 0
#       10.22 ms  3.  cache: memory query             miss
#       13.45 ms  4.  cache: disk query               hit, 138516 bytes
#       13.59 ms  9.  manager: completion             256x192 from disk
# ...
# origin:     disk (SDImageCacheType.disk = 1)
