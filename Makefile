# fsbench — GNU make build. `make`, `make check`, `make install`, `make deb`, `make clean`.
# SAN=1 builds with AddressSanitizer and UndefinedBehaviorSanitizer into build-san/.
# POSIX_ONLY=1 builds with plain POSIX calls only (src/os/posix_*.c instead of linux_*.c, no
# io_uring engine, no libblkid or liburing) into build-posix/: where a BSD port starts.
# CC=clang works as well as gcc; both must build clean with -Werror.
# MPI=1 builds the same fsbench with Open MPI (mpicc, libopenmpi-dev) into build-mpi/ (or
# build-mpi-san/ with SAN=1): src/mpi/ and bench/mpi_*.c are compiled only then, so the
# plain build stays free of MPI. Run it as mpirun -np N build-mpi/fsbench run ...

ifeq ($(POSIX_ONLY),1)
PKGS     := jansson inih gsl sqlite3 libarchive
OS_DROP  := src/os/linux_%.c src/engine/engine_uring.c src/engine/uring_ring.c
OS_FLAGS := -DFSBENCH_OS_POSIX_ONLY -D_XOPEN_SOURCE=700 -D_DEFAULT_SOURCE
UNIT_DROP:= tests/unit/test_engine_uring.c
# The tests run on Linux and may use glibc's extensions (asprintf, ...) themselves.
TEST_OS  := -D_GNU_SOURCE
else
PKGS     := jansson inih gsl sqlite3 blkid liburing libarchive
OS_DROP  := src/os/posix_%.c
OS_FLAGS :=
UNIT_DROP:=
TEST_OS  :=
endif
TESTPKGS := cmocka
PREFIX   ?= /usr/local
DESTDIR  ?=

ifeq ($(SAN)$(POSIX_ONLY),11)
BUILD    ?= build-posix-san
endif
ifeq ($(POSIX_ONLY),1)
BUILD    ?= build-posix
endif
ifeq ($(MPI),1)
MPICC    ?= mpicc
CC       := $(MPICC)
CPPFLAGS += -DFSBENCH_MPI
MPISUF   := -mpi
endif

ifeq ($(SAN),1)
BUILD    ?= build$(MPISUF)-san
SANFLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
OPT      ?= -O1 -g
else
BUILD    ?= build$(MPISUF)
SANFLAGS :=
OPT      ?= -O2 -g
endif

WARN     := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter
# fsbench truncates names into fixed buffers on purpose; gcc knows this warning, clang does not.
WARN     += $(shell $(CC) -Werror -Wno-format-truncation -E -x c /dev/null >/dev/null 2>&1 && echo -Wno-format-truncation)
CPPFLAGS += $(if $(OS_FLAGS),,-D_GNU_SOURCE) -Isrc $(OS_FLAGS) -DFSBENCH_PREFIX='"$(PREFIX)"'
CFLAGS   += -std=c11 $(OPT) $(WARN) $(SANFLAGS) -pthread $(shell pkg-config --cflags $(PKGS))
LDFLAGS  += $(SANFLAGS) -pthread
LDLIBS   += $(shell pkg-config --libs $(PKGS)) -lm

