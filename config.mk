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
DW_LIBS       ?= -ldw -lelf -ldl
CRITERION_LIBS ?= -lcriterion
# libotf2 for mpiscope-merge --otf2: found through otf2-config (Debian
# libotf2-trace-dev); HAVE_OTF2=0 builds without it.
OTF2_CONFIG   ?= otf2-config
HAVE_OTF2     ?= $(shell $(OTF2_CONFIG) --version >/dev/null 2>&1 && echo 1)
ifeq ($(HAVE_OTF2),1)
  OTF2_CFLAGS ?= -DMS_HAVE_OTF2 $(shell $(OTF2_CONFIG) --cflags)
  OTF2_LIBS   ?= $(shell $(OTF2_CONFIG) --ldflags) $(shell $(OTF2_CONFIG) --libs)
endif
# LIKWID markers and counters in the preload library: compiled in when
# <likwid.h> is found (Debian likwid); liblikwid itself is loaded with
# dlopen at run time. HAVE_LIKWID=0 builds without it.
HAVE_LIKWID   ?= $(shell printf '\#include <likwid.h>\n' | $(CC) -E -x c - >/dev/null 2>&1 && echo 1)
LIKWID_CFLAGS ?= -DMS_HAVE_LIKWID -Ilikwid
# CUPTI (GPU kernels, copies, NVTX) in the preload library: compiled in when
# <cupti.h> is found under CUDA_HOME (default /usr/local/cuda); libcupti
# itself is loaded with dlopen at run time. HAVE_CUPTI=0 builds without it.
CUDA_HOME     ?= /usr/local/cuda
HAVE_CUPTI    ?= $(shell printf '\#include <cupti.h>\n' | $(CC) -E -x c -I$(CUDA_HOME)/include - >/dev/null 2>&1 && echo 1)
CUPTI_CFLAGS  ?= -DMS_HAVE_CUPTI -Icupti -isystem $(CUDA_HOME)/include
# SANITIZE=1 builds everything with AddressSanitizer and UBSan.
SANITIZE      ?=
