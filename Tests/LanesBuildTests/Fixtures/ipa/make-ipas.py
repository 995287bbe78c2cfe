#!/usr/bin/env python3
"""Writes the .ipa fixtures LanesBuildTests reads (run from this folder: python3 make-ipas.py).

Each is a real zip laid out like Xcode's export: Payload/Brewer.app/ with Info.plist, the executable,
embedded.mobileprovision (the signed Brewer_Staging profile from Example/codesigning) and a widget
extension whose own Info.plist must not be taken for the app's. Fixed timestamps keep the bytes stable.
"""
import os
import plistlib
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "../../../.."))
PROFILE = os.path.join(ROOT, "Example/codesigning/Brewer_Staging.mobileprovision")
STAMP = (2026, 11, 22, 10, 0, 0)


def info(bundle_id, version, build):
    return {
        "CFBundleIdentifier": bundle_id,
        "CFBundleShortVersionString": version,
        "CFBundleVersion": build,
        "CFBundleExecutable": "Brewer",
        "CFBundleName": "Brewer",
        "CFBundlePackageType": "APPL",
        "MinimumOSVersion": "16.0",
    }


def write(name, bundle_id, plist_format, compression, with_profile=True):
    with open(PROFILE, "rb") as handle:
        profile = handle.read()
    app = "Payload/Brewer.app/"
    entries = [
        (app + "Info.plist", plistlib.dumps(info(bundle_id, "2.4.0", "118"), fmt=plist_format)),
        (app + "Brewer", b"\xcf\xfa\xed\xfe" + bytes(range(256)) * 64),
        (app + "PlugIns/BrewerWidget.appex/Info.plist",
         plistlib.dumps(info(bundle_id + ".widget", "2.4.0", "118"), fmt=plist_format)),
    ]
    if with_profile:
        entries.append((app + "embedded.mobileprovision", profile))
    with zipfile.ZipFile(os.path.join(HERE, name), "w") as archive:
        for entry_name in ["Payload/", app]:
            archive.writestr(zipfile.ZipInfo(entry_name, STAMP), b"")
        for entry_name, data in entries:
            item = zipfile.ZipInfo(entry_name, STAMP)
            item.compress_type = compression
            item.external_attr = 0o644 << 16
            archive.writestr(item, data)


write("Brewer-Staging.ipa", "works.sth.brewer.staging", plistlib.FMT_BINARY, zipfile.ZIP_DEFLATED)
write("Brewer-Staging-xml-stored.ipa", "works.sth.brewer.staging", plistlib.FMT_XML, zipfile.ZIP_STORED)
write("Brewer-WrongBundle.ipa", "works.sth.brewer.beta", plistlib.FMT_BINARY, zipfile.ZIP_DEFLATED)
write("Brewer-NoProfile.ipa", "works.sth.brewer.staging", plistlib.FMT_BINARY, zipfile.ZIP_DEFLATED, with_profile=False)