LIB_SRC  := $(filter-out src/cli/main.c $(OS_DROP),$(wildcard src/*/*.c))
ifneq ($(MPI),1)
LIB_SRC  := $(filter-out src/mpi/%,$(LIB_SRC))
endif
LIB_OBJ  := $(LIB_SRC:src/%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/gen/job_builtin.o
JOB_FILES:= $(sort $(wildcard jobs/*.ini))
UNIT_SRC := $(filter-out $(UNIT_DROP),$(wildcard tests/unit/test_*.c))
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
BENCH_SRC:= $(wildcard bench/*.c)
ifneq ($(MPI),1)
BENCH_SRC:= $(filter-out bench/mpi_%,$(BENCH_SRC))
endif
BENCH_BIN:= $(BENCH_SRC:bench/%.c=$(BUILD)/bench/%)
# Programs the end-to-end tests run (the race harness's attacker: tests/e2e/t0810).
HELPER_SRC:= $(wildcard tests/helpers/*.c)
HELPER_BIN:= $(HELPER_SRC:tests/helpers/%.c=$(BUILD)/tests/%)

.PHONY: all check unit e2e bench-build install deb clean
all: $(BUILD)/fsbench

$(BUILD)/obj/%.o: src/%.c $(wildcard src/*/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

# The shipped job files, built into the binary (see src/run/job_builtin.h): one C string
# each, a line of the file a line of the source.
$(BUILD)/gen/job_builtin.c: $(JOB_FILES) Makefile
	@mkdir -p $(dir $@)
	{ echo '/* generated from the job files in jobs/ by the Makefile */'; \
	  echo '#include "run/job_builtin.h"'; \
	  echo 'const struct job_builtin job_builtin_table[] = {'; \
	  for f in $(JOB_FILES); do \
	    n=$$(basename $$f .ini); \
	    printf '    {"%s", "%s",\n' "$$n" "$$f"; \
	    sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/     "/' -e 's/$$/\\n"/' $$f; \
	    echo '    },'; \
	  done; \
	  echo '    {0, 0, 0},'; echo '};'; } > $@.tmp && mv $@.tmp $@

$(BUILD)/obj/gen/job_builtin.o: $(BUILD)/gen/job_builtin.c src/run/job_builtin.h
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(BUILD)/libfsbench.a: $(LIB_OBJ)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/fsbench: $(BUILD)/obj/cli/main.o $(BUILD)/libfsbench.a
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libfsbench.a $(wildcard tests/unit/*.h) | $(BUILD)/tests
	$(CC) $(CPPFLAGS) $(TEST_OS) $(CFLAGS) $(shell pkg-config --cflags $(TESTPKGS)) -o $@ $< \
		$(BUILD)/libfsbench.a $(LDFLAGS) $(LDLIBS) $(shell pkg-config --libs $(TESTPKGS))

$(BUILD)/tests/%: tests/helpers/%.c | $(BUILD)/tests
	$(CC) $(CPPFLAGS) $(TEST_OS) $(CFLAGS) -o $@ $< $(LDFLAGS)

# trace_craft writes traces with the library's writer (hostile traces for t1301).
$(BUILD)/tests/trace_craft: tests/helpers/trace_craft.c $(BUILD)/libfsbench.a | $(BUILD)/tests
	$(CC) $(CPPFLAGS) $(TEST_OS) $(CFLAGS) -o $@ $< $(BUILD)/libfsbench.a $(LDFLAGS) $(LDLIBS)

# run_options_print prints the table of run's options (src/run/run_request_table.c) as the help,
# the man page and the completion must say it: t0013 compares them, and completion-run
# rewrites the completion's generated block from it.
$(BUILD)/tests/run_options_print: tests/helpers/run_options_print.c $(BUILD)/libfsbench.a | $(BUILD)/tests
	$(CC) $(CPPFLAGS) $(TEST_OS) $(CFLAGS) -o $@ $< $(BUILD)/libfsbench.a $(LDFLAGS) $(LDLIBS)

# cli_options_print prints every other command's option table (src/cli/cli_options.c): t0014
# holds each command's --help, man page section and completion to it.
$(BUILD)/tests/cli_options_print: tests/helpers/cli_options_print.c $(BUILD)/libfsbench.a | $(BUILD)/tests
	$(CC) $(CPPFLAGS) $(TEST_OS) $(CFLAGS) -o $@ $< $(BUILD)/libfsbench.a $(LDFLAGS) $(LDLIBS)

.PHONY: completion-run
completion-run: $(BUILD)/tests/run_options_print
	$(BUILD)/tests/run_options_print completion > $(BUILD)/run-values.bash
	awk -v gen=$(BUILD)/run-values.bash '/^# BEGIN run.s option values/ { while ((getline l < gen) > 0) print l; skip = 1 } \
		!skip { print } /^# END run.s option values/ { skip = 0 }' completion/fsbench.bash > $(BUILD)/fsbench.bash.new
	mv $(BUILD)/fsbench.bash.new completion/fsbench.bash

# test_dirscan injects a failing shrink into libfsbench's realloc (see the test).
$(BUILD)/tests/test_dirscan: LDFLAGS += -Wl,--wrap=realloc

$(BUILD)/bench/%: bench/%.c $(BUILD)/libfsbench.a | $(BUILD)/bench
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< $(BUILD)/libfsbench.a $(LDFLAGS) $(LDLIBS)

$(BUILD)/obj $(BUILD)/tests $(BUILD)/bench:
	mkdir -p $@

bench-build: $(BENCH_BIN)

# Unit tests print TAP (cmocka), end-to-end tests are TAP shell scripts; prove runs
# both and ends with its summary line. It runs PROVE_JOBS of them at once (one per
# processor): each test works in a scratch directory of its own (its store, images, mount
# points and, where it mounts, its TMPDIR are below it) and checks only what is there, so
# tests do not see each other (PROVE_JOBS=1: one at a time).
PROVE_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
# --failures prints each failed assertion's line beside its file, so a log names it.
PROVEFLAGS += -j$(PROVE_JOBS) --failures
# The signal tests send SIGHUP, SIGINT and SIGQUIT to fsbench, which leaves a signal ignored
# that it was started with ignored (what nohup asks). A suite started by nohup, or in the
# background by a shell without job control, would hand those down ignored, and the tests
# would fail for it: the tests run with the default actions, as from a terminal.
PROVE := $(shell env --default-signal=INT true >/dev/null 2>&1 && \
	echo env --default-signal=HUP,INT,QUIT) prove
# The MPI tests (t10xx) run the MPI build's binary when it was built (make MPI=1), outside
# the sanitizer suite; without it they skip with the reason.
MPI_BIN  := $(if $(filter 1,$(SAN)),,$(wildcard $(CURDIR)/build-mpi/fsbench))

check: $(BUILD)/fsbench $(UNIT_BIN) $(BENCH_BIN) $(HELPER_BIN)
	CMOCKA_MESSAGE_OUTPUT=TAP FSBENCH=$(CURDIR)/$(BUILD)/fsbench FSBENCH_BUILD=$(CURDIR)/$(BUILD) \
		FSBENCH_MPI=$(MPI_BIN) \
		$(PROVE) $(PROVEFLAGS) $(UNIT_BIN) tests/e2e/t*.sh

unit: $(UNIT_BIN)
	CMOCKA_MESSAGE_OUTPUT=TAP $(PROVE) $(PROVEFLAGS) $(UNIT_BIN)

e2e: $(BUILD)/fsbench $(HELPER_BIN)
	FSBENCH=$(CURDIR)/$(BUILD)/fsbench FSBENCH_BUILD=$(CURDIR)/$(BUILD) FSBENCH_MPI=$(MPI_BIN) $(PROVE) $(PROVEFLAGS) tests/e2e/t*.sh

install: $(BUILD)/fsbench
	install -D -m 0755 $(BUILD)/fsbench $(DESTDIR)$(PREFIX)/bin/fsbench
	install -D -m 0644 docs/fsbench.1 $(DESTDIR)$(PREFIX)/share/man/man1/fsbench.1
	install -d $(DESTDIR)$(PREFIX)/share/fsbench/jobs
	install -m 0644 $(JOB_FILES) $(DESTDIR)$(PREFIX)/share/fsbench/jobs/
	install -D -m 0644 completion/fsbench.bash \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/fsbench
	install -d $(DESTDIR)$(PREFIX)/share/doc/fsbench
	install -m 0644 README.md docs/guide.md docs/json-schema.md docs/trace-format.md \
		$(DESTDIR)$(PREFIX)/share/doc/fsbench/

# The Debian packages, built from a clean copy of HEAD and checked (bench/package), left in
# DEB_DIR (dist/ by default; make clean keeps them). DEB_FLAGS=--nompi: fsbench alone.
DEB_DIR  ?= dist
DEB_FLAGS?= --nocheck
deb:
	@bench/package $(DEB_FLAGS) --keep $(DEB_DIR)
	@echo "make deb: the packages are in $(abspath $(DEB_DIR))/:"; ls -1 $(DEB_DIR)/*.deb | sed 's|^.*/|  |'
	@echo "make deb: install with apt-get install $(abspath $(DEB_DIR))/fsbench_*.deb"

clean:
	rm -rf build build-san build-clang build-posix build-posix-san build-bench build-bench-posix \
		build-mpi build-mpi-san build-fuzz

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
