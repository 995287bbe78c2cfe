"""What lanes' Python stand-ins for remote services share: the private keys they write for lanes to
sign with, JSON answers, the port file lanes waits for, and the watchdog that ends a server whose
test process died. Imported by fake_app_store_connect.py, fake_delivery_services.py and fake_google_play.py."""
import json, os, threading, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa


def write_key(base, name, kind):
    """A fresh private key (`ec`: P-256 as Apple's .p8, `rsa`: 2048-bit as Google's), written to BASE/NAME as PKCS#8 PEM."""
    key = ec.generate_private_key(ec.SECP256R1()) if kind == "ec" else rsa.generate_private_key(public_exponent=65537, key_size=2048)
    with open(os.path.join(base, name), "w") as handle:
        handle.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode())
    return key


class JSONHandler(BaseHTTPRequestHandler):
    """HTTP/1.1 with keep-alive, quiet, with a body reader and a JSON answer."""
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def read_body(self):
        length = int(self.headers.get("Content-Length", "0"))
        return self.rfile.read(length) if length else b""

    def answer(self, status, document=None, headers=()):
        data = json.dumps(document).encode() if document is not None else b""
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)


def serve(handler, base, owner, on_bound=None):
    """Listens on 127.0.0.1 (a free port), calls ON_BOUND(port) (files that name the address), writes
    BASE/port atomically, exits when process OWNER does."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    if on_bound is not None:
        on_bound(server.server_address[1])
    with open(os.path.join(base, "port.tmp"), "w") as handle:
        handle.write(str(server.server_address[1]))
    os.replace(os.path.join(base, "port.tmp"), os.path.join(base, "port"))

    def watchdog():
        # The test process that started this server may die without stopping it.
        while owner is not None:
            try:
                os.kill(owner, 0)
            except OSError:
                os._exit(0)
            time.sleep(1)

    threading.Thread(target=watchdog, daemon=True).start()
    server.serve_forever()
