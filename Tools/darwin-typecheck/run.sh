#!/bin/sh
# Type-checks the code a Mac compiles and Linux never does: Sources/LanesPlatform (its +Darwin files and
# every `#if canImport(Darwin)` branch) and Sources/LanesDriver, unmodified, for macOS 15 (Package.swift's
# `.macOS(.v15)`), and compiles the C kernel CMD5Lanes for both Mac architectures (on Linux only its
# x86_64 path is ever built). `make typecheck-darwin` runs it; `make test` runs that first.
#
#   Tools/darwin-typecheck/run.sh [SCRATCH]     (SCRATCH defaults to .build/darwin-typecheck)
#
# On Linux the macOS SDK is stood in for by stub/ (see README.md): a C header transcribed from Apple's
# open-source headers plus the pieces of Swift's Darwin overlay lanes uses, and the standard library
# rebuilt for x86_64-apple-macosx15.0 from this toolchain's own textual interfaces, so availability is
# enforced as in Xcode. On macOS the same sources are type-checked against the real SDK (`xcrun`).
# Either way canary.swift, a file of Linux spellings, must be rejected once per planted mistake, so a
# stub that drifted towards glibc cannot pass quietly.
#
# Exit status: 0 clean, 1 a file failed (or the canary passed), 2 the check could not run.
set -u
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
scratch=${1:-$repo/.build/darwin-typecheck}
mkdir -p "$scratch" && scratch=$(cd "$scratch" && pwd)
platform=$(find "$repo/Sources/LanesPlatform" -name '*.swift' | sort)
driver=$(find "$repo/Sources/LanesDriver" -name '*.swift' | sort)
# The mistakes canary.swift plants, one error each.
planted=$(grep -c '// planted:' "$here/canary.swift")
quiet() { grep -v -e SDKSettings -e '^$' || true; }

if [ "$(uname -s)" = Darwin ]; then
  sdk=$(xcrun --sdk macosx --show-sdk-path) || { echo "darwin-typecheck: no macOS SDK (xcrun --show-sdk-path failed)"; exit 2; }
  T=$(uname -m)-apple-macosx15.0
  swiftc() { xcrun --sdk macosx swiftc "$@"; }
  common="-target $T -sdk $sdk -module-cache-path $scratch/mc -swift-version 6"
  darwin_module=""
else
  T=x86_64-apple-macosx15.0
  swift_lib=$(dirname "$(dirname "$(command -v swiftc)")")/lib/swift
  [ -d "$swift_lib/linux" ] || { echo "darwin-typecheck: no Linux standard library interfaces under $swift_lib"; exit 2; }
  res=$scratch/res sdk=$scratch/sdk
  stamp="$(swiftc --version 2>&1 | head -1)"
  if [ ! -f "$res/.made" ] || [ "$(cat "$res/.made")" != "$stamp" ]; then
    rm -rf "$res" "$sdk" "$scratch/mc" && mkdir -p "$res/macosx" "$sdk" && cp -r "$swift_lib/shims" "$res/shims"
    for m in Swift _Concurrency _StringProcessing SwiftOnoneSupport Synchronization; do
      mkdir -p "$res/macosx/$m.swiftmodule"
      sed -e "s/-target x86_64-unknown-linux-gnu/-target $T/g" -e 's/ -target-min-inlining-version min//' \
        "$swift_lib/linux/$m.swiftmodule/x86_64-unknown-linux-gnu.swiftinterface" > "$res/macosx/$m.swiftmodule/x86_64-apple-macos.swiftinterface"
    done
    # @backDeployed needs bodies the interfaces leave out; drop it (availability is what matters here).
    for m in _Concurrency _StringProcessing SwiftOnoneSupport Synchronization; do
      sed -i '/^ *@backDeployed(before:/d' "$res/macosx/$m.swiftmodule/x86_64-apple-macos.swiftinterface"
    done
    python3 - "$res" <<'PY' || exit 2
