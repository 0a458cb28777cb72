! The calls of fortran_calls.py through the mpif.h binding (include 'mpif.h'):
!   1. pairs of ranks: a send, a wildcard receive, a receive with
!      MPI_STATUS_IGNORE;
!   2. a ring of nonblocking sends and receives completed by MPI_Waitall
!      (with statuses, then with MPI_STATUSES_IGNORE) and by MPI_Wait (a
!      wildcard receive, then MPI_STATUS_IGNORE), and two sends at once
!      completed in the opposite order (MPI libraries may give both the same
!      handle value);
!   3. broadcasts from the first and the last rank;
!   4. reductions and gathers, with and without MPI_IN_PLACE;
!   5. MPI_Comm_split into even and odd ranks, a message and a barrier on
!      the new communicator, MPI_Comm_free;
!   6. a receive that no send matches, cancelled (MPI_Cancel), and its wait.
! mpif.h has no interfaces: every buffer is passed as its first element, an
! INTEGER scalar like MPI_IN_PLACE, so that the calls agree with each other.
program fortran_mpifh
  use, intrinsic :: iso_fortran_env, only: error_unit
  implicit none
  include 'mpif.h'
  character(*), parameter :: progname = 'fortran_mpifh'
  include 'fortran_calls.inc'
end program fortran_mpifh
