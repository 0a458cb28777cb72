# Build configuration. Override on the command line: make MPICC_MPICH=...
VERSION       := 0.2.0
PREFIX        ?= /usr/local
CC            ?= gcc
PYTHON        ?= python3
BUILD         ?= build
OPT           ?= -O2 -g
WARN          ?= -Wall -Wextra -Werror
MPICC_MPICH   ?= mpicc.mpich
MPIEXEC_MPICH ?= mpiexec.mpich
MPIF90_MPICH  ?= mpif90.mpich
MPICC_OPENMPI ?= mpicc.openmpi
MPIRUN_OPENMPI ?= mpirun.openmpi
MPIF90_OPENMPI ?= mpif90.openmpi
ZSTD_LIBS     ?= -lzstd
CRITERION_LIBS ?= -lcriterion
# ---- optional parts: each is probed by building a real program ----
# config/probe.sh compiles (and, where a library is linked, links)
# config/probe_NAME.c with the flags the build uses for that part; the part
# is built in when that succeeds. Setting HAVE_NAME=0 or =1 on the command
# line skips the probe. `make config` prints the outcome and the reasons.
# $(call probe,compile|link,NAME,COMPILER,CFLAGS[,LIBS]): the probe's answer.
probe = $(shell sh config/probe.sh $(1) $(2) '$(subst ','\'',$(3))' '$(subst ','\'',$(4))' '$(subst ','\'',$(5))')
# $(call probed,RESULT): the HAVE_ value of a probe's answer ("1", or
# "0 why"); $(call probe_why,RESULT): the why.
probed    = $(if $(filter 1,$(firstword $(1))),1,0)
probe_why = $(wordlist 2,1000,$(1))

# MPICH and Open MPI: an MPI program built with each flavour's compiler
# wrapper (it must be that flavour's: MPICH_VERSION / OPEN_MPI).
ifeq ($(origin HAVE_MPICH),undefined)
  PROBE_MPICH   := $(call probe,link,mpich,$(MPICC_MPICH))
  HAVE_MPICH    := $(call probed,$(PROBE_MPICH))
endif
ifeq ($(origin HAVE_OPENMPI),undefined)
  PROBE_OPENMPI := $(call probe,link,openmpi,$(MPICC_OPENMPI))
  HAVE_OPENMPI  := $(call probed,$(PROBE_OPENMPI))
endif
# libotf2 for mpiscope-merge --otf2: its flags from otf2-config (Debian
# libotf2-trace-dev), linked.
OTF2_CONFIG   ?= otf2-config
OTF2_FOUND    := $(shell command -v $(OTF2_CONFIG) 2>/dev/null)
ifneq ($(OTF2_FOUND),)
  OTF2_CFLAGS ?= $(shell $(OTF2_CONFIG) --cflags)
  OTF2_LIBS   ?= $(shell $(OTF2_CONFIG) --ldflags) $(shell $(OTF2_CONFIG) --libs)
endif
ifeq ($(origin HAVE_OTF2),undefined)
  PROBE_OTF2  := $(if $(OTF2_FOUND),$(call probe,link,otf2,$(CC),$(OTF2_CFLAGS),$(OTF2_LIBS)),0 $(OTF2_CONFIG) not found)
  HAVE_OTF2   := $(call probed,$(PROBE_OTF2))
endif
# elfutils (libdw, libdwfl, libelf) for the merge's call-site symbolizer,
# linked; without it call sites are reported as object+offset.
DW_CFLAGS     ?=
DW_LIBS       ?= -ldw -lelf
ifeq ($(origin HAVE_DW),undefined)
  PROBE_DW    := $(call probe,link,dw,$(CC),$(DW_CFLAGS),$(DW_LIBS))
  HAVE_DW     := $(call probed,$(PROBE_DW))
endif
# LIKWID markers and counters in the preload library (Debian likwid):
# <likwid.h> with every function the collector types; liblikwid itself is
# loaded with dlopen at run time, so the probe only compiles.
LIKWID_INC    ?=
ifeq ($(origin HAVE_LIKWID),undefined)
  PROBE_LIKWID := $(call probe,compile,likwid,$(CC),$(LIKWID_INC))
  HAVE_LIKWID := $(call probed,$(PROBE_LIKWID))
endif
# CUPTI (GPU kernels, copies, NVTX) in the preload library: the CUPTI
# headers under CUDA_HOME (default /usr/local/cuda) with every function and
# activity record the collector uses; libcupti itself is loaded with dlopen
# at run time, so the probe only compiles.
CUDA_HOME     ?= /usr/local/cuda
ifeq ($(origin HAVE_CUPTI),undefined)
  PROBE_CUPTI := $(call probe,compile,cupti,$(CC),-isystem $(CUDA_HOME)/include)
  HAVE_CUPTI  := $(call probed,$(PROBE_CUPTI))
endif
# SANITIZE=1 builds everything with AddressSanitizer and UBSan.
SANITIZE      ?=
