"""Certificate and profile creation for fake_app_store_connect.py (fastlane match's `readonly:false`).

Kept apart from the server's other routes. A scenario turns it on with {"signingPortal": {"team": "ABCDE12345",
"teamName": "Example Corp"}} in POST /_reset. Then:
  POST   /v1/certificates   signs the request's CSR with a throw-away "WWDR" CA, as Apple issues certificates
  POST   /v1/profiles       answers a CMS-signed profile listing the chosen certificates (and devices)
  DELETE /v1/profiles/{id}  removes a profile (fastlane's renewal deletes the old one first)
  GET    /v1/profiles       lists profiles by filter[profileType] (match_nuke)
  DELETE /v1/certificates/{id}  revokes a certificate (match_nuke)
Requests and answers still go through the server's OpenAPI validation. What happened is in GET /_log under
"createdProfiles", "createdCertificates", "deletedProfiles" and "revokedCertificates".
"""
import base64, datetime, plistlib, uuid

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.hazmat.primitives.serialization import pkcs7
from cryptography.x509.oid import NameOID

APPLE = "https://api.appstoreconnect.apple.com"
NOW = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)


def _self_signed(common_name):
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])
    certificate = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
                   .serial_number(x509.random_serial_number()).not_valid_before(NOW - datetime.timedelta(days=1))
                   .not_valid_after(NOW + datetime.timedelta(days=3650))
                   .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True).sign(key, hashes.SHA256()))
    return key, certificate


CA_KEY, CA_CERT = _self_signed("Fake Apple Worldwide Developer Relations Certification Authority")

# What Apple puts in a certificate's common name, by certificate type.
TITLES = {"DISTRIBUTION": "Apple Distribution", "DEVELOPMENT": "Apple Development", "IOS_DISTRIBUTION": "iPhone Distribution",
          "IOS_DEVELOPMENT": "iPhone Developer", "DEVELOPER_ID_APPLICATION": "Developer ID Application",
          "MAC_INSTALLER_DISTRIBUTION": "3rd Party Mac Developer Installer", "MAC_APP_DISTRIBUTION": "3rd Party Mac Developer Application"}
WITH_DEVICES = ("DEVELOPMENT", "ADHOC")


def reset(state, config):
    state["signingPortal"] = config.get("signingPortal")
    state["createdCertificates"] = []
    state["deletedProfiles"] = []
    state["revokedCertificates"] = []


def log_keys():
    return ("createdCertificates", "deletedProfiles", "revokedCertificates")


def handler_query(handler):
    import urllib.parse
    return urllib.parse.parse_qs(urllib.parse.urlsplit(handler.path).query, keep_blank_values=True)


