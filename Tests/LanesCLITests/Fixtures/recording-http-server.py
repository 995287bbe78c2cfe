"""A recording stand-in for GitHub's REST API and Slack's incoming webhooks, on 127.0.0.1 only.

Usage: recording-http-server.py RECORD_FILE PORT_FILE LIFETIME_SECONDS
Each request is appended to RECORD_FILE as one JSON line: method, path, the Authorization header
(so the test can check the token arrived there and nowhere else) and the body. POST .../releases
answers like GitHub (201 with id, html_url and an upload_url on this server); an asset upload
answers 201 with a browser_download_url; anything else 200 "ok". The server exits on POST /shutdown
(the test's end) or after LIFETIME_SECONDS, so a test that dies cannot leave it running.
"""
import json, sys, threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

record_path, port_path, lifetime = sys.argv[1], sys.argv[2], float(sys.argv[3])
lock = threading.Lock()

class Handler(BaseHTTPRequestHandler):
    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length)
        if self.path == "/shutdown":
            self.reply(200, "bye")
            threading.Thread(target=self.server.shutdown).start()
            return
        entry = {"method": "POST", "path": self.path, "authorization": self.headers.get("Authorization"),
                 "content_type": self.headers.get("Content-Type"), "length": len(body),
                 "body": body.decode("utf-8", "replace")}
        with lock, open(record_path, "a") as record:
            record.write(json.dumps(entry) + "\n")
        port = self.server.server_address[1]
        if self.path.endswith("/releases"):
            repository = self.path[len("/repos/"):-len("/releases")]
            answer = {"id": 7, "html_url": f"http://127.0.0.1:{port}/{repository}/releases/7",
                      "upload_url": f"http://127.0.0.1:{port}/uploads/repos/{repository}/releases/7/assets{{?name,label}}"}
            self.reply(201, json.dumps(answer))
        elif "/assets?name=" in self.path:
            name = self.path.split("name=", 1)[1]
            self.reply(201, json.dumps({"browser_download_url": f"http://127.0.0.1:{port}/download/{name}"}))
        else:
            self.reply(200, "ok")

    def reply(self, status, text):
        data = text.encode()
        self.send_response(status)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass

server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
timer = threading.Timer(lifetime, server.shutdown)
timer.daemon = True  # the process ends with serve_forever, not when the timer fires
timer.start()
with open(port_path + ".tmp", "w") as port_file:
    port_file.write(str(server.server_address[1]))
import os
os.rename(port_path + ".tmp", port_path)
server.serve_forever()
