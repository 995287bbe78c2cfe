"""Checks HTTP requests against a Google API discovery document (../shared/googleplay/*.json): the
method and path (the API's own paths and its media upload paths), path parameters (required, pattern),
query parameters (declared by the method or the API, typed, enums), the JSON body against the schema
the method names (unknown fields, types, formats, enums), and the media upload protocol (uploadType,
X-Upload-Content-Type among the accepted types, X-Upload-Content-Length within mediaUpload.maxSize).
Answers are checked against the method's response schema too. Used by fake_google_play.py and
fake_delivery_services.py; raises Invalid with the reason."""
import json, re


class Invalid(Exception):
    pass


def _regex(template):
    # {+name} may span slashes, {name} may not; everything else is literal (":commit" included).
    out, names = "", []
    for piece in re.split(r"(\{\+?[A-Za-z_.]+\})", template):
        if piece.startswith("{"):
            plus = piece.startswith("{+")
            names.append(piece.strip("{}+"))
            out += "(.+)" if plus else "([^/]+)"
        else:
            out += re.escape(piece)
    return re.compile("^" + out + "$"), names


class Discovery:
    def __init__(self, path):
        with open(path) as handle:
            self.doc = json.load(handle)
        self.schemas = self.doc["schemas"]
        self.global_parameters = self.doc.get("parameters", {})
        self.routes = []  # (http method, regex, names, method description, kind)
        self._walk(self.doc.get("resources", {}))

    def _walk(self, resources):
        for resource in resources.values():
            for method in resource.get("methods", {}).values():
                service = "/" + self.doc.get("servicePath", "")
                template = service + method["path"]
                regex, names = _regex(template)
                self.routes.append((method["httpMethod"], regex, names, method, "api"))
                for protocol, spec in method.get("mediaUpload", {}).get("protocols", {}).items():
                    regex, names = _regex(spec["path"])
                    self.routes.append((method["httpMethod"], regex, names, method, protocol))
            self._walk(resource.get("resources", {}))

    def match(self, http_method, path):
        """(method, kind, path parameters) of the route `path` takes; kind is api, simple or resumable.
        A `{+name}` matches several methods' paths: the one whose parameter patterns hold is taken."""
        found = []
        for verb, regex, names, method, kind in self.routes:
            hit = regex.match(path)
            if not hit or verb != http_method:
                continue
            params = dict(zip(names, hit.groups()))
            specs = method.get("parameters", {})
            if all(re.match(specs[name]["pattern"], value) for name, value in params.items() if "pattern" in specs.get(name, {})):
                found.append((method, kind, params))
        if not found:
            raise Invalid(f"{http_method} {path} is no method of {self.doc['name']} {self.doc['version']}")
        # Media paths first: their API twin never takes a body upload.
        found.sort(key=lambda item: item[1] == "api")
        return found[0]

    def check_request(self, http_method, path, query, headers, body, expect_media=None):
        """Validates one request; returns (method, kind, path parameters). `query` maps names to lists."""
        method, kind, params = self.match(http_method, path)
        declared = method.get("parameters", {})
        for name, spec in declared.items():
            if spec["location"] == "path":
                value = params.get(name.split(".")[-1], params.get(name))
                if spec.get("required") and not value:
                    raise Invalid(f"{method['id']}: path parameter {name} is missing")
                if value is not None and "pattern" in spec and not re.match(spec["pattern"], value):
                    raise Invalid(f"{method['id']}: path parameter {name}={value} does not match {spec['pattern']}")
            elif spec.get("required") and name not in query:
                raise Invalid(f"{method['id']}: required query parameter {name} is missing")
        for name, values in query.items():
            spec = declared.get(name) if declared.get(name, {}).get("location") == "query" else self.global_parameters.get(name)
            if spec is None:
                raise Invalid(f"{method['id']}: query parameter {name} is not declared")
            for value in values:
                self._scalar(value, spec, f"{method['id']} ?{name}")
        upload_type = query.get("uploadType", [None])[0]
        if kind == "api":
            if upload_type is not None:
                raise Invalid(f"{method['id']}: uploadType={upload_type} on a path that takes no media")
            if "request" in method:
                if not body:
                    raise Invalid(f"{method['id']}: a {method['request']['$ref']} body is required")
                try:
                    document = json.loads(body)
                except ValueError:
                    raise Invalid(f"{method['id']}: the body is not JSON")
                self.validate(document, method["request"], method["id"] + " body")
            elif body:
                raise Invalid(f"{method['id']}: takes no body, got {len(body)} bytes")
        else:
            media = method["mediaUpload"]
            if kind == "resumable":
                if upload_type != "resumable":
                    raise Invalid(f"{method['id']}: a resumable session starts with uploadType=resumable, not {upload_type}")
                content_type = headers.get("X-Upload-Content-Type", "")
                length = headers.get("X-Upload-Content-Length")
                if length is None or not length.isdigit():
                    raise Invalid(f"{method['id']}: X-Upload-Content-Length is missing")
                if "maxSize" in media and int(length) > int(media["maxSize"]):
                    raise Invalid(f"{method['id']}: {length} bytes is over mediaUpload.maxSize {media['maxSize']}")
            else:
                if upload_type not in ("media", "multipart") and headers.get("X-Goog-Upload-Protocol") != "raw":
                    raise Invalid(f"{method['id']}: a simple upload says uploadType=media (or X-Goog-Upload-Protocol: raw)")
                content_type = headers.get("Content-Type", "")
                if "maxSize" in media and len(body) > int(media["maxSize"]):
                    raise Invalid(f"{method['id']}: {len(body)} bytes is over mediaUpload.maxSize {media['maxSize']}")
            if not self._accepts(media["accept"], content_type):
                raise Invalid(f"{method['id']}: content type {content_type!r} is not among {media['accept']}")
        return method, kind, params

    @staticmethod
    def _accepts(accepted, content_type):
        base = content_type.split(";")[0].strip()
        for pattern in accepted:
            if pattern == "*/*" or pattern == base or (pattern.endswith("/*") and base.startswith(pattern[:-1])):
                return True
        return False

    def check_response(self, method, document):
        if "response" in method and document is not None:
            self.validate(document, method["response"], method["id"] + " answer")

    def _scalar(self, text, spec, where):
        kind = spec.get("type")
        if kind == "boolean" and text not in ("true", "false"):
            raise Invalid(f"{where}: {text!r} is not a boolean")
        if kind == "integer" and not re.fullmatch(r"-?\d+", text):
            raise Invalid(f"{where}: {text!r} is not an integer")
        if "enum" in spec and text not in spec["enum"]:
            raise Invalid(f"{where}: {text!r} is not one of {spec['enum']}")

    def validate(self, value, schema, where):
        if "$ref" in schema:
            return self.validate(value, self.schemas[schema["$ref"]], where)
        kind = schema.get("type")
        if kind == "object":
            if not isinstance(value, dict):
                raise Invalid(f"{where}: expected an object, got {type(value).__name__}")
            properties = schema.get("properties", {})
            extra = schema.get("additionalProperties")
            for key, item in value.items():
                if key in properties:
                    self.validate(item, properties[key], f"{where}.{key}")
                elif extra is not None:
                    self.validate(item, extra, f"{where}.{key}")
                else:
                    raise Invalid(f"{where}: field {key!r} is not in the schema ({sorted(properties)})")
        elif kind == "array":
            if not isinstance(value, list):
                raise Invalid(f"{where}: expected an array")
            for index, item in enumerate(value):
                self.validate(item, schema.get("items", {}), f"{where}[{index}]")
        elif kind == "string":
            if not isinstance(value, str):
                raise Invalid(f"{where}: expected a string, got {value!r}")
            if schema.get("format") in ("int64", "uint64") and not re.fullmatch(r"-?\d+", value):
                raise Invalid(f"{where}: {value!r} is not an int64 string")
            if "enum" in schema and value not in schema["enum"]:
                raise Invalid(f"{where}: {value!r} is not one of {schema['enum']}")
        elif kind == "integer":
            if not isinstance(value, int) or isinstance(value, bool):
                raise Invalid(f"{where}: expected an integer, got {value!r}")
            if schema.get("format") == "int32" and not -2**31 <= value < 2**31:
                raise Invalid(f"{where}: {value} does not fit int32")
        elif kind == "number":
            if not isinstance(value, (int, float)) or isinstance(value, bool):
                raise Invalid(f"{where}: expected a number, got {value!r}")
        elif kind == "boolean":
            if not isinstance(value, bool):
                raise Invalid(f"{where}: expected a boolean, got {value!r}")
        elif kind == "any" or kind is None:
            pass