def route(handler, state, method, path, body):
    """Answers the request and returns True when it is one of this module's; False leaves it to the server."""
    portal = state.get("signingPortal")
    if not portal:
        return False
    parts = path.strip("/").split("/")
    if method == "POST" and path == "/v1/certificates":
        attributes = body["data"]["attributes"]
        request = x509.load_pem_x509_csr(attributes["csrContent"].encode())
        kind = attributes["certificateType"]
        item_id = handler_new_id(state, "CERT")
        subject = x509.Name([
            x509.NameAttribute(NameOID.USER_ID, portal["team"]),
            x509.NameAttribute(NameOID.COMMON_NAME, f"{TITLES.get(kind, kind)}: {portal['teamName']} ({portal['team']})"),
            x509.NameAttribute(NameOID.ORGANIZATIONAL_UNIT_NAME, portal["team"]),
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, portal["teamName"]),
            x509.NameAttribute(NameOID.COUNTRY_NAME, "US")])
        certificate = (x509.CertificateBuilder().subject_name(subject).issuer_name(CA_CERT.subject).public_key(request.public_key())
                       .serial_number(x509.random_serial_number()).not_valid_before(NOW - datetime.timedelta(days=1))
                       .not_valid_after(NOW + datetime.timedelta(days=365))
                       .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.CODE_SIGNING]), critical=True)
                       .sign(CA_KEY, hashes.SHA256()))
        der = certificate.public_bytes(serialization.Encoding.DER)
        item = {"id": item_id, "attributes": {"name": TITLES.get(kind, kind), "certificateType": kind, "displayName": portal["teamName"],
                                              "serialNumber": format(certificate.serial_number, "X"), "platform": "IOS",
                                              "expirationDate": certificate.not_valid_after_utc.strftime("%Y-%m-%dT%H:%M:%S.000+00:00"),
                                              "certificateContent": base64.b64encode(der).decode()}}
        state["certificates"].append(item)
        state["createdCertificates"].append({"id": item_id, "type": kind})
        handler.send(201, {"data": handler.resource("certificates", item), "links": {"self": f"{APPLE}{path}"}})
        return True
    if method == "POST" and path == "/v1/profiles":
        data = body["data"]
        bundle = next(b for b in state["bundleIds"] if b["id"] == data["relationships"]["bundleId"]["data"]["id"])
        certificate_ids = [c["id"] for c in data["relationships"]["certificates"]["data"]]
        device_ids = [d["id"] for d in (data["relationships"].get("devices") or {}).get("data", [])]
        kind = data["attributes"]["profileType"]
        content = _profile(portal, data["attributes"]["name"], kind, bundle["attributes"]["identifier"],
                           [base64.b64decode(c["attributes"]["certificateContent"]) for c in state["certificates"] if c["id"] in certificate_ids],
                           [d["attributes"]["udid"] for d in state["devices"] if d["id"] in device_ids])
        profile = {"id": handler_new_id(state, "PROFILE"), "bundle": bundle["id"],
                   "attributes": {"name": data["attributes"]["name"], "profileType": kind, "profileState": "ACTIVE",
                                  "profileContent": base64.b64encode(content["bytes"]).decode(), "uuid": content["uuid"],
                                  "expirationDate": "2035-01-01T00:00:00.000+00:00"}}
        state["profiles"].append(profile)
        state["createdProfiles"].append({"name": data["attributes"]["name"], "type": kind, "certificates": certificate_ids,
                                         "devices": device_ids, "uuid": content["uuid"]})
        handler.send(201, {"data": handler.resource("profiles", profile), "links": {"self": f"{APPLE}{path}"}})
        return True
    if method == "GET" and path == "/v1/profiles":
        # match_nuke: every profile of the types asked for, of every app.
        types = (handler_query(handler).get("filter[profileType]", [""])[0]).split(",")
        items = [handler.resource("profiles", p) for p in state["profiles"] if p["attributes"].get("profileType") in types]
        handler.send(200, handler.page(path, handler_query(handler), items))
        return True
    if method == "DELETE" and parts[:2] == ["v1", "certificates"] and len(parts) == 3:
        # Apple revokes the certificate.
        if not any(c["id"] == parts[2] for c in state["certificates"]):
            handler.apple_error(404, "NOT_FOUND", "The specified resource does not exist", f"There is no resource of type 'certificates' with id '{parts[2]}'")
            return True
        state["certificates"] = [c for c in state["certificates"] if c["id"] != parts[2]]
        state["revokedCertificates"].append(parts[2])
        handler.send(204)
        return True
    if method == "DELETE" and parts[:2] == ["v1", "profiles"] and len(parts) == 3:
        state["profiles"] = [p for p in state["profiles"] if p["id"] != parts[2]]
        state["deletedProfiles"].append(parts[2])
        handler.send(204)
        return True
    return False


def handler_new_id(state, prefix):
    state["next"] += 1
    return f"{prefix}{state['next']:06d}"


def _profile(portal, name, kind, identifier, certificates, devices):
    team = portal["team"]
    profile_uuid = str(uuid.uuid4()).upper()
    payload = {
        "AppIDName": identifier, "ApplicationIdentifierPrefix": [team], "CreationDate": NOW.replace(tzinfo=None),
        "Platform": ["iOS"], "IsXcodeManaged": False, "DeveloperCertificates": certificates,
        "Entitlements": {"application-identifier": f"{team}.{identifier}", "com.apple.developer.team-identifier": team,
                         "get-task-allow": "DEVELOPMENT" in kind, "keychain-access-groups": [f"{team}.*"]},
        "ExpirationDate": (NOW + datetime.timedelta(days=365)).replace(tzinfo=None), "Name": name,
        "TeamIdentifier": [team], "TeamName": portal["teamName"], "TimeToLive": 365, "UUID": profile_uuid, "Version": 1,
    }
    if any(word in kind for word in WITH_DEVICES):
        payload["ProvisionedDevices"] = devices
    signed = (pkcs7.PKCS7SignatureBuilder().set_data(plistlib.dumps(payload)).add_signer(CA_CERT, CA_KEY, hashes.SHA256())
              .sign(serialization.Encoding.DER, [pkcs7.PKCS7Options.Binary]))
    return {"bytes": signed, "uuid": profile_uuid}
