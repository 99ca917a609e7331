# Phantom Go: one binary, build/phantomgo, plus its tests and benchmarks.
#
# Sources are found by wildcard (src/<module>/*.c), so adding a file to a
# module needs no edit here. Every variant (plain, sanitized) builds into its
# own directory O, so `make` and `make test-asan` never mix objects.
#
# The two commands a newcomer runs are `make run` and `make test`; both first
# install whatever Debian/npm packages are missing (scripts/install-deps.sh).

O        ?= build
CC       ?= gcc
OPT      ?= -O2
SANITIZE ?=
CFLAGS_BASE = -std=c11 -D_GNU_SOURCE -g $(OPT) -Wall -Wextra -Werror \
              -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
              -MMD -MP -Isrc $(PQ_CFLAGS) $(if $(SANITIZE),-fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all)
CFLAGS  ?=
# libpq's header lives in /usr/include/postgresql on Debian.
PQ_CFLAGS := $(shell pkg-config --cflags libpq 2>/dev/null || echo -I/usr/include/postgresql)
ALL_CFLAGS = $(CFLAGS_BASE) $(CFLAGS) -DPG_VERSION='"$(VERSION)"' -DPG_COMMIT='"$(COMMIT)"'
LDLIBS   = -lcivetweb -lcjson -lsqlite3 -lpq -lqrencode -lcrypto -lpthread -lm
LDFLAGS_ALL = $(if $(SANITIZE),-fsanitize=$(SANITIZE)) $(LDFLAGS)

VERSION := $(shell cat VERSION 2>/dev/null || echo 0.0.0)
COMMIT  := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)

LIB_SRCS  := $(sort $(wildcard src/*/*.c))
LIB_OBJS  := $(LIB_SRCS:%.c=$(O)/obj/%.o)
MAIN_OBJ  := $(O)/obj/src/main.o
UNIT_SRCS := $(sort $(wildcard tests/unit/*.c))
UNIT_OBJS := $(UNIT_SRCS:%.c=$(O)/obj/%.o)

PORT ?= 8080
DB   ?= ./data/phantomgo.db

.PHONY: all run test test-asan test-unit deps deps-test bench bench-bot fuzz fuzzers tsan docker-check clean

all: $(O)/phantomgo

$(O)/phantomgo: $(MAIN_OBJ) $(O)/libphantomgo.a
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(LDLIBS)

$(O)/libphantomgo.a: $(LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(O)/unit-tests: $(UNIT_OBJS) $(O)/libphantomgo.a
	$(CC) $(LDFLAGS_ALL) -o $@ $^ $(LDLIBS)

$(O)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# Rebuild objects that embed the version when the commit changes.
$(MAIN_OBJ): $(wildcard .git/HEAD .git/refs/heads/*) VERSION

deps:
	scripts/install-deps.sh build

deps-test:
	scripts/install-deps.sh test

run: deps
	$(MAKE) all
	@mkdir -p $(dir $(DB))
	$(O)/phantomgo serve --port $(PORT) --db $(DB)

test: deps-test
	$(MAKE) all $(O)/unit-tests
	$(MAKE) O=build/asan OPT=-O1 SANITIZE=address,undefined build/asan/phantomgo build/asan/unit-tests
	tests/run-all.sh

test-unit: $(O)/unit-tests
	$(O)/unit-tests

test-asan:
	$(MAKE) O=build/asan OPT=-O1 SANITIZE=address,undefined build/asan/phantomgo build/asan/unit-tests
	ASAN_OPTIONS=detect_leaks=1 build/asan/unit-tests

bench: all
	scripts/install-deps.sh bench
	bench/run.sh

bench-bot: all
	bench/bot-ladder.sh

# --- Hardening (issue 7): libFuzzer targets and a ThreadSanitizer run. ---
# Fuzzers are tests/fuzz/fuzz_*.c, built by clang-14 into build/fuzz/ against
# the project's library compiled with -fsanitize=fuzzer-no-link (coverage
# only, no main) plus ASan+UBSan. `make fuzz` runs each for FUZZ_SECONDS;
# tests/fuzz/smoke.sh (part of `make test`) runs each briefly.
FUZZ_CC      ?= clang-14
FUZZ_SECONDS ?= 300
FUZZ_SRCS    := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BINS    := $(FUZZ_SRCS:tests/fuzz/%.c=build/fuzz/%)

fuzzers:
	$(MAKE) O=build/fuzz/lib CC=$(FUZZ_CC) OPT=-O1 SANITIZE=fuzzer-no-link,address,undefined build/fuzz/lib/libphantomgo.a
	$(MAKE) $(FUZZ_BINS)

build/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(wildcard tests/fuzz/*.h) build/fuzz/lib/libphantomgo.a
	$(FUZZ_CC) $(filter-out -MMD -MP,$(CFLAGS_BASE)) -O1 -fsanitize=fuzzer,address,undefined \
	    -fno-sanitize-recover=all -o $@ $< build/fuzz/lib/libphantomgo.a $(LDLIBS)

fuzz: fuzzers
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_KEEP_CORPUS=1 tests/fuzz/smoke.sh

# The server under ThreadSanitizer, exercised by the server and hardening
# suites; any race report (TSAN_OPTIONS log_path) fails the run.
tsan:
	$(MAKE) O=build/tsan OPT=-O1 SANITIZE=thread build/tsan/phantomgo
	tests/hardening/tsan.sh

clean:
	rm -rf build

-include $(LIB_OBJS:.o=.d) $(MAIN_OBJ:.o=.d) $(UNIT_OBJS:.o=.d)

docker-check:
	docker/check.sh
