! For fault_exit.sh: 100 barriers, then MPI_ABORT with error code 3 (use mpi_f08).
program abort_f08
  use mpi_f08
  implicit none
  integer :: i
  call MPI_Init()
  do i = 1, 100
    call MPI_Barrier(MPI_COMM_WORLD)
  end do
  call MPI_Abort(MPI_COMM_WORLD, 3)
end program
