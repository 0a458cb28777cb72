# Fixtures of test/unit/test_symbolize.c (included by the Makefile): one PIE
# program and its shared libraries (C, C++, Fortran when gfortran is
# installed), each built with debug information (g/), without it (nog/), and
# as stripped copies of g/ (strip/). Each program finds its libraries in its
# own directory ($ORIGIN).
SYMFIX       := $(BUILD)/test/symbolize
SYMFIX_SRC   := test/symbolize
SYMFIX_CXX   ?= g++
SYMFIX_FC    ?= gfortran
SYMFIX_HAVE_FC := $(shell command -v $(SYMFIX_FC) >/dev/null 2>&1 && echo 1)
# -O1 without sibling calls: every probe call returns into its site.
SYMFIX_OPT   := -D_GNU_SOURCE -O1 -fno-optimize-sibling-calls -fPIC -Wall -Werror
symfix_dbg    = $(if $(filter g,$*),-g)
SYMFIX_LIBS  := libsymfix_probe.so libsymfix.so libsymfix_cxx.so $(if $(SYMFIX_HAVE_FC),libsymfix_f.so)
SYMFIX_FILES := symfix $(SYMFIX_LIBS)
SYMFIX_ALL   := $(foreach v,g nog strip,$(addprefix $(SYMFIX)/$(v)/,$(SYMFIX_FILES)))

$(SYMFIX)/g/libsymfix_probe.so $(SYMFIX)/nog/libsymfix_probe.so: $(SYMFIX)/%/libsymfix_probe.so: $(SYMFIX_SRC)/symfix_probe.c $(SYMFIX_SRC)/symfix.h
	@mkdir -p $(@D)
	$(CC) $(SYMFIX_OPT) $(symfix_dbg) -shared -o $@ $<
$(SYMFIX)/g/libsymfix.so $(SYMFIX)/nog/libsymfix.so: $(SYMFIX)/%/libsymfix.so: $(SYMFIX_SRC)/symfix_lib.c $(SYMFIX_SRC)/symfix.h $(SYMFIX)/%/libsymfix_probe.so
	$(CC) $(SYMFIX_OPT) $(symfix_dbg) -shared -o $@ $< -L$(@D) -lsymfix_probe
$(SYMFIX)/g/libsymfix_cxx.so $(SYMFIX)/nog/libsymfix_cxx.so: $(SYMFIX)/%/libsymfix_cxx.so: $(SYMFIX_SRC)/symfix_cxx.cc $(SYMFIX_SRC)/symfix.h $(SYMFIX)/%/libsymfix_probe.so
	$(SYMFIX_CXX) $(SYMFIX_OPT) $(symfix_dbg) -shared -o $@ $< -L$(@D) -lsymfix_probe
$(SYMFIX)/g/libsymfix_f.so $(SYMFIX)/nog/libsymfix_f.so: $(SYMFIX)/%/libsymfix_f.so: $(SYMFIX_SRC)/symfix_f.f90 $(SYMFIX)/%/libsymfix_probe.so
	$(SYMFIX_FC) $(SYMFIX_OPT) $(symfix_dbg) -J$(@D) -shared -o $@ $< -L$(@D) -lsymfix_probe
$(SYMFIX)/g/symfix $(SYMFIX)/nog/symfix: $(SYMFIX)/%/symfix: $(SYMFIX_SRC)/symfix_main.c $(SYMFIX_SRC)/symfix.h $(addprefix $(SYMFIX)/%/,$(SYMFIX_LIBS))
	$(CC) $(SYMFIX_OPT) $(symfix_dbg) $(if $(SYMFIX_HAVE_FC),-DSYMFIX_FORTRAN) -fPIE -pie -o $@ $< \
	  -L$(@D) $(patsubst lib%.so,-l%,$(SYMFIX_LIBS)) -Wl,-rpath,'$$ORIGIN'
$(addprefix $(SYMFIX)/strip/,$(SYMFIX_FILES)): $(SYMFIX)/strip/%: $(SYMFIX)/g/%
	@mkdir -p $(@D)
	strip --strip-all -o $@ $<

$(BUILD)/test/unit/test_symbolize: $(SYMFIX_ALL)
$(BUILD)/test/unit/test_symbolize: private BASE_CFLAGS += -DSYMFIX_SRC_DIR='"$(CURDIR)/$(SYMFIX_SRC)"' \
  -DSYMFIX_HAVE_FORTRAN=$(if $(SYMFIX_HAVE_FC),1,0)

# Lookup rate on a real binary: $(SYMFIX)/sym_bench FILE [ADDRESSES]
$(SYMFIX)/sym_bench: $(SYMFIX_SRC)/sym_bench.c $(SYM_OBJS) $(ANALYSIS_OBJS) $(CORE_OBJS)
	@mkdir -p $(@D)
	$(CC) $(BASE_CFLAGS) -o $@ $(filter %.c %.o,$^) $(DW_LIBS) $(ZSTD_LIBS) -lpthread -lm $(LDSAN)
