# gvlsim - build, test, demo, bench.
#
#   make          build ./gvlsim, its man page and bash completion (in build/;
#                 needs libcjson-dev and zlib1g-dev; `make deps` installs them),
#                 and ./gvlsim-simgrid.so, the SimGrid engine, if libsimgrid-dev is there
#   make install  install them (PREFIX=/usr/local, DESTDIR for staging);
#                 `make uninstall` removes them
#   make test     unit + golden + end-to-end + engine (native vs SimGrid) tests,
#                 then the unit, golden and end-to-end ones under ASan+UBSan
#   make demo     install missing packages, build, run the seed scenarios -> out/
#   make regress  run the seed suite (the sweeps of scenarios/demo.txt) and
#                 compare it with its baselines, tests/regress/*.csv
#   make regress-update  rewrite those baselines (a deliberate model change)
#   make bench    engine and simulator speed figures (never part of `make test`)
#   make docs     re-run the simulations behind the docs' tables and re-render them
#   make docs-measure  re-measure the real executor's and the engines' tables (minutes, quiet host)
#   make docs-validate calibrate this host and re-measure the README's fidelity
#                 targets (gvlsim validate; minutes, quiet host) into its directory
#                 docs/data/validate/hosts/HOST (HOST=NAME, default: CPU model,
#                 count and date); RUBIES=DIR adds the targets on Rubies built
#                 from source (scripts/build_ruby.sh)
#   make valgrind the unit and golden tests under valgrind memcheck
#   make tsan     the real executor's unit tests under ThreadSanitizer
#   make fuzz     fuzz the loader, the simulation, the CSV reader and the trace importer with libFuzzer
#                 (clang), FUZZ_TIME seconds each; the corpus and crashers are kept in tests/fuzz/
#   make bpf      scripts/bpf's probes of the kernel's scheduler and of futex calls, and
#                 their loader, into build/bpf (clang, bpftool, libbpf-dev, a kernel with BTF)

CC      ?= cc
PKGCONF ?= pkg-config

# -Werror in `make test` and CI (which pass WERROR=-Werror), not in a plain
# user `make`: a newer compiler's new warning must not stop a user's build.
WERROR  ?=
WARN    := -Wall -Wextra $(WERROR) -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
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
CXXWARN := -Wall -Wextra $(WERROR) -Wshadow -Wpointer-arith
CXXSTD  := -std=c++17 -fPIC

# -O3: 1.4% fewer instructions per ping-pong message on 2 cores, 2.3% on 1
# (callgrind), same output (no -ffast-math: floating point is unchanged);
# link-time optimisation measured no better than -O3 alone.
RELEASE_CFLAGS := $(STD) $(WARN) -O3 -g $(DEPS_CFLAGS) $(SG_DEFS)
# The ASan build is not position-independent (compiled -fno-pie, linked
# ASAN_LDFLAGS): its UBSan and ASan data (3.3 MB of .data) holds pointers
# that a PIE executable relocates at every start, page by page, and make test
# starts it thousands of times (the e2e suites): 4.9k -> 4.1k page faults and
# 76 -> 56 ms of CPU per `gvlsim --version`.
ASAN_CFLAGS    := $(STD) $(WARN) -O1 -g -fno-pie -fno-omit-frame-pointer \
                  -fsanitize=address,undefined -fno-sanitize-recover=all $(DEPS_CFLAGS) $(SG_DEFS)
ASAN_LDFLAGS   := -no-pie
TSAN_CFLAGS    := $(STD) $(WARN) -O1 -g -fsanitize=thread $(DEPS_CFLAGS) $(SG_DEFS)
# the C++ file: the same optimisation and sanitizers as its build
REL_CXXFLAGS := $(CXXSTD) $(CXXWARN) -O2 -g $(SG_FLAGS)
ASN_CXXFLAGS := $(CXXSTD) $(CXXWARN) -O1 -g -fno-omit-frame-pointer \
                -fsanitize=address,undefined -fno-sanitize-recover=all $(SG_FLAGS)

# Library sources: everything except the CLI entry point.
LIB_DIRS := common sim core models input output exec cli
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

.DEFAULT_GOAL := all

# Objects depend on a stamp of the flags they were built with, so that a
# change of flags (WERROR, CC) rebuilds them.
define flags_stamp
$(1)/.flags: FORCE
	@mkdir -p $(1)
	@echo '$(2)' | cmp -s - $$@ || echo '$(2)' > $$@
