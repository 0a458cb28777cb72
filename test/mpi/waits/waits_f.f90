! Planted waits from Fortran (test/mpi/waits.sh): the cases late_sender
! (pairs 2k, 2k+1: the odd rank sleeps, then MPI_SEND; the even one
! MPI_RECV) and barrier (the last rank sleeps, then MPI_BARRIER) of
! waits.c, through the `use mpi` binding.
!
!   waits_f CASE D_MS ITER
program waits_f
    use mpi
    use iso_c_binding, only: c_int
    implicit none
    interface
        integer(c_int) function usleep(us) bind(C, name="usleep")
            import :: c_int
            integer(c_int), value :: us
        end function usleep
    end interface
    character(len=32) :: what, arg
    integer :: rank, size, ierr, d, iter, i, p, rc
    double precision :: x, y

    call MPI_INIT(ierr)
    call MPI_COMM_RANK(MPI_COMM_WORLD, rank, ierr)
    call MPI_COMM_SIZE(MPI_COMM_WORLD, size, ierr)
    call get_command_argument(1, what)
    call get_command_argument(2, arg)
    read (arg, *) d
    call get_command_argument(3, arg)
    read (arg, *) iter
    x = rank
    y = 0
    p = ieor(rank, 1)
    do i = 1, iter
        if (what == 'late_sender' .and. p < size) then
            if (mod(rank, 2) == 0) then
                call MPI_RECV(y, 1, MPI_DOUBLE_PRECISION, p, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
            else
                rc = usleep(int(d * 1000, c_int))
                call MPI_SEND(x, 1, MPI_DOUBLE_PRECISION, p, 1, MPI_COMM_WORLD, ierr)
            end if
        else if (what == 'barrier') then
            if (rank == size - 1) rc = usleep(int(d * 1000, c_int))
            call MPI_BARRIER(MPI_COMM_WORLD, ierr)
        end if
    end do
    if (rank == 0) print '(a,a,a,i0,a,i0)', 'waits_f: case=', trim(what), ' ranks=', size, ' iter=', iter
    call MPI_FINALIZE(ierr)
end program waits_f
