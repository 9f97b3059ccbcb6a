ls /tmp/sdport-tutorial/com.hackemist.SDWebImageCache.default/
printf %s "file://$PWD/Fixtures/gradient.png" | md5sum
# In a clone at /work/wt-docc the two lines read (another path gives another hash):
# 23d19eef8c7a60371be92e7c42d6f63d.png   (the hash of file:///work/wt-docc/Fixtures/gradient.png)
# 23d19eef8c7a60371be92e7c42d6f63d  -
