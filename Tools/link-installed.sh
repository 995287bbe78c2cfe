#!/bin/sh
# link-installed.sh BIN HOME BINDIR: links lanes' executables and libLanes.so for an installation on
# Linux from the objects of a SwiftPM build (BIN, e.g. .build/release), instead of copying SwiftPM's:
#
#   HOME/libLanes.so  self-contained: lanes' modules, the Swift runtime and Foundation (their static
#                     archives, whole) and libstdc++, bound to themselves (-Bsymbolic). A compiled
#                     Lanefile and lanes-tool load it and the C library only, not the toolchain's 17
#                     Swift libraries whose symbols the dynamic loader would otherwise look up one by
#                     one; libgit2 and OpenSSL are loaded on first use (below).
#   HOME/lanes-tool   its own objects (the argument parser, the schedule, the web page...) on libLanes.so.
#   BINDIR/lanes      the driver, with the Swift runtime and libstdc++ linked in statically: it loads no
#                     library but the C library's.
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
clibraries=$(pkg-config --libs zlib)

objects=$(mktemp -d)
trap 'rm -rf "$objects"' EXIT
tr -d '\r' < "$bin/Lanes.product/Objects.LinkFileList" | sort > "$objects/lanes"
tr -d '\r' < "$bin/lanes-tool.product/Objects.LinkFileList" | sort > "$objects/tool-all"
comm -23 "$objects/tool-all" "$objects/lanes" > "$objects/tool"

# libgit2 and OpenSSL are loaded when lanes first calls them, not at every start: Debian's libgit2
# links krb5, mbedTLS and libssh2 (13 shared objects, 5,700 symbols the loader would bind before
# main: 30% of a warm `lanes list`), and libcrypto alone binds 4,000. Each function of theirs lanes
# calls becomes a jump through a slot that first points at a resolver, which dlopens the library once
# and puts the real address in the slot. The functions are the objects' own undefined symbols that
# the library defines; on another machine than x86-64, or when one of them is data, the library is
# linked as usual.
xargs nm -u --format=just-symbols < "$objects/lanes" 2>/dev/null | sort -u > "$objects/undefined"
eagerlibraries=""
lazyobjects=""
lazy() {  # lazy NAME PKG-CONFIG-MODULE LIBRARY-FILE-NAME
    name=$1 library="$(pkg-config --variable=libdir "$2")/$3"
    soname=$(readelf -d "$library" 2>/dev/null | sed -n 's/.*SONAME.*\[\(.*\)\].*/\1/p')
    nm -D --defined-only "$library" 2>/dev/null | awk '{ sub(/@.*/, "", $3); print $3, $2 }' | sort > "$objects/$name-defined"
    join "$objects/$name-defined" "$objects/undefined" > "$objects/$name-used"
    if [ "$arch" != x86_64 ] || [ -z "$soname" ] || [ ! -s "$objects/$name-used" ] || ! awk '$2 != "T" { bad = 1 } END { exit bad }' "$objects/$name-used"; then
        eagerlibraries="$eagerlibraries $(pkg-config --libs "$2")"
        return
    fi
    awk -v prefix="lanes_lazy_$name" -v soname="$soname" -v out="$objects/$name-lazy" '
        { names[NR - 1] = $1 }
        END {
            count = NR
            asm = out ".S"
            print "    .text" > asm
            for (i = 0; i < count; i++) {
                printf "    .globl %s\n    .type %s, @function\n    .p2align 4\n%s:\n    jmp *%s_slots+%d(%%rip)\n    .size %s, .-%s\n", names[i], names[i], names[i], prefix, 8 * i, names[i], names[i] > asm
                printf "%s_stub_%d:\n    movl $%d, %%r11d\n    jmp %s_bind\n", prefix, i, i, prefix > asm
            }
            # Saves the argument registers (and %al, the vector count of a variadic call), asks
            # for the address, restores them and jumps there as the caller would have.
            printf "%s_bind:\n    pushq %%rbp\n    movq %%rsp, %%rbp\n    subq $192, %%rsp\n", prefix > asm
            split("rdi rsi rdx rcx r8 r9 rax", gprs, " ")
            for (i = 1; i <= 7; i++) printf "    movq %%%s, %d(%%rsp)\n", gprs[i], 8 * (i - 1) > asm
            for (i = 0; i < 8; i++) printf "    movdqu %%xmm%d, %d(%%rsp)\n", i, 64 + 16 * i > asm
            printf "    movl %%r11d, %%edi\n    call %s_resolve\n    movq %%rax, %%r11\n", prefix > asm
            for (i = 0; i < 8; i++) printf "    movdqu %d(%%rsp), %%xmm%d\n", 64 + 16 * i, i > asm
            for (i = 1; i <= 7; i++) printf "    movq %d(%%rsp), %%%s\n", 8 * (i - 1), gprs[i] > asm
            print "    leave\n    jmp *%r11" > asm
            printf "    .data\n    .p2align 3\n    .globl %s_slots\n    .hidden %s_slots\n%s_slots:\n", prefix, prefix, prefix > asm
            for (i = 0; i < count; i++) printf "    .quad %s_stub_%d\n", prefix, i > asm
            print "    .section .note.GNU-stack,\"\",@progbits" > asm
            c = out ".c"
            print "#include <dlfcn.h>\n#include <pthread.h>\n#include <stdio.h>\n#include <unistd.h>" > c
            printf "__attribute__((visibility(\"hidden\"))) extern void *%s_slots[];\n", prefix > c
            printf "static const char *const names[%d] = {\n", count > c
            for (i = 0; i < count; i++) printf "    \"%s\",\n", names[i] > c
            print "};\nstatic void *library;\nstatic pthread_once_t loaded = PTHREAD_ONCE_INIT;" > c
            printf "static void load(void) { library = dlopen(\"%s\", RTLD_NOW | RTLD_LOCAL); }\n", soname > c
            printf "__attribute__((visibility(\"hidden\"))) void *%s_resolve(unsigned index) {\n", prefix > c
            print "    pthread_once(&loaded, load);" > c
            print "    void *function = library ? dlsym(library, names[index]) : NULL;" > c
            printf "    if (!function) {\n        fprintf(stderr, \"error: lanes cannot load %%s from %s: %%s\\n\", names[index], dlerror());\n        _exit(70);\n    }\n", soname > c
            printf "    __atomic_store_n(&%s_slots[index], function, __ATOMIC_RELEASE);\n    return function;\n}\n", prefix > c
        }' "$objects/$name-used"
    "$clang" -c -fPIC -o "$objects/$name-lazy-asm.o" "$objects/$name-lazy.S"
    "$clang" -c -O2 -fPIC -o "$objects/$name-lazy-c.o" "$objects/$name-lazy.c"
    lazyobjects="$lazyobjects $objects/$name-lazy-asm.o $objects/$name-lazy-c.o"
}
lazy git2 libgit2 libgit2.so
lazy ssl openssl libssl.so
lazy crypto openssl libcrypto.so

