"""Loopback stand-ins for the AWS services that hand out credentials, answering in their real
formats (botocore's credential providers read exactly these):

- STS AssumeRoleWithWebIdentity: POST / with a form body; the AssumeRoleWithWebIdentityResponse XML,
  or an ErrorResponse (InvalidIdentityToken) for another token;
- container credentials (ECS, EKS Pod Identity): GET /container/creds with the Authorization token;
- IMDSv2: PUT /latest/api/token (x-aws-ec2-metadata-token-ttl-seconds), then
  GET /latest/meta-data/iam/security-credentials/[ROLE] with x-aws-ec2-metadata-token.

Usage: aws_credential_services.py FOLDER PARENT_PID
Reads FOLDER/config.json: {"web_token", "container_token", "role_arn", "key", "secret", "session_token"}.
Writes FOLDER/port once listening; appends each request to FOLDER/requests as JSON lines
{"method", "path", "headers", "body"}. Exits when PARENT_PID is gone (checked every second).
"""
import http.server
import json
import os
import sys
import threading
import time
import urllib.parse

folder, parent = sys.argv[1], int(sys.argv[2])
with open(os.path.join(folder, "config.json")) as source:
    config = json.load(source)
lock = threading.Lock()
IMDS_TOKEN = "AQAEAHlanes-imds-session-token=="
EXPIRATION = "2030-01-01T00:00:00Z"


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
        body = self.read_body()
        record(self, body)
        form = urllib.parse.parse_qs(body)
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
        self.answer(200, f"""<AssumeRoleWithWebIdentityResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/">
  <AssumeRoleWithWebIdentityResult>
    <SubjectFromWebIdentityToken>system:serviceaccount:ci:builder</SubjectFromWebIdentityToken>
    <Audience>sts.amazonaws.com</Audience>
    <AssumedRoleUser>
      <Arn>{config["role_arn"].replace(":role/", ":assumed-role/")}/{session}</Arn>
      <AssumedRoleId>AROACLKWSDQRAOEXAMPLE:{session}</AssumedRoleId>
    </AssumedRoleUser>
    <Credentials>
      <SessionToken>{config["session_token"]}</SessionToken>
      <SecretAccessKey>{config["secret"]}</SecretAccessKey>
      <Expiration>{EXPIRATION}</Expiration>
      <AccessKeyId>{config["key"]}</AccessKeyId>
    </Credentials>
    <SourceIdentity>builder</SourceIdentity>
    <Provider>oidc.eks.eu-west-1.amazonaws.com/id/EXAMPLE</Provider>
  </AssumeRoleWithWebIdentityResult>
  <ResponseMetadata><RequestId>ad4156e9-bce1-11e2-82e6-6b6efEXAMPLE</RequestId></ResponseMetadata>
</AssumeRoleWithWebIdentityResponse>""", "text/xml")

    def do_PUT(self):
        body = self.read_body()
        record(self, body)
        if self.path == "/latest/api/token" and self.headers.get("x-aws-ec2-metadata-token-ttl-seconds"):
            return self.answer(200, IMDS_TOKEN, "text/plain")
        self.answer(400, "", "text/plain")

    def do_GET(self):
        record(self, "")
        if self.path == "/container/creds":
            if self.headers.get("Authorization") != config["container_token"]:
                return self.answer(403, json.dumps({"code": "AccessDenied", "message": "Unable to authenticate"}))
            return self.answer(200, json.dumps({
                "AccessKeyId": config["key"], "SecretAccessKey": config["secret"], "Token": config["session_token"],
                "Expiration": EXPIRATION, "RoleArn": config["role_arn"]}))
        prefix = "/latest/meta-data/iam/security-credentials/"
        if self.path.startswith(prefix):
            if self.headers.get("x-aws-ec2-metadata-token") != IMDS_TOKEN:
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
