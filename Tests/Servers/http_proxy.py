"""A loopback HTTP proxy stand-in for the proxy tests: tunnels CONNECT and forwards absolute-form
plain-http requests, as a corporate proxy (squid) does, on 127.0.0.1 only.

Usage: http_proxy.py FOLDER PARENT_PID [USER:PASSWORD]
Writes FOLDER/port once listening; appends one line per request to FOLDER/requests:
"METHOD TARGET auth=yes|no|wrong". With USER:PASSWORD, requests without those Basic credentials
get 407. Exits when PARENT_PID is gone (checked every second).
"""
import base64
import os
import select
import socket
import socketserver
import sys
import threading
import time

folder, parent = sys.argv[1], int(sys.argv[2])
os.closerange(3, 4096)  # pipes of other tests inherited through the runner must not stay open in a server
wanted = ("Basic " + base64.b64encode(sys.argv[3].encode()).decode()) if len(sys.argv) > 3 else None
lock = threading.Lock()


def record(line):
    with lock, open(os.path.join(folder, "requests"), "a") as log:
        log.write(line + "\n")


def read_head(connection):
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = connection.recv(1)
        if not chunk:
            return None, b""
        data += chunk
        if len(data) > 65536:
            return None, b""
    head, _, rest = data.partition(b"\r\n\r\n")
    return head.decode("latin-1"), rest


def pump(a, b):
    sockets = [a, b]
    while True:
        readable, _, _ = select.select(sockets, [], [], 30)
        if not readable:
            return
        for source in readable:
            data = source.recv(65536)
            if not data:
                return
            (b if source is a else a).sendall(data)


class Handler(socketserver.BaseRequestHandler):
    def handle(self):
        client = self.request
        head, rest = read_head(client)
        if head is None:
            return
        lines = head.split("\r\n")
        method, target, _ = lines[0].split(" ", 2)
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        given = headers.get("proxy-authorization")
        auth = "no" if given is None else ("yes" if given == wanted else "wrong")
        record(f"{method} {target} auth={auth}")
        if wanted is not None and auth != "yes":
            client.sendall(b"HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm=\"test\"\r\n"
                           b"Content-Length: 0\r\nConnection: close\r\n\r\n")
            return
        if method == "CONNECT":
            host, _, port = target.rpartition(":")
            upstream = socket.create_connection((host.strip("[]"), int(port)), timeout=10)
            client.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
            pump(client, upstream)
            upstream.close()
            return
        # Absolute form: http://host:port/path. One request per connection, forwarded as is.
        address = target.split("/", 3)
        host, _, port = address[2].rpartition(":")
        upstream = socket.create_connection((host, int(port or 80)), timeout=10)
        path = "/" + (address[3] if len(address) > 3 else "")
        kept = [l for l in lines[1:] if not l.lower().startswith(("proxy-authorization:", "connection:"))]
        upstream.sendall(f"{method} {path} HTTP/1.1\r\n".encode() + "\r\n".join(kept + ["Connection: close"]).encode()
                         + b"\r\n\r\n" + rest)
        pump(client, upstream)
        upstream.close()


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


server = Server(("127.0.0.1", 0), Handler)
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
