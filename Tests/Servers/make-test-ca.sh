#!/bin/sh
# A throw-away certificate authority for the TLS tests, made by the openssl command:
#   ca.crt            the test CA (the tests pass it as SSL_CERT_FILE)
#   localhost.crt/key valid for DNS:localhost and IP:127.0.0.1, signed by the CA
#   other.crt/key     valid only for DNS:other.example (a wrong host name for 127.0.0.1)
#   expired.crt/key   localhost and 127.0.0.1, but its validity ended in 2020
#   stranger.crt/key  localhost, signed by a CA nobody trusts
# Usage: make-test-ca.sh FOLDER
set -eu
cd "$1"
key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2>/dev/null; }
key ca.key
openssl req -x509 -new -key ca.key -subj "/CN=lanes test CA" -days 2 -out ca.crt \
    -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign
key stranger-ca.key
openssl req -x509 -new -key stranger-ca.key -subj "/CN=stranger CA" -days 2 -out stranger-ca.crt \
    -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign
mkdir -p db && : > db/index.txt && echo 1000 > db/serial
cat > ca.cnf <<CONF
[ca]
default_ca = test
[test]
database = db/index.txt
serial = db/serial
new_certs_dir = db
default_md = sha256
policy = any
copy_extensions = copy
unique_subject = no
[any]
commonName = supplied
CONF
leaf() { # name issuer SAN [startdate enddate]
    key "$1.key"
    openssl req -new -key "$1.key" -subj "/CN=$1" -addext "subjectAltName=$3" -out "$1.csr"
    if [ $# -ge 5 ]; then dates="-startdate $4 -enddate $5"; else dates="-days 1"; fi
    # shellcheck disable=SC2086
    openssl ca -batch -config ca.cnf -cert "$2.crt" -keyfile "$2.key" -in "$1.csr" -out "$1.crt" $dates -notext 2>/dev/null
}
leaf localhost ca "DNS:localhost,IP:127.0.0.1"
leaf other ca "DNS:other.example"
leaf expired ca "DNS:localhost,IP:127.0.0.1" 20200101000000Z 20200102000000Z
leaf stranger stranger-ca "DNS:localhost,IP:127.0.0.1"
