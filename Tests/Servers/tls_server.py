"""A loopback HTTPS stand-in for the TLS tests: serves GET and PUT on 127.0.0.1 with the given
certificate, and records the server name (SNI) each handshake asked for.

Usage: tls_server.py CERT KEY FOLDER PARENT_PID
Writes FOLDER/port once listening; appends one line per handshake to FOLDER/sni ("-" for none).
Exits when PARENT_PID is gone (checked every second), so a crashed test leaves nothing behind.
"""
import http.server
import os
import ssl
import sys
import threading
import time

cert, key, folder, parent = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
os.closerange(3, 4096)  # pipes of other tests inherited through the runner must not stay open in a server


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        self.answer(200, b"hello over tls\n")

    def do_PUT(self):
        length = int(self.headers.get("Content-Length", "0"))
        self.rfile.read(length)
        self.answer(201, b"stored\n")

    def answer(self, status, body):
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def remember_sni(connection, name, context):
    with open(os.path.join(folder, "sni"), "a") as log:
        log.write((name or "-") + "\n")


context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(cert, key)
context.sni_callback = remember_sni
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.socket = context.wrap_socket(server.socket, server_side=True, do_handshake_on_connect=True)
threading.Thread(target=server.serve_forever, daemon=True).start()
with open(os.path.join(folder, "port.tmp"), "w") as out:
    out.write(str(server.server_address[1]))
os.rename(os.path.join(folder, "port.tmp"), os.path.join(folder, "port"))
while True:
    time.sleep(1)
    try:
        os.kill(parent, 0)
    except OSError:
        break