endef
$(eval $(call flags_stamp,$(REL),$(CC) $(RELEASE_CFLAGS) $(CXX) $(REL_CXXFLAGS)))
$(eval $(call flags_stamp,$(ASN),$(CC) $(ASAN_CFLAGS) $(CXX) $(ASN_CXXFLAGS)))
$(eval $(call flags_stamp,$(TSN),$(CC) $(TSAN_CFLAGS)))
FORCE:

.PHONY: all deps FORCE demo regress regress-update test test-suite unit-test golden-test e2e-test engine-test \
        docs-test asan-test bench valgrind tsan clean check-deps install uninstall install-test docs docs-measure \
        fuzz fuzz-replay docs-validate asan-replay test-units-sim test-e2e-sim test-asan-units-sim test-asan-golden \
        test-asan-e2e-sim test-real bpf

# The man page and the bash completion are printed by gvlsim from its
# command and option tables (cli/cmd_help.c), so they cannot drift from
# what the parser accepts.
MAN        := build/gvlsim.1
COMPLETION := build/gvlsim.bash-completion

all: check-deps gvlsim $(PLUGIN_REL) $(MAN) $(COMPLETION)

$(MAN): gvlsim
	@echo "  GEN     $@"
	$(Q)./gvlsim help --man >$@.tmp && mv $@.tmp $@

$(COMPLETION): gvlsim scripts/completion.bash
	@echo "  GEN     $@"
	$(Q){ ./gvlsim help --completion-data && cat scripts/completion.bash; } >$@.tmp && mv $@.tmp $@

