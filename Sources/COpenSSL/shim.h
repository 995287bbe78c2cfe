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

// OpenSSL spells these as macros, which Swift cannot call: wrap them.
static inline int lanes_sk_X509_num(const STACK_OF(X509) *stack) { return sk_X509_num(stack); }
static inline X509 *lanes_sk_X509_value(const STACK_OF(X509) *stack, int index) { return sk_X509_value(stack, index); }
static inline void lanes_sk_X509_pop_free(STACK_OF(X509) *stack) { sk_X509_pop_free(stack, X509_free); }
static inline void lanes_OPENSSL_free(void *pointer) { OPENSSL_free(pointer); }
#endif
