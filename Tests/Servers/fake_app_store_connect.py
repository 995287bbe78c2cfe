#!/usr/bin/env python3
"""A local App Store Connect for lanes' tests. Every request lanes sends (method, path, query
parameters, JSON body) and every answer this server gives is validated with openapi-core against
Apple's OpenAPI description; query parameters the operation does not declare are refused too. JWTs
are checked with PyJWT (ES256, kid, iss, aud, at most 20 minutes). A failed check answers 400 with
an Apple-shaped error body and is recorded; GET /_log returns what was seen.

    fake_app_store_connect.py BASE SPEC [OWNER_PID]   writes BASE/port and BASE/asc.p8 (EC P-256), then serves

Scenarios are set with POST /_reset {"apps": [...], "builds": [...], "groups": [...], "pageSize": N,
"throttle": {"path": "/v1/builds", "times": 1, "retryAfter": 1}, "conflict": "/v1/betaBuildLocalizations",
"processingPolls": N, "versions": [...], "screenshotSets": [...], "screenshotPolls": N, "inHouse": true}.
Asset parts (builds and screenshots) are PUT to /_part/FILE/OFFSET?X-Amz-Signature=..., checked
against the upload operation this server gave, and committed only with the MD5 of the bytes received.
"""
import hashlib, json, os, sys, threading, time, urllib.parse

import jwt

import fake_signing_portal  # match's certificate and profile creation, in its own module
from fake_server_common import JSONHandler, serve, write_key

BASE, SPEC = sys.argv[1], sys.argv[2]
os.makedirs(BASE, exist_ok=True)

started = time.monotonic()
from openapi_core import OpenAPI, Config
from openapi_core.testing import MockRequest, MockResponse

with open(SPEC) as handle:
    spec = json.load(handle)


def drop_null_formats(node):
    # Apple's file has `"format": null` in places, which JSON Schema tools refuse; it means no format.
    if isinstance(node, dict):
        if "format" in node and node["format"] is None:
            del node["format"]
        for value in node.values():
            drop_null_formats(value)
    elif isinstance(node, list):
        for value in node:
            drop_null_formats(value)


drop_null_formats(spec)
# The description is loaded once per server start; validating Apple's whole file is not this server's job.
api = OpenAPI.from_dict(spec, config=Config(spec_validator_cls=None))
APPLE = "https://api.appstoreconnect.apple.com"
LOAD_SECONDS = time.monotonic() - started

public_key = write_key(BASE, "asc.p8", "ec").public_key()
KEY_ID, ISSUER = "D383SF739A", "6053b7fe-68a8-4acb-89be-165aa6465141"
PART = 1 << 20

lock = threading.Lock()
state = {}


def reset(config):
    global state
    state = {
        "apps": config.get("apps", []), "builds": config.get("builds", []), "groups": config.get("groups", []),
        "versions": config.get("versions", []), "pageSize": config.get("pageSize", 200),
        "throttle": config.get("throttle"), "conflict": config.get("conflict"),
        "processingPolls": config.get("processingPolls", 0), "localizations": config.get("localizations", []), "groupBuilds": [], "reviewDetails": {},
        "submissions": [], "versionLocalizations": config.get("versionLocalizations", []), "releases": [], "bundleIds": config.get("bundleIds", []),
        "profiles": config.get("profiles", []), "certificates": config.get("certificates", []), "devices": config.get("devices", []),
        "profileContent": config.get("profileContent", ""), "createdProfiles": [], "appInfos": config.get("appInfos", []),
        "appInfoLocalizations": config.get("appInfoLocalizations", []), "uploads": {}, "files": {}, "log": [], "errors": [], "next": 1, "tokens": [],
        "screenshotSets": config.get("screenshotSets", []), "screenshots": config.get("screenshots", []),
        "screenshotPolls": config.get("screenshotPolls", 0), "inHouse": config.get("inHouse", False),
        "betaDetails": config.get("betaDetails", {}), "screenshotFailure": config.get("screenshotFailure"),
        # An error answer for one path, as a server (or a proxy in front of it) might word it: its
        # detail may hold terminal escapes, or echo the request's bearer token back.
        "failure": config.get("failure"),
    }
    fake_signing_portal.reset(state, config)


reset({})


def new_id(prefix):
    state["next"] += 1
    return f"{prefix}-{state['next']}"


class Invalid(Exception):
    pass


def operation_of(path, method):
    """The operation in the description whose template matches `path`, and its declared parameter names."""
    parts = path.strip("/").split("/")
    for template, item in spec["paths"].items():
        pieces = template.strip("/").split("/")
        if len(pieces) == len(parts) and all(p == q or (p.startswith("{") and p.endswith("}")) for p, q in zip(pieces, parts)):
            operation = item.get(method.lower())
            if operation is None:
                continue
            names = {p["name"] for p in operation.get("parameters", []) + item.get("parameters", []) if "name" in p}
            return template, names
    return None, set()


