"""Expected regions of fortran_mpifh.f90 (include 'mpif.h'): fortran_calls.py."""

import mpiexpect as m
from fortran_calls import expect

if __name__ == "__main__":
    m.main(expect)
