# vp - one non-recursive GNU Makefile.
#
#   make                  library (build/libvp.a, build/libvp.so) and tools
#   make check            build and run every test; last line "N passed, N failed"
#   make check T=p2p [CASE=sendrecv]  one test (binary or script) by name,
#                         building only what it needs; CASE picks its cases
#   make check SAN=thread the same under ThreadSanitizer (build-thread/)
#   make check SAN=address  ... under AddressSanitizer + UBSan (build-address/)
#   make check-mpich      MPICH's test suite (tests/mpich/run.sh): its passes
#                         by directory, "N passed, N failed"
#   make run              the main job: vp-run, the tour of every collective,
#                         then vp-run --apps, the book's applications
#   make bench            the benchmarks (bench/vp-bench) into build/bench-results/
#                         (BENCH_OUT=dir to choose; bench/results/ holds a
#                         committed snapshot, see docs/performance.md)
#   make bench-update     make bench, then refreshes that snapshot's files
#   make MPI=1            libvp-mpi (build-mpi/): the mpi transport as well,
#                         built with mpicc; make check MPI=1 runs its tests
#                         under mpirun, make run MPI=1 the tour
#   make install PREFIX=/usr/local  the library, vp.pc, the headers, vp-run,
#                         vp-bench, vpmpicc, vpmpirun and their man pages
#                         (man/; MPI=1: libvp-mpi and vp-mpi.pc)
#   make deps             install liburcu-dev if missing (root), else say how
#   make format           clang-format every source

CC ?= cc
CFLAGS ?= -O2 -g
PREFIX ?= /usr/local
VERSION := 0.2.0
SAN ?=
MPI ?=

ifneq ($(MPI),)
ifneq ($(SAN),)
$(error MPI=1 builds without sanitizers (MPI libraries trip them))
endif
# MPICC and MPIRUN pick the MPI (Open MPI's by default; MPICH's:
# MPICC=mpicc.mpich MPIRUN=mpirun.mpich BUILD=build-mpich)
BUILD ?= build-mpi
MPICC ?= mpicc
CC := $(MPICC)
LIBNAME := vp-mpi
MPI_FLAGS := -DVP_HAVE_MPI
MPIRUN ?= mpirun
# Open MPI runs more processes than cores only when asked, and as root only
# when told it may; MPICH does both unasked
OVERSUBSCRIBE := $(shell $(MPIRUN) --version 2>&1 | grep -q "Open MPI" && echo --oversubscribe)
else ifeq ($(SAN),)
BUILD := build
else ifeq ($(SAN),thread)
BUILD := build-thread
SAN_FLAGS := -fsanitize=thread
else ifeq ($(SAN),address)
BUILD := build-address
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
else
$(error SAN must be empty, thread or address)
endif
LIBNAME ?= vp
LIB_A := $(BUILD)/lib$(LIBNAME).a
LIB_SO := $(BUILD)/lib$(LIBNAME).so

STD := -std=gnu11
WARN := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
# Every page of a large stack frame is touched as the frame grows, so a
# frame cannot jump a rank's stack guard into the next rank's stack
# (runtime/threads/stacks.c); vpmpicc compiles programs with it too.
STACK_CLASH := $(shell $(CC) -fstack-clash-protection -E -x c /dev/null \
	>/dev/null 2>&1 && echo -fstack-clash-protection)
# Only the public API (VP_API in vp.h) is exported from libvp.so.
VP_CFLAGS := -Iinclude -pthread -fPIC -fvisibility=hidden -MMD -MP $(SAN_FLAGS) \
	$(STACK_CLASH) $(MPI_FLAGS)
FINAL_CFLAGS = $(STD) $(WARN) $(CFLAGS) $(VP_CFLAGS)
FINAL_LDFLAGS = -pthread $(SAN_FLAGS) $(LDFLAGS)
LDLIBS += -lm