class Handler(JSONHandler):
    def send(self, status, document=None, headers=()):
        data = json.dumps(document).encode() if document is not None else b""
        if self.validating and status < 500 and self.path.startswith("/v1/"):
            response = MockResponse(data, status_code=status, content_type="application/json")
            try:
                api.validate_response(self.mock, response)
            except Exception as error:
                state["errors"].append(f"response to {self.command} {self.path} does not match Apple's description: {error} {getattr(error, '__cause__', '')}"[:2000])
        self.answer(status, document, headers)

    def apple_error(self, status, code, title, detail):
        self.send(status, {"errors": [{"id": new_id("err"), "status": str(status), "code": code, "title": title, "detail": detail}]})

    def do_GET(self):
        self.handle_any("GET")

    def do_POST(self):
        self.handle_any("POST")

    def do_PATCH(self):
        self.handle_any("PATCH")

    def do_DELETE(self):
        self.handle_any("DELETE")

    def do_PUT(self):
        self.handle_any("PUT")

    def handle_any(self, method):
        self.validating = False
        body = self.read_body()
        url = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(url.query, keep_blank_values=True)
        with lock:
            try:
                if url.path == "/_reset":
                    reset(json.loads(body or b"{}"))
                    return self.send(200, {"ok": True})
                if url.path == "/_log":
                    return self.send(200, {k: state[k] for k in ("log", "errors", "localizations", "groupBuilds", "submissions",
                                                                 "reviewDetails", "builds", "tokens", "versions",
                                                                 "versionLocalizations", "releases", "devices", "createdProfiles",
                                                                 "appInfoLocalizations", "screenshotSets", "screenshots",
                                                                 "betaDetails") + fake_signing_portal.log_keys()} | {"loadSeconds": LOAD_SECONDS})
                if url.path.startswith("/_part/"):
                    return self.part(method, url, body)
                if url.path.startswith("/_dsym/") and method == "GET":
                    return self.dsym(url, self.headers)
                self.check_token()
                self.validate(method, url, query, body)
                self.validating = True
                self.route(method, url.path, query, json.loads(body) if body else None)
            except Invalid as error:
                state["errors"].append(f"{method} {self.path}: {error}")
                self.apple_error(400, "PARAMETER_ERROR.INVALID", "lanes sent a request Apple's description refuses", str(error))
            except Unauthorized as error:
                self.apple_error(401, "NOT_AUTHORIZED", "Authentication credentials are missing or invalid.", str(error))

    def check_token(self):
        header = self.headers.get("Authorization", "")
        if not header.startswith("Bearer "):
            raise Invalid("no bearer token")
        token = header[7:]
        kid = jwt.get_unverified_header(token).get("kid")
        if kid != KEY_ID:
            raise Invalid(f"kid {kid} is not {KEY_ID}")
        try:
            # An enterprise (in-house) key's tokens are for Apple's enterprise API.
            audience = "apple-developer-enterprise-v1" if state["inHouse"] else "appstoreconnect-v1"
            claims = jwt.decode(token, public_key, algorithms=["ES256"], audience=audience, issuer=ISSUER,
                                options={"require": ["exp", "iat", "iss", "aud"]})
        except jwt.ExpiredSignatureError:
            state["log"].append({"event": "expired-token"})
            raise Unauthorized("Provide a properly configured and signed bearer token, and make sure that it has not expired.")
        except jwt.InvalidSignatureError:
            # Another key's token, as Apple answers it.
            state["log"].append({"event": "bad-signature"})
            raise Unauthorized("Provide a properly configured and signed bearer token, and make sure that it has not expired.")
        except jwt.InvalidTokenError as error:
            raise Invalid(f"bad JWT: {error}")
        if claims["exp"] - claims["iat"] > 20 * 60:
            raise Invalid("token lives more than 20 minutes")
        if token not in state["tokens"]:
            state["tokens"].append(token)

    def validate(self, method, url, query, body):
        template, names = operation_of(url.path, method)
        if template is None:
            raise Invalid(f"{method} {url.path} is not in Apple's description")
        unknown = sorted(set(query) - names - {"cursor"})
        if unknown:
            raise Invalid(f"query parameters {unknown} are not declared for {method} {template}")
        args = {name: ",".join(values) for name, values in query.items() if name != "cursor"}
        self.mock = MockRequest(APPLE, method.lower(), url.path, args=args, data=body.decode() if body else None,
                                headers={"Authorization": self.headers.get("Authorization", ""), "Content-Type": "application/json"},
                                content_type="application/json")
        try:
            api.validate_request(self.mock)
        except Exception as error:
            raise Invalid(f"{error} {getattr(error, '__cause__', '') or ''}"[:2000])
        state["log"].append({"event": "request", "method": method, "path": url.path, "query": args})

    # Collections

    def page(self, path, query, items):
        size = min(int(query.get("limit", ["50"])[0]), state["pageSize"])
        start = int(query.get("cursor", ["0"])[0])
        chunk = items[start:start + size]
        base = f"http://127.0.0.1:{self.server.server_address[1]}"
        links = {"self": base + self.path}
        if start + size < len(items):
            rest = [(k, v) for k, vs in query.items() if k != "cursor" for v in vs] + [("cursor", str(start + size))]
            links["next"] = base + path + "?" + urllib.parse.urlencode(rest)
        return {"data": chunk, "links": links, "meta": {"paging": {"total": len(items), "limit": size}}}

    def throttled(self, path):
        throttle = state["throttle"]
        if throttle and throttle["path"] == path and throttle["times"] > 0:
            throttle["times"] -= 1
            state["log"].append({"event": "throttled", "path": path})
            self.send(429, {"errors": [{"status": "429", "code": "RATE_LIMIT_EXCEEDED", "title": "The request rate limit has been reached.",
                                        "detail": "We've received too many requests for this API. Please wait and try again or slow down your request rate."}]},
                      headers=[("Retry-After", str(throttle.get("retryAfter", 1)))])
            return True
        return False

    def resource(self, kind, item):
        return {"type": kind, "id": item["id"], "attributes": item.get("attributes", {}),
                "links": {"self": f"{APPLE}/v1/{kind}/{item['id']}"}}

    def route(self, method, path, query, body):
        parts = path.strip("/").split("/")
        if self.throttled(path):
            return
        failure = state["failure"]
        if failure and failure["path"] == path:
            detail = failure.get("detail", "")
            if failure.get("echoToken"):
                detail += " (request token: " + self.headers.get("Authorization", "")[len("Bearer "):] + ")"
            return self.apple_error(failure.get("status", 403), failure.get("code", "FORBIDDEN_ERROR"),
                                    failure.get("title", "This request is forbidden for security reasons"), detail)
        if fake_signing_portal.route(self, state, method, path, body):
            return
        if state["conflict"] == path and method == "POST":
            return self.apple_error(409, "ENTITY_ERROR.ATTRIBUTE.INVALID.DUPLICATE", "The provided entity includes an attribute with a value that has already been used",
                                    "The version number has been previously used.")
        if method == "GET" and path == "/v1/apps":
            wanted = query.get("filter[bundleId]", [None])[0]
            apps = [self.resource("apps", a) for a in state["apps"] if wanted is None or a["attributes"]["bundleId"].startswith(wanted)]
            return self.send(200, self.page(path, query, apps))
        if method == "GET" and path == "/v1/builds":
            builds = [b for b in state["builds"] if b["app"] == query["filter[app]"][0]]
            if "filter[preReleaseVersion.platform]" in query:
                builds = [b for b in builds if b.get("platform", "IOS") in query["filter[preReleaseVersion.platform]"][0].split(",")]
            if "filter[preReleaseVersion.version]" in query:
                builds = [b for b in builds if b["preReleaseVersion"] == query["filter[preReleaseVersion.version]"][0]]
            if "filter[version]" in query:
                builds = [b for b in builds if b["attributes"]["version"] == query["filter[version]"][0]]
            for b in builds:
                if b["attributes"].get("processingState") == "PROCESSING":
                    b["polls"] = b.get("polls", 0) + 1
                    if b["polls"] > state["processingPolls"]:
                        b["attributes"]["processingState"] = "VALID"
            builds = sorted(builds, key=lambda b: b["attributes"].get("uploadedDate", ""), reverse=True)
            document = self.page(path, query, [self.resource("builds", b) for b in builds])
            self.include_symbols(query, document, builds)
            return self.send(200, document)
        if method == "GET" and parts[:2] == ["v1", "builds"] and len(parts) == 3:
            build = next((b for b in state["builds"] if b["id"] == parts[2]), None)
            if build is None:
                return self.apple_error(404, "NOT_FOUND", "The specified resource does not exist", f"There is no resource of type 'builds' with id '{parts[2]}'")
            document = {"data": self.resource("builds", build), "links": {"self": f"{APPLE}{path}"}}
            self.include_symbols(query, document, [build])
            return self.send(200, document)
        if method == "PATCH" and parts[:2] == ["v1", "builds"] and len(parts) == 3:
            build = next(b for b in state["builds"] if b["id"] == parts[2])
            build["attributes"].update(body["data"].get("attributes") or {})
            return self.send(200, {"data": self.resource("builds", build), "links": {"self": f"{APPLE}{path}"}})
        if method == "GET" and path == "/v1/betaBuildLocalizations":
            items = [self.resource("betaBuildLocalizations", l) for l in state["localizations"] if l["build"] == query["filter[build]"][0]]
            return self.send(200, self.page(path, query, items))
        if method == "POST" and path == "/v1/betaBuildLocalizations":
            item = {"id": new_id("loc"), "build": body["data"]["relationships"]["build"]["data"]["id"], "attributes": body["data"]["attributes"]}
            state["localizations"].append(item)
            return self.send(201, {"data": self.resource("betaBuildLocalizations", item), "links": {"self": f"{APPLE}{path}"}})
        if method == "PATCH" and parts[:2] == ["v1", "betaBuildLocalizations"]:
            item = next(l for l in state["localizations"] if l["id"] == parts[2])
            item["attributes"].update(body["data"]["attributes"])
            return self.send(200, {"data": self.resource("betaBuildLocalizations", item), "links": {"self": f"{APPLE}{path}"}})
        if method == "GET" and parts[:2] == ["v1", "apps"] and parts[3:] == ["betaGroups"]:
            groups = [self.resource("betaGroups", g) for g in state["groups"] if g["app"] == parts[2]]
            return self.send(200, self.page(path, query, groups))
        if method == "POST" and parts[:2] == ["v1", "betaGroups"] and parts[3:] == ["relationships", "builds"]:
            for linkage in body["data"]:
                state["groupBuilds"].append({"group": parts[2], "build": linkage["id"]})
            return self.send(204)
        if method == "PATCH" and parts[:2] == ["v1", "betaAppReviewDetails"]:
            state["reviewDetails"][parts[2]] = body["data"].get("attributes") or {}
            item = {"id": parts[2], "attributes": state["reviewDetails"][parts[2]]}
            return self.send(200, {"data": self.resource("betaAppReviewDetails", item), "links": {"self": f"{APPLE}{path}"}})
        if method == "POST" and path == "/v1/betaAppReviewSubmissions":
            item = {"id": new_id("sub"), "attributes": {"betaReviewState": "WAITING_FOR_REVIEW"}}
            state["submissions"].append(body["data"]["relationships"]["build"]["data"]["id"])
            return self.send(201, {"data": self.resource("betaAppReviewSubmissions", item), "links": {"self": f"{APPLE}{path}"}})
        if method == "GET" and parts[:2] == ["v1", "apps"] and parts[3:] == ["appStoreVersions"]:
            versions = [v for v in state["versions"] if v["app"] == parts[2]]
            if "filter[appStoreState]" in query:
                versions = [v for v in versions if v["attributes"]["appStoreState"] in query["filter[appStoreState]"][0].split(",")]
            if "filter[versionString]" in query:
                versions = [v for v in versions if v["attributes"]["versionString"] == query["filter[versionString]"][0]]
            return self.send(200, self.page(path, query, [self.resource("appStoreVersions", v) for v in versions]))
        if method == "GET" and parts[:2] == ["v1", "appStoreVersions"] and parts[3:] == ["build"]:
            version = next(v for v in state["versions"] if v["id"] == parts[2])
            build = next((b for b in state["builds"] if b["id"] == version.get("build")), None)
            return self.send(200, {"data": self.resource("builds", build) if build else None, "links": {"self": f"{APPLE}{path}"}})
        if method == "POST" and path == "/v1/appStoreVersions":
            attributes = body["data"]["attributes"]
            version = {"id": new_id("version"), "app": body["data"]["relationships"]["app"]["data"]["id"],
                       "attributes": {"platform": attributes["platform"], "versionString": attributes["versionString"],
                                      "appStoreState": "PREPARE_FOR_SUBMISSION", "appVersionState": "PREPARE_FOR_SUBMISSION"}}
            state["versions"].append(version)
            return self.send(201, {"data": self.resource("appStoreVersions", version), "links": {"self": f"{APPLE}{path}"}})
        if parts[:2] == ["v1", "appStoreVersions"] and len(parts) == 3 and method == "PATCH":
            version = next(v for v in state["versions"] if v["id"] == parts[2])
            version["attributes"].update(body["data"].get("attributes") or {})
            return self.send(200, {"data": self.resource("appStoreVersions", version), "links": {"self": f"{APPLE}{path}"}})
        if method == "PATCH" and parts[:2] == ["v1", "appStoreVersions"] and parts[3:] == ["relationships", "build"]:
            next(v for v in state["versions"] if v["id"] == parts[2])["build"] = body["data"]["id"]
            return self.send(204)
        if method == "GET" and parts[:2] == ["v1", "appStoreVersions"] and parts[3:] == ["appStoreVersionLocalizations"]:
            items = [self.resource("appStoreVersionLocalizations", l) for l in state["versionLocalizations"] if l["version"] == parts[2]]
            return self.send(200, self.page(path, query, items))
        if method == "POST" and path == "/v1/appStoreVersionLocalizations":
            item = {"id": new_id("vloc"), "version": body["data"]["relationships"]["appStoreVersion"]["data"]["id"], "attributes": body["data"]["attributes"]}
            state["versionLocalizations"].append(item)
            return self.send(201, {"data": self.resource("appStoreVersionLocalizations", item), "links": {"self": f"{APPLE}{path}"}})
        if method == "PATCH" and parts[:2] == ["v1", "appStoreVersionLocalizations"]:
            item = next(l for l in state["versionLocalizations"] if l["id"] == parts[2])
            item["attributes"].update(body["data"].get("attributes") or {})
            return self.send(200, {"data": self.resource("appStoreVersionLocalizations", item), "links": {"self": f"{APPLE}{path}"}})
        if method == "POST" and path in ("/v1/appStoreVersionPhasedReleases", "/v1/reviewSubmissions", "/v1/reviewSubmissionItems"):
            kind = path.split("/")[-1]
            item = {"id": new_id(kind), "attributes": {}}
            state["releases"].append({"kind": kind, "body": body["data"]})
            return self.send(201, {"data": self.resource(kind, item), "links": {"self": f"{APPLE}{path}"}})
        if method == "PATCH" and parts[:2] == ["v1", "reviewSubmissions"]:
            state["releases"].append({"kind": "reviewSubmissions-update", "body": body["data"]})
            item = {"id": parts[2], "attributes": {"state": "WAITING_FOR_REVIEW"}}
            return self.send(200, {"data": self.resource("reviewSubmissions", item), "links": {"self": f"{APPLE}{path}"}})
        if method == "GET" and parts[:2] == ["v1", "apps"] and parts[3:] == ["appInfos"]:
            items = [self.resource("appInfos", i) for i in state["appInfos"] if i["app"] == parts[2]]
            return self.send(200, self.page(path, query, items))
        if method == "GET" and parts[:2] == ["v1", "appInfos"] and parts[3:] == ["appInfoLocalizations"]:
            items = [self.resource("appInfoLocalizations", l) for l in state["appInfoLocalizations"] if l["info"] == parts[2]]
            return self.send(200, self.page(path, query, items))
        if method == "POST" and path == "/v1/appInfoLocalizations":
            item = {"id": new_id("iloc"), "info": body["data"]["relationships"]["appInfo"]["data"]["id"], "attributes": body["data"]["attributes"]}
            state["appInfoLocalizations"].append(item)
            return self.send(201, {"data": self.resource("appInfoLocalizations", item), "links": {"self": f"{APPLE}{path}"}})
        if method == "PATCH" and parts[:2] == ["v1", "appInfoLocalizations"]:
            item = next(l for l in state["appInfoLocalizations"] if l["id"] == parts[2])
            item["attributes"].update(body["data"].get("attributes") or {})
            return self.send(200, {"data": self.resource("appInfoLocalizations", item), "links": {"self": f"{APPLE}{path}"}})
        if method == "GET" and path == "/v1/bundleIds":
            wanted = query.get("filter[identifier]", [""])[0]
            items = [self.resource("bundleIds", b) for b in state["bundleIds"] if b["attributes"]["identifier"].startswith(wanted)]
            return self.send(200, self.page(path, query, items))
        if method == "GET" and parts[:2] == ["v1", "bundleIds"] and parts[3:] == ["profiles"]:
            items = [self.resource("profiles", p) for p in state["profiles"] if p["bundle"] == parts[2]]
            return self.send(200, self.page(path, query, items))
        if method == "GET" and path == "/v1/certificates":
            types = query.get("filter[certificateType]", [""])[0].split(",")
            items = [self.resource("certificates", c) for c in state["certificates"] if c["attributes"]["certificateType"] in types]
            return self.send(200, self.page(path, query, items))
        if method == "GET" and path == "/v1/devices":
            items = [self.resource("devices", d) for d in state["devices"]
                     if all(key not in query or d["attributes"][field] in query[key][0].split(",")
                            for key, field in (("filter[status]", "status"), ("filter[platform]", "platform")))]
            return self.send(200, self.page(path, query, items))
        if method == "POST" and path == "/v1/devices":
            device = {"id": new_id("device"), "attributes": dict(body["data"]["attributes"], status="ENABLED")}
            state["devices"].append(device)
            return self.send(201, {"data": self.resource("devices", device), "links": {"self": f"{APPLE}{path}"}})
        if method == "POST" and path == "/v1/profiles":
            data = body["data"]
            profile = {"id": new_id("profile"), "bundle": data["relationships"]["bundleId"]["data"]["id"],
                       "attributes": {"name": data["attributes"]["name"], "profileType": data["attributes"]["profileType"], "profileState": "ACTIVE",
                                      "profileContent": state["profileContent"], "expirationDate": "2035-01-01T00:00:00Z"}}
            state["profiles"].append(profile)
            state["createdProfiles"].append({"name": data["attributes"]["name"], "type": data["attributes"]["profileType"],
                                             "certificates": [c["id"] for c in data["relationships"]["certificates"]["data"]],
                                             "devices": [d["id"] for d in (data["relationships"].get("devices") or {}).get("data", [])]})
            return self.send(201, {"data": self.resource("profiles", profile), "links": {"self": f"{APPLE}{path}"}})
        if method == "POST" and path == "/v1/buildUploads":
            attributes = body["data"]["attributes"]
            app = body["data"]["relationships"]["app"]["data"]["id"]
            upload = {"id": new_id("upload"), "app": app, "attributes": {"cfBundleShortVersionString": attributes["cfBundleShortVersionString"],
                                                                        "cfBundleVersion": attributes["cfBundleVersion"], "platform": attributes["platform"],
                                                                        "state": {"state": "AWAITING_UPLOAD"}}}
            state["uploads"][upload["id"]] = upload
            return self.send(201, {"data": self.resource("buildUploads", upload), "links": {"self": f"{APPLE}{path}"}})
        if method == "POST" and path == "/v1/buildUploadFiles":
            attributes = body["data"]["attributes"]
            upload_id = body["data"]["relationships"]["buildUpload"]["data"]["id"]
            size = attributes["fileSize"]
            file_id = new_id("file")
            operations = self.operations(file_id, size)
            state["files"][file_id] = {"upload": upload_id, "size": size, "parts": {}, "operations": operations}
            item = {"id": file_id, "attributes": {"assetType": attributes["assetType"], "fileName": attributes["fileName"], "fileSize": size,
                                                  "uti": attributes["uti"], "uploadOperations": operations}}
            return self.send(201, {"data": self.resource("buildUploadFiles", item), "links": {"self": f"{APPLE}{path}"}})
        if method == "PATCH" and parts[:2] == ["v1", "buildUploadFiles"]:
            record = state["files"][parts[2]]
            expected = body["data"]["attributes"]["sourceFileChecksums"]["file"]["hash"]
            if not self.assembled(parts[2], expected):
                return self.apple_error(409, "ENTITY_ERROR", "checksum", "The uploaded file does not match its checksum.")
            upload = state["uploads"][record["upload"]]
            upload["attributes"]["state"] = {"state": "COMPLETE"}
            a = upload["attributes"]
            # The committed upload becomes a build, processing until `processingPolls` looks have passed.
            state["builds"].append({"id": new_id("build"), "app": upload["app"], "preReleaseVersion": a["cfBundleShortVersionString"], "upload": upload["id"],
                                    "attributes": {"version": a["cfBundleVersion"], "processingState": "PROCESSING", "expired": False,
                                                   "uploadedDate": "2026-11-25T04:00:00Z"}})
            state["log"].append({"event": "committed", "md5": expected})
            item = {"id": parts[2], "attributes": {"uploaded": True}}
            return self.send(200, {"data": self.resource("buildUploadFiles", item), "links": {"self": f"{APPLE}{path}"}})
        if method == "GET" and parts[:2] == ["v1", "buildUploads"]:
            upload = state["uploads"][parts[2]]
            return self.send(200, {"data": self.resource("buildUploads", upload), "links": {"self": f"{APPLE}{path}"}})
        if method == "GET" and parts[:2] == ["v1", "builds"] and parts[3:] == ["buildBetaDetail"]:
            detail = {"id": f"bbd-{parts[2]}", "attributes": {"autoNotifyEnabled": state["betaDetails"].get(f"bbd-{parts[2]}", True)}}
            return self.send(200, {"data": self.resource("buildBetaDetails", detail), "links": {"self": f"{APPLE}{path}"}})
        if method == "PATCH" and parts[:2] == ["v1", "buildBetaDetails"]:
            state["betaDetails"][parts[2]] = body["data"]["attributes"]["autoNotifyEnabled"]
            detail = {"id": parts[2], "attributes": {"autoNotifyEnabled": state["betaDetails"][parts[2]]}}
            return self.send(200, {"data": self.resource("buildBetaDetails", detail), "links": {"self": f"{APPLE}{path}"}})
        # Screenshots: sets per version localization, each screenshot reserved, its parts sent, committed with its MD5.
        if method == "GET" and parts[:2] == ["v1", "appStoreVersionLocalizations"] and parts[3:] == ["appScreenshotSets"]:
            items = [self.resource("appScreenshotSets", x) for x in state["screenshotSets"] if x["localization"] == parts[2]]
            return self.send(200, self.page(path, query, items))
        if method == "POST" and path == "/v1/appScreenshotSets":
            data = body["data"]
            item = {"id": new_id("set"), "localization": data["relationships"]["appStoreVersionLocalization"]["data"]["id"],
                    "attributes": {"screenshotDisplayType": data["attributes"]["screenshotDisplayType"]}}
            state["screenshotSets"].append(item)
            return self.send(201, {"data": self.resource("appScreenshotSets", item), "links": {"self": f"{APPLE}{path}"}})
        if method == "DELETE" and parts[:2] == ["v1", "appScreenshotSets"] and len(parts) == 3:
            state["screenshotSets"] = [x for x in state["screenshotSets"] if x["id"] != parts[2]]
            state["screenshots"] = [x for x in state["screenshots"] if x["set"] != parts[2]]
            state["log"].append({"event": "deleted-set", "id": parts[2]})
            return self.send(204)
        if method == "GET" and parts[:2] == ["v1", "appScreenshotSets"] and parts[3:] == ["appScreenshots"]:
            items = [self.resource("appScreenshots", x) for x in state["screenshots"] if x["set"] == parts[2]]
            return self.send(200, self.page(path, query, items))
        if method == "PATCH" and parts[:2] == ["v1", "appScreenshotSets"] and parts[3:] == ["relationships", "appScreenshots"]:
            order = [linkage["id"] for linkage in body["data"]]
            inside = [x for x in state["screenshots"] if x["set"] == parts[2]]
            if sorted(order) != sorted(x["id"] for x in inside):
                return self.apple_error(409, "ENTITY_ERROR.RELATIONSHIP.INVALID", "The order names other screenshots", "The order must name every screenshot of the set.")
            others = [x for x in state["screenshots"] if x["set"] != parts[2]]
            state["screenshots"] = others + sorted(inside, key=lambda x: order.index(x["id"]))
            state["log"].append({"event": "reordered", "set": parts[2], "order": order})
            return self.send(204)
        if method == "POST" and path == "/v1/appScreenshots":
            data = body["data"]
            size = data["attributes"]["fileSize"]
            item = {"id": new_id("shot"), "set": data["relationships"]["appScreenshotSet"]["data"]["id"],
                    "attributes": {"fileName": data["attributes"]["fileName"], "fileSize": size, "uploadOperations": None,
                                   "assetDeliveryState": {"state": "AWAITING_UPLOAD"}}}
            item["attributes"]["uploadOperations"] = self.operations(item["id"], size)
            state["files"][item["id"]] = {"size": size, "parts": {}, "operations": item["attributes"]["uploadOperations"]}
            state["screenshots"].append(item)
            return self.send(201, {"data": self.resource("appScreenshots", item), "links": {"self": f"{APPLE}{path}"}})
        if method == "DELETE" and parts[:2] == ["v1", "appScreenshots"] and len(parts) == 3:
            state["screenshots"] = [x for x in state["screenshots"] if x["id"] != parts[2]]
            state["log"].append({"event": "deleted-screenshot", "id": parts[2]})
            return self.send(204)
        if method == "PATCH" and parts[:2] == ["v1", "appScreenshots"] and len(parts) == 3:
            item = next(x for x in state["screenshots"] if x["id"] == parts[2])
            attributes = body["data"].get("attributes") or {}
            if attributes.get("uploaded") is not True or not self.assembled(parts[2], attributes.get("sourceFileChecksum") or ""):
                item["attributes"]["assetDeliveryState"] = {"state": "FAILED", "errors": [{"code": "IMAGE_INCORRECT_CHECKSUM", "description": "checksum"}]}
            else:
                item["attributes"].update({"sourceFileChecksum": attributes["sourceFileChecksum"], "assetDeliveryState": {"state": "UPLOAD_COMPLETE"}})
            item["attributes"].pop("uploadOperations", None)
            return self.send(200, {"data": self.resource("appScreenshots", item), "links": {"self": f"{APPLE}{path}"}})
        if method == "GET" and parts[:2] == ["v1", "appScreenshots"] and len(parts) == 3:
            item = next(x for x in state["screenshots"] if x["id"] == parts[2])
            if item["attributes"]["assetDeliveryState"]["state"] == "UPLOAD_COMPLETE":
                item["polls"] = item.get("polls", 0) + 1
                if item["polls"] > state["screenshotPolls"]:
                    # "screenshotFailure": {"code", "description", "times": N} plays Apple refusing images after
                    # processing (the first N, or all without "times").
                    failure = state["screenshotFailure"]
                    fails = failure is not None and failure.get("times", 1 << 30) > 0
                    if fails:
                        failure["times"] = failure.get("times", 1 << 30) - 1
                        item["attributes"]["assetDeliveryState"] = {"state": "FAILED", "errors": [{"code": failure["code"], "description": failure["description"]}]}
                    else:
                        item["attributes"]["assetDeliveryState"] = {"state": "COMPLETE"}
            return self.send(200, {"data": self.resource("appScreenshots", item), "links": {"self": f"{APPLE}{path}"}})
        raise Invalid(f"{method} {path} is valid for Apple but this server does not play it")

    def include_symbols(self, query, document, builds):
        """`include=preReleaseVersion,buildBundles` as Apple answers it: relationships on each build of
        the page, the related resources once in `included`. A bundle's `dSYMUrl` (a presigned address
        of this server) appears once its build was looked at more than `readyAfterPolls` times."""
        included = query.get("include", [""])[0].split(",")
        if "buildBundles" not in included and "preReleaseVersion" not in included:
            return
        shown = {item["id"] for item in (document["data"] if isinstance(document["data"], list) else [document["data"]])}
        extra, seen = [], set()
        base = f"http://127.0.0.1:{self.server.server_address[1]}"
        for build in builds:
            if build["id"] not in shown:
                continue
            build["symbolLooks"] = build.get("symbolLooks", 0) + 1
            target = next(item for item in (document["data"] if isinstance(document["data"], list) else [document["data"]]) if item["id"] == build["id"])
            relationships = target.setdefault("relationships", {})
            if "preReleaseVersion" in included:
                version_id = f"prv-{build.get('platform', 'IOS')}-{build['preReleaseVersion']}"
                relationships["preReleaseVersion"] = {"data": {"type": "preReleaseVersions", "id": version_id}}
                if version_id not in seen:
                    seen.add(version_id)
                    extra.append(self.resource("preReleaseVersions", {"id": version_id, "attributes": {
                        "version": build["preReleaseVersion"], "platform": build.get("platform", "IOS")}}))
            if "buildBundles" in included:
                bundles = build.get("bundles", [])
                relationships["buildBundles"] = {"data": [{"type": "buildBundles", "id": b["id"]} for b in bundles]}
                for bundle in bundles:
                    attributes = {"bundleId": bundle["bundleId"], "bundleType": bundle.get("bundleType", "APP"),
                                  "includesSymbols": bundle.get("includesSymbols", True)}
                    if "dsym" in bundle and build["symbolLooks"] > bundle.get("readyAfterPolls", 0):
                        attributes["dSYMUrl"] = f"{base}/_dsym/{bundle['id']}?X-Amz-Signature=dsym{bundle['id']}secret"
                    extra.append(self.resource("buildBundles", {"id": bundle["id"], "attributes": attributes}))
        document["included"] = extra

    def dsym(self, url, headers):
        """A dSYM zip at its presigned address; what asked for it is logged (an API token must never come here)."""
        bundle_id = url.path.split("/")[2]
        bundle = next((b for build in state["builds"] for b in build.get("bundles", []) if b["id"] == bundle_id), None)
        signature = urllib.parse.parse_qs(url.query).get("X-Amz-Signature", [""])[0]
        state["log"].append({"event": "dsym", "bundle": bundle_id, "authorization": headers.get("Authorization")})
        if bundle is None or "dsym" not in bundle or signature != f"dsym{bundle_id}secret":
            return self.answer(403)
        data = bundle["dsym"].encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/zip")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def part(self, method, url, body):
        _, _, file_id, offset = url.path.split("/")
        record = state["files"].get(file_id)
        operation = next((o for o in (record or {}).get("operations", []) if o["offset"] == int(offset)), None)
        problems = []
        if operation is None:
            problems.append("no such upload operation")
        else:
            if method != operation["method"]:
                problems.append(f"{method} instead of {operation['method']}")
            if f"X-Amz-Signature={urllib.parse.parse_qs(url.query).get('X-Amz-Signature', [''])[0]}" not in operation["url"]:
                problems.append("the presigned query is missing")
            for header in operation["requestHeaders"]:
                if self.headers.get(header["name"]) != header["value"]:
                    problems.append(f"header {header['name']} is missing")
            if len(body) != operation["length"]:
                problems.append(f"{len(body)} bytes instead of {operation['length']}")
        if problems:
            state["errors"].append(f"part {url.path}: " + "; ".join(problems))
            return self.answer(400)
        record["parts"][int(offset)] = body
        state["log"].append({"event": "part", "file": file_id, "offset": int(offset), "length": len(body)})
        self.answer(200)

    def operations(self, file_id, size):
        """Apple's upload operations for a file: 1 MiB parts, each PUT to a presigned URL of this server."""
        base = f"http://127.0.0.1:{self.server.server_address[1]}"
        return [{"method": "PUT", "url": f"{base}/_part/{file_id}/{offset}?X-Amz-Signature=presigned{offset}secret", "length": min(PART, size - offset),
                 "offset": offset, "requestHeaders": [{"name": "Content-Type", "value": "application/octet-stream"}]}
                for offset in range(0, size, PART)]

    def assembled(self, file_id, checksum):
        """Whether the parts received make the whole file with this MD5."""
        record = state["files"][file_id]
        data = b"".join(record["parts"][offset] for offset in sorted(record["parts"]))
        return len(data) == record["size"] and hashlib.md5(data).hexdigest() == checksum.lower()


class Unauthorized(Exception):
    pass


serve(Handler, BASE, int(sys.argv[3]) if len(sys.argv) > 3 else None)
