#!/usr/bin/env python3
"""A local stand-in for Google's OAuth token endpoint and Firebase App Distribution, for lanes'
upload tests. It implements the documented endpoints, checks every request it receives (JWTs with
PyJWT + cryptography, an implementation independent of lanes' OpenSSL code; JSON bodies field by
field; checksums of the bytes it got), answers 400 with the reason when a check fails, and records
what it saw at GET /_log. Firebase requests are also checked against Google's discovery document
(../shared/googleplay/firebaseappdistribution.v1.json beside the repository, through discovery.py):
method, path and its parameters' patterns, query parameters, body schema, the media upload protocol.
(App Store Connect's stand-in is fake_app_store_connect.py, Google Play's fake_google_play.py.)

    fake_delivery_services.py BASE [OWNER_PID]   writes BASE/port and BASE/google.pem (RSA)
"""
import hashlib, json, os, sys, threading, urllib.parse

import jwt

from discovery import Discovery, Invalid as Undescribed
from fake_server_common import JSONHandler, serve, write_key

BASE = sys.argv[1]
# Started by posix_spawn: pipes of other tests inherited through the runner must not stay open here.
# (Not in fake_server_common: a child of Foundation's Process must keep the socket its parent watches for its end.)
os.closerange(3, 4096)
os.makedirs(BASE, exist_ok=True)
rsa_key = write_key(BASE, "google.pem", "rsa")

CLIENT_EMAIL = "lanes-ci@example-project.iam.gserviceaccount.com"
DISCOVERY = os.path.join(os.environ.get("LANES_SHARED_DIR") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../shared"),
                         "googleplay/firebaseappdistribution.v1.json")
firebase_api = Discovery(DISCOVERY) if os.path.exists(DISCOVERY) else None
lock = threading.Lock()
state = {"log": [], "errors": [], "tokens": set(), "releases": {}, "polls": {}}


def record(event, **fields):
    with lock:
        state["log"].append(dict(event=event, **fields))


class Invalid(Exception):
    pass


def check(condition, reason):
    if not condition:
        raise Invalid(reason)


class Handler(JSONHandler):
    def handle_any(self, method):
        url = urllib.parse.urlsplit(self.path)
        try:
            body = self.read_body()
            if method == "GET" and url.path == "/_log":
                with lock:
                    return self.answer(200, {"log": state["log"], "errors": state["errors"], "validated": firebase_api is not None})
            if url.path == "/token":
                return self.token(method, body)
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
                                audience=f"http://127.0.0.1:{self.server.server_address[1]}/token", issuer=CLIENT_EMAIL)
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
        if firebase_api is not None:
            query = urllib.parse.parse_qs(url.query, keep_blank_values=True)
            try:
                firebase_api.check_request(method, path, query, {k: v for k, v in self.headers.items()}, body)
            except Undescribed as error:
                raise Invalid(f"not as Google's discovery document describes it: {error}")
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


serve(Handler, BASE, int(sys.argv[2]) if len(sys.argv) > 2 else None)