LIB_SRC := $(filter-out runtime/mpi/%,\
	$(wildcard topology/*.c runtime/*.c runtime/*/*.c collectives/*.c))
ifneq ($(MPI),)
LIB_SRC += $(wildcard runtime/mpi/*.c)
endif
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
TEST_SRC := $(wildcard tests/test_*.c)
TEST_BIN := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
MPI_SRC := $(wildcard mpi/*.c)
MPI_OBJ := $(MPI_SRC:%.c=$(BUILD)/obj/%.o)
# libc's functions with state of the process, defined per rank: linked
# into each program's shared object by vpmpicc (mpi/rank/rank_libc.h)
RANK_SRC := $(wildcard mpi/rank/*.c)
RANK_OBJ := $(RANK_SRC:%.c=$(BUILD)/obj/%.o)
MPI_TOOLS := $(BUILD)/libvpmpi.a $(BUILD)/libvpmpi_rank.a $(BUILD)/vpmpicc \
	$(BUILD)/vpmpirun $(BUILD)/vpmpi_launch.o $(BUILD)/libvpmpi.syms
# The book's applications and the collectives' sequential reference
# (apps/), linked into the tools and the tests.
APPS_SRC := $(wildcard apps/*.c)
APPS_OBJ := $(APPS_SRC:%.c=$(BUILD)/obj/%.o)
APPS_LIB := $(BUILD)/libvpapps.a
# The tools (bench/): each bench/vp-NAME.c is a program's main, made of its
# own folder bench/vp-NAME/ (if any) and the helpers they share, bench/*.c.
TOOL_SRC := $(wildcard bench/vp-*.c)
TOOL_BIN := $(TOOL_SRC:bench/%.c=$(BUILD)/%)
BENCH_SHARED_OBJ := $(patsubst %.c,$(BUILD)/obj/%.o,\
	$(filter-out $(TOOL_SRC),$(wildcard bench/*.c)))
TOOL_OBJ := $(patsubst %.c,$(BUILD)/obj/%.o,$(TOOL_SRC) \
	$(wildcard bench/vp-*/*.c)) $(BENCH_SHARED_OBJ)
BENCH_LIB := $(BUILD)/obj/bench/libbench.a
DEPS_OK := $(BUILD)/.deps-ok
# The MPI build: the library, the tools and the transport's test program;
# the MPI layer (an MPI of its own) is not part of it.
ifneq ($(MPI),)
MPI_TOOLS :=
TEST_BIN := $(BUILD)/tests/transport_suite
endif

# The man pages (man/): each tool's made from what its --help prints by
# man/gen-man.sh, the library's from man/vp.3.in.
MAN_TOOLS := vp-run vp-bench vpmpicc vpmpirun
MAN_PAGES := $(MAN_TOOLS:%=$(BUILD)/man/%.1) $(BUILD)/man/vp.3
ifneq ($(MPI),)
MAN_PAGES :=
endif

.PHONY: all check check-explore check-mpich valgrind run bench bench-update install deps format clean man
all: $(LIB_A) $(LIB_SO) $(TOOL_BIN) $(MPI_TOOLS) $(MAN_PAGES)
man: $(MAN_PAGES)

# liburcu-dev: installed with apt-get when missing and we are root.
deps: $(DEPS_OK)
$(DEPS_OK):
	@if ! command -v pkg-config >/dev/null || ! pkg-config --exists liburcu; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "deps: installing liburcu-dev pkg-config"; \
	    DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq liburcu-dev pkg-config >/dev/null || exit 1; \
	  else \
	    echo "deps: liburcu-dev is missing; run: sudo apt-get install -y liburcu-dev pkg-config"; exit 1; \
	  fi; \
	fi
	@mkdir -p $(BUILD) && touch $@

$(BUILD)/obj/%.o: %.c | $(DEPS_OK)
	@mkdir -p $(dir $@)
	$(CC) $(FINAL_CFLAGS) $$(pkg-config --cflags liburcu) -c $< -o $@

$(LIB_A): $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(LIB_SO): $(LIB_OBJ)
	$(CC) -shared -o $@ $^ $(FINAL_LDFLAGS) $(LDLIBS)

# The MPI layer (mpi/, written against vp.h only) and its wrappers; the
# build tree's vpmpicc points at this tree, the installed one at PREFIX.
# the layer's calls are exported from the executable: vpmpicc loads the
# program as a shared object that calls them
$(MPI_OBJ): VP_CFLAGS += -fvisibility=default

