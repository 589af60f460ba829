# gvlsim - build, test, demo, bench.
#
#   make          build ./gvlsim (needs libcjson-dev; `make deps` installs it), and
#                 ./gvlsim-simgrid.so, the SimGrid engine, when libsimgrid-dev is there
#   make test     unit + golden + end-to-end + engine (native vs SimGrid) tests,
#                 then the unit, golden and end-to-end ones under ASan+UBSan
#   make demo     install missing packages, build, run the seed scenarios -> out/
#   make bench    engine and simulator speed figures (never part of `make test`)
#   make valgrind the unit and golden tests under valgrind memcheck
#   make tsan     the real executor's unit tests under ThreadSanitizer

CC      ?= cc
PKGCONF ?= pkg-config

WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
           -Wpointer-arith -Wvla
STD     := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -D_GNU_SOURCE
# zlib: gzip-compressed traces (output/gzfile.c)
DEPS_CFLAGS := $(shell $(PKGCONF) --cflags libcjson zlib 2>/dev/null)
DEPS_LIBS   := $(shell $(PKGCONF) --libs libcjson zlib 2>/dev/null)

LDLIBS  := $(DEPS_LIBS) -lpthread -lm

# SimGrid (libsimgrid-dev), the reference engine: built when pkg-config finds
# it and a C++ compiler is there; without it everything else still builds and
# `--engine simgrid` exits 7.  Its one C++ file, sim/engine_simgrid.cpp, is a
# plugin beside the executable (gvlsim-simgrid.so), loaded only when asked
# for: SimGrid's libraries would slow every gvlsim start-up ~20x.
HAVE_SIMGRID := $(shell $(PKGCONF) --exists simgrid 2>/dev/null && command -v $(CXX) >/dev/null 2>&1 && echo yes)
ifeq ($(HAVE_SIMGRID),yes)
SG_DEFS  := -DGVLSIM_HAVE_SIMGRID=1
SG_FLAGS := $(shell $(PKGCONF) --cflags simgrid)
SG_LIBS  := $(shell $(PKGCONF) --libs simgrid) -lstdc++
PLUGIN_REL := gvlsim-simgrid.so
PLUGIN_ASN := build/asan/gvlsim-simgrid.so
endif
CXXWARN := -Wall -Wextra -Werror -Wshadow -Wpointer-arith
CXXSTD  := -std=c++17 -fPIC

RELEASE_CFLAGS := $(STD) $(WARN) -O2 -g $(DEPS_CFLAGS) $(SG_DEFS)
ASAN_CFLAGS    := $(STD) $(WARN) -O1 -g -fno-omit-frame-pointer \
                  -fsanitize=address,undefined -fno-sanitize-recover=all $(DEPS_CFLAGS) $(SG_DEFS)
TSAN_CFLAGS    := $(STD) $(WARN) -O1 -g -fsanitize=thread $(DEPS_CFLAGS) $(SG_DEFS)
# the C++ file: the same optimisation and sanitizers as its build
REL_CXXFLAGS := $(CXXSTD) $(CXXWARN) -O2 -g $(SG_FLAGS)
ASN_CXXFLAGS := $(CXXSTD) $(CXXWARN) -O1 -g -fno-omit-frame-pointer \
                -fsanitize=address,undefined -fno-sanitize-recover=all $(SG_FLAGS)

