! The Fortran program of test/mpi/fault_ending.sh (mode fabort): every rank
! makes ITERS calls of MPI_ALLREDUCE (use mpi), prints how many, then rank 1
! calls MPI_ABORT(MPI_COMM_WORLD, 3) while the others wait in MPI_BARRIER.
!
!   ending_f ITERS
program ending_f
  use mpi
  implicit none
  integer :: ierr, rank, i, iters
  character(len=32) :: arg
  double precision :: x, y
  call get_command_argument(1, arg)
  read (arg, *) iters
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  x = 1
  do i = 1, iters
    call MPI_Allreduce(x, y, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  end do
  write (*, '(a, i0, a, i0, a)') 'rank ', rank, ': ', iters, ' allreduces'
  flush (6)
  if (rank == 1) then
    call MPI_Abort(MPI_COMM_WORLD, 3, ierr) ! line:abort
  end if
  call MPI_Barrier(MPI_COMM_WORLD, ierr) ! line:barrier
  call MPI_Finalize(ierr)
end program
