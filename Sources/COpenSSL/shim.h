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

// MARK: crypto (certificates, keys, chain verification)

static inline void cast_OPENSSL_free(void *pointer) { OPENSSL_free(pointer); }

static inline EVP_PKEY *cast_EVP_RSA_gen(unsigned int bits) { return EVP_RSA_gen(bits); }

static inline unsigned long cast_XN_FLAG_RFC2253(void) { return XN_FLAG_RFC2253; }

static inline int cast_sk_X509_num(const STACK_OF(X509) *stack) { return sk_X509_num(stack); }

static inline X509 *cast_sk_X509_value(const STACK_OF(X509) *stack, int index) { return sk_X509_value(stack, index); }

static inline STACK_OF(X509) *cast_sk_X509_new_null(void) { return sk_X509_new_null(); }

static inline int cast_sk_X509_push(STACK_OF(X509) *stack, X509 *certificate) {
    return sk_X509_push(stack, certificate);
}

static inline void cast_sk_X509_free(STACK_OF(X509) *stack) { sk_X509_free(stack); }

static inline void cast_sk_X509_pop_free(STACK_OF(X509) *stack) { sk_X509_pop_free(stack, X509_free); }

static inline int cast_sk_POLICYINFO_num(const STACK_OF(POLICYINFO) *stack) { return sk_POLICYINFO_num(stack); }

static inline const ASN1_OBJECT *cast_POLICYINFO_policyid(const STACK_OF(POLICYINFO) *stack, int index) {
    return sk_POLICYINFO_value(stack, index)->policyid;
}

static inline void cast_CERTIFICATEPOLICIES_free(STACK_OF(POLICYINFO) *policies) {
    CERTIFICATEPOLICIES_free(policies);
}

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

static inline void cast_BIO_set_retry_read(BIO *bio) { BIO_set_retry_read(bio); }

static inline void cast_BIO_clear_retry_flags(BIO *bio) { BIO_clear_retry_flags(bio); }

static inline long cast_SSL_add1_chain_cert(SSL *ssl, X509 *cert) {
    return SSL_add1_chain_cert(ssl, cert);
}

static inline int cast_TLS1_2_VERSION(void) { return TLS1_2_VERSION; }
static inline int cast_TLS1_3_VERSION(void) { return TLS1_3_VERSION; }

#endif
