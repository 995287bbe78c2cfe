# lanes — build, test, demo and install. `make demo` and `make install` install only what lanes
# needs to build and run (libgit2, OpenSSL, SQLite, zlib, pkg-config): Debian's packages on Linux,
# Homebrew's on macOS. Test tools come only with `make test`; Python tools go into a virtual
# environment under the build folder (Debian 12's system Python refuses `pip install`, PEP 668).
PREFIX ?= /usr/local
CONFIG ?= debug
SWIFT ?= swift
UNAME := $(shell uname -s)

# What lanes needs to build and run.
BUILD_APT_PACKAGES := libgit2-dev zlib1g-dev libssl-dev libsqlite3-dev pkg-config git
BUILD_BREW_PACKAGES := libgit2 openssl@3 sqlite pkg-config
ifeq ($(UNAME),Darwin)
LIBRARY_FILE := libLanes.dylib
# openssl@3 and sqlite are keg-only: pkg-config finds them only through their own folders.
export PKG_CONFIG_PATH := $(shell brew --prefix openssl@3 2>/dev/null)/lib/pkgconfig:$(shell brew --prefix sqlite 2>/dev/null)/lib/pkgconfig:$(PKG_CONFIG_PATH)
else
LIBRARY_FILE := libLanes.so
endif

# Debian packages only the tests (and benchmarks) use. The shells whose completion scripts the
# tests run (bash is always there); python3-venv for the test tools' virtual environment.
SHELL_PACKAGES := zsh fish
APT_PACKAGES := openssl python3-venv $(SHELL_PACKAGES)
# Offline checkers of `lanes export`: systemd-analyze (systemd) and groovyc (groovy, about 30 s to install).
APT_PACKAGES += systemd groovy
# Homebrew packages the macOS test job uses.
BREW_PACKAGES := $(SHELL_PACKAGES)
# PyPI packages the tests and benchmarks use as independent references, installed into VENV.
VENV := .build/venv
PIP_PACKAGES := croniter pbxproj PyJWT cryptography awscli
# Offline checkers of `lanes export`: Kubernetes schemas and the GitHub workflow schema ship in these.
PIP_PACKAGES += kubernetes-validate check-jsonschema
# Real servers the upload tests and benchmark start on 127.0.0.1 (Ceph RGW is a real S3; nginx WebDAV).
UPLOAD_SERVER_PACKAGES := ceph-mon ceph-osd radosgw nginx libnginx-mod-http-dav-ext curl
# The web page's browser tests: headless Chromium driven by Selenium (apt install took 58 s here).
APT_PACKAGES += chromium chromium-driver
APT_PACKAGES += sqlite3  # the command line bench-history compares with
APT_PACKAGES += zip unzip  # Info-ZIP: bench-archive's anchor and an independent reader of lanes' Zip64 zips
APT_PACKAGES += strace  # a debugger attached to a runner that holds secrets (TracedRunTests); the system calls that create clear keys (MatchAuditTests)
APT_PACKAGES += ruby  # evaluates Formula/lanes.rb against a stand-in for Homebrew's DSL (FormulaTests)
PIP_PACKAGES += selenium
PIP_PACKAGES += botocore  # the STS stand-in checks lanes' AssumeRole signatures with botocore's own signer (awscli 1.46 no longer pulls it in)
PIP_PACKAGES += openapi-core  # the local App Store Connect validates lanes' requests against Apple's OpenAPI description
# Android's tools from Debian as independent references: aapt compiles real APKs (against the framework's
# resources) and reads them back (`aapt dump badging`), protoc writes and reads a bundle's protobuf manifest,
# zipalign and apksigner sign and verify for sign_apk.
APT_PACKAGES += aapt android-framework-res protobuf-compiler zipalign apksigner
# The tests find the virtual environment's python3 and tools first.
TEST_PATH := $(CURDIR)/$(VENV)/bin:$$PATH

# Modules a compiled Lanefile loads (built with library evolution; see Package.swift).
LANEFILE_MODULES := Lanes LanesRuntime LanesPlatform LanesWire LanesCron LanesXcode LanesSigning LanesGit LanesBuild LanesHTTP LanesUpload LanesAppStoreConnect LanesMatch LanesGooglePlay

