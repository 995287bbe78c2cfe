#!/usr/bin/env python3
"""A local Google Play Developer API (androidpublisher v3) for lanes' tests. Every request is checked
against Google's discovery document (discovery.py: method, path, path and query parameters, JSON
body against the method's schema, the media upload protocol and size limits) and every answer
against the method's response schema. OAuth: the JWT-bearer grant at /token, the assertion verified
with PyJWT against the public half of the service-account key this server wrote. Edits hold their
own copy of the app until committed; resumable upload sessions take chunks (`Content-Range`),
answer 308 with `Range`, and read the version code of an uploaded bundle (protoc --decode of its
manifest) or APK (aapt dump badging). A failed check answers 400 in Google's error shape and is
recorded; GET /_log returns what was seen, POST /_reset sets a scenario:

    {"packages": {"com.example": {"tracks": {"production": [release...]}, "versionCodes": [1, 2]}},
     "throttle": {"path": "/tracks/", "times": 1, "retryAfter": 1},   429 with Retry-After
     "chunkFailures": [2],                  the 2nd chunk PUT keeps half its bytes and answers 503
     "expireTokenAfter": 3,                 a token is refused (401) after 3 uses
     "tokenLifetime": 3599, "concurrentCommit": true (another edit commits first: 409),
     "chunkDelay": 0.2}                     seconds between 64 KiB reads of a chunk (to catch an upload mid-flight)

    fake_google_play.py BASE DISCOVERY PROTO [OWNER_PID]   writes BASE/service-account.json, then BASE/port
"""
import copy, hashlib, json, os, subprocess, sys, tempfile, threading, time, urllib.parse, uuid, zipfile, zlib, struct

import jwt

from discovery import Discovery, Invalid
from fake_server_common import JSONHandler, serve, write_key

BASE, DISCOVERY, PROTO = sys.argv[1], sys.argv[2], sys.argv[3]
OWNER = int(sys.argv[4]) if len(sys.argv) > 4 else None
os.makedirs(os.path.join(BASE, "uploads"), exist_ok=True)
api = Discovery(DISCOVERY)
rsa_key = write_key(BASE, "play-key.pem", "rsa")
CLIENT_EMAIL = "lanes-release@example-project.iam.gserviceaccount.com"
KEY_ID = "0123456789abcdef0123456789abcdef01234567"
SCOPE = "https://www.googleapis.com/auth/androidpublisher"
KEEP_WHOLE = 64 << 20     # uploads up to this size are kept for aapt/protoc; larger ones only hashed
GRANULE = 256 << 10

lock = threading.Lock()
state = {}
PORT = [0]


def reset(config):
    global state
    state = {
        "apps": {name: {"tracks": copy.deepcopy(app.get("tracks", {})), "listings": copy.deepcopy(app.get("listings", {})),
                        "images": {}, "versionCodes": [str(code) for code in app.get("versionCodes", [])], "version": 0}
                 for name, app in config.get("packages", {"com.example.brewer": {}}).items()},
        "edits": {}, "commits": [], "sessions": {}, "uploads": [], "tokens": {}, "log": [], "errors": [],
        "throttle": config.get("throttle"), "chunkFailures": list(config.get("chunkFailures", [])), "chunkCount": 0,
        "expireTokenAfter": config.get("expireTokenAfter"), "tokenLifetime": config.get("tokenLifetime", 3599),
        "concurrentCommit": config.get("concurrentCommit", False), "chunkDelay": config.get("chunkDelay", 0),
        "internalSharing": [], "next": 100,
    }


reset({})


def new_id(prefix):
    state["next"] += 1
    return f"{prefix}{state['next']}"


def google_error(code, status, message, reason):
    return {"error": {"code": code, "message": message, "status": status,
                      "errors": [{"message": message, "domain": "global", "reason": reason}]}}


class Refused(Exception):
    def __init__(self, code, status, message, reason, headers=()):
        super().__init__(message)
        self.code, self.status, self.message, self.reason, self.headers = code, status, message, reason, headers


