! Cost of one intercepted call made from Fortran: MPI_Send to MPI_PROC_NULL.
! Under MPICH the call reaches the wrappers through MPICH's Fortran library,
! which the call-site capture steps out of. Prints "ns_per_call X" on rank 0.
program callcost_f
  use mpi
  implicit none
  integer :: ierr, rank, i, n, nargs
  integer(kind=8) :: t0, t1, rate
  character(len=32) :: arg
  character :: buf(8)
  call MPI_Init(ierr)
  n = 2000000
  nargs = command_argument_count()
  if (nargs >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) n
  end if
  buf = ' '
  do i = 1, n / 100
    call MPI_Send(buf, 8, MPI_CHARACTER, MPI_PROC_NULL, 0, MPI_COMM_WORLD, ierr)
  end do
  call system_clock(t0, rate)
  do i = 1, n
    call MPI_Send(buf, 8, MPI_CHARACTER, MPI_PROC_NULL, 0, MPI_COMM_WORLD, ierr)
  end do
  call system_clock(t1)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  if (rank == 0) print '(a,f0.3)', 'ns_per_call ', real(t1 - t0, 8) / real(rate, 8) / real(n, 8) * 1d9
  call MPI_Finalize(ierr)
end program