import sys
res = sys.argv[1]
# A body for the one inlinable declaration whose body the interface omits.
p = f'{res}/macosx/Swift.swiftmodule/x86_64-apple-macos.swiftinterface'; s = open(p).read()
old = '@inline(never) @_semantics("unavailable_code_reached") internal func _diagnoseUnavailableCodeReached() -> Swift.Never\n'
s = s.replace(old, old.rstrip('\n') + ' { Builtin.int_trap() }\n', 1); open(p, 'w').write(s)
# _Concurrency's synthesized Failure typealiases name a macOS 15 type under macOS 10.15 availability.
p = f'{res}/macosx/_Concurrency.swiftmodule/x86_64-apple-macos.swiftinterface'; out = []
for line in open(p).read().split('\n'):
    if '@_implements(_Concurrency.AsyncIteratorProtocol, Failure)' in line or '@_implements(_Concurrency.AsyncSequence, Failure)' in line:
        if out and out[-1].strip().startswith('@available('): out.pop()
        continue
    out.append(line)
open(p, 'w').write('\n'.join(out))
PY
    echo "$stamp" > "$res/.made"
  fi
  common="-target $T -resource-dir $res -sdk $sdk -module-cache-path $scratch/mc -Xfrontend -disable-objc-interop -swift-version 6 -Xcc -fmodule-map-file=$here/stub/module.modulemap -I $here/stub"
  rm -rf "$scratch/stubmod" && mkdir -p "$scratch/stubmod"
  out=$(swiftc -emit-module $common -parse-as-library -enable-library-evolution -module-name Darwin \
    -o "$scratch/stubmod/Darwin.swiftmodule" "$here/stub/DarwinOverlay.swift" 2>&1 | quiet)
  [ -n "$out" ] && { echo "darwin-typecheck: the stub does not build:"; echo "$out"; exit 2; }
  darwin_module="-I $scratch/stubmod"
fi

status=0
rm -rf "$scratch/out" && mkdir -p "$scratch/out"
echo "== LanesPlatform for $T"
# shellcheck disable=SC2086 # word splitting of the flag and file lists is intended
out=$(swiftc -typecheck -wmo $common -parse-as-library -enable-library-evolution -module-name LanesPlatform $darwin_module $platform 2>&1 | quiet)
[ -n "$out" ] && echo "$out"; echo "$out" | grep -q 'error:' && status=1
# shellcheck disable=SC2086
swiftc -emit-module -wmo $common -parse-as-library -enable-library-evolution -Xfrontend -experimental-skip-non-inlinable-function-bodies \
  -module-name LanesPlatform $darwin_module -o "$scratch/out/LanesPlatform.swiftmodule" $platform >/dev/null 2>&1
echo "== LanesDriver for $T"
# shellcheck disable=SC2086
out=$(swiftc -typecheck -wmo $common -module-name LanesDriver $darwin_module -I "$scratch/out" $driver 2>&1 | quiet)
[ -n "$out" ] && echo "$out"; echo "$out" | grep -q 'error:' && status=1
echo "== CMD5Lanes (C) for arm64 and x86_64 macOS 15"
for arch in arm64 x86_64; do
  if [ "$(uname -s)" = Darwin ]; then
    out=$(xcrun --sdk macosx clang -fsyntax-only -Werror -target $arch-apple-macosx15.0 -isysroot "$sdk" \
      -I "$repo/Sources/CMD5Lanes/include" "$repo/Sources/CMD5Lanes/md5_lanes.c" 2>&1)
  else
    # clang's freestanding headers and stub/c (Libc's string.h): no glibc header enters.
    out=$(clang -fsyntax-only -Werror -target $arch-apple-macosx15.0 -ffreestanding -nostdlibinc -isystem "$here/stub/c" \
      -I "$repo/Sources/CMD5Lanes/include" "$repo/Sources/CMD5Lanes/md5_lanes.c" 2>&1)
  fi
  [ -n "$out" ] && { echo "$out"; status=1; }
done
echo "== canary: $planted Linux spellings must be rejected"
# shellcheck disable=SC2086
rejected=$(swiftc -typecheck $common -parse-as-library -module-name Canary $darwin_module -I "$scratch/out" "$here/canary.swift" 2>&1 \
  | grep -c 'canary.swift:[0-9]*:[0-9]*: error:')
if [ "$rejected" -ne "$planted" ]; then
  echo "darwin-typecheck: canary.swift plants $planted Linux spellings, but $rejected were rejected: the stub has drifted from Apple's headers"
  status=1
fi
[ $status = 0 ] && echo "darwin-typecheck: LanesPlatform and LanesDriver type-check for $T" || echo "darwin-typecheck: errors above"
exit $status