# Rewrites the generated Lanefile step functions and docs/steps.md from the step declarations.
.PHONY: generate
generate:
	$(SWIFT) run StepCodegen

.PHONY: all deps test-deps venv build build-tests typecheck-darwin test demo install install-files dist dist-files bench bench-install bench-startup bench-history bench-lanefile-compile bench-lanefile-scale bench-packages bench-cli bench-upload bench-google-play deps-upload-servers bench-signing bench-cron fuzz-cron bench-xcode bench-git bench-schedule bench-buildlog bench-redaction fuzz-redaction bench-archive bench-import bench-import-size clean

all: build

# What lanes needs to build and run, from the OS's package manager.
deps:
ifeq ($(UNAME),Darwin)
	@command -v brew >/dev/null || { echo "lanes builds against Homebrew's libraries: install Homebrew from https://brew.sh"; exit 1; }
	@missing=""; for p in $(BUILD_BREW_PACKAGES); do brew list --versions $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then echo "installing:$$missing"; brew install $$missing; fi
else
	@missing=""; for p in $(BUILD_APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi
endif

# The tools only the tests and benchmarks use, and their Python virtual environment.
test-deps: deps
ifeq ($(UNAME),Darwin)
	@missing=""; for p in $(BREW_PACKAGES); do brew list --versions $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then echo "installing:$$missing"; brew install $$missing; fi
else
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi
endif
	@$(MAKE) --no-print-directory venv

venv:
	@[ -x "$(VENV)/bin/python3" ] || python3 -m venv "$(VENV)"
	@if [ -n "$(PIP_PACKAGES)" ]; then "$(VENV)/bin/python3" -m pip install -q --disable-pip-version-check $(PIP_PACKAGES); fi

# The upload servers, without recommends (a full Ceph would pull in much more). Debian's nginx
# package may start its service on :80; the tests never use it.
deps-upload-servers:
ifneq ($(UNAME),Darwin)
	@missing=""; for p in $(UPLOAD_SERVER_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing; \
	fi
endif

build: deps
	$(SWIFT) build -c $(CONFIG)

# The tests' build alone, with this Makefile's flags (CI's macOS job runs its suites from it).
build-tests: deps
	$(SWIFT) build --build-tests

# The main job: the founding workflow on the bundled example. The doctor checks the signing material,
# schedules and secrets first; developerRelease signs, provisions,
# tests, builds, checks and ships Brewer; then the nightly side: the schedules and a Kubernetes
# CronJob for developerRelease. The clone is left as it was: no tracked file may change.
demo: build
	$$($(SWIFT) build -c $(CONFIG) --show-bin-path)/lanes doctor --env demo
	$$($(SWIFT) build -c $(CONFIG) --show-bin-path)/lanes developerRelease --env demo
	$$($(SWIFT) build -c $(CONFIG) --show-bin-path)/lanes schedule
	$$($(SWIFT) build -c $(CONFIG) --show-bin-path)/lanes export --to kubernetes --lane developerRelease
	@git diff --quiet --exit-code || { echo "make demo changed tracked files:"; git status --short; exit 1; }

# The code a Mac compiles and Linux never does (LanesPlatform's Darwin files, the driver against them),
# type-checked for macOS 15: against a stand-in for the SDK transcribed from Apple's headers on Linux,
# against the real SDK on a Mac (Tools/darwin-typecheck/README.md).
typecheck-darwin:
	Tools/darwin-typecheck/run.sh

# Suites that start processes which must outlive or be ended by other lanes, or that time real
# kill -9s and minutes: run on their own after the rest, so that no parallel test's load or process
# churn decides their outcome.
ALONE_SUITES := ProcessLeftoverTests|ProcessLifetimeTests|KillTests|DaemonPollTests|DaemonTests|DaemonHistoryWriteTests
# Swift Testing (6.3) starts every test case of a parallel run at once unless told a width, and each
# case's `.timeLimit` clock starts with it: on 2 cores the last of ~3,400 cases get a pool thread many
# minutes in, so trivial tests "exceeded" 3-minute limits (a run at load 30: the first test passed after
# 89 s, a date-parsing test ran after 665 s). At most TEST_WIDTH cases run at once, so a limit measures
# its own test. Twice the cores: a test waiting on a child or a server overlaps one that computes.
TEST_WIDTH ?= $(shell echo $$(( $$(getconf _NPROCESSORS_ONLN) * 2 )))
# A hang detector for a whole run, not a speed limit (the time limits catch a slow test): a run past it
# is stopped and the tests that never finished are named, never run again. `swift test` starts the test
# binary in a process group of its own, which `timeout` (it signals its own group) does not reach: a
# killed `swift test` once left its binary running for 17 minutes. On Linux the Makefile runs that binary
# itself, so the kill reaches it and every child it started in its group.
TEST_RUN_LIMIT ?= 3600
ifeq ($(UNAME),Darwin)
RUN_TESTS = $(SWIFT) test --skip-build
else
RUN_TESTS = "$$($(SWIFT) build --show-bin-path)/lanesPackageTests.xctest" --testing-library swift-testing
endif
test: test-deps deps-upload-servers typecheck-darwin
	$(SWIFT) build --build-tests
	@rm -f .build/test-status; { PATH="$(TEST_PATH)" SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$(TEST_WIDTH) timeout --kill-after=30 $(TEST_RUN_LIMIT) $(RUN_TESTS) --skip '$(ALONE_SUITES)' || echo $$? > .build/test-status; } 2>&1 | tee .build/test-parallel.log; \
	[ ! -f .build/test-status ] || { status=$$(cat .build/test-status); rm -f .build/test-status; Tools/unfinished-tests.sh .build/test-parallel.log; exit $$status; }
	PATH="$(TEST_PATH)" timeout --kill-after=30 $(TEST_RUN_LIMIT) $(RUN_TESTS) --no-parallel --filter '$(ALONE_SUITES)'

# The suites that call OpenSSL (signing, match, App Store Connect and its JWTs, uploads over TLS, the
# web page's /signing), built and run once under a sanitizer in a scratch folder of its own. Not run by
# CI: the instrumented cold build alone takes about ten minutes. SANITIZER=thread for ThreadSanitizer.
# The CLI suites among them run the plain debug `lanes`, built first. lsan.supp names the leaks that
# are Foundation's and XCTest's own; ASAN_OPTIONS and LSAN_OPTIONS from the caller come after ours.
SANITIZER ?= address
SANITIZE_SCRATCH := .build-$(if $(filter thread,$(SANITIZER)),tsan,asan)
SANITIZE_SUITES ?= LanesSigningTests|LanesMatchTests|LanesAppStoreConnectTests|LanesUploadTests|LanesWebTests
SANITIZE_OPTIONS := ASAN_OPTIONS="detect_stack_use_after_return=1:fast_unwind_on_malloc=0:$$ASAN_OPTIONS" \
	LSAN_OPTIONS="suppressions=$(CURDIR)/Tests/Sanitizers/lsan.supp:print_suppressions=0:$$LSAN_OPTIONS" \
	TSAN_OPTIONS="halt_on_error=1:$$TSAN_OPTIONS"
.PHONY: test-sanitize
test-sanitize: test-deps deps-upload-servers
	$(SWIFT) build --product lanes
	$(SWIFT) build --build-tests --sanitize=$(SANITIZER) --scratch-path $(SANITIZE_SCRATCH)
	PATH="$(TEST_PATH)" $(SANITIZE_OPTIONS) $(SWIFT) test --skip-build --sanitize=$(SANITIZER) \
		--scratch-path $(SANITIZE_SCRATCH) --filter '$(SANITIZE_SUITES)'

# Installs `lanes` and what a Lanefile compiles against (a release build; INSTALL_CONFIG=debug reuses the test build).
INSTALL_CONFIG ?= release
install: deps
	$(SWIFT) build -c $(INSTALL_CONFIG)
	@$(MAKE) --no-print-directory install-files BIN="$$($(SWIFT) build -c $(INSTALL_CONFIG) --show-bin-path)"

# Copies an existing build (BIN) into PREFIX, without building (the tests call it during `swift test`).
# On Linux the executables and libLanes.so are linked anew from the build's objects
# (Tools/link-installed.sh): libLanes.so carries the Swift runtime and Foundation, lanes-tool and
# every compiled Lanefile load it alone, and the driver has the runtime linked in; start-up then
# binds a few thousand symbols instead of tens of thousands across 38 shared objects. macOS keeps
# SwiftPM's (its Swift runtime is the OS's, in the shared cache).
# Each Lanefile module goes with its .swiftinterface, from which a newer compiler (an Xcode update) rebuilds
# it. lib/lanes/swiftc records the compiler Lanefiles compile with and its version: on macOS the real one
# (`xcrun --find swiftc`; /usr/bin/swiftc is a shim that stays the same when Xcode changes), with the SDK in
# lib/lanes/sdk; the driver's cache key and `lanes doctor` check both.
BIN ?= .build/$(CONFIG)
ifeq ($(UNAME),Darwin)
INSTALL_BINARIES = install -m 755 "$$bin/lanes-tool" "$$home/lanes-tool" && \
	install -m 755 "$$bin/lanes" "$$home/lanes.new" && mv "$$home/lanes.new" "$(PREFIX)/bin/lanes" && \
	install -m 644 "$$bin/$(LIBRARY_FILE)" "$$home/$(LIBRARY_FILE)" && rm -f "$$home/runtime"
FIND_SWIFTC := xcrun --find swiftc
else
INSTALL_BINARIES = Tools/link-installed.sh "$$bin" "$$home" "$(PREFIX)/bin"
FIND_SWIFTC := command -v swiftc
endif
install-files:
	@bin="$(BIN)"; home="$(PREFIX)/lib/lanes"; \
	install -d "$(PREFIX)/bin" "$$home/Modules" "$$home/templates" && \
	$(INSTALL_BINARIES) && \
	for module in $(LANEFILE_MODULES); do \
		install -m 644 "$$bin/Modules/$$module.swiftmodule" "$$bin/Modules/$$module.swiftinterface" "$$home/Modules/" || exit 1; \
		if [ -f "$$bin/Modules/$$module.swiftdoc" ]; then install -m 644 "$$bin/Modules/$$module.swiftdoc" "$$home/Modules/"; fi; \
	done && \
	install -m 644 templates/*.mustache "$$home/templates/" && \
	swiftc=$$($(FIND_SWIFTC)) && [ -x "$$swiftc" ] && \
	{ echo "$$swiftc"; "$$swiftc" --version 2>/dev/null | grep 'Swift version'; } > "$$home/swiftc" && \
	if [ "$(UNAME)" = Darwin ]; then xcrun --show-sdk-path > "$$home/sdk"; else rm -f "$$home/sdk"; fi && \
	echo "installed lanes in $(PREFIX) (compiler: $$(head -1 "$$home/swiftc"))"

# The release archive: the installed layout (bin/lanes, lib/lanes/ with lanes-tool, libLanes, the
# Lanefile modules as .swiftmodule and .swiftinterface, the templates) in one tarball that works from
# any folder it is unpacked in. It records no compiler: Lanefiles compile with swiftc on PATH (or
# LANES_SWIFTC), which must be the Swift lanes was built with (6.3), or a later one that reads the
# .swiftinterface files. The exported GitHub workflows and the formula install it.
VERSION := $(shell sed -n 's/.*current = "\(.*\)".*/\1/p' Sources/LanesPlatform/LanesVersion.swift)
DIST_NAME := lanes-$(VERSION)-$(if $(filter Darwin,$(UNAME)),macos,linux)-$(shell uname -m)
DIST_FOLDER ?= $(CURDIR)/.build/dist
dist: deps
	$(SWIFT) build -c release --product lanes
	$(SWIFT) build -c release --product lanes-tool
	$(SWIFT) build -c release --product Lanes
	@$(MAKE) --no-print-directory dist-files BIN=.build/release

# Packs an existing build (BIN) into DIST_FOLDER/DIST_NAME.tar.gz (the tests call it on the debug build).
dist-files:
	@rm -rf "$(DIST_FOLDER)/$(DIST_NAME)" && mkdir -p "$(DIST_FOLDER)"
	@$(MAKE) --no-print-directory install-files PREFIX="$(DIST_FOLDER)/$(DIST_NAME)" BIN="$(BIN)"
	@rm -f "$(DIST_FOLDER)/$(DIST_NAME)/lib/lanes/swiftc" "$(DIST_FOLDER)/$(DIST_NAME)/lib/lanes/sdk"
	tar -C "$(DIST_FOLDER)" -czf "$(DIST_FOLDER)/$(DIST_NAME).tar.gz" "$(DIST_NAME)"
	@echo "$(DIST_FOLDER)/$(DIST_NAME).tar.gz (sha256 $$(openssl dgst -sha256 -r "$(DIST_FOLDER)/$(DIST_NAME).tar.gz" | cut -d' ' -f1))"

# Benchmarks print their figures; they build in release.
# Start-up as installed: warm `lanes list`, `lanes help LANE`, `lanes --version` and `lanes git info`
# beside a hello-world Swift executable, interleaved; INSTRUCTIONS=1 adds callgrind's instruction counts.
BENCH_PREFIX := $(CURDIR)/.build/bench-prefix
bench-install: deps
	$(SWIFT) build -c release --product lanes
	$(SWIFT) build -c release --product lanes-tool
	$(SWIFT) build -c release --product Lanes
	rm -rf "$(BENCH_PREFIX)"
	@$(MAKE) --no-print-directory install-files PREFIX="$(BENCH_PREFIX)" BIN=.build/release

bench-startup: bench-install
	$(SWIFT) build -c release --product StartupBenchmark
	.build/release/StartupBenchmark --lanes "$(BENCH_PREFIX)/bin/lanes" $(if $(INSTRUCTIONS),--instructions)

# A history of 100,000 runs: `lanes history` and the /history page of `lanes serve` beside the sqlite3
# command line running the same queries (HISTORY=N runs instead).
bench-history: bench-install
	@command -v sqlite3 >/dev/null || { echo "bench-history compares with the sqlite3 command line: apt-get install sqlite3"; exit 1; }
	$(SWIFT) build -c release --product HistoryBenchmark
	.build/release/HistoryBenchmark --lanes "$(BENCH_PREFIX)/bin/lanes" $(if $(HISTORY),--history $(HISTORY))

# The driver compiling the root Lanefile.swift (cold `lanes list` minus warm), for this build and, side by
# side in the same run, any other (BASELINE=path/to/lanes of an older build or install, optional).
bench-lanefile-compile: deps
	$(SWIFT) build -c release --product lanes
	$(SWIFT) build -c release --product Lanes
	$(SWIFT) build -c release --product LanefileCompileBenchmark
	.build/release/LanefileCompileBenchmark --lanes current=.build/release/lanes $(if $(BASELINE),--lanes baseline=$(BASELINE)) --lanefile $(CURDIR)/Lanefile.swift

# Cold compile of generated Lanefiles of 25, 50, 100 and 200 lanes of 20 steps (one block, as users and
# `lanes import fastlane` write them), as installed, and how it grows (BASELINE=path/to/lanes adds another build).
bench-lanefile-scale: bench-install
	$(SWIFT) build -c release --product LanefileScaleBenchmark
	.build/release/LanefileScaleBenchmark --lanes current="$(BENCH_PREFIX)/bin/lanes" $(if $(BASELINE),--lanes baseline=$(BASELINE))

# Warm start with and without a package dependency (lanes/Package.swift), side by side.
bench-packages: deps
	$(SWIFT) build -c release --product lanes
	$(SWIFT) build -c release --product lanes-tool
	$(SWIFT) build -c release --product Lanes
	$(SWIFT) run -c release PackageStartupBenchmark --lanes .build/release/lanes

# Completion and help latency: lane names from the cached runner (40 and 2,000 lanes), a bash TAB,
# lanes --help, lanes help LANE, --version, lanes env.
bench-cli: deps
	$(SWIFT) build -c release --product lanes
	$(SWIFT) build -c release --product lanes-tool
	$(SWIFT) build -c release --product Lanes
	$(SWIFT) run -c release CLIBenchmark --lanes .build/release/lanes

# Signing figures: PKCS#12 reads per encoding, profile decoding, keychain import (release build).
bench-signing: deps
	$(SWIFT) run -c release SigningBench
# Next-fire computations per second, lanes vs croniter (PyPI) on the same schedules.
bench-cron: test-deps
	$(SWIFT) build -c release --product CronBenchmark
	PATH="$(TEST_PATH)" .build/release/CronBenchmark

# The cron parser and fire-time search on 10^6 generated/mutated inputs (FUZZ_COUNT, FUZZ_SEED to vary).
FUZZ_COUNT ?= 1000000
FUZZ_SEED ?= 20261121
fuzz-cron:
	$(SWIFT) build -c release --product CronFuzz
	.build/release/CronFuzz --count $(FUZZ_COUNT) --seed $(FUZZ_SEED)

# The redactor and the dotenv parser on 10^6 random secrets in random text and 10^6 random dotenv
# files (FUZZ_COUNT, FUZZ_SEED to vary): no secret ever comes out, no error shows a value.
fuzz-redaction:
	$(SWIFT) build -c release --product RedactionFuzz
	.build/release/RedactionFuzz --count $(FUZZ_COUNT) --seed $(FUZZ_SEED)

# lanes' output path on a lane printing 100 MB: xcodebuild-like and 1 MiB lines, without and with 10
# registered secrets, to a pipe and to a file; beside cat, sed and the redactor alone (wall, CPU, peak RSS).
bench-redaction: deps
	$(SWIFT) build -c release --product lanes
	$(SWIFT) build -c release --product lanes-tool
	$(SWIFT) build -c release --product Lanes
	$(SWIFT) run -c release RedactionBenchmark --lanes .build/release/lanes

# Git figures: `lanes git info` against git rev-list --count + git status on a 100,000-commit
# repository (built once under Benchmarks/.work/).
# lanes import fastlane over a folder of real Fastfiles (CORPUS=DIR, one project per subfolder): the
# share of Lanefiles that compile as written and of action calls mapped to a step (docs/import.md).
bench-import: deps
	$(SWIFT) build --product lanes
	$(SWIFT) build --product lanes-tool
	Tools/import-corpus.sh $(CORPUS)

# The importer's time against the Fastfile's size (0.3, 1.5, 7.8 MB), beside a linear anchor.
bench-import-size: deps
	$(SWIFT) run -c release ImportBenchmark

bench-git: bench-install
	$(SWIFT) build -c release --product GitBenchmark
	.build/release/GitBenchmark --lanes "$(BENCH_PREFIX)/bin/lanes"

# 1 GiB to Ceph RGW: lanes upload vs aws s3 cp vs curl --aws-sigv4 (wall time, peak RSS).
bench-upload: test-deps deps-upload-servers
	$(SWIFT) build -c release --product lanes-tool
	$(SWIFT) build -c release --product UploadBenchmark
	PATH="$(TEST_PATH)" .build/release/UploadBenchmark --lanes .build/release/lanes-tool

# A 2 GiB sparse .aab through Google's resumable protocol to the local Google Play: lanes beside curl -T,
# failing unless lanes' peak memory stays flat from 32 MiB to 2 GiB.
bench-google-play: test-deps
	$(SWIFT) build -c release --product lanes-tool
	$(SWIFT) build -c release --product GooglePlayUploadBenchmark
	PATH="$(TEST_PATH)" .build/release/GooglePlayUploadBenchmark --lanes .build/release/lanes-tool

clean:
	rm -rf .build

# Read + edit + write of the ~1 MB pocket-casts project with LanesXcode versus Python's pbxproj.
bench-xcode: test-deps
	PATH="$(TEST_PATH)" $(SWIFT) run -c release XcodeBenchmark

# lanes daemon with 10,000 scheduled lanes: next-due computation, CPU and wake-ups over 60 idle
# seconds (IDLE_SECONDS to change), and how late fires start.
bench-schedule: deps
	$(SWIFT) build -c release --product ScheduleBenchmark
	.build/release/ScheduleBenchmark

# Build-log summariser: MB/s and peak RSS on a 200 MB log generated from the fixtures (kept in
# Benchmarks/.work/), and xcbeautify on the same file when a binary exists (XCBEAUTIFY=path,
# Benchmarks/.work/xcbeautify/.build/release/xcbeautify, or PATH); else "xcbeautify: not available".
bench-buildlog: deps
	$(SWIFT) build -c release --product BuildLogBenchmark
	.build/release/BuildLogBenchmark

# Archives of any size: a sparse 6 GB dSYM bundle zipped by lanes and by Info-ZIP zip, and packed as
# tar.gz by lanes and by GNU tar, side by side (wall time, peak RSS); GIGABYTES=N to change the size.
GIGABYTES ?= 6
bench-archive: deps
	$(SWIFT) build -c release --product ArchiveBenchmark
	.build/release/ArchiveBenchmark --gigabytes $(GIGABYTES)
