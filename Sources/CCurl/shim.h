#ifndef SDPORT_CCURL_SHIM_H
#define SDPORT_CCURL_SHIM_H
#include <curl/curl.h>

/* curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are C variadic functions, which Swift cannot
 * call. These typed wrappers are compiled by Swift's embedded clang when the module is imported. */
static inline CURLcode sdcurl_easy_setopt_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode sdcurl_easy_setopt_off_t(CURL *h, CURLoption o, curl_off_t v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode sdcurl_easy_setopt_string(CURL *h, CURLoption o, const char *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode sdcurl_easy_setopt_pointer(CURL *h, CURLoption o, void *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode sdcurl_easy_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v) { return curl_easy_setopt(h, o, v); }
/* CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION share this signature. */
static inline CURLcode sdcurl_easy_setopt_write_function(CURL *h, CURLoption o, curl_write_callback cb) { return curl_easy_setopt(h, o, cb); }
static inline CURLcode sdcurl_easy_setopt_xferinfo_function(CURL *h, curl_xferinfo_callback cb) { return curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, cb); }

static inline CURLcode sdcurl_easy_getinfo_long(CURL *h, CURLINFO i, long *out) { return curl_easy_getinfo(h, i, out); }
static inline CURLcode sdcurl_easy_getinfo_double(CURL *h, CURLINFO i, double *out) { return curl_easy_getinfo(h, i, out); }
static inline CURLcode sdcurl_easy_getinfo_off_t(CURL *h, CURLINFO i, curl_off_t *out) { return curl_easy_getinfo(h, i, out); }
static inline CURLcode sdcurl_easy_getinfo_string(CURL *h, CURLINFO i, char **out) { return curl_easy_getinfo(h, i, out); }
static inline CURLcode sdcurl_easy_getinfo_pointer(CURL *h, CURLINFO i, void **out) { return curl_easy_getinfo(h, i, out); }

static inline CURLMcode sdcurl_multi_setopt_long(CURLM *m, CURLMoption o, long v) { return curl_multi_setopt(m, o, v); }

/* CURLMsg.data is a union; reading it from Swift is clumsy. */
static inline CURLcode sdcurl_msg_result(const CURLMsg *m) { return m->data.result; }
#endif
