#!/bin/sh
# release-formula.sh ARCHIVE: points Formula/lanes.rb at a published release archive (`make dist` on
# macOS, uploaded as a GitHub release asset of tag vVERSION): its url and sha256.
set -eu
archive=$1
name=$(basename "$archive" .tar.gz)                     # lanes-VERSION-macos-ARCH
version=$(echo "$name" | sed 's/^lanes-\([^-]*\)-.*/\1/')
sha=$(openssl dgst -sha256 -r "$archive" | cut -d' ' -f1)
url="https://github.com/lanes/lanes/releases/download/v$version/$name.tar.gz"
formula=$(dirname "$0")/../Formula/lanes.rb
sed -i.bak -e "s|^  # url \".*\"|  url \"$url\"|; s|^  url \".*\"|  url \"$url\"|" \
    -e "s|^  # sha256 \".*\"|  sha256 \"$sha\"|; s|^  sha256 \".*\"|  sha256 \"$sha\"|" "$formula"
rm -f "$formula.bak"
echo "Formula/lanes.rb: $url ($sha)"
