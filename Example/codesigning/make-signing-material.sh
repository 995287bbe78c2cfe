#!/usr/bin/env bash
# make-signing-material.sh: regenerates the code-signing files of the bundled Brewer example.
#
# !!! TEST-ONLY !!! Everything this script makes is fake and public: the team ABCDE12345 /
# "Example Corp", the CA, the certificates, the private key inside the .p12 and its password
# (brewer-3des-pass). Nothing chains to Apple; no device and no store accepts any of it. It exists
# so that lanes' demo and tests can import a certificate, check and install profiles and rewrite
# signing settings on a machine without Apple's tools. Never use it to sign anything real.
#
# Writes, next to this script:
#   test-root.crt                      self-signed test root CA (the --trust anchor for the profiles)
#   ios_distribution.p12               "iPhone Distribution: Example Corp (ABCDE12345)" + its key,
#                                      issued by the test root; 3DES bags and SHA-1 MAC (what
#                                      Keychain Access reads and writes), password brewer-3des-pass
#   Brewer_Staging.mobileprovision     ad-hoc,    works.sth.brewer.staging, two test devices
#   Brewer_Production.mobileprovision  ad-hoc,    works.sth.brewer (the QA build), two test devices
#   Brewer_Release.mobileprovision     app-store, works.sth.brewer, no devices
# Each profile is an Apple-style XML plist wrapped in CMS SignedData by a profile-signing
# certificate issued by the test root, lists the distribution certificate, and expires in 2040.
#
# Certificates have fixed serials and dates, profiles fixed UUIDs and dates. Keys are new on every
# run and are thrown away (except the distribution key, which lives in the .p12), so a run changes
# every fingerprint: regenerate the whole set at once, then commit it.
#
# Requires OpenSSL >= 3.0 and GNU coreutils. Usage: Example/codesigning/make-signing-material.sh
set -euo pipefail

OPENSSL=${OPENSSL:-openssl}
destination=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

TEAM=ABCDE12345
ORGANIZATION="Example Corp"
DISTRIBUTION_NAME="iPhone Distribution: ${ORGANIZATION} (${TEAM})"
# Published on purpose (the demo's CERTIFICATE_PASSWORD); handed to OpenSSL through the environment.
export P12_PASSWORD=brewer-3des-pass

PROFILES_CREATED=2025-01-01T00:00:00Z
PROFILES_EXPIRE=2040-01-01T00:00:00Z

# ---------------------------------------------------------------- a minimal CA for `openssl ca`
# `openssl ca` (unlike `req -x509`/`x509 -req` in OpenSSL 3.0) takes fixed start and end dates.
mkdir newcerts
cat > ca.cnf <<'CNF'
[ ca ]
default_ca = test_ca
[ test_ca ]
database        = index.txt
new_certs_dir   = newcerts
serial          = serial
default_md      = sha256
policy          = any_name
preserve        = yes              # keep the requested RDN order (Apple's: UID, CN, OU, O, C)
unique_subject  = no
email_in_dn     = no
copy_extensions = none
[ any_name ]
userId                 = optional
commonName             = supplied
organizationalUnitName = optional
organizationName       = optional
countryName            = optional
[ req ]
distinguished_name = unused
string_mask        = utf8only
prompt             = no
[ unused ]
CN = unused
[ root_ca ]
basicConstraints       = critical, CA:TRUE
keyUsage               = critical, keyCertSign, cRLSign
subjectKeyIdentifier   = hash
authorityKeyIdentifier = keyid:always
# The extensions of Apple's "iPhone Distribution" certificates, including their marker OID.
[ iphone_distribution ]
basicConstraints         = critical, CA:FALSE
keyUsage                 = critical, digitalSignature
extendedKeyUsage         = critical, codeSigning
subjectKeyIdentifier     = hash
authorityKeyIdentifier   = keyid:always
certificatePolicies      = 1.2.840.113635.100.5.1
1.2.840.113635.100.6.1.4 = critical, DER:05:00
# Apple's provisioning-profile signer carries this marker OID.
[ profile_signing ]
basicConstraints           = critical, CA:FALSE
keyUsage                   = critical, digitalSignature
subjectKeyIdentifier       = hash
authorityKeyIdentifier     = keyid:always
1.2.840.113635.100.6.2.2.1 = DER:05:00
CNF

# certificate NAME SUBJECT EXTENSIONS SERIAL NOT_BEFORE NOT_AFTER [ISSUER]: NAME.key and NAME.crt
certificate() {
  local name=$1 subject=$2 extensions=$3 serial=$4 not_before=$5 not_after=$6 issuer=${7:-}
  "$OPENSSL" genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$name.key" 2>/dev/null
  "$OPENSSL" req -new -config ca.cnf -key "$name.key" -subj "$subject" -out "$name.csr"
  : > index.txt
  echo "$serial" > serial
  local signer=(-selfsign -keyfile "$name.key")
  [[ -n $issuer ]] && signer=(-cert "$issuer.crt" -keyfile "$issuer.key")
  "$OPENSSL" ca -batch -notext -config ca.cnf "${signer[@]}" -extensions "$extensions" \
    -startdate "$not_before" -enddate "$not_after" -in "$name.csr" -out "$name.crt" 2>/dev/null
}

certificate test-root "/CN=Brewer Example TEST-ONLY Root CA/O=Example Test PKI/C=US" \
  root_ca 1000 20250101000000Z 20450101000000Z
