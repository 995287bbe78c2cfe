#ifndef LANES_COPENSSL_SHIM_H
#define LANES_COPENSSL_SHIM_H
#include <openssl/evp.h>
#include <openssl/err.h>
#include <openssl/pkcs12.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/pem.h>
#include <openssl/cms.h>
#include <openssl/provider.h>
#include <openssl/sha.h>
#include <openssl/rand.h>
#include <openssl/bn.h>
#include <openssl/ssl.h>
#include <openssl/ecdsa.h>

/* OpenSSL's one process-wide start, for every module that calls OpenSSL: without the atexit handler
   that frees its global state (a thread still inside OpenSSL at exit would take a freed lock), and
   with libssl's error strings. Returns 1 on success. */
static inline int lanes_openssl_start(void) {
    return OPENSSL_init_ssl(OPENSSL_INIT_NO_ATEXIT | OPENSSL_INIT_LOAD_SSL_STRINGS, NULL);
}

// OpenSSL spells these as macros, which Swift cannot call: wrap them.
static inline int lanes_sk_X509_num(const STACK_OF(X509) *stack) { return sk_X509_num(stack); }
static inline X509 *lanes_sk_X509_value(const STACK_OF(X509) *stack, int index) { return sk_X509_value(stack, index); }
static inline void lanes_sk_X509_pop_free(STACK_OF(X509) *stack) { sk_X509_pop_free(stack, X509_free); }
/// Frees a stack whose certificates it does not own.
static inline void lanes_sk_X509_free(STACK_OF(X509) *stack) { sk_X509_free(stack); }
static inline STACK_OF(X509) *lanes_sk_X509_new_null(void) { return sk_X509_new_null(); }
/// Pushes `certificate` onto `stack`, taking a new reference so the stack owns what it frees.
static inline int lanes_sk_X509_push_up_ref(STACK_OF(X509) *stack, X509 *certificate) {
    if (X509_up_ref(certificate) != 1) return 0;
    if (sk_X509_push(stack, certificate) <= 0) { X509_free(certificate); return 0; }
    return 1;
}
static inline int lanes_sk_CMS_SignerInfo_num(STACK_OF(CMS_SignerInfo) *stack) { return sk_CMS_SignerInfo_num(stack); }
static inline void lanes_OPENSSL_free(void *pointer) { OPENSSL_free(pointer); }
static inline long lanes_BIO_get_mem_data(BIO *bio, char **data) { return BIO_get_mem_data(bio, data); }
static inline int lanes_ERR_GET_LIB(unsigned long code) { return ERR_GET_LIB(code); }
static inline int lanes_ERR_GET_REASON(unsigned long code) { return ERR_GET_REASON(code); }
/// Server Name Indication for a TLS client (a macro over SSL_ctrl).
static inline long lanes_SSL_set_tlsext_host_name(SSL *ssl, const char *name) { return SSL_set_tlsext_host_name(ssl, name); }
#endif
