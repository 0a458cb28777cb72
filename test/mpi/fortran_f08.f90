! The calls of fortran_calls.py through the `use mpi_f08` module, whose
! handles are derived types and whose error argument is optional:
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
program fortran_f08
  use, intrinsic :: iso_fortran_env, only: error_unit
  use mpi_f08
  implicit none
  integer :: ierr, rank, nranks, partner, left, right, failures, i, n
  integer :: subrank, subsize
  type(MPI_Comm) :: sub
  type(MPI_Status) :: st, sts(2)
  type(MPI_Request) :: reqs(2), rreqs(2)
  integer, asynchronous :: sbuf(20), rbuf(20)
  logical :: flag

  failures = 0
  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks)
  left = modulo(rank - 1, nranks)
  right = modulo(rank + 1, nranks)

  ! 1. pairs (0,1), (2,3), ...
  partner = ieor(rank, 1)
  if (partner < nranks) then
    if (modulo(rank, 2) == 0) then
      sbuf = [(100 * rank + i, i = 1, 20)]
      call MPI_Send(sbuf, 10, MPI_INTEGER, partner, 1, MPI_COMM_WORLD)
      rbuf = -1
      call MPI_Recv(rbuf, 20, MPI_INTEGER, partner, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
      call check(ierr == MPI_SUCCESS, 'ierror')
      call check(all(rbuf(1:4) == [(100 * partner + i, i = 1, 4)]) .and. rbuf(5) == -1, 'pair reply')
    else
      rbuf = -1
      call MPI_Recv(rbuf, 20, MPI_INTEGER, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, st)
      call MPI_Get_count(st, MPI_INTEGER, n)
      call check(st%MPI_SOURCE == partner .and. st%MPI_TAG == 1 .and. n == 10, 'wildcard status')
      call check(all(rbuf(1:10) == [(100 * partner + i, i = 1, 10)]), 'pair message')
      sbuf = [(100 * rank + i, i = 1, 20)]
      call MPI_Send(sbuf, 4, MPI_INTEGER, partner, 2, MPI_COMM_WORLD)
    end if
  end if
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call check(ierr == MPI_SUCCESS, 'ierror')

  ! 2. ring
  sbuf = [(1000 * rank + i, i = 1, 20)]
  rbuf = -1
  call MPI_Irecv(rbuf, 6, MPI_INTEGER, left, 3, MPI_COMM_WORLD, reqs(1))
  call MPI_Isend(sbuf, 6, MPI_INTEGER, right, 3, MPI_COMM_WORLD, reqs(2))
  call MPI_Waitall(2, reqs, sts)
  call check(sts(1)%MPI_SOURCE == left .and. sts(1)%MPI_TAG == 3, 'waitall status')
  call check(all(rbuf(1:6) == [(1000 * left + i, i = 1, 6)]), 'ring 1')
  call check(reqs(1) == MPI_REQUEST_NULL .and. reqs(2) == MPI_REQUEST_NULL, 'waitall requests')

  rbuf = -1
  call MPI_Irecv(rbuf, 20, MPI_INTEGER, left, 4, MPI_COMM_WORLD, reqs(1))
  call MPI_Isend(sbuf, 5, MPI_INTEGER, right, 4, MPI_COMM_WORLD, reqs(2))
  call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE)
  call check(all(rbuf(1:5) == [(1000 * left + i, i = 1, 5)]) .and. rbuf(6) == -1, 'ring 2')

  rbuf = -1
  call MPI_Irecv(rbuf, 20, MPI_INTEGER, MPI_ANY_SOURCE, 5, MPI_COMM_WORLD, reqs(1))
  call MPI_Isend(sbuf, 2, MPI_INTEGER, right, 5, MPI_COMM_WORLD, reqs(2))
  call MPI_Wait(reqs(1), st)
  call MPI_Get_count(st, MPI_INTEGER, n)
  call check(st%MPI_SOURCE == left .and. st%MPI_TAG == 5 .and. n == 2, 'wait status')
  call MPI_Wait(reqs(2), MPI_STATUS_IGNORE)
  call check(all(rbuf(1:2) == [(1000 * left + i, i = 1, 2)]), 'ring 3')

  ! two sends at once, completed in the opposite order
  rbuf = -1
  call MPI_Irecv(rbuf(1:), 10, MPI_INTEGER, left, 6, MPI_COMM_WORLD, rreqs(1))
  call MPI_Irecv(rbuf(11:), 10, MPI_INTEGER, left, 7, MPI_COMM_WORLD, rreqs(2))
  call MPI_Isend(sbuf, 1, MPI_INTEGER, right, 6, MPI_COMM_WORLD, reqs(1))
  call MPI_Isend(sbuf, 3, MPI_INTEGER, right, 7, MPI_COMM_WORLD, reqs(2))
  call MPI_Wait(reqs(2), MPI_STATUS_IGNORE)
  call MPI_Wait(reqs(1), MPI_STATUS_IGNORE)
  call MPI_Waitall(2, rreqs, MPI_STATUSES_IGNORE)
  call check(rbuf(1) == 1000 * left + 1 .and. all(rbuf(11:13) == [(1000 * left + i, i = 1, 3)]), 'ring 4')

  ! 3. broadcasts
  rbuf = rank
  call MPI_Bcast(rbuf, 8, MPI_INTEGER, 0, MPI_COMM_WORLD)
  call check(all(rbuf(1:8) == 0), 'bcast from 0')
  rbuf = rank
  call MPI_Bcast(rbuf, 3, MPI_INTEGER, nranks - 1, MPI_COMM_WORLD)
  call check(all(rbuf(1:3) == nranks - 1), 'bcast from the last rank')

  ! 4. reductions and gathers
  sbuf = rank + 1
  call MPI_Allreduce(sbuf, rbuf, 3, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
  call check(all(rbuf(1:3) == nranks * (nranks + 1) / 2), 'allreduce')
  rbuf = rank
  call MPI_Allreduce(MPI_IN_PLACE, rbuf, 2, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD)
  call check(all(rbuf(1:2) == nranks - 1), 'allreduce in place')
  sbuf = rank
  rbuf = -1
  call MPI_Allgather(sbuf, 1, MPI_INTEGER, rbuf, 1, MPI_INTEGER, MPI_COMM_WORLD)
  call check(all(rbuf(1:nranks) == [(i, i = 0, nranks - 1)]), 'allgather')
  rbuf = -1
  rbuf(2 * rank + 1) = rank
  rbuf(2 * rank + 2) = -rank
  call MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, rbuf, 2, MPI_INTEGER, MPI_COMM_WORLD)
  call check(all(rbuf(1:2 * nranks:2) == [(i, i = 0, nranks - 1)]), 'allgather in place')
  call MPI_Barrier(MPI_COMM_WORLD)

  ! 5. even and odd ranks
  call MPI_Comm_split(MPI_COMM_WORLD, modulo(rank, 2), rank, sub)
  call MPI_Comm_rank(sub, subrank)
  call MPI_Comm_size(sub, subsize)
  if (subsize > 1 .and. subrank == 0) then
    sbuf = 7
    call MPI_Send(sbuf, 2, MPI_INTEGER, 1, 7, sub)
  else if (subsize > 1 .and. subrank == 1) then
    rbuf = -1
    call MPI_Recv(rbuf, 20, MPI_INTEGER, MPI_ANY_SOURCE, 7, sub, st)
    call check(st%MPI_SOURCE == 0 .and. rbuf(2) == 7 .and. rbuf(3) == -1, 'split message')
  end if
  call MPI_Barrier(sub)
  call MPI_Comm_free(sub)
  call check(sub == MPI_COMM_NULL, 'comm_free')
  call MPI_Barrier(MPI_COMM_WORLD)

  ! 6. a receive that no send matches, cancelled
  call MPI_Irecv(rbuf, 2, MPI_INTEGER, left, 99, MPI_COMM_WORLD, reqs(1))
  call MPI_Cancel(reqs(1))
  call MPI_Wait(reqs(1), st)
  call MPI_Test_cancelled(st, flag)
  call check(flag, 'cancelled receive')

  if (rank == 0) print '(a, i0, a)', 'fortran_f08: ', nranks, ' ranks'
  call MPI_Finalize()
  if (failures > 0) error stop 1

contains

  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(*), intent(in) :: what
    if (.not. ok) then
      write (error_unit, '(a, i0, 2a)') 'check failed on rank ', rank, ': ', what
      failures = failures + 1
    end if
  end subroutine check

end program fortran_f08
