// Thin C layer over OpenSSL 3 for what Swift cannot import directly: function-like
// macros and version differences. Every helper is prefixed `cast_` and holds no logic.
#ifndef CAST_COPENSSL_SHIM_H
#define CAST_COPENSSL_SHIM_H

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/rsa.h>
#include <openssl/sha.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

static inline long cast_SSL_CTX_set_min_proto_version(SSL_CTX *ctx, int version) {
    return SSL_CTX_set_min_proto_version(ctx, version);
}

static inline long cast_SSL_CTX_set_max_proto_version(SSL_CTX *ctx, int version) {
    return SSL_CTX_set_max_proto_version(ctx, version);
}

static inline long cast_SSL_set_tlsext_host_name(SSL *ssl, const char *name) {
    return SSL_set_tlsext_host_name(ssl, name);
}

static inline long cast_SSL_CTX_set_mode(SSL_CTX *ctx, long mode) {
    return SSL_CTX_set_mode(ctx, mode);
}

static inline size_t cast_BIO_pending(BIO *bio) {
    return BIO_pending(bio);
}

static inline size_t cast_BIO_wpending(BIO *bio) {
    return BIO_wpending(bio);
}

static inline int cast_BIO_set_mem_eof_return(BIO *bio, int value) {
    return (int)BIO_set_mem_eof_return(bio, value);
}

static inline long cast_SSL_CTX_add1_chain_cert(SSL_CTX *ctx, X509 *cert) {
    return SSL_CTX_add1_chain_cert(ctx, cert);
}

static inline int cast_TLS1_2_VERSION(void) { return TLS1_2_VERSION; }
static inline int cast_TLS1_3_VERSION(void) { return TLS1_3_VERSION; }

#endif