$(BUILD)/libvpmpi.a: $(MPI_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/libvpmpi_rank.a: $(RANK_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

# what every program vpmpicc links holds, made once: the executable's part
# (both libraries whole, as one relocatable object) and the MPI calls
# libvpmpi.a defines (vpmpicc checks a program's calls against them)
$(BUILD)/vpmpi_launch.o: $(BUILD)/libvpmpi.a $(LIB_A)
	$(LD) -r --whole-archive $^ -o $@

$(BUILD)/libvpmpi.syms: $(BUILD)/libvpmpi.a
	nm -g --defined-only $< | awk 'NF == 3 { print $$3 }' | LC_ALL=C sort -u > $@.tmp
	mv $@.tmp $@

# whether cc, vpmpicc's default compiler, has -fstack-clash-protection
# (yes or no), asked once here rather than at every vpmpicc
CC_CLASH := $(shell cc -fstack-clash-protection -E -x c /dev/null \
	>/dev/null 2>&1 && echo yes || echo no)
$(BUILD)/vpmpicc: mpi/vpmpicc.in
	@mkdir -p $(BUILD)
	sed -e 's|@INCLUDEDIR@|$(CURDIR)/include|' \
	    -e 's|@LIBDIR@|$(CURDIR)/$(BUILD)|' \
	    -e 's|@CC_CLASH@|$(CC_CLASH)|' \
	    -e 's|@CFLAGS@|$(SAN_FLAGS)|' $< > $@ && chmod +x $@

$(BUILD)/vpmpirun: mpi/vpmpirun
	@mkdir -p $(BUILD)
	cp $< $@ && chmod +x $@

MAN_SUMMARY_vp-run := runs vp's collectives on a topology and reports model and wall times
MAN_SUMMARY_vp-bench := vp's benchmarks: latency, bandwidth, collectives, vp beside MPI
MAN_SUMMARY_vpmpicc := compiles and links MPI programs to run on vp, ranks as threads
MAN_SUMMARY_vpmpirun := runs an MPI program built with vpmpicc, its ranks as threads
$(BUILD)/man/%.1: $(BUILD)/% man/gen-man.sh
	@mkdir -p $(dir $@)
	sh man/gen-man.sh $* $(VERSION) "$(MAN_SUMMARY_$*)" ./$< > $@.tmp
	mv $@.tmp $@

$(BUILD)/man/vp.3: man/vp.3.in
	@mkdir -p $(dir $@)
	sed 's|@VERSION@|$(VERSION)|' $< > $@

$(APPS_LIB): $(APPS_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/tests/%: tests/%.c $(LIB_A) $(APPS_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(FINAL_CFLAGS) -Itopology -Itests -I. $< -o $@ $(APPS_LIB) $(LIB_A) $(FINAL_LDFLAGS) $(LDLIBS)

$(BUILD)/tests/transport_suite: tests/transport/suite.c $(LIB_A)
	@mkdir -p $(dir $@)
	$(CC) $(FINAL_CFLAGS) -Itests $< -o $@ $(LIB_A) $(FINAL_LDFLAGS) $(LDLIBS)

$(TOOL_OBJ): VP_CFLAGS += -I. -Ibench -DVP_SOURCE_DIR='"$(CURDIR)"' \
	-DVP_VERSION='"$(VERSION)"'

$(BENCH_LIB): $(BENCH_SHARED_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

# A tool: its main, its own folder's objects, then the shared helpers, the
# applications and the library.
define TOOL_RULE
$(BUILD)/$(1): $(BUILD)/obj/bench/$(1).o \
	  $(filter $(BUILD)/obj/bench/$(1)/%,$(TOOL_OBJ)) $(BENCH_LIB) \
	  $(APPS_LIB) $(LIB_A)
	$$(CC) $$(filter %.o,$$^) -o $$@ $(BENCH_LIB) $(APPS_LIB) $(LIB_A) \
	  $$(FINAL_LDFLAGS) $$(LDLIBS)
endef
$(foreach t,$(TOOL_BIN:$(BUILD)/%=%),$(eval $(call TOOL_RULE,$(t))))

# One test by name: make check T=NAME [CASE=GLOB]. NAME is a C test or a
# script, with or without test_ and .c/.sh (p2p, test_p2p, test_mpi.sh,
# mpi_cases); only what it needs is built. CASE (VP_TEST_CASE) selects the
# cases whose description it matches in a C test (tests/tap.h), the
# programs it names in test_mpi*.sh (tests/mpi_setup.sh).
ifneq ($(T),)
T_BASE := $(patsubst test_%,%,$(basename $(notdir $(T))))
T_C := $(if $(filter .sh,$(suffix $(T))),,$(wildcard tests/test_$(T_BASE).c))
T_SH := $(wildcard tests/test_$(T_BASE).sh)
ifneq ($(T_C),)
T_RUN := $(BUILD)/tests/test_$(T_BASE)
T_NEEDS := $(T_RUN) $(if $(filter vp_%,$(T_BASE)),$(TOOL_BIN))
else ifneq ($(T_SH),)
T_RUN := $(T_SH)
T_NEEDS := $(LIB_A) $(LIB_SO) $(MPI_TOOLS)
else
$(error T=$(T): no tests/test_$(T_BASE).c or tests/test_$(T_BASE).sh)
endif
endif

# test_vp_run and test_vp_bench drive the tools of the same build;
# test_exports.sh reads the shared library's dynamic symbols;
# test_layers.sh reads the sources' includes.
ifneq ($(MPI),)
# the mpi transport: the suite under mpirun -np 1, 2, 4, 8 (and 9), its
# model times compared with the threads transport's
check: $(TEST_BIN) $(BUILD)/vp-run $(BUILD)/vp-bench $(LIB_SO) $(LIB_A)
	@MPIRUN="$(MPIRUN)" VP_TOOLS=$(BUILD) sh tests/run-tests.sh \
	  tests/test_transport_mpi.sh
else ifneq ($(T),)
# one test by name (T_RUN and T_NEEDS below), in the plain pass only
check: $(T_NEEDS)
	@SAN=$(SAN) VP_TOOLS=$(BUILD) $(if $(CASE),VP_TEST_CASE='$(CASE)') \
	  sh tests/run-tests.sh $(T_RUN)
else
check: $(TEST_BIN) $(BUILD)/vp-run $(BUILD)/vp-bench $(LIB_SO) \
	  $(LIB_A) $(MPI_TOOLS)
	@SAN=$(SAN) VP_TOOLS=$(BUILD) sh tests/run-tests.sh $(CHECK_TESTS)
	@echo "# the same tests with the ranks as fibers (VP_FIBERS=1)"
	@VP_FIBERS=1 SAN=$(SAN) VP_TOOLS=$(BUILD) sh tests/run-tests.sh \
	  $(FIBER_TESTS)
endif

# No false alarms, at length: the tour, the applications and every MPI
# program of tests/mpi under 25 seeds of uniform and of PCT schedules
# (make check runs 2 of each on a representative set).
check-explore: $(BUILD)/vp-run $(LIB_A) $(MPI_TOOLS)
	@VP_EXPLORE_SEEDS=25 VP_TOOLS=$(BUILD) sh tests/run-tests.sh \
	  tests/test_explore_correct.sh

# MPICH's own test suite (test/mpi) with vp's MPI: tests/mpich/run.sh.
#   make check-mpich [MPICH_TESTS=DIR] [MPICH_FLAGS="-d coll -o ..."]
# MPICH_FLOOR=1 fails when fewer tests pass than tests/mpich/floor says.
# Without the suite it says so and how to get it, and is skipped (exit 0):
# a fresh clone has no ../shared.
MPICH_TESTS ?= ../shared/mpich-testsuite
check-mpich: $(LIB_A) $(MPI_TOOLS)
	@VP_BUILD=$(BUILD) tests/mpich/run.sh -B $(BUILD)/mpich $(MPICH_FLAGS) \
	  $(if $(MPICH_FLOOR),-f tests/mpich/floor) $(MPICH_TESTS); \
	rc=$$?; [ $$rc = 77 ] && exit 0; exit $$rc

# The fibers pass: every C test; under a sanitizer the point-to-point,
# request, misuse and semantics tests (the collective matrix and the tools
# again would double a run that CI makes twice)
FIBER_SAN_TESTS := test_p2p test_requests test_tags test_msg_types \
	test_errors test_misuse test_onesided test_direct test_comm_group \
	test_soak_mixed test_coll_semantics test_recv_reduce \
	test_barrier_shared test_coll_shared test_safe_exchange test_win_lock
FIBER_TESTS := $(if $(SAN),$(addprefix $(BUILD)/tests/,$(FIBER_SAN_TESTS)),$(TEST_BIN))

# The threads pass: every C test and script; under a sanitizer less what
# SAN_SKIP names. Every test runs in the plain pass; the sanitizer passes
# are there for races and memory errors in the runtime, the mailboxes, the
# collectives and the MPI layer, which these leave to others that run
# under both sanitizers:
#   - test_exports.sh, test_layers.sh, test_func_length.sh read the
#     sources and the symbols, not run vp's code;
#   - test_explore_correct.sh (correct programs pass every schedule) and
#     test_schedule_model.sh (model times do not depend on the schedule)
#     check what vp computes under a schedule, which no sanitizer changes;
#     the schedule's code runs under both in test_schedule, test_explore
#     and (AddressSanitizer) test_explore_mpi.sh, the tour and the
#     applications in test_vp_run (AddressSanitizer) and test_apps, the
#     MPI programs in test_mpi.sh.
# Under ThreadSanitizer (the longest pass) also:
#   - test_explore_mpi.sh: an explored run hands the CPU from rank to
#     rank, one at a time, so what ThreadSanitizer can check there is the
#     hand-off, which test_schedule and test_explore run (AddressSanitizer
#     keeps the script: each run's fresh state of the program and of vp);
#   - test_vp_run and test_vp_bench: the tools' tour and benchmarks call
#     the collectives and point to point of test_coll_matrix and test_p2p
#     (AddressSanitizer keeps them: the tools' own memory);
#   - test_coll_model: the model times of the algorithms that
#     test_coll_matrix runs, every one of them, under ThreadSanitizer.
CHECK_SCRIPTS := tests/test_exports.sh tests/test_layers.sh tests/test_mpi.sh \
	tests/test_mpi_cases.sh tests/test_func_length.sh \
	tests/test_explore_mpi.sh tests/test_explore_correct.sh \
	tests/test_schedule_model.sh
SAN_SKIP := test_exports.sh test_layers.sh test_func_length.sh \
	test_explore_correct.sh test_schedule_model.sh
SAN_SKIP_thread := test_explore_mpi.sh test_vp_run test_vp_bench \
	test_coll_model
CHECK_TESTS := $(filter-out $(if $(SAN),$(addprefix %/,$(SAN_SKIP) \
	$(SAN_SKIP_$(SAN)))),$(TEST_BIN) $(CHECK_SCRIPTS))

# Every test binary under valgrind's leak checker (definite and indirect
# leaks and memory errors fail it); the soak is shortened, threads raised.
# --fair-sched=yes: valgrind runs one thread at a time, and by default a
# thread that never blocks keeps the lock; two fiber carriers polling (a
# vp_test loop) then took 90-180 s for what takes 0.4 s handed over fairly.
VALGRIND := valgrind -q --fair-sched=yes --max-threads=5000 --leak-check=full \
	--show-leak-kinds=definite,indirect \
	--errors-for-leak-kinds=definite,indirect --error-exitcode=9
valgrind: $(TEST_BIN) $(BUILD)/vp-run $(BUILD)/vp-bench
	@VP_TOOLS=$(BUILD) VP_TEST_QUICK=1 VP_SOAK_MESSAGES=20000 VP_TEST_WRAP="$(VALGRIND)" \
	  sh tests/run-tests.sh $(TEST_BIN)

ifneq ($(MPI),)
# the tour on the mpi transport at p = 8 (ring, line, hypercube, full,
# tree), then at p = 9 (the 3x3 mesh and torus); Open MPI refuses root
# unless told
MPIRUN_ENV := VP_TRANSPORT=mpi OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
run: $(BUILD)/vp-run
	$(MPIRUN_ENV) $(MPIRUN) $(OVERSUBSCRIBE) -np 8 ./$(BUILD)/vp-run
	$(MPIRUN_ENV) $(MPIRUN) $(OVERSUBSCRIBE) -np 9 ./$(BUILD)/vp-run
else
run: $(BUILD)/vp-run
	./$(BUILD)/vp-run
	./$(BUILD)/vp-run --apps
endif

# The standard set: the basic suite, every collective x algorithm, the
# side by side with Open MPI (installed with apt-get when missing and root),
# the applications' scaling table with Cannon's picture, what
# reproducible sums cost, and the rooted collectives' three ways at p = 64.
BENCH_OUT ?= $(BUILD)/bench-results
bench: $(BUILD)/vp-bench $(BUILD)/vp-run
	@mkdir -p $(BENCH_OUT)
	./$(BUILD)/vp-bench | tee $(BENCH_OUT)/basic.txt
	./$(BUILD)/vp-bench --collectives --csv > $(BENCH_OUT)/collectives.csv
	./$(BUILD)/vp-bench --compare-mpi --out $(BENCH_OUT) | tee $(BENCH_OUT)/compare.txt
	./$(BUILD)/vp-bench --compare-mpi --same-source --out $(BENCH_OUT) | tee $(BENCH_OUT)/same_source.txt
	./$(BUILD)/vp-bench --apps --out $(BENCH_OUT) | tee $(BENCH_OUT)/apps_scaling.txt
	./$(BUILD)/vp-bench --reproducible | tee $(BENCH_OUT)/reproducible.txt
	./$(BUILD)/vp-bench --rooted | tee $(BENCH_OUT)/rooted.txt
	./$(BUILD)/vp-run --app cannon --topology torus:4x4 --n 48 --svg $(BENCH_OUT)/cannon.svg
	@echo "make bench: results in $(BENCH_OUT)/"

# The committed snapshot the docs quote (bench/results/): make bench, then
# every file of its output that the snapshot holds is replaced by the new
# one (the others stay as they are; git diff shows what changed).
bench-update: bench
	@for f in bench/results/*; do \
	  n=$${f##*/}; \
	  if [ -f "$(BENCH_OUT)/$$n" ]; then cp "$(BENCH_OUT)/$$n" "$$f"; echo "updated $$f"; fi; \
	done

# Installs the headers (vp.h and vp/vp_layer.h, which vp.h includes; the
# MPI layer's vp/mpi.h and vp/vpmpi_io.h), both libraries and vp.pc, whose
# libdir and includedir follow the usual pkg-config layout (pkg-config
# --variable=libdir vp), the tools (vp-run, vp-bench, vpmpicc, vpmpirun)
# and the man pages (MANDIR: vp-run(1), vp-bench(1), vpmpicc(1),
# vpmpirun(1), vp(3)).
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
ifneq ($(MPI),)
# libvp-mpi: the headers (vp.h, vp/vp_layer.h), both libraries and
# vp-mpi.pc (mpicc's flags are the user's: build the program with mpicc
# too)
install: $(LIB_A) $(LIB_SO)
	install -d $(DESTDIR)$(INCLUDEDIR)/vp $(DESTDIR)$(LIBDIR)/pkgconfig
	install -m 644 include/vp.h $(DESTDIR)$(INCLUDEDIR)/vp.h
	install -m 644 include/vp/vp_layer.h $(DESTDIR)$(INCLUDEDIR)/vp/vp_layer.h
	install -m 644 $(LIB_A) $(DESTDIR)$(LIBDIR)/libvp-mpi.a
	install -m 755 $(LIB_SO) $(DESTDIR)$(LIBDIR)/libvp-mpi.so
	printf '%s\n' 'prefix=$(PREFIX)' 'exec_prefix=$${prefix}' \
	  'libdir=$(LIBDIR)' 'includedir=$(INCLUDEDIR)' '' \
	  'Name: vp-mpi' \
	  'Description: vp with its mpi transport (ranks as MPI processes); build with mpicc' \
	  'Version: $(VERSION)' 'Requires.private: liburcu' \
	  'Cflags: -I$${includedir} -pthread' \
	  'Libs: -L$${libdir} -lvp-mpi -pthread' 'Libs.private: -lm' \
	  > $(DESTDIR)$(LIBDIR)/pkgconfig/vp-mpi.pc
else
install: $(BUILD)/libvp.a $(BUILD)/libvp.so $(BUILD)/libvpmpi.a \
	  $(BUILD)/libvpmpi_rank.a $(BUILD)/vpmpi_launch.o $(BUILD)/libvpmpi.syms $(BUILD)/vp-run $(BUILD)/vp-bench $(MAN_PAGES)
	install -d $(DESTDIR)$(INCLUDEDIR)/vp $(DESTDIR)$(LIBDIR)/pkgconfig \
	  $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3
	install -m 755 $(BUILD)/vp-run $(BUILD)/vp-bench $(DESTDIR)$(BINDIR)/
	install -m 644 $(MAN_TOOLS:%=$(BUILD)/man/%.1) $(DESTDIR)$(MANDIR)/man1/
	install -m 644 $(BUILD)/man/vp.3 $(DESTDIR)$(MANDIR)/man3/vp.3
	install -m 644 include/vp.h $(DESTDIR)$(INCLUDEDIR)/vp.h
	install -m 644 include/vp/vp_layer.h $(DESTDIR)$(INCLUDEDIR)/vp/vp_layer.h
	install -m 644 include/vp/mpi.h $(DESTDIR)$(INCLUDEDIR)/vp/mpi.h
	install -m 644 include/vp/vpmpi_io.h $(DESTDIR)$(INCLUDEDIR)/vp/vpmpi_io.h
	install -m 644 $(BUILD)/libvpmpi.a $(DESTDIR)$(LIBDIR)/libvpmpi.a
	install -m 644 $(BUILD)/libvpmpi_rank.a $(DESTDIR)$(LIBDIR)/libvpmpi_rank.a
	install -m 644 $(BUILD)/vpmpi_launch.o $(DESTDIR)$(LIBDIR)/vpmpi_launch.o
	install -m 644 $(BUILD)/libvpmpi.syms $(DESTDIR)$(LIBDIR)/libvpmpi.syms
	sed -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|' -e 's|@LIBDIR@|$(LIBDIR)|' \
	  -e 's|@CC_CLASH@|$(CC_CLASH)|' \
	  -e 's|@CFLAGS@||' mpi/vpmpicc.in > $(DESTDIR)$(BINDIR)/vpmpicc
	chmod 755 $(DESTDIR)$(BINDIR)/vpmpicc
	install -m 755 mpi/vpmpirun $(DESTDIR)$(BINDIR)/vpmpirun
	install -m 644 $(BUILD)/libvp.a $(DESTDIR)$(LIBDIR)/libvp.a
	install -m 755 $(BUILD)/libvp.so $(DESTDIR)$(LIBDIR)/libvp.so
	printf '%s\n' 'prefix=$(PREFIX)' 'exec_prefix=$${prefix}' \
	  'libdir=$(LIBDIR)' 'includedir=$(INCLUDEDIR)' '' \
	  'Name: vp' \
	  'Description: message-passing ranks as threads, with a model clock' \
	  'Version: $(VERSION)' 'Requires.private: liburcu' \
	  'Cflags: -I$${includedir} -pthread' \
	  'Libs: -L$${libdir} -lvp -pthread' 'Libs.private: -lm' \
	  > $(DESTDIR)$(LIBDIR)/pkgconfig/vp.pc
endif

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	rm -rf build build-thread build-address

-include $(LIB_OBJ:.o=.d) $(MPI_OBJ:.o=.d) $(RANK_OBJ:.o=.d) $(APPS_OBJ:.o=.d) \
	$(TEST_BIN:=.d) $(TOOL_OBJ:.o=.d)
