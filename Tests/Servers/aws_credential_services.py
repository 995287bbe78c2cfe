"""Loopback stand-ins for the AWS services that hand out credentials, answering in their real
formats (botocore's credential providers read exactly these):

- STS AssumeRoleWithWebIdentity: POST / with a form body; the AssumeRoleWithWebIdentityResponse XML,
  or an ErrorResponse (InvalidIdentityToken) for another token;
- container credentials (ECS, EKS Pod Identity): GET /container/creds with the Authorization token;
- IMDSv2: PUT /latest/api/token (x-aws-ec2-metadata-token-ttl-seconds), then
  GET /latest/meta-data/iam/security-credentials/[ROLE] with x-aws-ec2-metadata-token.

- STS AssumeRole: POST / with a form body, SigV4-signed by the source credentials; the signature is
  recomputed with botocore's own signer (not lanes'), and a wrong one is refused as AWS refuses it
  (403 SignatureDoesNotMatch); the AssumeRoleResponse XML otherwise. Every key it issues may assume
  a role in turn (role chaining);
- a minimal S3 (path-style bucket /lanes-renew) for multipart uploads, recording in FOLDER/s3requests
  the access key id that signed each request.

Usage: aws_credential_services.py FOLDER PARENT_PID
Reads FOLDER/config.json: {"web_token", "container_token", "role_arn", "key", "secret", "session_token"}, and optionally
"source_key"/"source_secret" (long-term keys that may call AssumeRole), "external_id" (required when set),
"rotate" (web identity and AssumeRole issue a new numbered key each time), "expirations" (the Expiration of
the first, second, ... credentials issued; the last repeats) and "imds_v1_only" (the token PUT is answered 405
and GETs need no token, as on an instance without IMDSv2).
Writes FOLDER/port once listening; appends each request to FOLDER/requests as JSON lines
{"method", "path", "headers", "body"}. Exits when PARENT_PID is gone (checked every second).
"""
import hashlib
import http.server
import json
import os
import sys
import threading
import time
import urllib.parse

folder, parent = sys.argv[1], int(sys.argv[2])
os.closerange(3, 4096)  # pipes of other tests inherited through the runner must not stay open in a server
with open(os.path.join(folder, "config.json")) as source:
    config = json.load(source)
lock = threading.Lock()
IMDS_TOKEN = "AQAEAHlanes-imds-session-token=="
EXPIRATION = "2030-01-01T00:00:00Z"
# Keys STS knows: access key id -> (secret, session token or None).
known = {}
known[config["key"]] = (config["secret"], config["session_token"])  # what the container and IMDS hand out
if config.get("source_key"):
    known[config["source_key"]] = (config["source_secret"], None)
issued = []
objects = {}


def issue():
    """The next credentials STS hands out: the configured ones, or numbered ones with "rotate"."""
    with lock:
        number = len(issued) + 1
        expirations = config.get("expirations") or [EXPIRATION]
        expiration = expirations[min(number, len(expirations)) - 1]
        if config.get("rotate"):
            key, secret, token = f"ASIAISSUED{number:010d}", f"{config['secret']}-{number}", f"{config['session_token']}-{number}"
        else:
            key, secret, token = config["key"], config["secret"], config["session_token"]
        issued.append(key)
        known[key] = (secret, token)
        return key, secret, token, expiration


def credentials_xml(key, secret, token, expiration):
    return f"""<Credentials>
      <SessionToken>{token}</SessionToken>
      <SecretAccessKey>{secret}</SecretAccessKey>
      <Expiration>{expiration}</Expiration>
      <AccessKeyId>{key}</AccessKeyId>
    </Credentials>"""


def sts_error(handler, status, code, message):
    return handler.answer(status, f"""<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
  <Error><Type>Sender</Type><Code>{code}</Code><Message>{message}</Message></Error>
  <RequestId>4b1a7c8e-0b3c-4b0e-9c55-5d8e1f0a3c2d</RequestId>
</ErrorResponse>""", "text/xml")


