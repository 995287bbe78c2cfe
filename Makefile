# lanes — build, test, demo and install. Every target installs the system packages it needs.
PREFIX ?= /usr/local
CONFIG ?= debug
SWIFT ?= swift
# Debian packages the build and the tests need; each target that needs them depends on `deps`.
APT_PACKAGES := libgit2-dev libssl-dev pkg-config git
# PyPI packages the tests and benchmarks use as independent references.
PIP_PACKAGES := croniter

.PHONY: all deps build test demo install bench clean bench-cron fuzz-cron

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

# Next-fire computations per second, lanes vs croniter (PyPI) on the same schedules.
bench-cron: deps
	$(SWIFT) build -c release --product CronBenchmark
	.build/release/CronBenchmark

# The cron parser and fire-time search on 10^6 generated/mutated inputs (FUZZ_COUNT, FUZZ_SEED to vary).
FUZZ_COUNT ?= 1000000
FUZZ_SEED ?= 20261121
fuzz-cron:
	$(SWIFT) build -c release --product CronFuzz
	.build/release/CronFuzz --count $(FUZZ_COUNT) --seed $(FUZZ_SEED)

clean:
	rm -rf .build