def decode_bundle_manifest(manifest):
    """The version code and package of an aapt2 protobuf manifest, through protoc's own decoder."""
    text = subprocess.run(["protoc", f"--proto_path={os.path.dirname(PROTO)}", "--decode=aapt.pb.XmlNode", os.path.basename(PROTO)],
                          input=manifest, capture_output=True, check=True).stdout.decode()
    facts, name = {}, None
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("name:"):
            name = json.loads(line[5:].strip())
        elif line.startswith("value:") and name in ("versionCode", "package", "versionName") and name not in facts:
            facts[name] = json.loads(line[6:].strip())
    return facts


def first_entry(head):
    """The first local entry of a zip from its first bytes: (name, contents) when it fits."""
    if len(head) < 30 or head[:4] != b"PK\x03\x04":
        return None, None
    method, = struct.unpack("<H", head[8:10])
    size, = struct.unpack("<I", head[18:22])
    name_length, extra_length = struct.unpack("<HH", head[26:30])
    name = head[30:30 + name_length].decode()
    start = 30 + name_length + extra_length
    data = head[start:start + size]
    if len(data) < size:
        return name, None
    return name, data if method == 0 else zlib.decompress(data, -15)


def read_artifact(session):
    """What Google would read from the binary: its version code (and package)."""
    if session["file"]:
        path = session["file"]
        if session["kind"] == "apk":
            out = subprocess.run(["aapt", "dump", "badging", path], capture_output=True).stdout.decode()
            first = out.splitlines()[0] if out else ""
            fields = dict(part.split("=", 1) for part in first.split()[1:] if "=" in part)
            return {k: v.strip("'") for k, v in fields.items()}
        with zipfile.ZipFile(path) as archive:
            return decode_bundle_manifest(archive.read("base/manifest/AndroidManifest.xml"))
    name, data = first_entry(session["head"])
    if name == "base/manifest/AndroidManifest.xml" and data is not None:
        return decode_bundle_manifest(data)
    return {}


