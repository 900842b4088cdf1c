# SPDX-License-Identifier: GPL-2.0-only
# xenalyze: one GNU Makefile for the library, the programs and the tests.

CC       ?= cc
PREFIX   ?= /usr/local
BINDIR   ?= $(PREFIX)/bin
LIBDIR   ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR   ?= $(PREFIX)/share/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
VERSION  := $(shell sed -n 's/^\#define XA_VERSION "\(.*\)"/\1/p' src/cli/cli.h)
SOVERSION := 0
IS_CLANG := $(shell $(CC) --version 2>/dev/null | grep -q clang && echo 1)
# make CC=clang builds apart, in build-clang.
BUILD    ?= $(if $(IS_CLANG),build-clang,build)
# Link-time optimisation lets the reader, merge and model inline into one
# loop (about 20% fewer instructions per record).  gcc: fat LTO objects,
# so that the archive also holds machine code any compiler links; clang:
# no LTO (its bitcode archives need its own linker plugin).
ifeq ($(IS_CLANG),1)
OPT      ?= -O3
else
OPT      ?= -O3 -flto=auto -ffat-lto-objects
endif
ifeq ($(origin AR),default)
AR       := $(if $(IS_CLANG),$(if $(shell command -v llvm-ar),llvm-ar,ar),$(if $(shell command -v gcc-ar),gcc-ar,ar))
endif
SHARED   ?= ../shared

WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
        -Wmissing-prototypes -Wpointer-arith -Wvla -Wformat=2 -Wcast-qual \
        -Wswitch-enum -Wundef -Wwrite-strings
CFLAGS_BASE := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
               $(OPT) -g $(WARN) -Iinclude -Isrc/lib -fvisibility=hidden -fPIC
SHLIB_LDFLAGS := -Wl,--no-undefined
ifeq ($(SANITIZE),1)
CFLAGS_BASE := $(filter-out -O3 -flto=auto -ffat-lto-objects,$(CFLAGS_BASE)) -O1
SHLIB_LDFLAGS :=
CFLAGS_BASE += -fsanitize=address,undefined -fno-sanitize-recover=all \
               -fno-omit-frame-pointer
LDFLAGS     += -fsanitize=address,undefined
BUILD       := $(if $(IS_CLANG),build-clang-san,build-san)
endif
XCFLAGS := $(CFLAGS_BASE) $(CPPFLAGS) $(CFLAGS)