certificate profile-signing "/CN=Brewer Example TEST-ONLY Provisioning Profile Signing/O=Example Test PKI/C=US" \
  profile_signing 1001 20250101000000Z 20420101000000Z test-root
certificate distribution "/UID=${TEAM}/CN=${DISTRIBUTION_NAME}/OU=${TEAM}/O=${ORGANIZATION}/C=US" \
  iphone_distribution 2001 20250101000000Z 20410101000000Z test-root

# ---------------------------------------------------------------- the .p12
# 3DES for both the key and the certificate bags and a SHA-1 MAC: macOS `security import` and
# Keychain Access accept it, and OpenSSL 3 reads it without the legacy provider.
"$OPENSSL" pkcs12 -export -name "$DISTRIBUTION_NAME" -inkey distribution.key -in distribution.crt \
  -keypbe PBE-SHA1-3DES -certpbe PBE-SHA1-3DES -macalg sha1 -passout env:P12_PASSWORD \
  -out ios_distribution.p12

# ---------------------------------------------------------------- the provisioning profiles
distribution_der=$("$OPENSSL" x509 -in distribution.crt -outform DER | "$OPENSSL" base64 -A)
time_to_live=$(( ($(date -ud "$PROFILES_EXPIRE" +%s) - $(date -ud "$PROFILES_CREATED" +%s)) / 86400 ))

# profile NAME UUID APP_ID_NAME APP_ID KIND: NAME.plist in Apple's key order and layout;
# KIND "ad-hoc" lists test devices, "app-store" lists none and may report to TestFlight.
profile() {
  local name=$1 uuid=$2 app_id_name=$3 app_id=$4 kind=$5
  cat <<PLIST
<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>AppIDName</key>
	<string>${app_id_name}</string>
	<key>ApplicationIdentifierPrefix</key>
	<array>
	<string>${TEAM}</string>
	</array>
	<key>CreationDate</key>
	<date>${PROFILES_CREATED}</date>
	<key>Platform</key>
	<array>
		<string>iOS</string>
	</array>
	<key>IsXcodeManaged</key>
	<false/>
	<key>DeveloperCertificates</key>
	<array>
		<data>${distribution_der}</data>
	</array>
	<key>Entitlements</key>
	<dict>
PLIST
  if [[ $kind == app-store ]]; then
    printf '\t\t<key>beta-reports-active</key>\n\t\t<true/>\n'
  fi
  cat <<PLIST
		<key>application-identifier</key>
		<string>${TEAM}.${app_id}</string>
		<key>keychain-access-groups</key>
		<array>
			<string>${TEAM}.*</string>
		</array>
		<key>get-task-allow</key>
		<false/>
		<key>com.apple.developer.team-identifier</key>
		<string>${TEAM}</string>
	</dict>
	<key>ExpirationDate</key>
	<date>${PROFILES_EXPIRE}</date>
	<key>Name</key>
	<string>${name}</string>
PLIST
  if [[ $kind == ad-hoc ]]; then
    printf '\t<key>ProvisionedDevices</key>\n\t<array>\n'
    printf '\t\t<string>%s</string>\n' 00008030-001A2B3C4D5E6F70 a1b2c3d4e5f60718293a4b5c6d7e8f9012345678
    printf '\t</array>\n'
  fi
  cat <<PLIST
	<key>TeamIdentifier</key>
	<array>
		<string>${TEAM}</string>
	</array>
	<key>TeamName</key>
	<string>${ORGANIZATION}</string>
	<key>TimeToLive</key>
	<integer>${time_to_live}</integer>
	<key>UUID</key>
	<string>${uuid}</string>
	<key>Version</key>
	<integer>1</integer>
</dict>
</plist>
PLIST
}

# sign NAME: NAME.plist -> NAME.mobileprovision, CMS SignedData with the content attached.
# -binary keeps the plist's bytes as they are (no LF -> CRLF); the chain up to the root is included.
sign() {
  "$OPENSSL" cms -sign -nodetach -binary -outform DER -md sha256 \
    -signer profile-signing.crt -inkey profile-signing.key -certfile test-root.crt \
    -in "$1.plist" -out "$1.mobileprovision"
}

profile Brewer_Staging 7a1d0e4c-2b7e-4e8f-9c11-5d3a2b1c0f42 "Brewer Staging" works.sth.brewer.staging ad-hoc \
  > Brewer_Staging.plist
profile Brewer_Production 491d906a-4163-4e59-99bc-bbf2f0837d42 "Brewer" works.sth.brewer ad-hoc \
  > Brewer_Production.plist
profile Brewer_Release 299b5d0b-16a0-4e28-8abd-6bac500095e8 "Brewer" works.sth.brewer app-store \
  > Brewer_Release.plist
for name in Brewer_Staging Brewer_Production Brewer_Release; do sign "$name"; done

# ---------------------------------------------------------------- publish the set
# Everything was made in the scratch folder; copy it in, each file replaced by a rename, so a
# failure above leaves the previous set untouched.
for file in test-root.crt ios_distribution.p12 Brewer_Staging.mobileprovision \
            Brewer_Production.mobileprovision Brewer_Release.mobileprovision; do
  cp "$file" "$destination/.$file.new"
  mv -f "$destination/.$file.new" "$destination/$file"
done
echo "TEST-ONLY signing material written to $destination"