def signature_problem(handler, raw_body):
    """Recomputes the request's SigV4 signature with botocore; None when it matches."""
    from botocore.auth import SigV4Auth
    from botocore.awsrequest import AWSRequest
    from botocore.credentials import Credentials
    authorization = handler.headers.get("Authorization", "")
    if not authorization.startswith("AWS4-HMAC-SHA256 "):
        return "MissingAuthenticationToken", "Request is missing Authentication Token"
    fields = dict(part.strip().split("=", 1) for part in authorization[len("AWS4-HMAC-SHA256 "):].split(","))
    key, date, region, service, terminator = fields["Credential"].split("/")
    if key not in known:
        return "InvalidClientTokenId", "The security token included in the request is invalid."
    secret, token = known[key]
    if token is not None and handler.headers.get("x-amz-security-token") != token:
        return "InvalidClientTokenId", "The security token included in the request is invalid."
    if service != "sts" or terminator != "aws4_request":
        return "SignatureDoesNotMatch", f"Credential should be scoped to correct service: 'sts', not '{service}'"
    stamp = handler.headers.get("x-amz-date", "")
    if stamp[:8] != date:
        return "SignatureDoesNotMatch", "Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP"
    content_hash = handler.headers.get("x-amz-content-sha256")
    if content_hash is not None and content_hash != hashlib.sha256(raw_body).hexdigest():
        return "SignatureDoesNotMatch", "The request body does not match x-amz-content-sha256"
    signed = fields["SignedHeaders"].split(";")
    if "host" not in signed or "x-amz-date" not in signed:
        return "SignatureDoesNotMatch", "host and x-amz-date must be signed"
    request = AWSRequest(method=handler.command, url=f"http://{handler.headers['Host']}{handler.path}",
                         headers={name: handler.headers[name] for name in signed if handler.headers.get(name) is not None},
                         data=raw_body)
    request.context["timestamp"] = stamp
    signer = SigV4Auth(Credentials(key, secret, token), "sts", region)
    canonical = signer.canonical_request(request)
    expected = signer.signature(signer.string_to_sign(request, canonical), request)
    if expected != fields["Signature"]:
        return "SignatureDoesNotMatch", ("The request signature we calculated does not match the signature you provided. "
                                         "Check your AWS Secret Access Key and signing method.")
    return None


