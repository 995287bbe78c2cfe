#!/usr/bin/env python3
"""A local stand-in for Google's OAuth token endpoint, Firebase App Distribution and App Store
Connect's build-upload API, for lanes' upload tests. It implements the documented endpoints,
checks every request it receives (JWTs with PyJWT + cryptography, an implementation independent
of lanes' OpenSSL code; JSON bodies field by field; checksums of the bytes it got), answers 400
with the reason when a check fails, and records what it saw at GET /_log.

    fake_delivery_services.py BASE      writes BASE/port, BASE/google.pem (RSA), BASE/asc.p8 (EC P-256)
"""
import hashlib, json, os, sys, threading, time, urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa

BASE = sys.argv[1]
os.makedirs(BASE, exist_ok=True)
rsa_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
ec_key = ec.generate_private_key(ec.SECP256R1())
pem = lambda k: k.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()
open(os.path.join(BASE, "google.pem"), "w").write(pem(rsa_key))
open(os.path.join(BASE, "asc.p8"), "w").write(pem(ec_key))

CLIENT_EMAIL = "lanes-ci@example-project.iam.gserviceaccount.com"
ASC_KEY_ID, ASC_ISSUER = "ABC123DEFG", "69a6de7f-0000-47e3-e053-5b8c7c11a4d1"
PART = 1 << 20
lock = threading.Lock()
state = {"log": [], "errors": [], "tokens": set(), "releases": {}, "files": {}, "polls": {}}


def record(event, **fields):
    with lock:
        state["log"].append(dict(event=event, **fields))


class Invalid(Exception):
    pass