class Handler(JSONHandler):
    def do_GET(self): self.handle_any("GET")
    def do_POST(self): self.handle_any("POST")
    def do_PUT(self): self.handle_any("PUT")
    def do_PATCH(self): self.handle_any("PATCH")
    def do_DELETE(self): self.handle_any("DELETE")

    def reply(self, code, document=None, headers=(), method=None):
        if method is not None and code < 300:
            try:
                api.check_response(method, document)
            except Invalid as error:
                state["errors"].append(f"answer to {method['id']} does not match Google's description: {error}")
        self.answer(code, document, headers)

    def handle_any(self, verb):
        url = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(url.query, keep_blank_values=True)
        try:
            if url.path == "/_reset":
                with lock:
                    reset(json.loads(self.read_body() or b"{}"))
                return self.answer(200, {"ok": True})
            if url.path == "/_log":
                with lock:
                    return self.answer(200, {k: state[k] for k in ("log", "errors", "commits", "uploads", "internalSharing")}
                                       | {"edits": {k: {"package": v["package"], "state": v["state"]} for k, v in state["edits"].items()},
                                          "apps": state["apps"], "tokens": sorted(state["tokens"]), "port": PORT[0]})
            if url.path.startswith("/_images/") and verb == "GET":
                # Where Google serves an uploaded image (Image.url).
                with lock:
                    session = state["sessions"].get(url.path.rsplit("/", 1)[-1])
                if session is None or not session["file"]:
                    return self.answer(404, {"error": {"code": 404, "message": "no such image", "status": "NOT_FOUND"}})
                data = open(session["file"], "rb").read()
                self.send_response(200)
                self.send_header("Content-Type", "image/png")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                return self.wfile.write(data)
            if url.path == "/token":
                return self.token(verb, self.read_body())
            if verb == "PUT" and "upload_id" in query:
                return self.chunk(query["upload_id"][0])
            body = self.read_body()
            headers = {k: v for k, v in self.headers.items()}
            with lock:
                try:
                    method, kind, params = api.check_request(verb, url.path, query, headers, body)
                except Invalid as error:
                    state["errors"].append(f"{verb} {url.path}: {error}")
                    raise Refused(400, "INVALID_ARGUMENT", f"lanes sent a request Google's description refuses: {error}", "badRequest")
                self.bearer()
                self.maybe_throttle(url.path)
                state["log"].append({"method": method["id"], "kind": kind, "path": url.path})
                if kind == "resumable":
                    return self.start_session(method, params, query, headers)
                self.route(method, params, query, json.loads(body) if body else None)
        except Refused as refusal:
            self.answer(refusal.code, google_error(refusal.code, refusal.status, refusal.message, refusal.reason), refusal.headers)

    # OAuth 2.0 JWT-bearer grant (RFC 7523)
    def token(self, verb, body):
        form = urllib.parse.parse_qs(body.decode())
        if verb != "POST" or self.headers.get("Content-Type") != "application/x-www-form-urlencoded":
            return self.answer(400, {"error": "invalid_request"})
        if form.get("grant_type") != ["urn:ietf:params:oauth:grant-type:jwt-bearer"]:
            return self.answer(400, {"error": "unsupported_grant_type"})
        assertion = form.get("assertion", [""])[0]
        try:
            header = jwt.get_unverified_header(assertion)
            claims = jwt.decode(assertion, rsa_key.public_key(), algorithms=["RS256"], audience=f"http://127.0.0.1:{PORT[0]}/token",
                                issuer=CLIENT_EMAIL, options={"require": ["exp", "iat", "iss", "aud", "scope"]})
        except jwt.PyJWTError as error:
            with lock:
                state["log"].append({"event": "token-rejected", "reason": str(error)})
            return self.answer(400, {"error": "invalid_grant", "error_description": str(error)})
        problems = []
        if header.get("kid") != KEY_ID:
            problems.append(f"kid {header.get('kid')} is not the key's")
        if SCOPE not in claims["scope"].split():
            problems.append(f"scope {claims['scope']} lacks androidpublisher")
        if not 0 < claims["exp"] - claims["iat"] <= 3600:
            problems.append("the assertion lives over an hour")
        if problems:
            with lock:
                state["errors"].append("token: " + "; ".join(problems))
            return self.answer(400, {"error": "invalid_grant", "error_description": "; ".join(problems)})
        token = "ya29.play-" + os.urandom(16).hex()
        with lock:
            state["tokens"][token] = 0
            state["log"].append({"event": "token"})
            lifetime = state["tokenLifetime"]
        return self.answer(200, {"access_token": token, "expires_in": lifetime, "token_type": "Bearer"})

    def bearer(self):
        value = self.headers.get("Authorization", "")
        token = value[7:] if value.startswith("Bearer ") else None
        if token not in state["tokens"]:
            raise Refused(401, "UNAUTHENTICATED", "Request is missing required authentication credential.", "required")
        state["tokens"][token] += 1
        limit = state["expireTokenAfter"]
        if limit is not None and state["tokens"][token] > limit:
            state["log"].append({"event": "expired-token"})
            raise Refused(401, "UNAUTHENTICATED", "Request had invalid authentication credentials. Expected OAuth 2 access token.", "authError")

    def maybe_throttle(self, path):
        throttle = state["throttle"]
        if throttle and throttle.get("times", 0) > 0 and throttle.get("path", "") in path:
            throttle["times"] -= 1
            state["log"].append({"event": "throttled", "path": path})
            raise Refused(429, "RESOURCE_EXHAUSTED", "Quota exceeded.", "rateLimitExceeded", [("Retry-After", str(throttle.get("retryAfter", 1)))])

    # The edit workflow
    def open_edit(self, params):
        edit = state["edits"].get(params.get("editId"))
        if edit is None or edit["package"] != params.get("packageName"):
            raise Refused(404, "NOT_FOUND", f"No edit {params.get('editId')}.", "notFound")
        if edit["state"] != "open":
            raise Refused(400, "FAILED_PRECONDITION", f"This Edit has been {edit['state']}.", "editAlreadyCommitted" if edit["state"] == "committed" else "editDeleted")
        return edit

    def route(self, method, params, query, body):
        name = method["id"].split("androidpublisher.", 1)[1]
        package = params.get("packageName")
        if name == "edits.insert":
            app = state["apps"].get(package)
            if app is None:
                raise Refused(404, "NOT_FOUND", f"Package not found: {package}.", "applicationNotFound")
            edit_id = new_id("edit-")
            state["edits"][edit_id] = {"package": package, "state": "open", "base": app["version"], "tracks": copy.deepcopy(app["tracks"]),
                                       "listings": copy.deepcopy(app["listings"]), "images": copy.deepcopy(app["images"]),
                                       "versionCodes": list(app["versionCodes"]), "changed": []}
            return self.reply(200, {"id": edit_id, "expiryTimeSeconds": str(int(time.time()) + 3600)}, method=method)
        edit = self.open_edit(params)
        app = state["apps"][package]
        if name == "edits.delete":
            edit["state"] = "deleted"
            state["log"].append({"event": "edit-deleted", "edit": params["editId"]})
            return self.reply(204, None)
        if name == "edits.validate":
            return self.reply(200, {"id": params["editId"]}, method=method)
        if name == "edits.commit":
            if state["concurrentCommit"]:
                state["concurrentCommit"] = False
                app["version"] += 1  # another edit of this app was committed meanwhile
            if app["version"] != edit["base"]:
                raise Refused(409, "ABORTED", "The edit could not be committed: another edit of this app was committed since it was opened.", "editConflict")
            app.update(tracks=edit["tracks"], listings=edit["listings"], images=edit["images"], versionCodes=edit["versionCodes"])
            app["version"] += 1
            edit["state"] = "committed"
            state["commits"].append({"edit": params["editId"], "package": package, "tracks": copy.deepcopy(edit["tracks"]),
                                     "listings": copy.deepcopy(edit["listings"]), "changed": edit["changed"],
                                     "changesNotSentForReview": query.get("changesNotSentForReview", ["false"])[0] == "true"})
            return self.reply(200, {"id": params["editId"]}, method=method)
        if name == "edits.tracks.get":
            releases = edit["tracks"].get(params["track"])
            if releases is None:
                raise Refused(404, "NOT_FOUND", f"Track not found: {params['track']}.", "notFound")
            return self.reply(200, {"track": params["track"], "releases": releases}, method=method)
        if name == "edits.tracks.list":
            return self.reply(200, {"kind": "androidpublisher#tracksListResponse",
                                    "tracks": [{"track": t, "releases": r} for t, r in sorted(edit["tracks"].items())]}, method=method)
        if name in ("edits.tracks.update", "edits.tracks.patch"):
            if body.get("track", params["track"]) != params["track"]:
                raise Refused(400, "INVALID_ARGUMENT", "The track in the body differs from the URL's.", "badRequest")
            for release in body.get("releases", []):
                self.check_release(release, edit)
            edit["tracks"][params["track"]] = body.get("releases", [])
            edit["changed"].append(f"track {params['track']}")
            return self.reply(200, {"track": params["track"], "releases": body.get("releases", [])}, method=method)
        if name == "edits.listings.list":
            return self.reply(200, {"kind": "androidpublisher#listingsListResponse", "listings": list(edit["listings"].values())}, method=method)
        if name == "edits.listings.get":
            listing = edit["listings"].get(params["language"])
            if listing is None:
                raise Refused(404, "NOT_FOUND", "Listing not found.", "notFound")
            return self.reply(200, listing, method=method)
        if name in ("edits.listings.update", "edits.listings.patch"):
            listing = dict(body, language=params["language"])
            edit["listings"][params["language"]] = listing
            edit["changed"].append(f"listing {params['language']}")
            return self.reply(200, listing, method=method)
        if name == "edits.images.list":
            return self.reply(200, {"images": edit["images"].get(f"{params['language']}/{params['imageType']}", [])}, method=method)
        if name == "edits.images.deleteall":
            deleted = edit["images"].pop(f"{params['language']}/{params['imageType']}", [])
            edit["changed"].append(f"images {params['language']}/{params['imageType']} deleted")
            return self.reply(200, {"deleted": deleted}, method=method)
        raise Refused(400, "INVALID_ARGUMENT", f"{method['id']} is not served by this stand-in", "badRequest")

    def check_release(self, release, edit):
        status = release.get("status")
        fraction = release.get("userFraction")
        if status in ("inProgress", "halted"):
            if fraction is None or not 0 < fraction < 1:
                raise Refused(400, "INVALID_ARGUMENT", f"A {status} release needs a userFraction between 0 and 1.", "badRequest")
        elif fraction is not None:
            raise Refused(400, "INVALID_ARGUMENT", f"userFraction can only be set on inProgress or halted releases, not {status}.", "badRequest")
        for code in release.get("versionCodes", []):
            if code not in edit["versionCodes"]:
                raise Refused(400, "INVALID_ARGUMENT", f"Version code {code} has not been uploaded.", "apkNotFound")
        for notes in release.get("releaseNotes", []):
            if len(notes.get("text", "")) > 500:
                raise Refused(400, "INVALID_ARGUMENT", "Release notes are limited to 500 characters.", "badRequest")

    # Google's resumable media protocol
    def start_session(self, method, params, query, headers):
        name = method["id"]
        if name.startswith("androidpublisher.edits."):
            self.open_edit(params)
        upload_id = uuid.uuid4().hex
        kind = "apk" if name.endswith(("apks.upload", "uploadapk")) else "aab" if name.endswith(("bundles.upload", "uploadbundle")) else "other"
        total = int(headers["X-Upload-Content-Length"])
        state["sessions"][upload_id] = {"method": method, "params": params, "total": total, "received": 0, "chunks": 0,
                                        "sha256": hashlib.sha256(), "head": b"", "kind": kind, "done": None,
                                        "file": os.path.join(BASE, "uploads", upload_id) if total <= KEEP_WHOLE else None}
        location = f"http://127.0.0.1:{PORT[0]}{self.path.split('?')[0]}?{urllib.parse.urlencode(dict(query, upload_id=upload_id), doseq=True)}"
        self.answer(200, None, [("Location", location), ("X-GUploader-UploadID", upload_id)])

    def chunk(self, upload_id):
        with lock:
            session = state["sessions"].get(upload_id)
            try:
                if session is None:
                    raise Refused(404, "NOT_FOUND", "No such upload session.", "notFound")
                self.bearer()
            except Refused as refusal:
                self.read_body()
                raise refusal
            method = session["method"]
            total = session["total"]
            state["chunkCount"] += 1
            number = state["chunkCount"]
            fail = number in state["chunkFailures"]
            delay = state["chunkDelay"]
        content_range = self.headers.get("Content-Range", "")
        length = int(self.headers.get("Content-Length", "0"))
        if not content_range.startswith("bytes "):
            self.read_body()
            raise Refused(400, "INVALID_ARGUMENT", "Content-Range is missing", "badRequest")
        spec = content_range[6:]
        if spec == f"*/{total}":
            if length:
                self.read_body()
                raise Refused(400, "INVALID_ARGUMENT", "a status query has no body", "badRequest")
            return self.session_status(session)
        first_last, _, declared = spec.partition("/")
        first, _, last = first_last.partition("-")
        first, last = int(first), int(last)
        problems = []
        if declared != str(total):
            problems.append(f"total {declared} is not the session's {total}")
        if first != session["received"]:
            problems.append(f"chunk starts at {first}, Google has {session['received']} bytes")
        if last - first + 1 != length:
            problems.append(f"Content-Length {length} is not the range's {last - first + 1}")
        if last + 1 < total and length % GRANULE:
            problems.append(f"a chunk before the last is {length} bytes, not a multiple of 256 KiB")
        if problems:
            self.read_body()
            with lock:
                state["errors"].append("resumable chunk: " + "; ".join(problems))
            raise Refused(400, "INVALID_ARGUMENT", "; ".join(problems), "badRequest")
        keep = length // 2 if fail else length
        handle = open(session["file"], "ab") if session["file"] else None
        got = 0
        try:
            while got < length:
                block = self.rfile.read(min(1 << 20 if not delay else 64 << 10, length - got))
                if not block:
                    break
                if delay:
                    time.sleep(delay)
                kept = block[:max(0, keep - got)]
                got += len(block)
                if kept:
                    session["sha256"].update(kept)
                    if len(session["head"]) < 1 << 20:
                        session["head"] += kept[:(1 << 20) - len(session["head"])]
                    if handle:
                        handle.write(kept)
        finally:
            if handle:
                handle.close()
        with lock:
            session["received"] += min(got, keep)
            session["chunks"] += 1
        if got < length:
            self.close_connection = True
            return
        if fail:
            with lock:
                state["log"].append({"event": "chunk-failed", "chunk": number, "kept": keep})
            raise Refused(503, "UNAVAILABLE", "The service is currently unavailable.", "backendError")
        if session["received"] < total:
            return self.answer(308, None, [("Range", f"bytes=0-{session['received'] - 1}")])
        with lock:
            return self.complete_upload(session, upload_id)

    def session_status(self, session):
        with lock:
            if session["done"] is not None:
                return self.reply(200, session["done"], method=session["method"])
            headers = [("Range", f"bytes=0-{session['received'] - 1}")] if session["received"] else []
        self.answer(308, None, headers)

    def complete_upload(self, session, upload_id):
        method, params = session["method"], session["params"]
        name = method["id"].split("androidpublisher.", 1)[1]
        digest = session["sha256"].hexdigest()
        record = {"method": method["id"], "size": session["total"], "sha256": digest, "chunks": session["chunks"], "edit": params.get("editId")}
        if session["kind"] in ("apk", "aab"):
            facts = read_artifact(session)
            record.update(facts)
            code = facts.get("versionCode")
            if code is None or str(code) == "":
                raise Refused(400, "INVALID_ARGUMENT", "The binary is not a valid bundle or APK: no version code.", "apkInvalidFile")
            if facts.get("package", facts.get("name")) not in (None, params.get("packageName")) and "packageName" in params:
                raise Refused(400, "INVALID_ARGUMENT", f"The binary is for {facts.get('package', facts.get('name'))}, not {params['packageName']}.", "apkPackageNameMismatch")
        state["uploads"].append(record)
        if name in ("edits.bundles.upload", "edits.apks.upload"):
            edit = self.open_edit(params)
            code = str(record["versionCode"])
            if code in edit["versionCodes"]:
                raise Refused(403, "PERMISSION_DENIED", f"Version code {code} has already been used.", "apkUpgradeVersionConflict")
            edit["versionCodes"].append(code)
            edit["changed"].append(f"{session['kind']} {code}")
            document = {"versionCode": int(code), "sha1": hashlib.sha1(b"").hexdigest(), "sha256": digest}
            if session["kind"] == "apk":
                document = {"versionCode": int(code), "binary": {"sha1": document["sha1"], "sha256": digest}}
        elif name == "edits.deobfuscationfiles.upload":
            edit = self.open_edit(params)
            edit["changed"].append(f"deobfuscation {params['apkVersionCode']}")
            document = {"deobfuscationFile": {"symbolType": params["deobfuscationFileType"]}}
        elif name == "edits.images.upload":
            edit = self.open_edit(params)
            image = {"id": new_id("img-"), "sha256": digest, "sha1": hashlib.sha1(b"").hexdigest(),
                     "url": f"http://127.0.0.1:{PORT[0]}/_images/{upload_id}"}
            edit["images"].setdefault(f"{params['language']}/{params['imageType']}", []).append(image)
            edit["changed"].append(f"image {params['language']}/{params['imageType']}")
            document = {"image": image}
        else:  # internal app sharing
            document = {"downloadUrl": f"https://play.google.com/apps/test/{params['packageName']}/{record['versionCode']}",
                        "certificateFingerprint": "AB:CD", "sha256": digest}
            state["internalSharing"].append(document)
        session["done"] = document
        self.reply(200, document, method=method)


def bound(port):
    PORT[0] = port
    key = {"type": "service_account", "project_id": "example-project", "private_key_id": KEY_ID,
           "private_key": open(os.path.join(BASE, "play-key.pem")).read(), "client_email": CLIENT_EMAIL,
           "client_id": "1234567890", "token_uri": f"http://127.0.0.1:{port}/token"}
    with tempfile.NamedTemporaryFile("w", dir=BASE, delete=False) as handle:
        json.dump(key, handle)
    os.chmod(handle.name, 0o600)
    os.replace(handle.name, os.path.join(BASE, "service-account.json"))


serve(Handler, BASE, OWNER, on_bound=bound)
