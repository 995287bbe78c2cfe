#!/usr/bin/env bash
# make-extra-fixtures.sh — the two PKCS#12 cases the shared fixture set lacks, made with the OpenSSL 3 CLI.
# Needs the shared signing keys (../shared/signing/keys, not copied into this repository).
# The password travels through the environment, never on the command line.
set -euo pipefail
cd "$(dirname "$0")"
SHARED="${SHARED:-../../../../shared/signing}"
export P12_EXTRA='brewer-extra-pass'
# A certificate bag only, no key bag: "contains no private key".
openssl pkcs12 -export -nokeys -in certs/dist.crt -name "iPhone Distribution: Example Corp (ABCDE12345)" \
    -passout env:P12_EXTRA -out p12/extra-no-private-key.p12
# The key of `dist` next to the certificate of `dist-chained`: "key does not match certificate".
openssl pkcs12 -export -nocerts -inkey "$SHARED/keys/dist.key" -certfile certs/dist-chained.crt \
    -passout env:P12_EXTRA -out p12/extra-key-mismatch.p12
