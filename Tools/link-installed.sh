#!/bin/sh
# link-installed.sh BIN HOME BINDIR: links lanes' executables and libLanes.so for an installation on
# Linux from the objects of a SwiftPM build (BIN, e.g. .build/release), instead of copying SwiftPM's:
#
#   HOME/libLanes.so  self-contained: lanes' modules, the Swift runtime and Foundation (their static
#                     archives, whole), bound to themselves (-Bsymbolic). A compiled Lanefile and
#                     lanes-tool load it and the C libraries only, not the toolchain's 17 Swift
#                     libraries whose symbols the dynamic loader would otherwise look up one by one.
#   HOME/lanes-tool   its own objects (the argument parser, the schedule, the web page...) on libLanes.so.
#   BINDIR/lanes      the driver, with the Swift runtime linked in statically: it loads no Swift library.
#   HOME/runtime      says that libLanes.so carries the Swift runtime, so the driver links Lanefiles
#                     against it alone (LanefileCompiler: swiftc -c, then clang with lld).
#
# Needs the toolchain's clang, lld and static Swift libraries, which Swift's Linux toolchains ship.
set -eu
bin=$1 home=$2 bindir=$3
swiftc=$(command -v "${SWIFTC:-swiftc}")
toolchain=$(dirname "$(dirname "$(readlink -f "$swiftc")")")
clang="$toolchain/bin/clang"
static="$toolchain/lib/swift_static/linux"
arch=$(uname -m)
swiftrt="$toolchain/lib/swift/linux/$arch/swiftrt.o"
for needed in "$clang" "$toolchain/bin/ld.lld" "$static/libswiftCore.a" "$static/libFoundation.a" "$swiftrt"; do
    [ -e "$needed" ] || { echo "link-installed.sh: $needed is missing from the Swift toolchain" >&2; exit 1; }
done

# The Swift runtime and the modules a Lanefile may import beside Lanes (Foundation, Dispatch,
# Observation, RegexBuilder, Synchronization...). FoundationNetworking and FoundationXML would add
# libcurl and libxml2 to every start; a Lanefile uses lanes' own HTTP steps instead.
archives=""
for name in swiftCore swift_Concurrency swift_StringProcessing swift_RegexParser swiftRegexBuilder swiftSynchronization \
            swiftGlibc swift_Builtin_float swiftDispatch dispatch BlocksRuntime swiftObservation swiftDistributed \
            Foundation FoundationEssentials FoundationInternationalization _FoundationICU _FoundationCShims \
            _FoundationCollections CoreFoundation swiftSwiftOnoneSupport; do
    archives="$archives $static/lib$name.a"
done
clibraries=$(pkg-config --libs libgit2 openssl zlib)

objects=$(mktemp -d)
trap 'rm -rf "$objects"' EXIT
tr -d '\r' < "$bin/Lanes.product/Objects.LinkFileList" | sort > "$objects/lanes"
tr -d '\r' < "$bin/lanes-tool.product/Objects.LinkFileList" | sort > "$objects/tool-all"
comm -23 "$objects/tool-all" "$objects/lanes" > "$objects/tool"

# Each swift_static archive carries swift::threading::fatal; taken whole, the first one wins.
"$clang" -shared -fuse-ld=lld -o "$home/libLanes.so.new" "$swiftrt" @"$objects/lanes" \
    -Wl,--whole-archive $archives -Wl,--no-whole-archive -Wl,--allow-multiple-definition \
    -Wl,-Bsymbolic -Wl,--gc-sections -Wl,--build-id -Wl,-soname,libLanes.so \
    $clibraries -lstdc++ -lm -ldl -lpthread
"$clang" -fuse-ld=lld -o "$home/lanes-tool.new" "$swiftrt" @"$objects/tool" -Wl,--defsym,main=LanesCLI_main \
    -L"$home" -Wl,--no-as-needed "$home/libLanes.so.new" -Wl,-rpath,'$ORIGIN' -Wl,--gc-sections -Wl,--build-id \
    $(pkg-config --libs sqlite3) $clibraries -lm
"$swiftc" -static-stdlib -use-ld=lld -o "$bindir/lanes.new" @"$bin/lanes.product/Objects.LinkFileList" \
    -Xlinker --defsym -Xlinker main=LanesDriver_main -Xlinker --gc-sections -Xlinker --build-id
mv "$home/libLanes.so.new" "$home/libLanes.so"
mv "$home/lanes-tool.new" "$home/lanes-tool"
mv "$bindir/lanes.new" "$bindir/lanes"
echo "self-contained" > "$home/runtime"
