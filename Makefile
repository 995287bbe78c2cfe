# lanes — build, test, demo and install. Every target installs the system packages it needs.
PREFIX ?= /usr/local
CONFIG ?= debug
SWIFT ?= swift
# Debian packages the build and the tests need; each target that needs them depends on `deps`.
APT_PACKAGES := libgit2-dev libssl-dev pkg-config git
# PyPI packages the tests and benchmarks use as independent references.
PIP_PACKAGES := pbxproj

.PHONY: all deps build test demo install bench clean

all: build

deps:
	@missing=""; for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi
	@if [ -n "$(PIP_PACKAGES)" ]; then python3 -m pip install -q --disable-pip-version-check $(PIP_PACKAGES); fi

build: deps
	$(SWIFT) build -c $(CONFIG)

test: deps
	$(SWIFT) build
	$(SWIFT) test

clean:
	rm -rf .build

# Read + edit + write of the ~1 MB pocket-casts project with LanesXcode versus Python's pbxproj.
.PHONY: bench-xcode
bench-xcode: deps
	$(SWIFT) run -c release XcodeBenchmark