def record(handler, body):
    entry = {"method": handler.command, "path": handler.path, "headers": dict(handler.headers), "body": body}
    with lock, open(os.path.join(folder, "requests"), "a") as log:
        log.write(json.dumps(entry) + "\n")


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def read_body(self):
        length = int(self.headers.get("Content-Length", "0"))
        return self.rfile.read(length).decode() if length else ""

    def answer(self, status, body, content_type="application/json"):
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self):
        if self.path.startswith("/lanes-renew/"):
            return self.s3()
        raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        body = raw.decode()
        record(self, body)
        form = urllib.parse.parse_qs(body)
        if form.get("Action") == ["AssumeRole"] and form.get("Version") == ["2011-06-15"]:
            return self.assume_role(form, raw)
        if form.get("Action") != ["AssumeRoleWithWebIdentity"] or form.get("Version") != ["2011-06-15"]:
            return self.answer(400, "<ErrorResponse><Error><Code>InvalidAction</Code></Error></ErrorResponse>", "text/xml")
        if form.get("WebIdentityToken") != [config["web_token"]] or form.get("RoleArn") != [config["role_arn"]]:
            # A hostile or careless STS that repeats what it was sent.
            return self.answer(400, f"""<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
  <Error><Type>Sender</Type><Code>InvalidIdentityToken</Code>
    <Message>Couldn't verify the token {form.get('WebIdentityToken', [''])[0]}</Message></Error>
  <RequestId>c6104cbe-af31-11e0-8154-cbc7ccf896c7</RequestId>
</ErrorResponse>""", "text/xml")
        session = form.get("RoleSessionName", [""])[0]
        key, secret, token, expiration = issue()
        self.answer(200, f"""<AssumeRoleWithWebIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
  <AssumeRoleWithWebIdentityResult>
    <SubjectFromWebIdentityToken>system:serviceaccount:ci:builder</SubjectFromWebIdentityToken>
    <Audience>sts.amazonaws.com</Audience>
    <AssumedRoleUser>
      <Arn>{config["role_arn"].replace(":role/", ":assumed-role/")}/{session}</Arn>
      <AssumedRoleId>AROACLKWSDQRAOEXAMPLE:{session}</AssumedRoleId>
    </AssumedRoleUser>
    {credentials_xml(key, secret, token, expiration)}
    <SourceIdentity>builder</SourceIdentity>
    <Provider>oidc.eks.eu-west-1.amazonaws.com/id/EXAMPLE</Provider>
  </AssumeRoleWithWebIdentityResult>
  <ResponseMetadata><RequestId>ad4156e9-bce1-11e2-82e6-6b6efEXAMPLE</RequestId></ResponseMetadata>
</AssumeRoleWithWebIdentityResponse>""", "text/xml")

    def assume_role(self, form, raw):
        problem = signature_problem(self, raw)
        if problem:
            return sts_error(self, 403, *problem)
        role = form.get("RoleArn", [""])[0]
        if not role.startswith("arn:aws:iam::"):
            return sts_error(self, 400, "ValidationError", "RoleArn is not an IAM role ARN")
        if config.get("external_id") and form.get("ExternalId") != [config["external_id"]]:
            return sts_error(self, 403, "AccessDenied", f"User is not authorized to perform: sts:AssumeRole on resource: {role}")
        session = form.get("RoleSessionName", [""])[0]
        key, secret, token, expiration = issue()
        self.answer(200, f"""<AssumeRoleResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
  <AssumeRoleResult>
    <AssumedRoleUser>
      <Arn>{role.replace(":iam::", ":sts::").replace(":role/", ":assumed-role/")}/{session}</Arn>
      <AssumedRoleId>AROA3XFRBF535EXAMPLE:{session}</AssumedRoleId>
    </AssumedRoleUser>
    {credentials_xml(key, secret, token, expiration)}
    <PackedPolicySize>6</PackedPolicySize>
  </AssumeRoleResult>
  <ResponseMetadata><RequestId>c6104cbe-af31-11e0-8154-cbc7ccf896c7</RequestId></ResponseMetadata>
</AssumeRoleResponse>""", "text/xml")

    def s3(self):
        """Enough of S3 for a multipart upload; records who signed each request."""
        authorization = self.headers.get("Authorization", "")
        key_id = authorization.split("Credential=", 1)[1].split("/", 1)[0] if "Credential=" in authorization else ""
        parsed = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(parsed.query, keep_blank_values=True)
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length) if length else b""
        with lock, open(os.path.join(folder, "s3requests"), "a") as log:
            log.write(json.dumps({"method": self.command, "path": self.path, "key": key_id,
                                  "token": self.headers.get("x-amz-security-token", "")}) + "\n")
        name = parsed.path
        if self.command == "GET" and "uploads" in query:
            return self.answer(200, "<ListMultipartUploadsResult><IsTruncated>false</IsTruncated></ListMultipartUploadsResult>", "application/xml")
        if self.command == "POST" and "uploads" in query:
            objects[name] = {"parts": {}}
            return self.answer(200, f"<InitiateMultipartUploadResult><UploadId>upload-1</UploadId></InitiateMultipartUploadResult>", "application/xml")
        if self.command == "PUT" and "partNumber" in query:
            digest = hashlib.md5(body).hexdigest()
            objects.setdefault(name, {"parts": {}})["parts"][int(query["partNumber"][0])] = (digest, len(body))
            return self.answer_etag(digest)
        if self.command == "POST" and "uploadId" in query:
            parts = [objects[name]["parts"][number] for number in sorted(objects[name]["parts"])]
            combined = hashlib.md5(b"".join(bytes.fromhex(digest) for digest, _ in parts)).hexdigest() + f"-{len(parts)}"
            objects[name] = {"size": sum(size for _, size in parts), "etag": combined}
            return self.answer(200, f"<CompleteMultipartUploadResult><ETag>\"{combined}\"</ETag></CompleteMultipartUploadResult>", "application/xml")
        if self.command == "PUT":
            objects[name] = {"size": len(body), "etag": hashlib.md5(body).hexdigest()}
            return self.answer_etag(objects[name]["etag"])
        if self.command == "HEAD" and "size" in objects.get(name, {}):
            self.send_response(200)
            self.send_header("Content-Length", str(objects[name]["size"]))
            self.send_header("ETag", f'"{objects[name]["etag"]}"')
            self.end_headers()
            return
        if self.command == "DELETE":
            self.send_response(204)
            self.end_headers()
            return
        self.answer(404, "<Error><Code>NoSuchKey</Code></Error>", "application/xml")

    def answer_etag(self, digest):
        self.send_response(200)
        self.send_header("ETag", f'"{digest}"')
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_HEAD(self):
        self.s3()

    def do_DELETE(self):
        self.s3()

    def do_PUT(self):
        if self.path.startswith("/lanes-renew/"):
            return self.s3()
        body = self.read_body()
        record(self, body)
        if self.path == "/latest/api/token" and config.get("imds_v1_only"):
            return self.answer(405, "", "text/plain")  # an IMDSv1-only service knows no PUT
        if self.path == "/latest/api/token" and self.headers.get("x-aws-ec2-metadata-token-ttl-seconds"):
            return self.answer(200, IMDS_TOKEN, "text/plain")
        self.answer(400, "", "text/plain")

    def do_GET(self):
        if self.path.startswith("/lanes-renew/"):
            return self.s3()
        record(self, "")
        if self.path == "/container/creds":
            if self.headers.get("Authorization") != config["container_token"]:
                return self.answer(403, json.dumps({"code": "AccessDenied", "message": "Unable to authenticate"}))
            return self.answer(200, json.dumps({
                "AccessKeyId": config["key"], "SecretAccessKey": config["secret"], "Token": config["session_token"],
                "Expiration": EXPIRATION, "RoleArn": config["role_arn"]}))
        prefix = "/latest/meta-data/iam/security-credentials/"
        if self.path.startswith(prefix):
            if self.headers.get("x-aws-ec2-metadata-token") != IMDS_TOKEN and not config.get("imds_v1_only"):
                return self.answer(401, "", "text/plain")
            role = self.path[len(prefix):]
            if role == "":
                return self.answer(200, "lanes-builder", "text/plain")
            if role == "lanes-builder":
                return self.answer(200, json.dumps({
                    "Code": "Success", "LastUpdated": "2026-11-25T06:00:00Z", "Type": "AWS-HMAC",
                    "AccessKeyId": config["key"], "SecretAccessKey": config["secret"], "Token": config["session_token"],
                    "Expiration": EXPIRATION}, indent=2))
        self.answer(404, "", "text/plain")

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
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
