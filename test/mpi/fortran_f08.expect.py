"""Expected regions of fortran_f08.f90 (use mpi_f08): fortran_calls.py."""

import mpiexpect as m
from fortran_calls import expect

if __name__ == "__main__":
    m.main(expect)
