# mpiscope — see README.md. `make`, `make demo`, `make check`.
include config.mk

ifeq ($(SANITIZE),1)
  OPT += -fsanitize=address,undefined -fno-omit-frame-pointer
  LDSAN := -fsanitize=address,undefined
endif

BASE_CFLAGS := -std=c11 $(OPT) $(WARN) -D_GNU_SOURCE -fPIC -MMD -MP -Ipreload -Ipmpi -Iinclude -I$(BUILD)/gen
LIB_CFLAGS  := $(BASE_CFLAGS) -fvisibility=hidden

HAVE_MPICH   := $(shell command -v $(MPICC_MPICH) >/dev/null 2>&1 && echo 1)
HAVE_OPENMPI := $(shell command -v $(MPICC_OPENMPI) >/dev/null 2>&1 && echo 1)

# Sources: everything MPI-free is "core" (shared by the library, the merge and tests).
CORE_SRCS     := preload/log_file.c pmpi/region_name.c
LIB_SRCS      := $(filter-out $(CORE_SRCS),$(wildcard preload/*.c pmpi/*.c))
GEN_SRCS      := $(BUILD)/gen/pmpi_wrappers.c
GEN_HDRS      := $(BUILD)/gen/pmpi_ops.h
ANALYSIS_SRCS := $(filter-out analysis/merge_main.c,$(wildcard analysis/*.c))

CORE_OBJS     := $(CORE_SRCS:%.c=$(BUILD)/obj/core/%.o)
ANALYSIS_OBJS := $(ANALYSIS_SRCS:%.c=$(BUILD)/obj/core/%.o)

MERGE      := $(BUILD)/bin/mpiscope-merge
LIB_MPICH  := $(BUILD)/lib/libmpiscope-mpich.so
LIB_OMPI   := $(BUILD)/lib/libmpiscope-openmpi.so

TARGETS := $(MERGE)
ifeq ($(HAVE_MPICH),1)
  TARGETS += $(LIB_MPICH)
endif
ifeq ($(HAVE_OPENMPI),1)
  TARGETS += $(LIB_OMPI)
endif

.PHONY: all deps demo check unit-tests mpi-tests smoke-tests bench bench-sanity clean FORCE
.DEFAULT_GOAL := all

all: $(TARGETS)
	@test "$(HAVE_MPICH)" = 1 || echo "mpiscope: $(MPICC_MPICH) not found: libmpiscope-mpich.so left out"
	@test "$(HAVE_OPENMPI)" = 1 || echo "mpiscope: $(MPICC_OPENMPI) not found: libmpiscope-openmpi.so left out"

# ---- generated wrappers: one spec table -> C ----
# The generator rewrites a file only when its text changes; the stamp records
# that it ran, so it runs once per change of the table or the generator.
$(BUILD)/gen/stamp: pmpi/calls.tbl scripts/gen_wrappers.py
	@mkdir -p $(BUILD)/gen
	$(PYTHON) scripts/gen_wrappers.py pmpi/calls.tbl $(BUILD)/gen
	@touch $@
$(BUILD)/gen/pmpi_wrappers.c $(BUILD)/gen/pmpi_ops.h: $(BUILD)/gen/stamp ;

# ---- generated Fortran entry points, once per MPI flavour ----
# The symbols the MPI's Fortran libraries export decide which entry points
# exist (none without a Fortran compiler wrapper); docs/FORTRAN.md says which
# bindings each MPI needs. The list is refreshed on every make, and rewritten
# only when it changed.
define fortran_gen
$(BUILD)/gen/fortran-$(1).syms: FORCE
	@mkdir -p $$(dir $$@)
	@bash scripts/fortran_symbols.sh $(2) >$$@.new && { cmp -s $$@.new $$@ || mv $$@.new $$@; }; rm -f $$@.new
$(BUILD)/gen/pmpi_fortran_$(1).c: pmpi/calls.tbl scripts/gen_fortran.py scripts/gen_wrappers.py $(BUILD)/gen/fortran-$(1).syms
	$(PYTHON) scripts/gen_fortran.py pmpi/calls.tbl $(1) $(BUILD)/gen/fortran-$(1).syms $$@
endef
$(eval $(call fortran_gen,mpich,$(MPIF90_MPICH)))
$(eval $(call fortran_gen,openmpi,$(MPIF90_OPENMPI)))

FORCE:

# ---- MPI-free objects ----
$(BUILD)/obj/core/%.o: %.c | $(GEN_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) -c $< -o $@

# ---- preload library, once per MPI flavour ----
define preload_lib
$(BUILD)/obj/$(1)/%.o: %.c | $(GEN_HDRS)
	@mkdir -p $$(dir $$@)
	$(2) $(LIB_CFLAGS) -c $$< -o $$@
$(BUILD)/obj/$(1)/gen/%.o: $(BUILD)/gen/%.c | $(GEN_HDRS)
	@mkdir -p $$(dir $$@)
	$(2) $(LIB_CFLAGS) -c $$< -o $$@
# MPI symbols stay undefined and weak: the library loads (and stays silent)
# in processes without MPI, even with LD_BIND_NOW, and never pulls in an MPI.
$(3): $(LIB_SRCS:%.c=$(BUILD)/obj/$(1)/%.o) $(CORE_SRCS:%.c=$(BUILD)/obj/$(1)/%.o) $(BUILD)/obj/$(1)/gen/pmpi_wrappers.o \
    $(BUILD)/obj/$(1)/gen/pmpi_fortran_$(1).o
	@mkdir -p $$(dir $$@)
	$(CC) -r -nostdlib -o $(BUILD)/obj/$(1)/all.o $$^
	nm -u $(BUILD)/obj/$(1)/all.o | awk '{print $$$$2}' | grep -E '^(P?MPI_|ompi_|MPIR_|p?mpi_|pmpir_|MPI_F_)' | sort -u > $(BUILD)/obj/$(1)/weak.txt
	objcopy --weaken-symbols=$(BUILD)/obj/$(1)/weak.txt $(BUILD)/obj/$(1)/all.o
	$(CC) -shared -o $$@ $(BUILD)/obj/$(1)/all.o -Wl,-z,lazy -Wl,--version-script=preload/exports.map $(4) $(ZSTD_LIBS) -lpthread -ldl $(LDSAN)
endef
# Open MPI's predefined handles (MPI_COMM_WORLD, MPI_BYTE, ...) are data
# symbols, bound when the library loads: the Open MPI library names libmpi,
# so they are found even when the program loads its MPI privately
# (dlopen RTLD_LOCAL, as mpi4py does). MPICH's handles are constants.
$(eval $(call preload_lib,mpich,$(MPICC_MPICH),$(LIB_MPICH),))
OMPI_LINK = -Wl,--no-as-needed $(shell $(MPICC_OPENMPI) --showme:link 2>/dev/null) -Wl,--as-needed
$(eval $(call preload_lib,openmpi,$(MPICC_OPENMPI),$(LIB_OMPI),$(OMPI_LINK)))

# ---- merge ----
$(MERGE): $(BUILD)/obj/core/analysis/merge_main.o $(ANALYSIS_OBJS) $(CORE_OBJS)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $^ $(ZSTD_LIBS) -lpthread -lm $(LDSAN)

# ---- tests ----
UNIT_SRCS  := $(wildcard test/unit/test_*.c)
UNIT_BINS  := $(UNIT_SRCS:%.c=$(BUILD)/%)
$(BUILD)/test/unit/%: test/unit/%.c $(ANALYSIS_OBJS) $(CORE_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) -Ianalysis -o $@ $(filter %.c %.o,$^) $(CRITERION_LIBS) $(ZSTD_LIBS) -lpthread -lm $(LDSAN)

unit-tests: $(UNIT_BINS)
	@set -e; for t in $(UNIT_BINS); do echo "== $$t"; $$t --jobs 1; done

mpi-tests: all
	BUILD=$(BUILD) MPICC_MPICH=$(MPICC_MPICH) MPIEXEC_MPICH=$(MPIEXEC_MPICH) \
	  MPICC_OPENMPI=$(MPICC_OPENMPI) MPIRUN_OPENMPI=$(MPIRUN_OPENMPI) \
	  MPIF90_MPICH=$(MPIF90_MPICH) MPIF90_OPENMPI=$(MPIF90_OPENMPI) \
	  bash test/mpi/run.sh

smoke-tests: all
	BUILD=$(BUILD) bash test/smoke.sh

# Overhead, log size and merge speed (DESIGN §8), as ratios within one run.
bench: all
	MPICC_MPICH=$(MPICC_MPICH) MPIEXEC_MPICH=$(MPIEXEC_MPICH) $(PYTHON) scripts/bench.py --build $(BUILD) --out docs/PERFORMANCE.md

# Generous bounds only (timings here are noisy): a guard against gross regressions.
bench-sanity: all
	MPICC_MPICH=$(MPICC_MPICH) MPIEXEC_MPICH=$(MPIEXEC_MPICH) $(PYTHON) scripts/bench.py --build $(BUILD) --quick --check

deps:
	bash scripts/deps.sh

check: deps
	$(MAKE) all
	$(MAKE) unit-tests
	$(MAKE) smoke-tests
	$(MAKE) mpi-tests
	$(MAKE) bench-sanity

demo: deps
	$(MAKE) all
	BUILD=$(BUILD) MPICC_MPICH=$(MPICC_MPICH) MPIEXEC_MPICH=$(MPIEXEC_MPICH) bash scripts/demo.sh

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD)/obj $(BUILD)/test -name '*.d' 2>/dev/null)