LIB_SRCS := $(sort $(wildcard src/lib/*/*.c))
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o)
CLI_SRCS := $(sort $(wildcard src/cli/*.c))
CLI_OBJS := $(CLI_SRCS:%.c=$(BUILD)/%.o)
SYN_SRCS := $(sort $(wildcard tools/synth/*.c))
SYN_OBJS := $(SYN_SRCS:%.c=$(BUILD)/%.o)
UNIT_SRCS := $(sort $(wildcard tests/unit/test-*.c))
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)
TEST_UTIL := $(BUILD)/tests/unit/tap.o
LIBA := $(BUILD)/libxenalyze.a
SHLIB := $(BUILD)/libxenalyze.so.$(VERSION)
# Compressed input: zlib, liblzma and libzstd when their headers are there
# (ZLIB=0, LZMA=0, ZSTD=0: build without; the reader then says how to read
# such a file).
have_hdr = $(shell printf '\043include <%s>\n' '$(1)' | \
             $(CC) -E -x c - >/dev/null 2>&1 && echo 1)
ZLIB     ?= $(call have_hdr,zlib.h)
LZMA     ?= $(call have_hdr,lzma.h)
ZSTD     ?= $(call have_hdr,zstd.h)
COMP_DEFS := $(if $(filter 1,$(ZLIB)),-DHAVE_ZLIB) \
             $(if $(filter 1,$(LZMA)),-DHAVE_LZMA) \
             $(if $(filter 1,$(ZSTD)),-DHAVE_ZSTD)
COMP_LIBS := $(if $(filter 1,$(ZLIB)),-lz) $(if $(filter 1,$(LZMA)),-llzma) \
             $(if $(filter 1,$(ZSTD)),-lzstd)
LIB_LIBS := -lm -pthread $(strip $(COMP_LIBS))

all: $(BUILD)/xenalyze $(if $(SYN_SRCS),$(BUILD)/xentrace-synth) $(SHLIB)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(XCFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/src/lib/reader/source.o: XCFLAGS += $(COMP_DEFS)

# The byte sources without any decompressor: what a build without zlib,
# liblzma and libzstd says (tests/unit/test-nolib.c).
$(BUILD)/tests/source-nolib.o: src/lib/reader/source.c
	@mkdir -p $(dir $@)
	$(CC) $(XCFLAGS) -MMD -MP -c $< -o $@
$(BUILD)/tests/test-nolib: $(BUILD)/tests/unit/test-nolib.o \
		$(BUILD)/tests/source-nolib.o $(TEST_UTIL) $(LIBA)
	$(CC) $(XCFLAGS) $(LDFLAGS) -o $@ $^ $(LIB_LIBS)

$(LIBA): $(LIB_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

# The shared library exports the XA_API symbols only (tests/check/symbols.sh).
$(SHLIB): $(LIB_OBJS)
	$(CC) $(XCFLAGS) $(LDFLAGS) $(SHLIB_LDFLAGS) -shared \
	  -Wl,-soname,libxenalyze.so.$(SOVERSION) -o $@ $^ $(LIB_LIBS)
	ln -sf libxenalyze.so.$(VERSION) $(BUILD)/libxenalyze.so.$(SOVERSION)
	ln -sf libxenalyze.so.$(SOVERSION) $(BUILD)/libxenalyze.so

$(BUILD)/xenalyze: $(CLI_OBJS) $(LIBA)
	$(CC) $(XCFLAGS) $(LDFLAGS) -o $@ $^ $(LIB_LIBS)

$(BUILD)/xentrace-synth: $(SYN_OBJS) $(LIBA)
	$(CC) $(XCFLAGS) $(LDFLAGS) -o $@ $^ $(LIB_LIBS)

$(BUILD)/trace-repeat $(BUILD)/bare-walk: $(BUILD)/%: tools/bench/%.c
	$(CC) $(XCFLAGS) $(LDFLAGS) -o $@ $^

$(BUILD)/tests/test-%: $(BUILD)/tests/unit/test-%.o $(TEST_UTIL) $(LIBA)
	@mkdir -p $(dir $@)
	$(CC) $(XCFLAGS) $(LDFLAGS) -o $@ $^ $(LIB_LIBS)

$(BUILD)/tests/fuzz-replay: $(BUILD)/tests/fuzz/fuzz-reader.o \
		$(BUILD)/tests/fuzz/replay.o $(LIBA)
	$(CC) $(XCFLAGS) $(LDFLAGS) -o $@ $^ $(LIB_LIBS)

# make check: unit tests, golden tests, bad-input tests, fuzz corpus replay.
check: all $(UNIT_BINS) $(BUILD)/tests/fuzz-replay $(BUILD)/trace-repeat
	@BUILD=$(BUILD) SHARED=$(SHARED) sh tests/run-all.sh $(UNIT_BINS)

# libFuzzer target on reader+merge+model+reports (needs clang).
FUZZ_SECONDS ?= 600
FUZZ_MAX_LEN ?= 65536
# Seeds: slices (< 64 KiB) of the shared real traces, cut at run time and
# never committed, plus tiny synthetic traces; tests/fuzz/corpus holds the
# saved reproducers.  New inputs go to build-fuzz/corpus.
fuzz:
	@mkdir -p build-fuzz/corpus tests/fuzz/corpus
	clang -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -g -O1 \
	  -Iinclude -Isrc/lib -fsanitize=fuzzer,address,undefined \
	  -fno-sanitize-recover=all \
	  -o build-fuzz/fuzz-reader tests/fuzz/fuzz-reader.c $(LIB_SRCS) $(COMP_DEFS) $(LIB_LIBS)
	python3 tests/tools/trace-mangle.py synth build-fuzz/corpus
	python3 tests/hostile/hostile.py seeds build-fuzz/corpus $(FUZZ_MAX_LEN)
	$(if $(wildcard $(SHARED)/traces/*.xentrace),python3 \
	  tests/tools/trace-mangle.py seeds build-fuzz/corpus \
	  $(wildcard $(SHARED)/traces/*.xentrace))
	build-fuzz/fuzz-reader -max_total_time=$(FUZZ_SECONDS) \
	  -max_len=$(FUZZ_MAX_LEN) -timeout=10 -print_final_stats=1 \
	  -artifact_prefix=tests/fuzz/corpus/crash- \
	  build-fuzz/corpus tests/fuzz/corpus

# Long inputs (up to 4 MiB): past the model's table caps and deep into
# the interval tables.
fuzz-long:
	$(MAKE) fuzz FUZZ_MAX_LEN=4194304

# The hostile corpus, long: larger attacks and damaged slices, every mode
# on every input, file and pipe, plain and sanitized; then the scale table
# (tests/hostile/; make check runs the short corpus).
HOSTILE_TRACES = $(wildcard $(SHARED)/traces/*.xentrace) \
	$(wildcard tests/fixtures/*/*.xentrace)
hostile: all
	$(MAKE) SANITIZE=1 all
	XA=$(BUILD)/xenalyze nice -n 10 python3 tests/hostile/run-corpus.py \
	  --long $(HOSTILE_TRACES)
	XA=build-san/xenalyze nice -n 10 python3 tests/hostile/run-corpus.py \
	  $(HOSTILE_TRACES)
	$(MAKE) hostile-scale

# Each scale attack at three sizes: input size, wall time and peak RSS
# from the file and through a pipe (the table in README.md).
hostile-scale: all
	XA=$(BUILD)/xenalyze python3 tests/hostile/scale.py

# The embedded default: a real Arm trace (Xen 4.20.4 + xen-patches/4.20, QEMU virt).
DEMO_TRACE ?= tests/fixtures/arm64/arm64-xen420-credit2-dom0-domu.xentrace
demo: all
	$(BUILD)/xenalyze --summary $(DEMO_TRACE)

# A synthetic host with known answers, from examples/demo.scn.
demo-synth: all
	$(BUILD)/xentrace-synth -s examples/demo.scn -o $(BUILD)/demo.xentrace \
	  -t $(BUILD)/demo.truth.json
	$(BUILD)/xenalyze --summary $(BUILD)/demo.xentrace

# The Debian packages, checked (tools/deb.sh): xenalyze, libxenalyze0,
# libxenalyze-dev in $(BUILD)/deb.
.PHONY: deb
deb:
	BUILD=$(BUILD) sh tools/deb.sh

bench: all $(BUILD)/trace-repeat $(BUILD)/bare-walk
	BUILD=$(BUILD) SHARED=$(SHARED) sh tools/bench.sh

# make install [DESTDIR=...] [PREFIX=/usr/local] [LIBDIR=$(PREFIX)/lib]
HEADERS := $(wildcard include/xenalyze/*.h include/xenalyze/*.def)
MANS := docs/xenalyze.1 docs/xentrace-synth.1
PROGS := xenalyze $(if $(SYN_SRCS),xentrace-synth)
install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) \
	  $(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(INCLUDEDIR)/xenalyze \
	  $(DESTDIR)$(MANDIR)/man1
	install -m 755 $(PROGS:%=$(BUILD)/%) $(DESTDIR)$(BINDIR)/
	install -m 644 $(LIBA) $(SHLIB) $(DESTDIR)$(LIBDIR)/
	ln -sf libxenalyze.so.$(VERSION) \
	  $(DESTDIR)$(LIBDIR)/libxenalyze.so.$(SOVERSION)
	ln -sf libxenalyze.so.$(SOVERSION) $(DESTDIR)$(LIBDIR)/libxenalyze.so
	install -m 644 $(HEADERS) $(DESTDIR)$(INCLUDEDIR)/xenalyze/
	printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$(LIBDIR)' \
	  'includedir=$(INCLUDEDIR)' '' 'Name: xenalyze' \
	  'Description: read, merge and analyse Xen xentrace files' \
	  'Version: $(VERSION)' 'Libs: -L$${libdir} -lxenalyze' \
	  'Libs.private: $(LIB_LIBS)' 'Cflags: -I$${includedir}' \
	  > $(DESTDIR)$(PKGCONFIGDIR)/xenalyze.pc
	install -m 644 $(MANS) $(DESTDIR)$(MANDIR)/man1/

.PHONY: uninstall
uninstall:
	rm -f $(PROGS:%=$(DESTDIR)$(BINDIR)/%) \
	  $(DESTDIR)$(LIBDIR)/libxenalyze.a \
	  $(DESTDIR)$(LIBDIR)/libxenalyze.so* \
	  $(DESTDIR)$(PKGCONFIGDIR)/xenalyze.pc \
	  $(HEADERS:include/xenalyze/%=$(DESTDIR)$(INCLUDEDIR)/xenalyze/%) \
	  $(MANS:docs/%=$(DESTDIR)$(MANDIR)/man1/%)
	-rmdir $(DESTDIR)$(INCLUDEDIR)/xenalyze

# Every public header compiles on its own.
hdrcheck:
	@for h in include/xenalyze/*.h; do \
	  echo "#include \"$$h\"" | $(CC) $(XCFLAGS) -x c -fsyntax-only - || exit 1; \
	done; echo "headers ok"

clean:
	rm -rf build build-san build-fuzz build-clang build-clang-san

.PHONY: all check fuzz fuzz-long hostile hostile-scale demo demo-synth bench install clean hdrcheck lab-x86 lab-arm64 \
	xen-patches-check xen-patches-upstream-check
.SECONDARY:

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# The labs and the Xen series check need a Xen git repository: XEN=path.
lab-x86:
	XEN=$(XEN) bash lab/x86/run.sh pvh
	XEN=$(XEN) bash lab/x86/run.sh dom0

lab-arm64:
	XEN=$(XEN) bash lab/arm64/run.sh

# Apply xen-patches/{master,4.20} onto their bases and build them (by hand).
xen-patches-check:
	XEN=$(XEN) bash xen-patches/check.sh

# Only the series' xenalyze, built from XEN and run on every fixture.
xen-patches-upstream-check:
	XEN=$(XEN) CONFIGS=none bash xen-patches/check.sh
