# fsbench — GNU make build. `make`, `make check`, `make install`, `make clean`.
# SAN=1 builds with AddressSanitizer and UndefinedBehaviorSanitizer into build-san/.
# CC=clang works as well as gcc; both must build clean with -Werror.

PKGS     := jansson inih gsl sqlite3 blkid liburing libarchive
TESTPKGS := cmocka
PREFIX   ?= /usr/local
DESTDIR  ?=

ifeq ($(SAN),1)
BUILD    ?= build-san
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
OPT      ?= -O1 -g
else
BUILD    ?= build
SANFLAGS :=
OPT      ?= -O2 -g
endif

WARN     := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter
# fsbench truncates names into fixed buffers on purpose; gcc knows this warning, clang does not.
WARN     += $(shell $(CC) -Werror -Wno-format-truncation -E -x c /dev/null >/dev/null 2>&1 && echo -Wno-format-truncation)
CPPFLAGS += -D_GNU_SOURCE -Isrc
CFLAGS   += -std=c11 $(OPT) $(WARN) $(SANFLAGS) -pthread $(shell pkg-config --cflags $(PKGS))
LDFLAGS  += $(SANFLAGS) -pthread
LDLIBS   += $(shell pkg-config --libs $(PKGS)) -lm

LIB_SRC  := $(filter-out src/cli/main.c,$(wildcard src/*/*.c))
LIB_OBJ  := $(LIB_SRC:src/%.c=$(BUILD)/obj/%.o)
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
BENCH_SRC:= $(wildcard bench/*.c)
BENCH_BIN:= $(BENCH_SRC:bench/%.c=$(BUILD)/bench/%)

.PHONY: all check unit e2e bench-build install clean
all: $(BUILD)/fsbench

$(BUILD)/obj/%.o: src/%.c $(wildcard src/*/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(BUILD)/libfsbench.a: $(LIB_OBJ)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/fsbench: $(BUILD)/obj/cli/main.o $(BUILD)/libfsbench.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libfsbench.a $(wildcard tests/unit/*.h) | $(BUILD)/tests
	$(CC) $(CPPFLAGS) $(CFLAGS) $(shell pkg-config --cflags $(TESTPKGS)) -o $@ $< \
		$(BUILD)/libfsbench.a $(LDFLAGS) $(LDLIBS) $(shell pkg-config --libs $(TESTPKGS))

$(BUILD)/bench/%: bench/%.c $(BUILD)/libfsbench.a | $(BUILD)/bench
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< $(BUILD)/libfsbench.a $(LDFLAGS) $(LDLIBS)

$(BUILD)/obj $(BUILD)/tests $(BUILD)/bench:
	mkdir -p $@

bench-build: $(BENCH_BIN)

# Unit tests print TAP (cmocka), end-to-end tests are TAP shell scripts; prove runs
# both and ends with its summary line.
check: $(BUILD)/fsbench $(UNIT_BIN) $(BENCH_BIN)
	CMOCKA_MESSAGE_OUTPUT=TAP FSBENCH=$(CURDIR)/$(BUILD)/fsbench FSBENCH_BUILD=$(CURDIR)/$(BUILD) \
		prove $(PROVEFLAGS) $(UNIT_BIN) tests/e2e/t*.sh

unit: $(UNIT_BIN)
	CMOCKA_MESSAGE_OUTPUT=TAP prove $(PROVEFLAGS) $(UNIT_BIN)

e2e: $(BUILD)/fsbench
	FSBENCH=$(CURDIR)/$(BUILD)/fsbench FSBENCH_BUILD=$(CURDIR)/$(BUILD) prove $(PROVEFLAGS) tests/e2e/t*.sh

install: $(BUILD)/fsbench
	install -D -m 0755 $(BUILD)/fsbench $(DESTDIR)$(PREFIX)/bin/fsbench
	install -D -m 0644 docs/fsbench.1 $(DESTDIR)$(PREFIX)/share/man/man1/fsbench.1

clean:
	rm -rf build build-san build-clang build-fuzz

# libFuzzer targets (clang): every parser of outside input, fuzzed FUZZ_SECONDS each from
# the seed corpus (tests/fuzz/run.sh). The library is rebuilt into build-fuzz/ with
# coverage instrumentation, ASan and UBSan.
FUZZ_BUILD   := build-fuzz
FUZZ_SECONDS ?= 20
FUZZ_SAN     := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
FUZZ_SRC     := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BIN     := $(FUZZ_SRC:tests/fuzz/%.c=$(FUZZ_BUILD)/%)

.PHONY: fuzz fuzz-build
fuzz-build:
	$(MAKE) CC=clang BUILD=$(FUZZ_BUILD) OPT="-O1 -g" \
		SANFLAGS="-fsanitize=fuzzer-no-link $(FUZZ_SAN)" $(FUZZ_BUILD)/libfsbench.a
	$(MAKE) CC=clang $(FUZZ_BIN)

$(FUZZ_BUILD)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_util.h $(FUZZ_BUILD)/libfsbench.a
	$(CC) $(CPPFLAGS) -std=c11 -O1 -g $(WARN) -fsanitize=fuzzer $(FUZZ_SAN) -pthread \
		$(shell pkg-config --cflags $(PKGS)) -o $@ $< $(FUZZ_BUILD)/libfsbench.a \
		-pthread $(LDLIBS)

fuzz: fuzz-build
	tests/fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS)
