// OpenSSL's one-shot digest (libcrypto, Debian's libssl-dev): MD5 of the cache keys, as 4.4.8's CC_MD5.
#include <openssl/evp.h>
