! For fault_exit.sh: 100 barriers, then MPI_ABORT with error code 3 (use mpi).
program abort_mpi
  use mpi
  implicit none
  integer :: ierr, i
  call MPI_Init(ierr)
  do i = 1, 100
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
  end do
  call MPI_Abort(MPI_COMM_WORLD, 3, ierr)
end program
