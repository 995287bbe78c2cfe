#!/usr/bin/env python3
"""An independent implementation of fastlane match's file format (v1 and v2) with `cryptography`,
for LanesMatchTests: it checks what lanes writes, and writes fixtures lanes must read.

  match_format.py decrypt FILE            clear bytes to stdout (password in MATCH_PASSWORD)
  match_format.py encrypt-v2 IN OUT       password in MATCH_PASSWORD
  match_format.py encrypt-v1 md5|sha256 IN OUT
Exit 3 when the password does not decrypt the file.
"""
import base64, hashlib, os, sys
from cryptography.hazmat.primitives import hashes, padding
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.pbkdf2 import PBKDF2HMAC
from cryptography.exceptions import InvalidTag

V2 = b"match_encrypted_v2__"
V1 = b"Salted__"


def v2_material(password, salt):
    kdf = PBKDF2HMAC(algorithm=hashes.SHA256(), length=68, salt=salt, iterations=10000)
    m = kdf.derive(password)
    return m[:32], m[32:44], m[44:68]


def bytes_to_key(password, salt, digest):
    # OpenSSL EVP_BytesToKey, one iteration, key 32 + iv 16.
    out, block = b"", b""
    while len(out) < 48:
        block = hashlib.new(digest, block + password + salt).digest()
        out += block
    return out[:32], out[32:48]


def encrypt_v2(clear, password, salt=None):
    salt = salt or os.urandom(8)
    key, iv, aad = v2_material(password, salt)
    sealed = AESGCM(key).encrypt(iv, clear, aad)  # ciphertext || tag
    return base64.encodebytes(V2 + salt + sealed[-16:] + sealed[:-16])


def encrypt_v1(clear, password, digest, salt=None):
    salt = salt or os.urandom(8)
    key, iv = bytes_to_key(password, salt, digest)
    padder = padding.PKCS7(128).padder()
    padded = padder.update(clear) + padder.finalize()
    enc = Cipher(algorithms.AES(key), modes.CBC(iv)).encryptor()
    return base64.encodebytes(V1 + salt + enc.update(padded) + enc.finalize())


def decrypt(stored, password):
    raw = base64.b64decode(b"".join(stored.split()))
    if raw.startswith(V2):
        salt, tag, body = raw[20:28], raw[28:44], raw[44:]
        key, iv, aad = v2_material(password, salt)
        return AESGCM(key).decrypt(iv, body + tag, aad)
    assert raw.startswith(V1), "unknown header"
    salt, body = raw[8:16], raw[16:]
    last = None
    for digest in ("md5", "sha256"):
        key, iv = bytes_to_key(password, salt, digest)
        dec = Cipher(algorithms.AES(key), modes.CBC(iv)).decryptor()
        padded = dec.update(body) + dec.finalize()
        try:
            unpadder = padding.PKCS7(128).unpadder()
            return unpadder.update(padded) + unpadder.finalize()
        except ValueError as error:
            last = error
    raise last


def main():
    password = os.environ["MATCH_PASSWORD"].encode()
    command = sys.argv[1]
    if command == "decrypt":
        try:
            clear = decrypt(open(sys.argv[2], "rb").read(), password)
        except (InvalidTag, ValueError):
            sys.exit(3)
        sys.stdout.buffer.write(clear)
    elif command == "encrypt-v2":
        open(sys.argv[3], "wb").write(encrypt_v2(open(sys.argv[2], "rb").read(), password))
    elif command == "encrypt-v1":
        open(sys.argv[4], "wb").write(encrypt_v1(open(sys.argv[3], "rb").read(), password, sys.argv[2]))
    else:
        sys.exit("unknown command " + command)


if __name__ == "__main__":
    main()
