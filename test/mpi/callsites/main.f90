! MPI calls on known lines from Fortran, for the call-site test
! (../callsites.sh): "site: OP CALLS" marks each call's line.
program callsites_f
  use mpi
  implicit none
  integer :: ierr, rank, i
  double precision :: x, y
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  x = rank + 1
  do i = 1, 3
    call MPI_Barrier(MPI_COMM_WORLD, ierr) ! site: barrier 3
  end do
  call MPI_Allreduce(x, y, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr) ! site: allreduce 1
  do i = 1, 2
    call MPI_Bcast(y, 1, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr) ! site: bcast 2
  end do
  if (rank == 0) print '(a,f6.1)', 'sum ', y
  call MPI_Finalize(ierr)
end program