def check(condition, reason):
    if not condition:
        raise Invalid(reason)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def body(self):
        length = int(self.headers.get("Content-Length", "0"))
        return self.rfile.read(length) if length else b""

    def answer(self, status, document=None):
        data = json.dumps(document).encode() if document is not None else b""
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def handle_any(self, method):
        url = urllib.parse.urlsplit(self.path)
        try:
            body = self.body()
            if method == "GET" and url.path == "/_log":
                with lock:
                    return self.answer(200, {"log": state["log"], "errors": state["errors"]})
            if url.path == "/token":
                return self.token(method, body)
            if url.path.startswith("/parts/"):
                return self.part(method, url, body)
            if url.path.startswith("/v1/buildUpload"):
                return self.asc(method, url, body)
            return self.firebase(method, url, body)
        except Invalid as reason:
            with lock:
                state["errors"].append(f"{method} {url.path}: {reason}")
            return self.answer(400, {"error": {"message": str(reason)}})

    do_GET = lambda self: self.handle_any("GET")
    do_POST = lambda self: self.handle_any("POST")
    do_PUT = lambda self: self.handle_any("PUT")
    do_PATCH = lambda self: self.handle_any("PATCH")

    # Google OAuth 2.0, JWT-bearer grant (RFC 7523)
    def token(self, method, body):
        check(method == "POST", "token wants POST")
        check(self.headers.get("Content-Type") == "application/x-www-form-urlencoded", "token wants a form")
        form = urllib.parse.parse_qs(body.decode())
        check(form.get("grant_type") == ["urn:ietf:params:oauth:grant-type:jwt-bearer"], "wrong grant_type")
        assertion = form.get("assertion", [""])[0]
        header = jwt.get_unverified_header(assertion)
        check(header.get("alg") == "RS256" and header.get("kid") == "key-1", f"bad JWT header {header}")
        try:
            claims = jwt.decode(assertion, rsa_key.public_key(), algorithms=["RS256"],
                                audience=f"http://127.0.0.1:{PORT}/token", issuer=CLIENT_EMAIL)
        except jwt.PyJWTError as error:
            record("token-rejected", reason=str(error))
            return self.answer(401, {"error": "invalid_grant", "error_description": str(error)})
        check(claims["scope"] == "https://www.googleapis.com/auth/cloud-platform", "wrong scope")
        check(0 < claims["exp"] - claims["iat"] <= 3600, "assertion lives over an hour")
        token = "ya29.fake-" + os.urandom(12).hex()
        with lock:
            state["tokens"].add(token)
        record("token", iss=claims["iss"])
        return self.answer(200, {"access_token": token, "expires_in": 3599, "token_type": "Bearer"})

    def bearer(self):
        value = self.headers.get("Authorization", "")
        with lock:
            ok = value.startswith("Bearer ") and value[7:] in state["tokens"]
        if not ok:
            raise Invalid("missing or unknown bearer token")

    # Firebase App Distribution v1
    def firebase(self, method, url, body):
        self.bearer()
        path = url.path
        if method == "POST" and path.startswith("/upload/v1/projects/") and path.endswith("/releases:upload"):
            check(self.headers.get("X-Goog-Upload-Protocol") == "raw", "X-Goog-Upload-Protocol must be raw")
            check(self.headers.get("X-Goog-Upload-File-Name"), "X-Goog-Upload-File-Name missing")
            check(self.headers.get("Content-Type") == "application/octet-stream", "binary content type expected")
            app = path[len("/upload/v1/"):-len("/releases:upload")]
            check(app.count("/") == 3 and app.split("/")[1] == app.split("/")[3].split(":")[1], "project number does not match app id")
            operation = f"{app}/releases/-/operations/op-{len(body)}"
            with lock:
                state["polls"][operation] = 0
            record("firebase-upload", app=app, size=len(body), sha256=hashlib.sha256(body).hexdigest(),
                   fileName=self.headers.get("X-Goog-Upload-File-Name"))
            return self.answer(200, {"name": operation})
        if method == "GET" and "/operations/" in path:
            operation = path[len("/v1/"):]
            with lock:
                check(operation in state["polls"], "unknown operation")
                state["polls"][operation] += 1
                polls = state["polls"][operation]
            if polls < 2:
                return self.answer(200, {"name": operation, "done": False})
            release = operation.split("/releases/")[0] + "/releases/r-1"
            return self.answer(200, {"name": operation, "done": True, "response": {
                "@type": "type.googleapis.com/google.firebase.appdistro.v1.UploadReleaseResponse",
                "result": "RELEASE_CREATED", "release": {"name": release, "displayVersion": "1.0", "buildVersion": "1"}}})
        if method == "PATCH" and path.startswith("/v1/") and path.endswith("/releases/r-1"):
            check(urllib.parse.parse_qs(url.query).get("updateMask") == ["release_notes.text"], "updateMask must be release_notes.text")
            document = json.loads(body)
            check(isinstance(document.get("releaseNotes", {}).get("text"), str), "releaseNotes.text missing")
            record("firebase-notes", text=document["releaseNotes"]["text"])
            return self.answer(200, document)
        if method == "POST" and path.endswith("/releases/r-1:distribute"):
            document = json.loads(body)
            check(set(document) <= {"testerEmails", "groupAliases"}, f"unexpected fields {sorted(document)}")
            record("firebase-distribute", testers=document.get("testerEmails", []), groups=document.get("groupAliases", []))
            return self.answer(200, {})
        raise Invalid(f"no such endpoint {method} {path}")

    # App Store Connect API 4.1+: buildUploads, buildUploadFiles
    def asc_token(self):
        value = self.headers.get("Authorization", "")
        check(value.startswith("Bearer "), "no bearer JWT")
        token = value[7:]
        header = jwt.get_unverified_header(token)
        check(header == {"alg": "ES256", "kid": ASC_KEY_ID, "typ": "JWT"}, f"bad JWT header {header}")
        try:
            claims = jwt.decode(token, ec_key.public_key(), algorithms=["ES256"], audience="appstoreconnect-v1", issuer=ASC_ISSUER)
        except jwt.PyJWTError as error:
            record("asc-rejected", reason=str(error))
            raise Invalid(f"JWT rejected: {error}")
        check(claims["exp"] - claims["iat"] <= 1200, "token lives over 20 minutes")
        record("asc-jwt-ok")

    def asc(self, method, url, body):
        try:
            self.asc_token()
        except Invalid as reason:
            return self.answer(401, {"errors": [{"status": "401", "detail": str(reason)}]})
        path = url.path
        if method == "POST" and path == "/v1/buildUploads":
            data = json.loads(body)["data"]
            check(data["type"] == "buildUploads", "type must be buildUploads")
            attributes = data["attributes"]
            check(set(attributes) == {"cfBundleShortVersionString", "cfBundleVersion", "platform"}, f"attributes {sorted(attributes)}")
            check(attributes["platform"] in ("IOS", "MAC_OS", "TV_OS", "VISION_OS"), "bad platform")
            check(data["relationships"]["app"]["data"] == {"type": "apps", "id": "1234567890"}, "app relationship")
            record("asc-build-upload", **attributes)
            return self.answer(201, {"data": {"type": "buildUploads", "id": "bu-1",
                                              "attributes": {"state": {"state": "AWAITING_UPLOAD"}}}})
        if method == "POST" and path == "/v1/buildUploadFiles":
            data = json.loads(body)["data"]
            check(data["type"] == "buildUploadFiles", "type must be buildUploadFiles")
            attributes = data["attributes"]
            check(attributes["assetType"] == "ASSET" and attributes["uti"] == "com.apple.ipa", "assetType/uti")
            check(data["relationships"]["buildUpload"]["data"] == {"type": "buildUploads", "id": "bu-1"}, "buildUpload relationship")
            size = attributes["fileSize"]
            operations = []
            for number, offset in enumerate(range(0, size, PART), start=1):
                length = min(PART, size - offset)
                operations.append({"method": "PUT", "url": f"http://127.0.0.1:{PORT}/parts/buf-1/{number}?X-Amz-Signature=presigned{number}secret",
                                   "offset": offset, "length": length, "partNumber": number,
                                   "requestHeaders": [{"name": "Content-Type", "value": "application/octet-stream"}]})
            with lock:
                state["files"]["buf-1"] = {"size": size, "parts": {}}
            record("asc-file", fileName=attributes["fileName"], fileSize=size)
            return self.answer(201, {"data": {"type": "buildUploadFiles", "id": "buf-1",
                                              "attributes": {"fileName": attributes["fileName"], "uploadOperations": operations}}})
        if method == "PATCH" and path == "/v1/buildUploadFiles/buf-1":
            data = json.loads(body)["data"]
            check(data["id"] == "buf-1" and data["type"] == "buildUploadFiles", "id/type")
            checksum = data["attributes"]["sourceFileChecksums"]["file"]
            check(checksum["algorithm"] == "MD5", "algorithm")
            check(data["attributes"]["uploaded"] is True, "uploaded must be true")
            with lock:
                parts = state["files"]["buf-1"]["parts"]
                assembled = b"".join(parts[n] for n in sorted(parts))
            check(len(assembled) == state["files"]["buf-1"]["size"], "parts missing")
            check(hashlib.md5(assembled).hexdigest() == checksum["hash"], "checksum does not match the bytes received")
            record("asc-commit", sha256=hashlib.sha256(assembled).hexdigest(), parts=len(parts))
            return self.answer(200, {"data": {"type": "buildUploadFiles", "id": "buf-1"}})
        if method == "GET" and path == "/v1/buildUploads/bu-1":
            with lock:
                state["polls"]["bu-1"] = state["polls"].get("bu-1", 0) + 1
                polls = state["polls"]["bu-1"]
            return self.answer(200, {"data": {"type": "buildUploads", "id": "bu-1",
                                              "attributes": {"state": {"state": "PROCESSING" if polls < 2 else "COMPLETE"}}}})
        raise Invalid(f"no such endpoint {method} {path}")

    def part(self, method, url, body):
        check(method == "PUT", "parts want PUT")
        check(url.query.startswith("X-Amz-Signature=presigned"), "the presigned query is missing")
        check(self.headers.get("Content-Type") == "application/octet-stream", "the operation's request header is missing")
        number = int(url.path.rsplit("/", 1)[1])
        with lock:
            state["files"]["buf-1"]["parts"][number] = body
        return self.answer(200)


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
PORT = server.server_address[1]
open(os.path.join(BASE, "port.tmp"), "w").write(str(PORT))
os.rename(os.path.join(BASE, "port.tmp"), os.path.join(BASE, "port"))
owner = int(sys.argv[2]) if len(sys.argv) > 2 else None


def watchdog():
    while owner is not None:
        try:
            os.kill(owner, 0)
        except OSError:
            os._exit(0)
        time.sleep(1)


threading.Thread(target=watchdog, daemon=True).start()
server.serve_forever()
