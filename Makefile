# mpiscope — see README.md. `make`, `make demo`, `make check`.
include config.mk

ifeq ($(SANITIZE),1)
  OPT += -fsanitize=address,undefined -fno-omit-frame-pointer
  LDSAN := -fsanitize=address,undefined
endif

BASE_CFLAGS := -std=c11 $(OPT) $(WARN) -D_GNU_SOURCE -DMS_VERSION='"$(VERSION)"' -fPIC -MMD -MP -Iinclude -I$(BUILD)/gen
LIB_CFLAGS  := $(BASE_CFLAGS) -fvisibility=hidden

# Sources (docs/DESIGN.md section 7). Everything MPI-free is "core", built
# once: common/ (linked into the library and the merge) and the log writer
# of preload/ (linked into the library, the unit tests and the synthesizer).
COMMON_SRCS   := $(wildcard common/*.c)
WRITER_SRCS   := preload/log_file.c preload/fallback.c preload/summary.c preload/summary_requests.c preload/summary_log.c
CORE_SRCS     := $(COMMON_SRCS) $(WRITER_SRCS)
LIB_SRCS      := $(filter-out $(CORE_SRCS),$(wildcard preload/*.c pmpi/*.c))
# A collector's settings (its *_settings.c, collector.h) are linked in
# always, the rest of its folder when config.mk's probe builds it.
# The LIKWID collector (likwid/).
LIB_SRCS      += likwid/lk_settings.c
ifeq ($(HAVE_LIKWID),1)
  LIB_SRCS    += $(filter-out likwid/lk_settings.c,$(wildcard likwid/*.c))
  LIB_CFLAGS  += $(LIKWID_INC)
endif
# The CUPTI collector (cupti/).
LIB_SRCS      += cupti/cu_settings.c
ifeq ($(HAVE_CUPTI),1)
  LIB_SRCS    += $(filter-out cupti/cu_settings.c,$(wildcard cupti/*.c))
  LIB_CFLAGS  += -isystem $(CUDA_HOME)/include
endif
GEN_SRCS      := $(BUILD)/gen/pmpi_wrappers.c $(BUILD)/gen/pmpi_next.c $(BUILD)/gen/pmpi_op_table.c
GEN_HDRS      := $(BUILD)/gen/pmpi_ops.h $(BUILD)/gen/pmpi_next.h $(BUILD)/gen/report_html_assets.h
# The call-site symbolizer is linked into the merge and the unit tests only;
# its file reader uses elfutils when config.mk's probe links it
# (symbolize_file.h), else it resolves nothing.
ifeq ($(HAVE_DW),1)
  SYM_SRCS    := $(filter-out analysis/symbolize/symbolize_nodw.c,$(wildcard analysis/symbolize/*.c))
  DW_LINK     := $(DW_LIBS)
else
  SYM_SRCS    := $(filter-out analysis/symbolize/symbolize_dwfl.c analysis/symbolize/symbolize_index.c,$(wildcard analysis/symbolize/*.c))
  DW_LINK     :=
endif
# The OTF2 export (libotf2, when found) is linked into the merge only.
OTF2_SRCS     := $(wildcard analysis/report/otf2/*.c)
ifeq ($(HAVE_OTF2),1)
  OTF2_BUILD_CFLAGS := -DMS_HAVE_OTF2 $(OTF2_CFLAGS)
  OTF2_LINK   := $(OTF2_LIBS)
endif
MERGE_LIBS    = $(ZSTD_LIBS) $(DW_LINK) $(OTF2_LINK) -ldl -lpthread -lm $(LDSAN)
# The options and outputs of both merge programs (merge_cli.c) need the OTF2 objects.
MERGE_SRCS    := $(wildcard analysis/merge/*.c)
ANALYSIS_SRCS := $(filter-out $(MERGE_SRCS) $(OTF2_SRCS),$(wildcard analysis/read/*.c analysis/waits/*.c analysis/reduce/*.c analysis/report/*.c analysis/report/html/*.c))

# ---- the effective configuration, recorded: objects depend on it ----
# $(call config_stamp,NAME,TEXT) rewrites $(BUILD)/config/NAME when TEXT
# (the compiler, flags and switches a group of targets is built with)
# differs from what it holds, and gives its path: what was built under
# another configuration is then out of date and is built again.
config_stamp = $(shell mkdir -p $(BUILD)/config && f=$(BUILD)/config/$(1) && \
  printf '%s\n' '$(subst ','\'',$(strip $(2)))' >$$f.new && \
  { cmp -s $$f.new $$f && rm -f $$f.new || mv -f $$f.new $$f; } && echo $$f)
# The flags name the build directory's own generated headers as (build)/gen:
# the same sources give the same headers in any build directory, so objects
# copied from one to another stay valid (test/config.sh does).
stamp_flags   = $(subst -I$(BUILD)/gen,-I(build)/gen,$(1))
STAMP_CORE    := $(call config_stamp,core,$(CC) $(call stamp_flags,$(BASE_CFLAGS)) | $(LDSAN) | $(ZSTD_LIBS))
STAMP_MERGE   := $(call config_stamp,merge,HAVE_DW=$(HAVE_DW) $(DW_CFLAGS) $(DW_LINK) | HAVE_OTF2=$(HAVE_OTF2) $(OTF2_BUILD_CFLAGS) $(OTF2_LINK))
STAMP_MPICH   := $(call config_stamp,lib-mpich,$(MPICC_MPICH) $(call stamp_flags,$(LIB_CFLAGS)) | $(LDSAN) | $(ZSTD_LIBS))
# A flavour left out builds nothing: its stamp keeps what its objects were
# built with, so that they stay valid for the next build that has it.
STAMP_OPENMPI := $(if $(filter 1,$(HAVE_OPENMPI)),$(call config_stamp,lib-openmpi,$(MPICC_OPENMPI) $(call stamp_flags,$(LIB_CFLAGS)) | $(LDSAN) | $(ZSTD_LIBS)))

# The op names of pmpi/calls.tbl (common/op_names.h) and what each op means
# (its class column, common/op_class.h), generated.
OP_TABLE_OBJS := $(BUILD)/obj/core/gen/op_names.o $(BUILD)/obj/core/gen/op_class.o
CORE_OBJS     := $(CORE_SRCS:%.c=$(BUILD)/obj/core/%.o) $(OP_TABLE_OBJS)
COMMON_OBJS   := $(COMMON_SRCS:%.c=$(BUILD)/obj/core/%.o) $(OP_TABLE_OBJS)
ANALYSIS_OBJS := $(ANALYSIS_SRCS:%.c=$(BUILD)/obj/core/%.o)
SYM_OBJS      := $(SYM_SRCS:%.c=$(BUILD)/obj/core/%.o)
OTF2_OBJS     := $(OTF2_SRCS:%.c=$(BUILD)/obj/core/%.o)

MERGE      := $(BUILD)/bin/mpiscope-merge
MERGE_MPI  := $(BUILD)/bin/mpiscope-merge-mpich
LAUNCHER   := $(BUILD)/bin/mpiscope
LIB_MPICH  := $(BUILD)/lib/libmpiscope-mpich.so
LIB_OMPI   := $(BUILD)/lib/libmpiscope-openmpi.so
LIB_API    := $(BUILD)/lib/libmpiscope-api.so

TARGETS := $(MERGE) $(LAUNCHER) $(LIB_API)
ifeq ($(HAVE_MPICH),1)
  TARGETS += $(LIB_MPICH) $(MERGE_MPI)
endif
ifeq ($(HAVE_OPENMPI),1)
  TARGETS += $(LIB_OMPI)
endif

.PHONY: all config deps peers demo check check-quick install install-tests config-tests unit-tests mpi-tests mpi-tests-summary smoke-tests scale-tests html-tests house-tests golden-tests window-tests fault-tests merge-parallel-tests app-tests fuzz fuzz-replay bench bench-follow bench-fold bench-pack bench-clock bench-sanity scaling clean FORCE
.DEFAULT_GOAL := all

all: $(TARGETS)
	@$(foreach p,$(PARTS),test "$(HAVE_$(p))" = 1 || echo '$(subst ','\'',$(call left_out,$(p)))';)

# The optional parts, what each brings, and why one was left out.
PARTS        := MPICH OPENMPI OTF2 DW LIKWID CUPTI
PART_MPICH   := MPICH ($(MPICC_MPICH)): libmpiscope-mpich.so, mpiscope-merge-mpich
PART_OPENMPI := Open MPI ($(MPICC_OPENMPI)): libmpiscope-openmpi.so
PART_OTF2    := libotf2 ($(OTF2_CONFIG)): mpiscope-merge --otf2
PART_DW      := elfutils (libdw): call sites by function and line (else object+offset)
PART_LIKWID  := LIKWID (likwid.h): hardware counters and markers
PART_CUPTI   := CUPTI ($(CUDA_HOME)/include): GPU activity
why_out      = $(if $(PROBE_$(1)),$(call probe_why,$(PROBE_$(1))),HAVE_$(1)=$(HAVE_$(1)) was given)
left_out     = mpiscope: left out $(PART_$(1)); $(why_out)

# `make config`: what this machine builds, and why a part is left out.
config:
	@$(foreach p,$(PARTS),echo '$(subst ','\'',HAVE_$(p)=$(HAVE_$(p))  $(PART_$(p))$(if $(filter 1,$(HAVE_$(p))),,; $(call why_out,$(p))))';)
	@echo 'CC=$(CC)  OPT=$(OPT)  SANITIZE=$(SANITIZE)  BUILD=$(BUILD)'

# ---- generated wrappers: one spec table -> C ----
# The generator rewrites a file only when its text changes; the stamp records
# that it ran, so it runs once per change of the table or the generator.
$(BUILD)/gen/stamp: pmpi/calls.tbl scripts/gen_wrappers.py
	@mkdir -p $(BUILD)/gen
	$(PYTHON) scripts/gen_wrappers.py pmpi/calls.tbl $(BUILD)/gen
	@touch $@
$(BUILD)/gen/pmpi_wrappers.c $(BUILD)/gen/pmpi_next.c $(BUILD)/gen/pmpi_op_table.c $(BUILD)/gen/pmpi_ops.h $(BUILD)/gen/pmpi_next.h: $(BUILD)/gen/stamp ;
$(BUILD)/gen/op_names.c: pmpi/calls.tbl scripts/gen_op_names.py
	@mkdir -p $(BUILD)/gen
	$(PYTHON) scripts/gen_op_names.py pmpi/calls.tbl $@
$(BUILD)/gen/op_class.c: pmpi/calls.tbl scripts/gen_op_class.py scripts/gen_wrappers.py
	@mkdir -p $(BUILD)/gen
	$(PYTHON) scripts/gen_op_class.py pmpi/calls.tbl $@
# Generated for common/: its headers by name.
$(BUILD)/obj/core/gen/%.o: $(BUILD)/gen/%.c $(STAMP_CORE) common/op_names.h common/op_class.h
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) -Icommon -c $< -o $@

# The HTML report's script and style sheet, as C strings (one source of truth).
HTML_ASSETS := analysis/report/html/report_html.js analysis/report/html/report_html_sites.js analysis/report/html/report_html.css
$(BUILD)/gen/report_html_assets.h: $(HTML_ASSETS) scripts/embed_text.py
	@mkdir -p $(BUILD)/gen
	$(PYTHON) scripts/embed_text.py $@ HTML_JS=analysis/report/html/report_html.js HTML_SITES_JS=analysis/report/html/report_html_sites.js HTML_CSS=analysis/report/html/report_html.css

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
$(BUILD)/obj/core/%.o: %.c $(STAMP_CORE) | $(GEN_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) -c $< -o $@
$(SYM_OBJS) $(OTF2_OBJS): $(STAMP_MERGE)

# ---- preload library, once per MPI flavour ----
define preload_lib
$(BUILD)/obj/$(1)/%.o: %.c $(5) | $(GEN_HDRS)
	@mkdir -p $$(dir $$@)
	$(2) $(LIB_CFLAGS) -c $$< -o $$@
# The generated wrappers are the pmpi collector's: its headers by name.
$(BUILD)/obj/$(1)/gen/%.o: $(BUILD)/gen/%.c $(5) | $(GEN_HDRS)
	@mkdir -p $$(dir $$@)
	$(2) $(LIB_CFLAGS) -Ipmpi -Icommon -c $$< -o $$@
# MPI symbols stay undefined and weak: the library loads (and stays silent)
# in processes without MPI, even with LD_BIND_NOW, and never pulls in an MPI.
$(3): $(LIB_SRCS:%.c=$(BUILD)/obj/$(1)/%.o) $(CORE_SRCS:%.c=$(BUILD)/obj/$(1)/%.o) $(BUILD)/obj/$(1)/gen/pmpi_wrappers.o $(BUILD)/obj/$(1)/gen/pmpi_next.o $(BUILD)/obj/$(1)/gen/pmpi_op_table.o \
    $(BUILD)/obj/$(1)/gen/pmpi_fortran_$(1).o $(BUILD)/obj/$(1)/gen/op_names.o \
    $(BUILD)/obj/$(1)/gen/op_class.o $(5)
	@mkdir -p $$(dir $$@)
	$(CC) -r -nostdlib -o $(BUILD)/obj/$(1)/all.o $$(filter %.o,$$^)
	nm -u $(BUILD)/obj/$(1)/all.o | awk '{print $$$$2}' | grep -E '^(P?MPI_|ompi_|MPIR_|p?mpi_|pmpir_|MPI_F_)' | sort -u > $(BUILD)/obj/$(1)/weak.txt
	objcopy --weaken-symbols=$(BUILD)/obj/$(1)/weak.txt $(BUILD)/obj/$(1)/all.o
	$(CC) -shared -o $$@ $(BUILD)/obj/$(1)/all.o -Wl,-z,lazy -Wl,--version-script=preload/exports.map $(4) $(ZSTD_LIBS) -lpthread -ldl -lm $(LDSAN)
endef
# Open MPI's predefined handles (MPI_COMM_WORLD, MPI_BYTE, ...) are data
# symbols, bound when the library loads: the Open MPI library names libmpi,
# so they are found even when the program loads its MPI privately
# (dlopen RTLD_LOCAL, as mpi4py does). MPICH's handles are constants.
$(eval $(call preload_lib,mpich,$(MPICC_MPICH),$(LIB_MPICH),,$(STAMP_MPICH)))
OMPI_LINK = -Wl,--no-as-needed $(shell $(MPICC_OPENMPI) --showme:link 2>/dev/null) -Wl,--as-needed
$(eval $(call preload_lib,openmpi,$(MPICC_OPENMPI),$(LIB_OMPI),$(OMPI_LINK),$(STAMP_OPENMPI)))

# The null collector (test/collector_null/, the skeleton to copy), never
# shipped: the MPICH library's objects and it, in a library of the tests
# (test/mpi/collector_null.sh).
NULL_LIB := $(BUILD)/test/libmpiscope-mpich-null.so
$(NULL_LIB): $(LIB_MPICH) $(BUILD)/obj/mpich/test/collector_null/null_collector.o
	@mkdir -p $(dir $@)
	$(CC) -shared -o $@ $(BUILD)/obj/mpich/all.o $(BUILD)/obj/mpich/test/collector_null/null_collector.o -Wl,-z,lazy -Wl,--version-script=preload/exports.map $(ZSTD_LIBS) -lpthread -ldl -lm $(LDSAN)

# ---- the C API's library of empty functions (include/mpiscope.h): a program
# linked with -lmpiscope-api runs unchanged without the tool; the preload
# library's functions of the same names take its calls under the tool. Built
# without sanitizers even under SANITIZE=1: programs load it without the
# preload, and so without a sanitizer runtime ----
$(LIB_API): api/mpiscope_api.c include/mpiscope.h $(STAMP_CORE)
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(filter-out -fsanitize=%,$(OPT)) $(WARN) -fPIC -Iinclude -shared -Wl,-soname,libmpiscope-api.so -o $@ $<

# ---- merge ----
$(OTF2_OBJS): BASE_CFLAGS += $(OTF2_BUILD_CFLAGS)
$(SYM_OBJS): BASE_CFLAGS += $(DW_CFLAGS)
# The merge links common/ and analysis/ only: nothing of the recording core.
MERGE_OBJS := $(BUILD)/obj/core/analysis/merge/merge_reports.o $(BUILD)/obj/core/analysis/merge/merge_guard.o $(ANALYSIS_OBJS) $(SYM_OBJS) $(OTF2_OBJS) $(COMMON_OBJS)
$(MERGE): $(BUILD)/obj/core/analysis/merge/merge_main.o $(BUILD)/obj/core/analysis/merge/merge_cli.o $(MERGE_OBJS) $(STAMP_MERGE)
	@mkdir -p $(dir $@)
	$(CC) -o $@ $(filter %.o,$^) $(MERGE_LIBS)

# The merge as an MPI program (MPICH only): the same objects, its own main.
$(BUILD)/obj/mpich/merge/merge_mpi_main.o: analysis/merge/merge_mpi_main.c $(STAMP_CORE) $(STAMP_MPICH) | $(GEN_HDRS)
	@mkdir -p $(dir $@)
	$(MPICC_MPICH) $(BASE_CFLAGS) -c $< -o $@
$(MERGE_MPI): $(BUILD)/obj/mpich/merge/merge_mpi_main.o $(BUILD)/obj/core/analysis/merge/merge_cli.o $(MERGE_OBJS) $(STAMP_MERGE)
	@mkdir -p $(dir $@)
	$(MPICC_MPICH) -o $@ $(filter %.o,$^) $(MERGE_LIBS)

# ---- launcher: scripts/mpiscope.in with the version ----
$(LAUNCHER): scripts/mpiscope.in config.mk
	@mkdir -p $(dir $@)
	sed 's/@VERSION@/$(VERSION)/' $< >$@.tmp && chmod 755 $@.tmp && mv $@.tmp $@

# ---- tests ----
UNIT_SRCS  := $(wildcard test/unit/test_*.c)
UNIT_BINS  := $(UNIT_SRCS:%.c=$(BUILD)/%)
$(BUILD)/test/unit/%: test/unit/%.c $(ANALYSIS_OBJS) $(SYM_OBJS) $(CORE_OBJS) $(STAMP_MERGE)
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) -DMS_HAVE_DW=$(HAVE_DW) -o $@ $(filter %.c %.o,$^) $(CRITERION_LIBS) $(ZSTD_LIBS) $(DW_LINK) -ldl -lpthread -lm $(LDSAN)
# The handle map is the preload library's (MPI-free), tested on its own.
$(BUILD)/test/unit/test_handle_map: pmpi/handle_map.c
# So is the closest-name search of the configuration's warnings.
$(BUILD)/test/unit/test_closest_name: preload/closest_name.c
# And the search for a spawned world's spawn-K directory.
$(BUILD)/test/unit/test_spawn_dir: pmpi/spawn_dir.c
include test/symbolize/fixtures.mk

# The test-only log synthesizer (test/scale/): logs of any size, written by
# the real writer, for the merge's scaling tests and measurements.
SYNTH_LOGS := $(BUILD)/test/scale/synth-logs
SYNTH_OBJS := $(CORE_OBJS)
$(SYNTH_LOGS): test/scale/synth_logs.c test/unit/synth.h $(SYNTH_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) -o $@ $(filter %.c %.o,$^) $(ZSTD_LIBS) -lm $(LDSAN)

# The reader's view of a log's message records, for test/mpi/messages.sh.
MSG_DUMP := $(BUILD)/test/messages/msg_dump
$(MSG_DUMP): test/mpi/messages/msg_dump.c $(ANALYSIS_OBJS) $(SYM_OBJS) $(COMMON_OBJS) $(STAMP_MERGE)
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) -o $@ $(filter %.c %.o,$^) $(ZSTD_LIBS) $(DW_LINK) -ldl -lpthread -lm $(LDSAN)

unit-tests: $(UNIT_BINS)
	@set -e; for t in $(UNIT_BINS); do echo "== $$t"; $$t --jobs 1; done

# ---- fuzzing the log reader and the MPI merge's unpacker (test/fuzz/) ----
# `make fuzz FUZZ_SECONDS=600` runs each libFuzzer target for its share of
# FUZZ_SECONDS (clang); new inputs go to $(BUILD)/fuzz/, never into the
# committed corpus. `make fuzz-replay` runs the committed corpus through the
# same targets with $(CC), as part of make check.
FUZZ_TARGETS := log blocks pack reports
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 120
FUZZ_FLAGS   := -std=c11 -O1 -g -D_GNU_SOURCE -DMS_VERSION='"$(VERSION)"' -fsanitize=fuzzer,address,undefined \
                -fno-sanitize-recover=undefined -Iinclude
FUZZ_SRCS    := $(ANALYSIS_SRCS) $(SYM_SRCS) $(CORE_SRCS) $(OTF2_SRCS) $(BUILD)/gen/op_names.c $(BUILD)/gen/op_class.c
$(BUILD)/fuzz/fuzz_%: test/fuzz/fuzz_%.c test/fuzz/fuzz_read.h $(FUZZ_SRCS) | $(GEN_HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(OTF2_BUILD_CFLAGS) -I$(BUILD)/gen -Icommon -o $@ $(filter %.c,$^) $(ZSTD_LIBS) $(DW_LINK) $(OTF2_LINK) -ldl -lpthread -lm
$(BUILD)/test/fuzz/replay_%: test/fuzz/fuzz_%.c test/fuzz/replay.c test/fuzz/fuzz_read.h $(ANALYSIS_OBJS) $(SYM_OBJS) $(CORE_OBJS) $(OTF2_OBJS) $(STAMP_MERGE)
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) -o $@ $(filter %.c %.o,$^) $(ZSTD_LIBS) $(DW_LINK) $(OTF2_LINK) -ldl -lpthread -lm $(LDSAN)

fuzz: $(FUZZ_TARGETS:%=$(BUILD)/fuzz/fuzz_%)
	@set -e; for t in $(FUZZ_TARGETS); do \
	  mkdir -p $(BUILD)/fuzz/corpus-$$t; \
	  echo "== fuzz_$$t for $$(( $(FUZZ_SECONDS) / $(words $(FUZZ_TARGETS)) )) s"; \
	  $(BUILD)/fuzz/fuzz_$$t -max_total_time=$$(( $(FUZZ_SECONDS) / $(words $(FUZZ_TARGETS)) )) -max_len=65536 -timeout=10 \
	    -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix=$(BUILD)/fuzz/crash-$$t- \
	    $(BUILD)/fuzz/corpus-$$t test/fuzz/corpus/$$t; \
	done

fuzz-replay: $(FUZZ_TARGETS:%=$(BUILD)/test/fuzz/replay_%)
	@set -e; for t in $(FUZZ_TARGETS); do $(BUILD)/test/fuzz/replay_$$t test/fuzz/corpus/$$t; done

# The probes with every optional part unreachable, and rebuilds on a change
# of configuration (test/config.sh; exit 77: no mount namespace, a skip).
config-tests: all
	BUILD=$(BUILD) bash test/config.sh; rc=$$?; [ $$rc -eq 0 ] || [ $$rc -eq 77 ]

# `make install` into a temporary prefix, used through `module load` and
# pkg-config from a fresh shell (test/install.sh; exit 77: no Environment Modules).
install-tests: all
	BUILD=$(BUILD) MPICC_MPICH=$(MPICC_MPICH) MPIEXEC_MPICH=$(MPIEXEC_MPICH) bash test/install.sh; \
	  rc=$$?; [ $$rc -eq 0 ] || [ $$rc -eq 77 ]

# The house rules (scripts/house.py): folder order, no circle between rooms
# by includes or by calls in the built objects, no C file over 800 lines;
# first on small trees that break each rule (test/house.sh).
house-tests: all
	PYTHON=$(PYTHON) bash test/house.sh $(BUILD)

# Every report of the golden logs, byte for byte (test/golden_outputs.sh).
golden-tests: $(MERGE)
	BUILD=$(BUILD) HAVE_OTF2=$(HAVE_OTF2) HAVE_DW=$(HAVE_DW) bash test/golden_outputs.sh; \
	  rc=$$?; [ $$rc -eq 0 ] || [ $$rc -eq 77 ]

# Bounded timelines (--from, --to, --ranks) on a synthesized run; seconds.
window-tests: $(MERGE) $(SYNTH_LOGS)
	BUILD=$(BUILD) bash test/timeline_window.sh

# Damaged copies of real logs through the merge binary: exit status and message.
# Also its outputs in a hostile directory and its messages (test/merge_outputs.sh).
fault-tests: $(MERGE)
	BUILD=$(BUILD) bash test/merge_faults.sh
	BUILD=$(BUILD) bash test/merge_outputs.sh

# The MPI merge against the serial merge on real runs (exit 77: not built),
# also a copy that sends its packets in pieces of 4093 bytes.
MERGE_MPI_PIECES := $(BUILD)/test/merge/mpiscope-merge-mpich-pieces
$(MERGE_MPI_PIECES): analysis/merge/merge_mpi_main.c $(BUILD)/obj/core/analysis/merge/merge_cli.o $(MERGE_OBJS) \
    $(STAMP_MERGE) $(STAMP_MPICH) | $(GEN_HDRS)
	@mkdir -p $(dir $@)
	$(MPICC_MPICH) $(BASE_CFLAGS) -DMS_MERGE_PIECE_BYTES=4093 -o $@ $(filter %.c %.o,$^) \
	  $(MERGE_LIBS)
merge-parallel-tests: all $(SYNTH_LOGS) $(if $(filter 1,$(HAVE_MPICH)),$(MERGE_MPI_PIECES))
	BUILD=$(BUILD) MPICC_MPICH=$(MPICC_MPICH) MPIEXEC_MPICH=$(MPIEXEC_MPICH) \
	  bash test/merge_parallel.sh; rc=$$?; [ $$rc -eq 0 ] || [ $$rc -eq 77 ]

# mpiP, the peer profiler (not part of mpiscope): built from
# ../shared/peers into $(BUILD)/mpip-<flavour> where that script exists, for
# the stacking test and `make bench`; a note where it does not.
PEERS := $(abspath ..)/shared/peers/build-mpip.sh
peers:
	@if [ -x "$(PEERS)" ] || [ -f "$(PEERS)" ]; then \
	  for f in $(if $(filter 1,$(HAVE_MPICH)),mpich) $(if $(filter 1,$(HAVE_OPENMPI)),openmpi); do \
	    bash "$(PEERS)" $(BUILD)/mpip-$$f $$f >/dev/null || echo "note: mpiP for $$f did not build (see $(BUILD)/mpip-$$f)"; \
	  done; \
	else echo "note: $(PEERS) not found: tests and benchmarks run without mpiP"; fi

# The programs with their expectations recorded in both modes, trace and
# MPISCOPE_MODE=summary, in one pass: each program compiled once, and run
# once without the preload library per rank count for both modes' profiled
# runs (test/mpi/run.sh); the script tests once. Summary mode folds each
# rank's calls on its own, so the programs that name no rank counts of their
# own run at 2 ranks in it (trace mode runs them at 1, 2 and 4), the others
# at theirs. MPI_TESTS (names, default all), TEST_RANKS (rank counts: both
# modes) and MPI_TEST_MODES (trace, summary or both) narrow it.
MPI_TEST_MODES := trace summary
mpi-tests: all $(MSG_DUMP) peers $(if $(filter 1,$(HAVE_MPICH)),$(NULL_LIB))
	BUILD=$(BUILD) SANITIZE=$(SANITIZE) MPICC_MPICH=$(MPICC_MPICH) MPIEXEC_MPICH=$(MPIEXEC_MPICH) \
	  MPICC_OPENMPI=$(MPICC_OPENMPI) MPIRUN_OPENMPI=$(MPIRUN_OPENMPI) \
	  MPIF90_MPICH=$(MPIF90_MPICH) MPIF90_OPENMPI=$(MPIF90_OPENMPI) $(if $(TEST_RANKS),TEST_RANKS="$(TEST_RANKS)") \
	  TEST_MODE="$(MPI_TEST_MODES)" TEST_RANKS_DEFAULT_SUMMARY=2 \
	  bash test/mpi/run.sh $(MPI_TESTS)

# Summary mode's part of mpi-tests alone: the programs with expectations.
mpi-tests-summary: all
	BUILD=$(BUILD) SANITIZE=$(SANITIZE) MPICC_MPICH=$(MPICC_MPICH) MPIEXEC_MPICH=$(MPIEXEC_MPICH) \
	  MPICC_OPENMPI=$(MPICC_OPENMPI) MPIRUN_OPENMPI=$(MPIRUN_OPENMPI) \
	  MPIF90_MPICH=$(MPIF90_MPICH) MPIF90_OPENMPI=$(MPIF90_OPENMPI) TEST_MODE=summary TEST_RANKS_DEFAULT_SUMMARY=2 \
	  $(if $(TEST_RANKS),TEST_RANKS="$(TEST_RANKS)") \
	  bash test/mpi/run.sh $(patsubst test/mpi/%.expect.py,%,$(wildcard test/mpi/*.expect.py))

smoke-tests: all
	BUILD=$(BUILD) bash test/smoke.sh

# Many ranks, many files: synthesized runs merged and checked call by call.
scale-tests: $(MERGE) $(SYNTH_LOGS) $(if $(filter 1,$(HAVE_MPICH)),$(MERGE_MPI))
	BUILD=$(BUILD) MPIEXEC_MPICH=$(MPIEXEC_MPICH) bash test/scale/run.sh
	BUILD=$(BUILD) bash test/scale/otf2_linear.sh

# The HTML report of a real run in headless Chromium (test/html/run.sh);
# exit 77 (Chromium missing) is a skip.
html-tests: all
	BUILD=$(BUILD) CC=$(CC) PYTHON=$(PYTHON) MPICC_MPICH=$(MPICC_MPICH) MPIEXEC_MPICH=$(MPIEXEC_MPICH) \
	  bash test/html/run.sh; rc=$$?; [ $$rc -eq 0 ] || [ $$rc -eq 77 ]

# Real programs that nobody here wrote, through the launcher: LAMMPS in.melt,
# ScaLAPACK's LU tester and an mpi4py ring (test/apps/run.sh); each run's
# report by call site against its other reports. A program not installed is
# skipped with a line that says so; exit 77 (none installed) is a skip.
app-tests: all
	BUILD=$(BUILD) PYTHON=$(PYTHON) MPIEXEC_MPICH=$(MPIEXEC_MPICH) MPIRUN_OPENMPI=$(MPIRUN_OPENMPI) \
	  bash test/apps/run.sh; rc=$$?; [ $$rc -eq 0 ] || [ $$rc -eq 77 ]

# Overhead, log size and merge speed (DESIGN §8), as ratios within one run,
# beside mpiP (peers) and LAMMPS in.melt (scripts/deps.sh --bench installs it).
bench: all peers
	MPICC_MPICH=$(MPICC_MPICH) MPIEXEC_MPICH=$(MPIEXEC_MPICH) MPIRUN_OPENMPI=$(MPIRUN_OPENMPI) \
	  $(PYTHON) scripts/bench.py --build $(BUILD) --out docs/PERFORMANCE.md

# The writer's cost of following a trace and of folding it (bench/follow_cost.c).
$(BUILD)/bench/follow_cost: bench/follow_cost.c $(BUILD)/obj/core/preload/summary.o \
    $(BUILD)/obj/core/preload/summary_requests.o $(OP_TABLE_OBJS) $(addprefix $(BUILD)/obj/core/common/,stats.o \
    sketch.o nesting.o req_codec.o req_records.o req_match.o region_parse.o region_name.o)
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) -o $@ $(filter %.c %.o,$^) -lm $(LDSAN)
bench-follow: $(BUILD)/bench/follow_cost
	$(BUILD)/bench/follow_cost

# Summary mode's fold replayed on a decompressed trace log (bench/fold_replay.c;
# docs/PERFORMANCE.md, "Summary mode's writer").
$(BUILD)/bench/fold_replay: bench/fold_replay.c $(BUILD)/obj/core/preload/summary.o \
    $(BUILD)/obj/core/preload/summary_requests.o $(OP_TABLE_OBJS) $(addprefix $(BUILD)/obj/core/common/,stats.o \
    sketch.o nesting.o req_codec.o req_records.o req_match.o region_parse.o region_name.o)
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) -o $@ $(filter %.c %.o,$^) -lm $(LDSAN)
# The MPI merge's packets of a synthesized 64-rank run: bytes, pack and
# unpack time (bench/pack_cost.c; docs/MERGE_MPI.md "Packets").
$(BUILD)/bench/pack_cost: bench/pack_cost.c $(ANALYSIS_OBJS) $(SYM_OBJS) $(CORE_OBJS) $(STAMP_MERGE)
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) -o $@ $(filter %.c %.o,$^) $(ZSTD_LIBS) $(DW_LINK) -ldl -lpthread -lm $(LDSAN)
bench-pack: $(BUILD)/bench/pack_cost $(SYNTH_LOGS)
	@d=$$(mktemp -d) && $(SYNTH_LOGS) --ranks 64 --events 640000 --threads 2 $$d/logs >/dev/null && \
	  $(BUILD)/bench/pack_cost $$d/logs; rc=$$?; rm -rf $$d; exit $$rc
# Rank 0's trace of bench/halo.c (20,000 steps, 2 ranks), replayed.
bench-fold: all $(BUILD)/bench/fold_replay
	@mkdir -p $(BUILD)/bench
	$(MPICC_MPICH) -O2 -o $(BUILD)/bench/halo bench/halo.c
	@d=$$(mktemp -d) && trap 'rm -rf "$$d"' EXIT && \
	  MPISCOPE_DIR=$$d/logs $(MPIEXEC_MPICH) -n 2 -genv LD_PRELOAD $(abspath $(BUILD))/lib/libmpiscope-mpich.so \
	    $(BUILD)/bench/halo 20000 >/dev/null && \
	  zstd -qdc $$d/logs/rank-000000.zst >$$d/raw && $(BUILD)/bench/fold_replay $$d/raw

# What one time-stamp read costs here: the floor under each call's added
# time (bench/clockread.c; docs/PERFORMANCE.md, "The clock reads").
$(BUILD)/bench/clockread: bench/clockread.c bench/bench_util.h
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) -o $@ bench/clockread.c $(LDSAN)
bench-clock: $(BUILD)/bench/clockread
	$(BUILD)/bench/clockread

# Generous bounds only (timings here are noisy): a guard against gross regressions.
bench-sanity: all
	MPICC_MPICH=$(MPICC_MPICH) MPIEXEC_MPICH=$(MPIEXEC_MPICH) $(PYTHON) scripts/bench.py --build $(BUILD) --quick --check

# Merge time and memory against ranks and events (docs/PERFORMANCE.md, "Scaling").
scaling: all $(SYNTH_LOGS)
	MPIEXEC_MPICH=$(MPIEXEC_MPICH) $(PYTHON) scripts/scaling.py --build $(BUILD) --out docs/PERFORMANCE.md

deps:
	BUILD=$(BUILD) bash scripts/deps.sh

# `make check` says at its end where its time went: each step, and the ten
# slowest MPI tests (scripts/check_times.sh; test/mpi/run.sh adds its tests'
# times to $$CHECK_TIMES).
CHECK_TIMES = $(BUILD)/check-times.tsv
CHECK_STEP = CHECK_TIMES=$(abspath $(CHECK_TIMES)) bash scripts/check_times.sh step $(CHECK_TIMES)
check: deps
	@mkdir -p $(BUILD) && rm -f $(CHECK_TIMES)
	$(CHECK_STEP) all $(MAKE) all
	$(CHECK_STEP) config-tests $(MAKE) config-tests
	$(CHECK_STEP) unit-tests $(MAKE) unit-tests
	$(CHECK_STEP) fuzz-replay $(MAKE) fuzz-replay
	$(CHECK_STEP) house-tests $(MAKE) house-tests
	$(CHECK_STEP) golden-tests $(MAKE) golden-tests
	$(CHECK_STEP) window-tests $(MAKE) window-tests
	$(CHECK_STEP) fault-tests $(MAKE) fault-tests
	$(CHECK_STEP) merge-parallel-tests $(MAKE) merge-parallel-tests
	$(CHECK_STEP) smoke-tests $(MAKE) smoke-tests
	$(CHECK_STEP) install-tests $(MAKE) install-tests
	$(CHECK_STEP) scale-tests $(MAKE) scale-tests
	$(CHECK_STEP) html-tests $(MAKE) html-tests
	$(CHECK_STEP) mpi-tests $(MAKE) mpi-tests
	$(CHECK_STEP) app-tests $(MAKE) app-tests
ifeq ($(SANITIZE),1)
	@echo "mpiscope: bench-sanity left out under SANITIZE=1 (sanitizers change every timing)"
else
	$(CHECK_STEP) bench-sanity $(MAKE) bench-sanity
endif
	@bash scripts/check_times.sh report $(CHECK_TIMES)

# The subset of `check` that CI also runs in a fresh Debian root
# (scripts/fresh-debian.sh --check quick): the build and its configuration,
# the unit tests, the log reader's corpus, the merge's faults, the HTML page,
# the installed modulefile and pkg-config file, and real MPI programs in C,
# Fortran and Python under both MPIs at 2 ranks, with the launcher (also
# under a one-node Slurm), call-site, CUPTI, LIKWID and full-disk tests.
QUICK_MPI_TESTS := p2p_pingpong p2p_nonblocking p2p_persistent halo collectives coll_nonblocking \
  comm_create fortran_usempi fortran_mpifh mpi4py_calls launcher slurm callsites cupti likwid disk_full
check-quick: deps
	$(MAKE) all
	$(MAKE) config-tests
	$(MAKE) unit-tests
	$(MAKE) fuzz-replay
	$(MAKE) house-tests
	$(MAKE) golden-tests
	$(MAKE) fault-tests
	$(MAKE) smoke-tests
	$(MAKE) install-tests
	$(MAKE) html-tests
	$(MAKE) mpi-tests MPI_TESTS="$(QUICK_MPI_TESTS)" TEST_RANKS=2 MPI_TEST_MODES=trace

demo: deps
	$(MAKE) all
	BUILD=$(BUILD) MPICC_MPICH=$(MPICC_MPICH) MPIEXEC_MPICH=$(MPIEXEC_MPICH) bash scripts/demo.sh

# `make install PREFIX=/opt/mpiscope`: bin/, lib/, include/ and the documents,
# in the layout the launcher expects (bin/../lib); lib/pkgconfig/mpiscope.pc
# for `pkg-config --cflags --libs mpiscope`, and a modulefile
# (share/modulefiles/mpiscope/VERSION) for `module load mpiscope`.
INSTALL_SUBST = sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g'
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/include \
	  $(DESTDIR)$(PREFIX)/share/doc/mpiscope $(DESTDIR)$(PREFIX)/share/modulefiles/mpiscope
	install -m 755 $(MERGE) $(LAUNCHER) $(DESTDIR)$(PREFIX)/bin/
	install -m 755 $(wildcard $(LIB_MPICH) $(LIB_OMPI)) $(LIB_API) $(DESTDIR)$(PREFIX)/lib/
	for f in $(wildcard include/*.h); do install -m 644 $$f $(DESTDIR)$(PREFIX)/include/; done
	install -m 644 README.md $(wildcard docs/*.md) $(DESTDIR)$(PREFIX)/share/doc/mpiscope/
	$(INSTALL_SUBST) scripts/install/mpiscope.pc.in >$(DESTDIR)$(PREFIX)/lib/pkgconfig/mpiscope.pc
	$(INSTALL_SUBST) scripts/install/modulefile.in >$(DESTDIR)$(PREFIX)/share/modulefiles/mpiscope/$(VERSION)
	chmod 644 $(DESTDIR)$(PREFIX)/lib/pkgconfig/mpiscope.pc $(DESTDIR)$(PREFIX)/share/modulefiles/mpiscope/$(VERSION)

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD)/obj $(BUILD)/test -name '*.d' 2>/dev/null)