# Each swift_static archive carries swift::threading::fatal; taken whole, the first one wins.
"$clang" -shared -fuse-ld=lld -o "$home/libLanes.so.new" "$swiftrt" @"$objects/lanes" $lazyobjects $eagerlibraries \
    -Wl,--whole-archive $archives -Wl,--no-whole-archive -Wl,--allow-multiple-definition \
    -Wl,-Bsymbolic -Wl,--gc-sections -Wl,--build-id -Wl,-soname,libLanes.so \
    $clibraries -Wl,-Bstatic -lstdc++ -Wl,-Bdynamic -lm -ldl -lpthread
"$clang" -fuse-ld=lld -o "$home/lanes-tool.new" "$swiftrt" @"$objects/tool" -Wl,--defsym,main=LanesCLI_main \
    -L"$home" -Wl,--no-as-needed "$home/libLanes.so.new" -Wl,-rpath,'$ORIGIN' -Wl,--gc-sections -Wl,--build-id \
    $(pkg-config --libs sqlite3) $clibraries -lm
# The driver: the Swift runtime's static archives (what it uses of them) and a static libstdc++, so
# it loads only the C library before it execs the runner.
driverarchives=""
for name in swiftCore swift_Concurrency swift_StringProcessing swift_RegexParser swiftSynchronization swiftGlibc \
            swift_Builtin_float swiftDispatch dispatch BlocksRuntime swiftSwiftOnoneSupport; do
    driverarchives="$driverarchives $static/lib$name.a"
done
"$clang" -fuse-ld=lld -o "$bindir/lanes.new" "$swiftrt" @"$bin/lanes.product/Objects.LinkFileList" \
    -Wl,--start-group $driverarchives -Wl,--end-group -Wl,--defsym,main=LanesDriver_main -Wl,--gc-sections -Wl,--build-id \
    -Wl,-Bstatic -lstdc++ -Wl,-Bdynamic -lm -ldl -lpthread
mv "$home/libLanes.so.new" "$home/libLanes.so"
mv "$home/lanes-tool.new" "$home/lanes-tool"
mv "$bindir/lanes.new" "$bindir/lanes"
echo "self-contained" > "$home/runtime"
