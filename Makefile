# vp - one non-recursive GNU Makefile.
#
#   make                  library (build/libvp.a, build/libvp.so) and tools
#   make check            build and run every test; last line "N passed, N failed"
#   make check SAN=thread the same under ThreadSanitizer (build-thread/)
#   make check SAN=address  ... under AddressSanitizer + UBSan (build-address/)
#   make run              the main job: vp-run, the tour of every collective,
#                         then vp-run --apps, the book's applications
#   make bench            the benchmarks (bench/vp-bench) into bench/results/
#   make MPI=1            libvp-mpi (build-mpi/): the mpi transport as well,
#                         built with mpicc; make check MPI=1 runs its tests
#                         under mpirun, make run MPI=1 the tour
#   make install PREFIX=/usr/local  (MPI=1: libvp-mpi and vp-mpi.pc)
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
# Only the public API (VP_API in vp.h) is exported from libvp.so.
VP_CFLAGS := -Iinclude -pthread -fPIC -fvisibility=hidden -MMD -MP $(SAN_FLAGS) \
	$(MPI_FLAGS)
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
MPI_TOOLS := $(BUILD)/libvpmpi.a $(BUILD)/vpmpicc $(BUILD)/vpmpirun
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

.PHONY: all check valgrind run bench install deps format clean
all: $(LIB_A) $(LIB_SO) $(TOOL_BIN) $(MPI_TOOLS)

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

$(BUILD)/vpmpicc: mpi/vpmpicc.in
	@mkdir -p $(BUILD)
	sed -e 's|@INCLUDEDIR@|$(CURDIR)/include|' \
	    -e 's|@LIBDIR@|$(CURDIR)/$(BUILD)|' \
	    -e 's|@CFLAGS@|$(SAN_FLAGS)|' $< > $@ && chmod +x $@

$(BUILD)/vpmpirun: mpi/vpmpirun
	@mkdir -p $(BUILD)
	cp $< $@ && chmod +x $@

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

-include $(LIB_OBJ:.o=.d) $(MPI_OBJ:.o=.d) $(APPS_OBJ:.o=.d) $(TEST_BIN:=.d) \
	$(TOOL_OBJ:.o=.d)