PREFIX  ?= /usr/local
DESTDIR ?=
BINDIR  ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
MANDIR  ?= $(DATADIR)/man
DOCDIR  ?= $(DATADIR)/doc/gvlsim
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
# the SimGrid engine: sim/engines.c looks for it beside the executable, then
# in ../lib/gvlsim relative to it
PLUGINDIR ?= $(PREFIX)/lib/gvlsim
# What `make install` puts under DATADIR/gvlsim and DOCDIR (example
# scenarios and machine profiles; the documentation).
INSTALL_SCENARIOS := $(shell find scenarios -type f | LC_ALL=C sort)
INSTALL_DOCS      := README.md $(wildcard docs/*.md)

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(DOCDIR)
	install -m 755 gvlsim $(DESTDIR)$(BINDIR)/gvlsim
	$(if $(PLUGIN_REL),install -D -m 644 $(PLUGIN_REL) $(DESTDIR)$(PLUGINDIR)/$(PLUGIN_REL))
	install -m 644 $(MAN) $(DESTDIR)$(MANDIR)/man1/gvlsim.1
	install -m 644 $(COMPLETION) $(DESTDIR)$(BASHCOMPDIR)/gvlsim
	install -m 644 $(INSTALL_DOCS) $(DESTDIR)$(DOCDIR)
	for f in $(INSTALL_SCENARIOS); do install -D -m 644 $$f $(DESTDIR)$(DATADIR)/gvlsim/$$f || exit 1; done

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/gvlsim $(DESTDIR)$(MANDIR)/man1/gvlsim.1 $(DESTDIR)$(BASHCOMPDIR)/gvlsim
	rm -rf $(DESTDIR)$(DOCDIR) $(DESTDIR)$(DATADIR)/gvlsim $(DESTDIR)$(PLUGINDIR)

# `make install` into a staging directory, checked file by file, then
# `make uninstall` (tests/install.sh).
install-test: all
	@$(TIMED) install-test tests/install.sh "$(MAKE)"

check-deps:
	@$(PKGCONF) --exists libcjson 2>/dev/null || { \
	  echo "gvlsim: libcjson not found by pkg-config."; \
	  echo "  run 'make deps' as root, or: apt-get install libcjson-dev pkg-config"; exit 1; }
	@$(PKGCONF) --exists zlib 2>/dev/null || { \
	  echo "gvlsim: zlib not found by pkg-config (needed for .json.gz traces)."; \
	  echo "  run 'make deps' as root, or: apt-get install zlib1g-dev pkg-config"; exit 1; }

deps:
	@scripts/deps.sh

# scripts/bpf: BPF probes that record what the kernel's scheduler saw at each
# wake-up of a command's threads, and their futex calls (docs/bpf.md).  Not
# part of the build: they need clang, bpftool, libbpf-dev, root to load and a
# kernel with BTF.
bpf:
	@scripts/bpf/build.sh build/bpf

# The call-timing preload library `gvlsim calibrate` runs a Ruby with
# (exec/preload/calltime.c): a shared object of its own, without the
# sanitizers (it runs inside the Ruby), carried in every build of the
# executable by exec/calltime_blob.c (.incbin), which depends on it.
CALLTIME_SO := build/calltime.so
$(CALLTIME_SO): exec/preload/calltime.c exec/calltime_rec.h
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) $(STD) $(WARN) -O2 -fPIC -shared -o $@ $< -ldl
$(REL)/exec/calltime_blob.o $(ASN)/exec/calltime_blob.o $(TSN)/exec/calltime_blob.o: $(CALLTIME_SO)

gvlsim: $(REL_OBJ) $(REL)/cli/main.o | $(PLUGIN_REL)
	@echo "  LD      $@"
	$(Q)$(CC) $(RELEASE_CFLAGS) -o $@ $^ $(LDLIBS)

$(REL)/%.o: %.c $(REL)/.flags
	@mkdir -p $(dir $@)
	@[ "$(V)" != 0 ] || echo "  CC      $<"
	$(Q)$(CC) $(RELEASE_CFLAGS) -MMD -MP -c -o $@ $<

$(REL)/%.o: %.cpp $(REL)/.flags
	@mkdir -p $(dir $@)
	@[ "$(V)" != 0 ] || echo "  CXX     $<"
	$(Q)$(CXX) $(REL_CXXFLAGS) -MMD -MP -c -o $@ $<

$(ASN)/%.o: %.cpp $(ASN)/.flags
	@mkdir -p $(dir $@)
	@[ "$(V)" != 0 ] || echo "  CXX asan $<"
	$(Q)$(CXX) $(ASN_CXXFLAGS) -MMD -MP -c -o $@ $<

gvlsim-simgrid.so: $(REL)/sim/engine_simgrid.o
	@echo "  LD      $@"
	$(Q)$(CXX) -shared -o $@ $< $(SG_LIBS)

$(ASN)/gvlsim-simgrid.so: $(ASN)/sim/engine_simgrid.o
	$(Q)$(CXX) -shared -fsanitize=address,undefined -o $@ $< $(SG_LIBS)

$(ASN)/%.o: %.c $(ASN)/.flags
	@mkdir -p $(dir $@)
	@[ "$(V)" != 0 ] || echo "  CC asan $<"
	$(Q)$(CC) $(ASAN_CFLAGS) -MMD -MP -c -o $@ $<

$(TSN)/%.o: %.c $(TSN)/.flags
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
	$(Q)$(CC) $(ASAN_CFLAGS) $(ASAN_LDFLAGS) -o $@ $^ $(LDLIBS)

$(REL)/tests/%: tests/unit/%.c $(REL_OBJ)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(RELEASE_CFLAGS) -MMD -MP -MF $@.d -o $@ $< $(REL_OBJ) $(LDLIBS)

$(ASN)/tests/%: tests/unit/%.c $(ASN_OBJ)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ASAN_CFLAGS) $(ASAN_LDFLAGS) -MMD -MP -MF $@.d -o $@ $< $(ASN_OBJ) $(LDLIBS)

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

# ---- fuzzing ------------------------------------------------------------------
# Each target tests/fuzz/fuzz_NAME.c is a libFuzzer entry point; replay.c runs
# the kept corpus (tests/fuzz/corpus/NAME) and crashers (tests/fuzz/crashers/NAME)
# through it with gcc, in `make test` (release and ASan+UBSan builds).
FUZZ_TARGETS := load csv import run
FUZZ_DIRS := $(foreach t,$(FUZZ_TARGETS),tests/fuzz/corpus/$(t) tests/fuzz/crashers/$(t))
REL_REPLAY := $(FUZZ_TARGETS:%=$(REL)/tests/replay_%)
ASN_REPLAY := $(FUZZ_TARGETS:%=$(ASN)/tests/replay_%)

$(REL)/tests/replay_%: tests/fuzz/replay.c tests/fuzz/fuzz_%.c $(REL_OBJ)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(RELEASE_CFLAGS) -MMD -MP -MF $@.d -o $@ tests/fuzz/replay.c tests/fuzz/fuzz_$*.c $(REL_OBJ) $(LDLIBS)

$(ASN)/tests/replay_%: tests/fuzz/replay.c tests/fuzz/fuzz_%.c $(ASN_OBJ)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ASAN_CFLAGS) $(ASAN_LDFLAGS) -MMD -MP -MF $@.d -o $@ tests/fuzz/replay.c tests/fuzz/fuzz_$*.c $(ASN_OBJ) $(LDLIBS)

fuzz-replay: $(REL_REPLAY)
	@for t in $(FUZZ_TARGETS); do \
	  echo "== replay $$t"; \
	  $(REL)/tests/replay_$$t tests/fuzz/corpus/$$t tests/fuzz/crashers/$$t </dev/null || exit 1; \
	done

FUZZ_CC := clang
FUZZ := build/fuzz
FUZZ_CFLAGS := $(STD) -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined \
               -fno-sanitize-recover=all $(DEPS_CFLAGS)
FUZZ_OBJ := $(LIB_SRC:%.c=$(FUZZ)/%.o)
$(FUZZ)/exec/calltime_blob.o: $(CALLTIME_SO)
FUZZ_TIME ?= 60
$(eval $(call flags_stamp,$(FUZZ),$(FUZZ_CC) $(FUZZ_CFLAGS)))

$(FUZZ)/%.o: %.c $(FUZZ)/.flags
	@mkdir -p $(dir $@)
	@[ "$(V)" != 0 ] || echo "  CC fuzz $<"
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -MMD -MP -c -o $@ $<

$(FUZZ)/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_OBJ)
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_OBJ) $(LDLIBS)

# `make fuzz FUZZ_TIME=600`: run each target, then keep what it found
# (scripts/fuzz.sh: corpus merged and minimised into tests/fuzz/corpus).
fuzz: $(FUZZ_TARGETS:%=$(FUZZ)/fuzz_%)
	@scripts/fuzz.sh $(FUZZ) $(FUZZ_TIME) $(FUZZ_TARGETS)

golden-test: gvlsim
	@$(TIMED) golden-test tests/golden/run.sh ./gvlsim

e2e-test: gvlsim
	@tests/e2e/run.sh ./gvlsim

# the differential test: every golden case and tests/engines/cases.txt give
# the same events and CSV on the native and the SimGrid engine
engine-test: gvlsim
	@$(TIMED) engine-test tests/engines/run.sh ./gvlsim $(HAVE_SIMGRID)

# the ASan+UBSan runs: unit tests and replays abort at the first report;
# gvlsim itself (golden, e2e) reports leaks too
ASAN_UNIT_ENV := ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1
ASAN_BIN_ENV  := ASAN_OPTIONS=detect_leaks=1 GVLSIM_SANITIZED=1

asan-test: $(ASN_UNITS) $(ASN_REPLAY) $(ASN)/gvlsim
	@echo "== ASan+UBSan build =="
	@$(ASAN_UNIT_ENV) scripts/run-unit.sh $(ASN_UNITS)
	@$(MAKE) --no-print-directory asan-replay
	@$(ASAN_BIN_ENV) tests/golden/run.sh $(ASN)/gvlsim
	@$(ASAN_BIN_ENV) tests/e2e/run.sh $(ASN)/gvlsim

asan-replay: $(ASN_REPLAY)
	@for t in $(FUZZ_TARGETS); do \
	  echo "== replay $$t (ASan+UBSan)"; \
	  $(ASAN_UNIT_ENV) $(ASN)/tests/replay_$$t tests/fuzz/corpus/$$t tests/fuzz/crashers/$$t </dev/null || exit 1; \
	done

# `make test` on a fresh machine: install what is missing first (as root),
# then run the suite in a fresh make so that pkg-config sees the packages.
test: deps
	@$(MAKE) --no-print-directory WERROR=-Werror test-suite

# test-suite: the suites of unit-test fuzz-replay golden-test e2e-test
# engine-test docs-test install-test asan-test, each case once, in two
# steps:
#   1-2. every binary they need, both trees (release, ASan), and the suites
#      that only simulate, side by side in one make -j NPROC (each suite's
#      output printed in one piece when it ends): a suite starts as soon as
#      its binaries are linked, while the rest still compiles, so neither
#      lane idles between the build and the suites.  The suites are
#      deterministic: they give the same bytes however loaded the host;
#   3. those that run real threads (the executor's unit test, REAL_UNITS,
#      and the e2e scripts marked "# real-threads:", tests/e2e/run.sh), in
#      both builds, one at a time with nothing else of the suite at work:
#      their watchdogs and the executor's busy-loop calibration see the load.
# A -j given to make itself is kept (not forced to NPROC).
NPROC := $(shell nproc 2>/dev/null || echo 2)
TEST_JOBS = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(NPROC))
# each step and suite timed into TEST_TIMES (scripts/timed.sh: only when
# GVLSIM_TEST_TIMES is set, as test-suite sets it for its sub-makes), printed
# at the end: where the time goes, for whoever finds make test slow
TEST_TIMES := build/test-times.txt
TIMED := scripts/timed.sh
test-suite: export GVLSIM_TEST_TIMES = $(CURDIR)/$(TEST_TIMES)
REAL_UNITS := test_exec
REL_UNITS_SIM  := $(filter-out $(REAL_UNITS:%=$(REL)/tests/%),$(REL_UNITS))
ASN_UNITS_SIM  := $(filter-out $(REAL_UNITS:%=$(ASN)/tests/%),$(ASN_UNITS))
TEST_BINS := all $(REL_UNITS) $(REL_REPLAY) $(REL)/tests/schema_keys $(ASN_UNITS) $(ASN_REPLAY) $(ASN)/gvlsim
# the longest first, so that the two (NPROC) lanes end together (and
# before TEST_BINS on make's command line, so that their binaries are built
# first: the ASan e2e suite, the longest, starts once the ASan gvlsim is linked)
TEST_SIM := test-asan-e2e-sim docs-test test-e2e-sim test-asan-units-sim asan-replay test-asan-golden \
            engine-test golden-test test-units-sim fuzz-replay install-test

test-suite: check-deps
	@mkdir -p build && : >$(TEST_TIMES)
	@$(TIMED) "steps 1-2: build, sim" $(MAKE) --no-print-directory $(TEST_JOBS) --output-sync=target $(TEST_SIM) $(TEST_BINS)
	@$(TIMED) "step 3: test-real" $(MAKE) --no-print-directory test-real
	@echo "make test: all passed; the time of each step and suite (wall, and CPU: user+system; $(TEST_TIMES)):"
	@awk '{ n = $$(NF - 2); for (i = NF - 3; i >= 1; i--) n = $$i " " n; \
	        printf "  %-22s %7.1f s wall %7.1f s CPU\n", n, $$(NF - 1), $$NF }' $(TEST_TIMES)

test-units-sim: $(REL_UNITS_SIM)
	@$(TIMED) test-units-sim scripts/run-unit.sh $(REL_UNITS_SIM)
test-e2e-sim: gvlsim
	@$(TIMED) test-e2e-sim tests/e2e/run.sh ./gvlsim sim
test-asan-units-sim: $(ASN_UNITS_SIM)
	@echo "== ASan+UBSan build: unit tests"
	@$(ASAN_UNIT_ENV) $(TIMED) test-asan-units-sim scripts/run-unit.sh $(ASN_UNITS_SIM)
test-asan-golden: $(ASN)/gvlsim
	@echo "== ASan+UBSan build: golden"
	@$(ASAN_BIN_ENV) $(TIMED) test-asan-golden tests/golden/run.sh $(ASN)/gvlsim
test-asan-e2e-sim: $(ASN)/gvlsim
	@echo "== ASan+UBSan build: e2e"
	@$(ASAN_BIN_ENV) $(TIMED) test-asan-e2e-sim tests/e2e/run.sh $(ASN)/gvlsim sim
# one recipe: its lines run one after another even under make -j
test-real: $(REAL_UNITS:%=$(REL)/tests/%) $(REAL_UNITS:%=$(ASN)/tests/%) gvlsim $(ASN)/gvlsim
	@$(TIMED) test-real:units scripts/run-unit.sh $(REAL_UNITS:%=$(REL)/tests/%)
	@$(TIMED) test-real:e2e tests/e2e/run.sh ./gvlsim real
	@echo "== ASan+UBSan build: real threads"
	@$(ASAN_UNIT_ENV) $(TIMED) test-real:asan-units scripts/run-unit.sh $(REAL_UNITS:%=$(ASN)/tests/%)
	@$(ASAN_BIN_ENV) $(TIMED) test-real:asan-e2e tests/e2e/run.sh $(ASN)/gvlsim real

demo: deps
	@$(MAKE) --no-print-directory gvlsim
	@scripts/demo.sh ./gvlsim out

regress: check-deps gvlsim
	@scripts/regress.sh ./gvlsim

regress-update: check-deps gvlsim
	@scripts/regress.sh ./gvlsim --update

# The docs' tables are generated (scripts/docs/): `make docs` runs every
# simulation of docs/data/sim-runs.txt into docs/data/sim.csv, every import
# of docs/data/import-runs.txt into docs/data/import.csv, then renders
# the tables and figures of README.md, docs/*.md and scenarios/README.md
# from docs/data.  `make docs-measure` measures the real executor's tables
# into out/exec-results, copies the raw data to docs/data/exec, measures the
# two engines into docs/data/engines (scripts/engines_bench.sh), renders.
# `make docs-validate` calibrates the host and measures the fidelity targets
# (docs/data/validate/targets.txt) with `gvlsim validate` into the host's
# directory docs/data/validate/hosts/HOST (HOST=NAME, or derived by
# scripts/host_name.sh; those on a Ruby built from source only with
# RUBIES=DIR; otherwise their rows are kept); `make docs` sets every host's
# measured runs beside this tree's simulator (scripts/docs/validate.sh).
# `make docs-test` (part of `make test`) checks that every rendering matches
# the committed data, that the data is what this tree's simulator gives
# (re-running its cheapest runs), that every schema key is documented and
# that no committed file points outside the repository.
docs: gvlsim
	@scripts/docs/simulate.sh -b ./gvlsim
	@scripts/docs/imports.sh -b ./gvlsim
	@scripts/docs/validate.sh -b ./gvlsim
	@scripts/docs/render.sh
	@scripts/bad-inputs.sh ./gvlsim --update README.md

docs-measure: gvlsim
	@scripts/exec_results.sh ./gvlsim out/exec-results
	@mkdir -p docs/data/exec
	@cp out/exec-results/raw.csv out/exec-results/summaries.txt out/exec-results/host.txt docs/data/exec/
	@$(if $(HAVE_SIMGRID),scripts/engines_bench.sh ./gvlsim docs/data/engines,echo "docs-measure: no SimGrid engine: docs/data/engines kept")
	@scripts/docs/render.sh

docs-validate: gvlsim
	@scripts/validate_results.sh ./gvlsim

docs-test: gvlsim $(REL)/tests/schema_keys
	@$(TIMED) docs-test tests/docs/run.sh ./gvlsim $(REL)/tests/schema_keys

$(REL)/tests/schema_keys: tests/docs/schema_keys.c $(REL_OBJ)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(RELEASE_CFLAGS) -o $@ $< $(REL_OBJ) $(LDLIBS)

# `make bench` also times gvlsim as built at BENCH_BASE_REV (the commit the
# speed work started from; scripts/bench_base.sh builds it under /tmp) side
# by side; BENCH_BASE_REV= skips that.  RUNS=N runs per figure (default 5).
BENCH_BASE_REV ?= 938b7a5
bench: gvlsim $(REL)/tests/bench_engine $(REL)/tests/maxrss
	@base=""; [ -z "$(BENCH_BASE_REV)" ] || base=$$(scripts/bench_base.sh $(BENCH_BASE_REV)) || base=""; \
	  scripts/bench.sh ./gvlsim $(REL)/tests/bench_engine $(REL)/tests/maxrss $$base

BENCH_SG := $(if $(HAVE_SIMGRID),$(REL)/sim/engine_simgrid.o)
$(REL)/tests/bench_engine: tests/bench/bench_engine.c $(REL_OBJ) $(BENCH_SG)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(RELEASE_CFLAGS) -o $@ $< $(REL_OBJ) $(BENCH_SG) $(LDLIBS) $(if $(BENCH_SG),$(SG_LIBS))

$(REL)/tests/maxrss: tests/bench/maxrss.c
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(RELEASE_CFLAGS) -o $@ $<

valgrind: $(REL_UNITS) $(REL_REPLAY) gvlsim
	@scripts/valgrind.sh ./gvlsim $(REL_UNITS) $(REL_REPLAY)

clean:
	rm -rf build gvlsim gvlsim-simgrid.so

-include $(REL_OBJ:.o=.d) $(ASN_OBJ:.o=.d) $(TSN_OBJ:.o=.d) $(REL)/cli/main.d $(ASN)/cli/main.d \
         $(REL)/sim/engine_simgrid.d $(ASN)/sim/engine_simgrid.d
-include $(REL_UNITS:=.d) $(ASN_UNITS:=.d) $(REL_REPLAY:=.d) $(ASN_REPLAY:=.d) $(FUZZ_OBJ:.o=.d)
