swift run sdport load Fixtures/gradient.png --trace --cache-dir /tmp/sdport-tutorial