# Library sources: everything except the CLI entry point.
LIB_DIRS := common sim models input output exec cli
LIB_SRC  := $(filter-out cli/main.c,$(foreach d,$(LIB_DIRS),$(wildcard $(d)/*.c)))
MAIN_SRC := cli/main.c
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_NAMES := $(basename $(notdir $(UNIT_SRC)))

# `make V=1` shows the full compiler command lines.
V ?= 0
ifeq ($(V),0)
Q := @
else
Q :=
endif

REL := build/release
ASN := build/asan
TSN := build/tsan

REL_OBJ := $(LIB_SRC:%.c=$(REL)/%.o)
ASN_OBJ := $(LIB_SRC:%.c=$(ASN)/%.o)
TSN_OBJ := $(LIB_SRC:%.c=$(TSN)/%.o)

# sim/engines.c lists SimGrid or not: rebuild it when that changes
SG_STAMP := build/.simgrid-$(if $(HAVE_SIMGRID),yes,no)
$(SG_STAMP):
	@mkdir -p build && rm -f build/.simgrid-* && touch $@
$(REL)/sim/engines.o $(ASN)/sim/engines.o $(TSN)/sim/engines.o: $(SG_STAMP)

.PHONY: all deps demo test test-suite unit-test golden-test e2e-test engine-test asan-test bench valgrind tsan clean check-deps

all: check-deps gvlsim

check-deps:
	@$(PKGCONF) --exists libcjson 2>/dev/null || { \
	  echo "gvlsim: libcjson not found by pkg-config."; \
	  echo "  run 'make deps' as root, or: apt-get install libcjson-dev pkg-config"; exit 1; }
	@$(PKGCONF) --exists zlib 2>/dev/null || { \
	  echo "gvlsim: zlib not found by pkg-config (needed for .json.gz traces)."; \
	  echo "  run 'make deps' as root, or: apt-get install zlib1g-dev pkg-config"; exit 1; }

deps:
	@scripts/deps.sh

gvlsim: $(REL_OBJ) $(REL)/cli/main.o | $(PLUGIN_REL)
	@echo "  LD      $@"
	$(Q)$(CC) $(RELEASE_CFLAGS) -o $@ $^ $(LDLIBS)

$(REL)/%.o: %.c
	@mkdir -p $(dir $@)
	@[ "$(V)" != 0 ] || echo "  CC      $<"
	$(Q)$(CC) $(RELEASE_CFLAGS) -MMD -MP -c -o $@ $<

$(REL)/%.o: %.cpp
	@mkdir -p $(dir $@)
	@[ "$(V)" != 0 ] || echo "  CXX     $<"
	$(Q)$(CXX) $(REL_CXXFLAGS) -MMD -MP -c -o $@ $<

$(ASN)/%.o: %.cpp
	@mkdir -p $(dir $@)
	@[ "$(V)" != 0 ] || echo "  CXX asan $<"
	$(Q)$(CXX) $(ASN_CXXFLAGS) -MMD -MP -c -o $@ $<

gvlsim-simgrid.so: $(REL)/sim/engine_simgrid.o
	@echo "  LD      $@"
	$(Q)$(CXX) -shared -o $@ $< $(SG_LIBS)

$(ASN)/gvlsim-simgrid.so: $(ASN)/sim/engine_simgrid.o
	$(Q)$(CXX) -shared -fsanitize=address,undefined -o $@ $< $(SG_LIBS)

$(ASN)/%.o: %.c
	@mkdir -p $(dir $@)
	@[ "$(V)" != 0 ] || echo "  CC asan $<"
	$(Q)$(CC) $(ASAN_CFLAGS) -MMD -MP -c -o $@ $<

$(TSN)/%.o: %.c
	@mkdir -p $(dir $@)
	@[ "$(V)" != 0 ] || echo "  CC tsan $<"
	$(Q)$(CC) $(TSAN_CFLAGS) -MMD -MP -c -o $@ $<

$(TSN)/tests/%: tests/unit/%.c $(TSN_OBJ)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(TSAN_CFLAGS) -o $@ $< $(TSN_OBJ) $(LDLIBS)

# ThreadSanitizer over the real executor (not part of `make test`: it cannot
# share a build with ASan).  tests/tsan.supp explains the one suppression.
.SECONDARY: $(TSN_OBJ)
tsan: $(TSN)/tests/test_exec
	@TSAN_OPTIONS="halt_on_error=1 suppressions=tests/tsan.supp" $(TSN)/tests/test_exec

$(ASN)/gvlsim: $(ASN_OBJ) $(ASN)/cli/main.o | $(PLUGIN_ASN)
	$(Q)$(CC) $(ASAN_CFLAGS) -o $@ $^ $(LDLIBS)

$(REL)/tests/%: tests/unit/%.c $(REL_OBJ)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(RELEASE_CFLAGS) -MMD -MP -MF $@.d -o $@ $< $(REL_OBJ) $(LDLIBS)

$(ASN)/tests/%: tests/unit/%.c $(ASN_OBJ)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ASAN_CFLAGS) -MMD -MP -MF $@.d -o $@ $< $(ASN_OBJ) $(LDLIBS)

# test_engines runs the SimGrid engine in-process: it links the plugin's object
ifeq ($(HAVE_SIMGRID),yes)
$(REL)/tests/test_engines: $(REL)/sim/engine_simgrid.o
$(REL)/tests/test_engines: LDLIBS += $(REL)/sim/engine_simgrid.o $(SG_LIBS)
$(ASN)/tests/test_engines: $(ASN)/sim/engine_simgrid.o
$(ASN)/tests/test_engines: LDLIBS += $(ASN)/sim/engine_simgrid.o $(SG_LIBS)
endif

REL_UNITS := $(UNIT_NAMES:%=$(REL)/tests/%)
ASN_UNITS := $(UNIT_NAMES:%=$(ASN)/tests/%)

unit-test: $(REL_UNITS)
	@scripts/run-unit.sh $(REL_UNITS)

golden-test: gvlsim
	@tests/golden/run.sh ./gvlsim

e2e-test: gvlsim
	@tests/e2e/run.sh ./gvlsim

# the differential test: every golden case and tests/engines/cases.txt give
# the same events and CSV on the native and the SimGrid engine
engine-test: gvlsim
	@tests/engines/run.sh ./gvlsim $(HAVE_SIMGRID)

asan-test: $(ASN_UNITS) $(ASN)/gvlsim
	@echo "== ASan+UBSan build =="
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  scripts/run-unit.sh $(ASN_UNITS)
	@ASAN_OPTIONS=detect_leaks=1 GVLSIM_SANITIZED=1 tests/golden/run.sh $(ASN)/gvlsim
	@ASAN_OPTIONS=detect_leaks=1 GVLSIM_SANITIZED=1 tests/e2e/run.sh $(ASN)/gvlsim

# `make test` on a fresh machine: install what is missing first (as root),
# then run the suite in a fresh make so that pkg-config sees the packages.
test: deps
	@$(MAKE) --no-print-directory test-suite

test-suite: check-deps unit-test golden-test e2e-test engine-test asan-test
	@echo "make test: all passed"

demo: deps
	@$(MAKE) --no-print-directory gvlsim
	@scripts/demo.sh ./gvlsim out

BENCH_SG := $(if $(HAVE_SIMGRID),$(REL)/sim/engine_simgrid.o)
bench: gvlsim $(REL)/tests/bench_engine
	@scripts/bench.sh ./gvlsim $(REL)/tests/bench_engine

$(REL)/tests/bench_engine: tests/bench/bench_engine.c $(REL_OBJ) $(BENCH_SG)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(RELEASE_CFLAGS) -o $@ $< $(REL_OBJ) $(BENCH_SG) $(LDLIBS) $(if $(BENCH_SG),$(SG_LIBS))

valgrind: $(REL_UNITS) gvlsim
	@scripts/valgrind.sh ./gvlsim $(REL_UNITS)

clean:
	rm -rf build gvlsim gvlsim-simgrid.so

-include $(REL_OBJ:.o=.d) $(ASN_OBJ:.o=.d) $(TSN_OBJ:.o=.d) $(REL)/cli/main.d $(ASN)/cli/main.d \
         $(REL)/sim/engine_simgrid.d $(ASN)/sim/engine_simgrid.d
