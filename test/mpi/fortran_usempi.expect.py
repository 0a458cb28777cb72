"""Expected regions of fortran_usempi.f90 (use mpi): fortran_calls.py."""

import mpiexpect as m
from fortran_calls import expect

if __name__ == "__main__":
    m.main(expect)
